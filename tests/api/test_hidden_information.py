"""A player's every reply and event list is free of GM-only rolls and hidden characters."""

from __future__ import annotations

import json

from tests.helpers import Table


def test_players_never_receive_secret_rolls_hidden_characters_or_npc_notes(table: Table):
    ann = table.join("Ann")
    table.character("Aria", owner=ann)
    # Everything the GM keeps to themself carries a marker word the players must never see.
    table.ok(
        table.gm,
        "campaign.add_participant",
        name="Zorblax",
        kind="npc",
        hidden=True,
        notes="SECRETNOTE weak to fire",
    )
    table.ok(table.gm, "campaign.add_participant", name="Goblin", kind="npc", notes="SECRETSTATS AC 12")
    table.ok(table.gm, "generic.pool.create", name="Zorblax Mana", value=5, owner="Zorblax")
    table.ok(table.gm, "generic.pool.create", name="Doom Clock", value=3, hidden=True)
    table.ok(table.gm, "generic.track.create", name="Ritual", total=6, hidden=True)
    table.ok(table.gm, "generic.roll", expression="1d20", dice=[19], hidden=True, label="SECRETROLL")
    table.ok(
        table.gm,
        "generic.initiative.set",
        entries=[{"participant": "Zorblax", "value": 20}, {"participant": "Aria", "value": 10}],
    )
    table.ok(table.gm, "generic.initiative.next")  # it is the hidden NPC's turn
    table.ok(table.gm, "campaign.undo")  # undoing a secret-audience change stays secret too
    gm_view = json.dumps(table.view(table.gm))
    assert "Zorblax" in gm_view and "SECRETNOTE" in gm_view and "Doom Clock" in gm_view

    replies = [
        json.dumps(table.view(ann)),
        json.dumps(table.events(ann)),
        json.dumps(table.ok(ann, "generic.roll", expression="1d6", dice=[4])),
        json.dumps(
            table.http.get(f"/api/campaigns/{table.id}/events", params={"after": 0}, headers=ann.auth).json()
        ),
    ]
    for text in replies:
        for secret in ("Zorblax", "SECRETNOTE", "SECRETSTATS", "SECRETROLL", "Doom Clock", "Ritual"):
            assert secret not in text, f"{secret} leaked to a player"
    # What the player may see is still there.
    view = table.view(ann)
    assert [p["name"] for p in view["participants"]] == ["Aria", "Goblin"]


def test_revealing_a_character_shows_it_to_players(table: Table):
    ann = table.join("Ann")
    table.ok(table.gm, "campaign.add_participant", name="Zorblax", kind="npc", hidden=True)
    assert "Zorblax" not in json.dumps(table.view(ann))
    table.ok(table.gm, "campaign.set_hidden", participant="Zorblax", hidden=False)
    assert "Zorblax" in [p["name"] for p in table.view(ann)["participants"]]
    assert any(e["type"] == "campaign.participant_revealed" for e in table.events(ann))


def test_a_player_naming_a_hidden_character_learns_nothing(table: Table):
    ann = table.join("Ann")
    table.ok(table.gm, "campaign.add_participant", name="Zorblax", kind="npc", hidden=True)
    hidden = table.send(ann, "generic.roll", expression="1d6", dice=[1], participant="Zorblax").json()[
        "detail"
    ]
    typo = table.send(ann, "generic.roll", expression="1d6", dice=[1], participant="Zorblux").json()["detail"]
    assert hidden == typo.replace("Zorblux", "Zorblax")
