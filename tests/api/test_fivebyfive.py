"""Xceptional 5x5 through the JSON API with physical dice typed in: a whole fight, refusals naming the
rule, and players' replies that hold nothing the GM keeps to themselves.

Dice are d6 faces; a d5 reads a 6 as 0. The 5x5 roll multiplies two of them.
"""

from __future__ import annotations

import json
from typing import Any

from tests.helpers import Seat, Table

ARIA = {"rage": 3, "grace": 2, "precognition": 2, "strike": 2, "aim": 1, "parry": 2, "dodge": 1, "resist": 1}
BRICK = {"rage": 2, "grace": 3, "precognition": 3, "strike": 1, "aim": 2, "focus": 2, "parry": 1, "dodge": 2}
THUG = {"rage": 3, "grace": 2, "precognition": 1, "strike": 2, "aim": 1, "parry": 2, "dodge": 1}

ROOFTOP = {
    "board": {"width": 24, "height": 16},
    "terrain": [{"name": "Water tower", "rect": {"x": 10, "y": 0, "width": 2, "height": 6}}],
    "characters": [
        {"name": "Aria", "kind": "pc", "player": "Ann", **ARIA, "at": [4, 8]},
        {"name": "Brick", "kind": "pc", "player": "Ben", **BRICK, "at": [4, 4]},
        {"name": "Thug", "kind": "npc", **THUG, "at": [7, 8]},
    ],
}


def rooftop(table: Table, extra: list[dict[str, Any]] = ()) -> tuple[Seat, Seat, dict[str, str]]:
    """Ann plays Aria, Ben plays Brick, the GM a Thug; imported, in an encounter, started."""
    ann, ben = table.join("Ann"), table.join("Ben")
    setup = {**ROOFTOP, "characters": [*ROOFTOP["characters"], *extra]}
    view = table.ok(table.gm, "fivebyfive.import", **setup)["view"]
    ids = {p["name"]: p["id"] for p in view["participants"]}
    table.ok(table.gm, "campaign.encounter.prepare", name="Rooftop", participants=list(ids.values()))
    table.ok(table.gm, "campaign.encounter.start", encounter="Rooftop")
    return ann, ben, ids


