"""Triptycho through POST /api/campaigns/{id}/commands with physical (manual) dice: a move, a block, a
ranged attack intercepted by the blocker, whose incantation the damage then breaks; illegal actions are
refused naming the rule; a player's replies and views never hold what their characters cannot see."""

from __future__ import annotations

import json

import pytest

from tests.helpers import Seat, Table

BOW = {"id": "bow", "name": "Longbow", "range": 3, "hit": "1d8", "damage": "1d6", "hostile": True}
PARRY = {"id": "parry", "name": "Parry", "kind": "reaction", "miss": "1d6", "defense": "1d4"}
SLASH = {"id": "slash", "name": "Slash", "hit": "1d8", "damage": "1d6", "hostile": True}
DODGE = {"id": "dodge", "name": "Dodge", "kind": "reaction", "miss": "1d8"}


def refused(table: Table, seat: Seat, type_: str, status: int, rule: str | None = None, **fields) -> str:
    r = table.send(seat, type_, **fields)
    assert r.status_code == status, r.text
    body = r.json()
    if rule:
        assert body.get("rule") == rule, body
    assert body["detail"].rstrip().endswith((".", ")")), body  # a sentence
    return body["detail"]


@pytest.fixture
def hall(client) -> tuple[Table, Seat, Seat]:
    """The seed's hallway (west | middle | east, all lit): Aria and Brick in the east, Gob in the west."""
    table = Table.create(client, system="triptycho", dice="manual")
    ann, ben = table.join("Ann"), table.join("Ben")
    table.ok(table.gm, "triptycho.map.load", map="hallway")
    table.ok(
        table.gm,
        "triptycho.import",
        characters=[
            {
                "name": "Aria",
                "side": "party",
                "uses_deck": False,
                "cards": [SLASH, DODGE],
                "sections": ["east"],
            },
            {
                "name": "Brick",
                "side": "party",
                "uses_deck": False,
                "cards": [SLASH, PARRY],
                "sections": ["east"],
            },
            {
                "name": "Gob",
                "side": "foes",
                "health": 7,
                "cards": [BOW, DODGE],
                "sections": ["west"],
                "darkvision": True,
            },
        ],
    )
    table.ok(table.gm, "campaign.assign_participant", participant="Aria", seat=ann.seat_id)
    table.ok(table.gm, "campaign.assign_participant", participant="Brick", seat=ben.seat_id)
    table.ok(
        table.gm,
        "triptycho.order",
        entries=[{"participant": "Brick", "value": 30}, {"participant": "Gob", "value": 20}],
    )
    table.ok(table.gm, "triptycho.next_turn")
    return table, ann, ben


def entity(view: dict, name: str) -> dict:
    return next(e for e in view["system"]["entities"] if e["name"] == name)


def test_a_turn_move_block_incant_then_a_shot_intercepted_breaks_the_incantation(hall):
    table, ann, ben = hall
    # Brick's turn: draw, the innate Move to the middle, a block toward the west, then incant.
    table.ok(ben, "triptycho.draw", participant="Brick")
    moved = table.ok(ben, "triptycho.move", participant="Brick", to="middle")
    assert entity(moved["view"], "Brick")["sections"] == ["middle"]
    assert refused(table, ben, "triptycho.move", 409, "TP-M-2", participant="Brick", to="east") == (
        "You have used your innate Move this turn. (TP-M-2)"
    )
    table.ok(ben, "triptycho.block", participant="Brick", toward="west")
    table.ok(ben, "triptycho.incant", participant="Brick")
    assert entity(table.view(ben), "Brick")["incanting"] is True
    table.ok(ben, "triptycho.discard", participant="Brick", cards=[])

    # Gob's turn (the GM's): it shoots Aria down the hall, across the border Brick blocks.
    table.ok(table.gm, "triptycho.draw", participant="Gob")
    table.ok(table.gm, "triptycho.pass", participant="Gob")
    table.ok(table.gm, "triptycho.act", participant="Gob", card="bow", target="Aria")
    (prompt,) = table.view(ben)["prompts"]
    assert prompt["kind"] == "intercept" and prompt["to"] == entity(table.view(ben), "Brick")["id"]
    assert table.view(ann)["prompts"] == []  # the blocker's question is not Aria's
    refused(table, ann, "triptycho.intercept", 403, prompt=prompt["id"], choice="yes")
    refused(table, ben, "triptycho.intercept", 422, prompt=prompt["id"], choice="maybe")

    table.ok(ben, "triptycho.intercept", prompt=prompt["id"], choice="yes")
    (react,) = table.view(ben)["prompts"]
    assert react["kind"] == "reaction" and [c["key"] for c in react["choices"]] == ["base", "parry", "none"]
    assert all(c["rolls"] for c in react["choices"])  # a physical-dice table types the faces in
    refused(table, ben, "triptycho.react", 422, prompt=react["id"], choice="parry")  # no dice typed
    # Longbow Hit 1d8 = 8 against Parry Miss 1d6 = 1: a hit; Damage 1d6 = 6 less Defense 1d4 = 1.
    reply = table.ok(ben, "triptycho.react", prompt=react["id"], choice="parry", dice=[8, 1, 6, 1])
    resolved = next(e for e in reply["events"] if e["type"] == "triptycho.attack_resolved")
    assert resolved["data"]["hit"] and resolved["data"]["damage"] == 5
    damaged = next(e for e in reply["events"] if e["type"] == "triptycho.damaged")
    assert damaged["data"]["stops_incanting"]  # TP-N-5
    brick = entity(reply["view"], "Brick")
    assert brick["damage"] == 5 and brick["incanting"] is False and brick["charges"] == 0
    assert entity(table.view(ann), "Aria")["damage"] == 0  # the shot never reached her