def prompt_for(view: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(p for p in view["prompts"] if p["kind"] == kind)


def sheet(view: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in view["system"]["characters"] if c["name"] == name)


def assert_no_npc_secrets(reply: dict[str, Any]) -> None:
    """A player's reply: no NPC sheet, no number an NPC roll needs, no GM note."""
    view = reply.get("view", reply)
    for c in view["system"]["characters"]:
        if c["kind"] == "npc":
            assert not {"scores", "current", "ranks", "shifts"} & set(c), c
    for e in reply.get("events", []):
        assert e["type"] != "fivebyfive.gm_note"
        by_thug = e["data"].get("attacker_name", e["data"].get("name")) == "Thug"
        if e["type"] in ("fivebyfive.attacked", "fivebyfive.hit_controlled") and by_thug:
            assert "need" not in e["data"] and "needed" not in e["data"]


def test_a_whole_fight_round_by_round_through_the_api(table: Table):
    table = Table.create(table.http, system="fivebyfive", dice="manual")
    ann, ben, ids = rooftop(table)
    aria, thug = ids["Aria"], ids["Thug"]

    # FX-I-1: 1d5 each in the encounter's order (Aria, Brick, Thug); Aria and the Thug tie on 3: PC first.
    order = table.ok(table.gm, "fivebyfive.roll_initiative", dice=[3, 1, 3])["view"]["system"]["fight"][
        "order"
    ]
    assert [(e["name"], e["initiative"]) for e in order] == [("Aria", 3), ("Thug", 3), ("Brick", 1)]
    mine = table.view(ann)
    assert mine["system"]["fight"]["turn"]["mine"] is True
    assert mine["system"]["fight"]["turn"]["circle"] == {"x": 4.0, "y": 8.0, "r": 3.0}
    # The legal targets with their exact chance: Strike 2 x Rage 3 needs 6 or less (the seed's example).
    strike = next(o for o in mine["options"] if o["id"] == f"strike-{thug}")
    assert strike["enabled"] is False and "FX-O-1" in strike["reason"]
    aim = next(o for o in mine["options"] if o["id"] == f"aim-{thug}")
    assert aim["enabled"] is True and "Aim 1 x Grace 2: 2 or less" in aim["hint"]
    assert mine["system"]["fight"]["turn"]["targets"][thug]["actions"]["aim"]["hit"]

    # FX-M-1: Initiative 3 is 3 inches; too far is refused naming the rule.
    r = table.send(ann, "fivebyfive.move", participant=aria, x=8, y=8)
    assert r.status_code == 409 and "FX-M-1" in r.text and "Too far" in r.json()["detail"]
    # FX-O-1: the Thug is 3 inches away, out of a Strike's reach.
    r = table.send(ann, "fivebyfive.strike", participant=aria, target=thug, dice=[1, 2])
    assert r.status_code == 409 and "FX-O-1" in r.text and "out of reach" in r.json()["detail"]
    # Ben cannot act on Ann's turn.
    assert table.send(ben, "fivebyfive.end_turn").status_code == 403

    reply = table.ok(ann, "fivebyfive.move", participant=aria, x=6.2, y=8)
    assert reply["view"]["system"]["fight"]["turn"]["left"] == 0.8
    assert_no_npc_secrets(reply)
    # FX-D-2: 2 x 3 = 6 is a hit; no doubles, a single hit. The Thug (the GM) must Control it.
    reply = table.ok(ann, "fivebyfive.strike", participant=aria, target=thug, dice=[2, 3])
    assert_no_npc_secrets(reply)
    attacked = next(e for e in reply["events"] if e["type"] == "fivebyfive.attacked")
    assert attacked["data"]["result"] == "hit" and attacked["data"]["total"] == 6
    assert not [p for p in table.view(ann)["prompts"] if p["kind"] == "fivebyfive.control"]
    control = prompt_for(table.view(table.gm), "fivebyfive.control")
    assert control["to"] == thug and control["choices"][0]["rolls"] is True
    # Only the addressee (or the GM) answers; dice are required on a physical-dice table.
    assert (
        table.send(ann, "fivebyfive.control", prompt=control["id"], choice="roll", dice=[1, 1]).status_code
        == 403
    )
    assert table.send(table.gm, "fivebyfive.control", prompt=control["id"], choice="roll").status_code == 422
    # FX-O-2 / FX-H-1: 4 x 4 = 16 fails Parry 2 x Rage 3: not controlled, so the attacker chooses.
    table.ok(table.gm, "fivebyfive.control", prompt=control["id"], choice="roll", dice=[4, 4])
    damage = prompt_for(table.view(ann), "fivebyfive.damage")
    assert damage["to"] == aria
    reply = table.ok(ann, "fivebyfive.damage", prompt=damage["id"], choice="rage")
    assert_no_npc_secrets(reply)
    assert sheet(table.view(table.gm), "Thug")["current"]["rage"] == 2
    assert table.view(ann)["system"]["fight"]["turn"]["name"] == "Thug"

    # The Thug strikes back: 1 x 1 doubles, a Double Hit (FX-C-1): Aria rolls Parry twice.
    table.ok(table.gm, "fivebyfive.strike", participant=thug, target=aria, dice=[1, 1])
    control = prompt_for(table.view(ann), "fivebyfive.control")
    assert control["to"] == aria
    # 2 x 2 doubles succeeds: Blocked (FX-C-2); 5 x 5 = 25 always fails (FX-D-2): one hit lands.
    reply = table.ok(ann, "fivebyfive.control", prompt=control["id"], choice="roll", dice=[2, 2, 5, 5])
    outcomes = [e["data"]["result"] for e in reply["events"] if e["type"] == "fivebyfive.hit_controlled"]
    assert outcomes == ["blocked", "uncontrolled"]
    damage = prompt_for(table.view(table.gm), "fivebyfive.damage")
    assert damage["to"] == thug  # not controlled: the attacker (the GM's Thug) chooses
    table.ok(table.gm, "fivebyfive.damage", prompt=damage["id"], choice="grace")
    assert sheet(table.view(ann), "Aria")["current"]["grace"] == 1

    # Brick passes; FX-R-1: the round ends and a new Initiative is rolled.
    table.ok(ben, "fivebyfive.end_turn")
    assert table.view(ann)["system"]["fight"]["turn"] is None
    order = table.ok(table.gm, "fivebyfive.roll_initiative", dice=[5, 1, 2])["view"]["system"]["fight"][
        "order"
    ]
    assert [e["name"] for e in order] == ["Aria", "Thug", "Brick"]

    # Aria's Double Hit (2 x 2); the Thug fails both Parries (now Parry 2 x Rage 2 = 4): 20 and 12.
    table.ok(ann, "fivebyfive.strike", participant=aria, target=thug, dice=[2, 2])
    control = prompt_for(table.view(table.gm), "fivebyfive.control")
    table.ok(table.gm, "fivebyfive.control", prompt=control["id"], choice="roll", dice=[5, 4, 3, 4])
    # Aria chooses both: Precognition 1 -> 0 (Unconscious), then -1: Dead (FX-H-3).
    for _ in range(2):
        damage = prompt_for(table.view(ann), "fivebyfive.damage")
        reply = table.ok(ann, "fivebyfive.damage", prompt=damage["id"], choice="precognition")
        assert_no_npc_secrets(reply)
    assert sheet(table.view(ann), "Thug")["status"] == "dead"
    # FX-R-1 / FX-V-1: the NPCs are out; Aria (only Grace damaged) regains it at once.
    final = table.view(ann)["system"]
    assert final["fight"]["winner"] == "pc"
    assert sheet(table.view(ann), "Aria")["current"]["grace"] == 2
    r = table.send(ann, "fivebyfive.end_turn")
    assert r.status_code == 409 and "FX-R-1" in r.text
    for event in table.events(ann):
        assert event["type"] != "fivebyfive.gm_note"


def test_a_victory_rush_with_two_damaged_abilities_is_the_winners_choice(table: Table):
    table = Table.create(table.http, system="fivebyfive", dice="manual")
    hurt = {"current": {"rage": 2, "grace": 1, "precognition": 2}}
    ann, _, ids = rooftop(table)
    table.ok(table.gm, "fivebyfive.setup", participant="Aria", **ARIA, **hurt)
    table.ok(table.gm, "fivebyfive.place", participant="Thug", x=5, y=8)
    table.ok(table.gm, "fivebyfive.roll_initiative", dice=[4, 1, 2])
    table.ok(ann, "fivebyfive.strike", target=ids["Thug"], dice=[1, 1])  # a Double Hit
    control = prompt_for(table.view(table.gm), "fivebyfive.control")
    table.ok(table.gm, "fivebyfive.control", prompt=control["id"], choice="roll", dice=[5, 5, 5, 5])
    # FX-K-1: both hits on Rage: Instant KO, though Rage is only down to 1.
    for _ in range(2):
        damage = prompt_for(table.view(ann), "fivebyfive.damage")
        reply = table.ok(ann, "fivebyfive.damage", prompt=damage["id"], choice="rage")
    assert any(e["type"] == "fivebyfive.knocked_out" for e in reply["events"])
    thug = sheet(table.view(table.gm), "Thug")
    assert thug["status"] == "unconscious" and thug["current"]["rage"] == 1
    rush = prompt_for(table.view(ann), "fivebyfive.victory_rush")
    assert {c["key"] for c in rush["choices"]} == {"rage", "grace"}
    r = table.send(ann, "fivebyfive.victory_rush", prompt=rush["id"], choice="precognition")
    assert r.status_code == 409 and "FX-V-1" in r.text
    table.ok(ann, "fivebyfive.victory_rush", prompt=rush["id"], choice="grace")
    assert sheet(table.view(ann), "Aria")["current"] == {"rage": 2, "grace": 2, "precognition": 2}


def test_an_npc_out_of_sight_leaves_no_trace_in_a_players_replies(table: Table):
    table = Table.create(table.http, system="fivebyfive", dice="manual")
    sniper = {"name": "Sniper", "kind": "npc", **THUG, "at": [16, 2]}  # behind the water tower
    ann, _, ids = rooftop(table, extra=[sniper])
    reply = table.ok(table.gm, "fivebyfive.roll_initiative", dice=[3, 1, 2, 5])
    assert reply["view"]["system"]["fight"]["order"][0]["name"] == "Sniper"
    # The Sniper acts first, unseen; Ann's page learns nothing of it.
    mine = table.view(ann)
    assert "Sniper" not in json.dumps(mine) and ids["Sniper"] not in json.dumps(mine)
    assert all("Sniper" not in json.dumps(e) for e in table.events(ann))
    table.ok(table.gm, "fivebyfive.end_turn")
    reply = table.ok(ann, "fivebyfive.end_turn")
    assert "Sniper" not in json.dumps(reply)
    # Once it steps into Aria's sight, players see it.
    table.ok(table.gm, "fivebyfive.end_turn")  # the Thug
    table.ok(table.gm, "fivebyfive.end_turn")  # Brick: the GM may act for a player
    assert table.view(table.gm)["system"]["fight"]["turn"] is None
    table.ok(table.gm, "fivebyfive.place", participant="Sniper", x=16, y=8)
    assert "Sniper" in json.dumps(table.view(ann))


def test_bad_set_up_is_refused_with_a_sentence_and_changes_nothing(table: Table):
    table = Table.create(table.http, system="fivebyfive", dice="manual")
    ann, _, _ = rooftop(table)
    before = table.view(table.gm)
    too_strong = {"name": "Aria", **ARIA, "rage": 5}
    r = table.send(table.gm, "fivebyfive.import", characters=[too_strong])
    assert r.status_code == 409 and "FX-A-1" in r.text
    r = table.send(table.gm, "fivebyfive.import", characters=[{"name": "Ghost", "rage": 2}])
    assert r.status_code == 422 and "grace" in r.json()["detail"]
    r = table.send(table.gm, "fivebyfive.terrain", name="Inside", x=3, y=7, width=2, height=2)
    assert r.status_code == 409 and "Aria stands where" in r.json()["detail"]
    r = table.send(ann, "fivebyfive.board", width=10, height=10)
    assert r.status_code == 403
    after = table.view(table.gm)
    assert after["system"] == before["system"] and after["participants"] == before["participants"]


def test_an_npc_brought_in_by_import_is_not_shown_until_a_pc_sees_it(table: Table):
    """Issue 16, item 3: imported without a place on the tabletop, the NPC is in no PC's sight."""
    table = Table.create(table.http, system="fivebyfive", dice="manual")
    ann = table.join("Ann")
    lurker = {**THUG, "name": "Rooftop Lurker", "kind": "npc"}
    setup = {**ROOFTOP, "characters": [{**ROOFTOP["characters"][0]}, lurker]}
    view = table.ok(table.gm, "fivebyfive.import", **setup)["view"]
    lurker_id = next(p["id"] for p in view["participants"] if p["name"] == "Rooftop Lurker")
    page = table.http.get(f"/c/{table.id}/play", headers={**ann.auth, "Accept": "text/html"})
    assert page.status_code == 200
    seen = json.dumps(table.view(ann)) + json.dumps(table.events(ann)) + page.text
    assert "Rooftop Lurker" not in seen and lurker_id not in json.dumps(table.view(ann))
    table.ok(table.gm, "fivebyfive.place", participant=lurker_id, x=6, y=8)  # in plain sight of Aria
    assert "Rooftop Lurker" in json.dumps(table.view(ann))