def test_illegal_actions_are_refused_with_the_rule_and_change_nothing(hall):
    table, ann, ben = hall
    before = json.dumps(table.view(table.gm)["system"])
    assert "not Aria's turn" in refused(table, ann, "triptycho.draw", 409, "TP-T-1", participant="Aria")
    refused(table, ann, "triptycho.draw", 403, participant="Brick")  # not her character
    refused(table, ben, "triptycho.move", 409, "TP-M-2", participant="Brick", to="middle")  # draw first
    table.ok(ben, "triptycho.draw", participant="Brick")
    refused(table, ben, "triptycho.move", 409, "TP-M-2", participant="Brick", to="west")  # two borders away
    refused(table, ben, "triptycho.move", 409, participant="Brick", to="attic")
    refused(table, ben, "triptycho.act", 409, "TP-T-1", participant="Brick", card="slash", target="Gob")
    table.ok(ben, "triptycho.pass", participant="Brick")
    refused(table, ben, "triptycho.act", 409, "TP-D-2", participant="Brick", card="slash", target="Gob")
    refused(table, ben, "triptycho.map.save", 403, map={"id": "x", "name": "X", "sections": []})
    refused(table, table.gm, "triptycho.map.save", 422, map={"id": "x", "name": "X", "sections": []})
    refused(table, table.gm, "triptycho.import", 422, characters=[{"name": "Zed", "acrobatics": "d7"}])
    assert json.dumps(table.view(table.gm)["system"]) != before  # the draw and the pass went through...
    assert entity(table.view(table.gm), "Brick")["sections"] == ["east"]  # ...no refused move did


def test_an_adversary_in_the_dark_leaves_no_trace_in_a_players_replies_views_or_events(client):
    table = Table.create(client, system="triptycho", dice="manual")
    ann = table.join("Ann")
    table.ok(table.gm, "triptycho.map.load", map="cliff")  # floor, ledge, top and pool are dark
    table.ok(table.gm, "campaign.add_participant", name="Aria", kind="pc", owner=ann.seat_id)
    table.ok(table.gm, "triptycho.setup", participant="Aria", uses_deck=False, cards=[SLASH, DODGE])
    table.ok(table.gm, "triptycho.place", participant="Aria", sections=["mouth"])
    table.ok(
        table.gm,
        "triptycho.add",
        name="Zorgrath",
        side="foes",
        darkvision=True,
        cards=[{**SLASH, "name": "SECRETCLAW"}],
        sections=["floor"],
    )
    table.ok(
        table.gm,
        "triptycho.order",
        entries=[{"participant": "Zorgrath", "value": 20}, {"participant": "Aria", "value": 10}],
    )
    table.ok(table.gm, "triptycho.next_turn")  # the unseen adversary's turn
    table.ok(table.gm, "triptycho.draw", participant="Zorgrath")
    table.ok(table.gm, "triptycho.move", participant="Zorgrath", to="pool")  # still in the dark
    gm = json.dumps(table.view(table.gm))
    assert "Zorgrath" in gm and "SECRETCLAW" in gm

    replies = [
        json.dumps(table.view(ann)),
        json.dumps(table.events(ann)),
        json.dumps(table.ok(ann, "generic.roll", expression="1d6", dice=[4])),
    ]
    zid = next(p["id"] for p in table.view(table.gm)["participants"] if p["name"] == "Zorgrath")
    for text in replies:
        assert "Zorgrath" not in text and "SECRETCLAW" not in text
        assert f'"{zid}"' not in text
    view = table.view(ann)
    assert [p["name"] for p in view["participants"]] == ["Aria"]
    assert [e["name"] for e in view["initiative"]["entries"]] == ["Aria"]
    assert view["initiative"]["current"] is None
    for page in ("play", "table"):
        html = table.http.get(f"/c/{table.id}/{page}", headers=ann.auth).text
        assert "Zorgrath" not in html and zid not in html

    # Light the pool: now Aria sees it, in her view and in the core's participant list.
    table.ok(table.gm, "triptycho.section.set", section="pool", light="lit")
    view = table.view(ann)
    assert "Zorgrath" in [e["name"] for e in view["system"]["entities"]]
    assert "Zorgrath" in [p["name"] for p in view["participants"]]


def test_a_pc_added_on_the_characters_card_gets_its_sheet_and_place_from_the_add_form(client):
    table = Table.create(client, system="triptycho", dice="manual")
    ann = table.join("Ann")
    table.ok(table.gm, "triptycho.map.load", map="cliff")
    table.ok(table.gm, "campaign.add_participant", name="Rook", kind="pc", owner=ann.seat_id)
    reply = table.ok(table.gm, "triptycho.add", name="rook", side="party", low_light=True, sections=["mouth"])
    assert [e["type"] for e in reply["events"]] == ["triptycho.sheet_set", "triptycho.placed"]
    assert len(table.view(table.gm)["participants"]) == 1  # the same Rook, not a second one
    rook = entity(table.view(ann), "Rook")
    assert rook["sections"] == ["mouth"] and rook["side"] == "party"
    # The JSON import does the same, starting sections included.
    table.ok(table.gm, "campaign.add_participant", name="Vex", kind="pc", owner=ann.seat_id)
    table.ok(
        table.gm, "triptycho.import", characters=[{"name": "Vex", "side": "party", "sections": ["mouth"]}]
    )
    assert entity(table.view(ann), "Vex")["sections"] == ["mouth"]
    refused(table, table.gm, "triptycho.add", 409, name="Rook", side="party", sections=["attic"])
    assert entity(table.view(table.gm), "Rook")["sections"] == ["mouth"]  # a bad section changed nothing
