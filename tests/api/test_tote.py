"""TOTE through the JSON API with physical dice: set-up by JSON import, Initiative, a whole round of
declarations and resolutions with a Defend answer, refusals naming the rule, and what a player never sees."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from tests.helpers import Table

SPEAR = {"name": "Spear", "base": 2, "effect": 3, "critical": "pierce"}
BOW = {"name": "Bow", "base": 2, "effect": 2, "critical": "pierce", "ranged": True}
AXE = {"name": "Axe", "base": 3, "effect": 2, "critical": "slash"}
CLUB = {"name": "Club", "base": 2, "effect": 3, "critical": "bash"}


def sheets() -> list[dict]:
    return [
        {
            "name": "Aiyana",
            "side": "hero",
            "player": "Ann",
            "skills": {"Plan": 2, "Strike": 2, "Shoot": 2, "Brawl": 1, "Impress": 1},
            "totems": {"Hawk": 3, "Stag": 2},
            "resolve": 8,
            "block": 8,
            "resist": 6,
            "armour": ["Hide Cuirass"],
            "weapons": [SPEAR, BOW],
        },
        {
            "name": "Tahoma",
            "side": "hero",
            "player": "Ben",
            "skills": {"plan": 1, "strike": 2, "brawl": 2, "impress": 2},
            "totems": {"hawk": 1, "stag": 3},
            "resolve": 10,
            "block": 8,
            "resist": 5,
            "armour": ["Iron Chain"],
            "weapons": [AXE],
        },
        {
            "name": "Ogre",
            "side": "enemy",
            "rating": 3,
            "block": 7,
            "resist": 7,
            "resolve": 6,
            "encumbrance": 2,
            "track": ["N", "5", "4", "U"],
            "weapons": [CLUB],
        },
        {
            "name": "Lurker",
            "side": "enemy",
            "hidden": True,
            "rating": 2,
            "block": 6,
            "resist": 5,
            "resolve": 3,
            "weapons": [{"name": "SECRETFANG", "base": 1, "effect": 1, "critical": "slash"}],
        },
    ]


@pytest.fixture
def fight(client) -> Table:
    return ogre_bridge(client)


def ogre_bridge(client) -> Table:
    """Ann's Aiyana and Ben's Tahoma against an Ogre at Melee (a hidden Lurker waits at Far)."""
    table = Table.create(client, system="tote", dice="manual")
    table.join("Ann")
    table.join("Ben")
    table.ok(table.gm, "tote.import", sheets=sheets())
    table.ok(
        table.gm,
        "campaign.encounter.prepare",
        name="Ogre bridge",
        participants=["Aiyana", "Tahoma", "Ogre"],
        setup={"distance": "close"},
    )
    table.ok(table.gm, "campaign.encounter.start", encounter="Ogre bridge")
    for who in ("Aiyana", "Tahoma", "Ogre"):
        table.ok(table.gm, "tote.place", participant=who, band="melee")
    return table


def fight_view(table: Table, seat) -> dict:
    return table.view(seat)["system"]["fight"]


def names(view: dict, pids: list[str]) -> list[str]:
    by_id = {c["id"]: c["name"] for c in view["combatants"]}
    return [by_id[p] for p in pids]


def option(view: dict, **command) -> dict:
    return next(o for o in view["options"] if all(o["command"].get(k) == v for k, v in command.items()))


def roll_initiative(table: Table) -> None:
    ann, ben = table.players["Ann"], table.players["Ben"]
    table.ok(ann, "tote.roll_initiative", participant="Aiyana", dice=[5, 2, 4])  # 5 + 4: 1 success + Hawk 3
    table.ok(ben, "tote.roll_initiative", participant="Tahoma", dice=[3, 6])  # 3 + 6: Bonus, 2 + Hawk 1
    table.ok(table.gm, "tote.roll_initiative", participant="Ogre", dice=[1, 2, 1])  # fail: 0 + Rating 3


def test_import_adds_characters_hands_heroes_to_their_seats_and_keeps_enemies_secret(client):
    table = Table.create(client, system="tote", dice="manual")
    ann = table.join("Ann")
    table.join("Ben")
    reply = table.ok(table.gm, "tote.import", sheets=sheets())
    people = {p["name"]: p for p in reply["view"]["participants"]}
    assert people["Aiyana"]["owner"] == ann.seat_id and people["Ogre"]["kind"] == "npc"
    assert people["Lurker"]["hidden"] is True
    system = table.view(table.gm)["system"]
    aiyana = next(h for h in system["heroes"] if h["name"] == "Aiyana")
    assert aiyana["skills"]["plan"] == 2 and aiyana["encumbrance"] == 2 and aiyana["resist"] == 6 + 1
    assert {e["name"] for e in system["enemies"]} == {"Ogre", "Lurker"}
    # Importing again updates the sheets in place, without new characters.
    again = sheets()
    again[2]["resolve"] = 9
    table.ok(table.gm, "tote.import", sheets=again)
    gm = table.view(table.gm)
    assert len(gm["participants"]) == 4
    assert next(e for e in gm["system"]["enemies"] if e["name"] == "Ogre")["resolve_max"] == 9


def test_a_bad_import_is_refused_with_a_sentence_and_changes_nothing(client):
    table = Table.create(client, system="tote", dice="manual")
    r = table.send(table.gm, "tote.import", sheets=sheets())
    assert r.status_code == 422 and "Sheet 1 (Aiyana): no player seat is called 'Ann'" in r.json()["detail"]
    table.join("Ann")
    table.join("Ben")
    broken = sheets()
    broken[1]["armour"] = ["Mithril"]
    r = table.send(table.gm, "tote.import", sheets=broken)
    assert (
        r.status_code == 422 and "Sheet 2 (Tahoma)" in r.json()["detail"] and "Mithril" in r.json()["detail"]
    )
    assert table.view(table.gm)["participants"] == []
    r = table.send(table.gm, "tote.import", sheets=[{"name": "X", "side": "hero", "resolve": 5}])
    assert r.status_code == 422 and "Sheet 1 (X)" in r.json()["detail"]
    assert table.view(table.gm)["participants"] == []


@pytest.mark.rule("TO-I-1")
@pytest.mark.rule("TO-I-2")
def test_a_full_round_declared_lowest_first_and_resolved_highest_first(fight: Table):
    table = fight
    ann, ben = table.players["Ann"], table.players["Ben"]
    roll_initiative(table)
    f = fight_view(table, table.gm)
    assert f["phase"] == "declare" and f["round"] == 1
    assert {u["name"]: u["value"] for u in f["units"]} == {"Aiyana": 4, "Tahoma": 3, "Ogre": 3}
    # TO-I-2: lowest first. Ogre and Tahoma tie at 3: heroes win ties, so the Ogre declares first.
    assert names(f, f["order"]) == ["Ogre", "Tahoma", "Aiyana"]

    # Out of turn: refused, naming the rule.
    r = table.send(ann, "tote.declare", participant="Aiyana", action="attack", target="Ogre")
    assert r.status_code == 409 and "TO-I-2" in r.text and "lowest Initiative first" in r.text

    table.ok(table.gm, "tote.declare", participant="Ogre", action="attack", target="Tahoma")
    # Ben's phone offers only what Tahoma may do, with exact odds against the Ogre's Block.
    ben_view = table.view(ben)
    attack = option(ben_view, action="attack", target=ben_view["system"]["fight"]["combatants"][2]["id"])
    assert attack["enabled"] and [b["label"] for b in attack["odds"]][:2] == ["Miss", "Hit"]
    assert sum(Fraction(b["exact"]) for b in attack["odds"]) == 1
    disengage = option(ben_view, action="disengage")
    assert not disengage["enabled"] and "TO-E-2" in disengage["reason"]
    table.ok(ben, "tote.declare", participant="Tahoma", action="defend")
    table.ok(ann, "tote.declare", participant="Aiyana", action="attack", target="Ogre", weapon=0)
    f = fight_view(table, table.gm)
    assert f["phase"] == "resolve"
    order = {d["id"]: d for d in f["declarations"]}
    # Highest first: Aiyana (4), then Tahoma (3, a hero wins the tie), then the Ogre (3).
    assert [order[i]["actor_name"] for i in f["resolution_order"]] == ["Aiyana", "Tahoma", "Ogre"]
    assert f["resolving_name"] == "Aiyana"

    # The Ogre cannot jump the queue.
    ogre_decl = next(d["id"] for d in f["declarations"] if d["actor_name"] == "Ogre")
    r = table.send(table.gm, "tote.resolve", declaration=ogre_decl)
    assert r.status_code == 409 and "TO-I-2" in r.text
    # Aiyana hits: Strike 5 kept + Paragon 3 = 8 vs Block 7; Spear 2 damage, and the pair is engaged.
    aiyana_decl = f["resolving"]
    reply = table.ok(ann, "tote.resolve", declaration=aiyana_decl, dice=[5, 1, 3])
    hit = next(e for e in reply["events"] if e["type"] == "tote.attacked")
    assert hit["data"]["test"]["successes"] == 1 and hit["data"]["damage"] == 2
    assert "target" not in hit["data"]["test"] or hit["data"]["test"]["target"] is None  # Block stays secret
    f = fight_view(table, table.gm)
    assert sorted(names(f, f["engagements"][0])) == ["Aiyana", "Ogre"]
    # Tahoma's Defend then resolved by itself (no dice): the Ogre is next.
    assert [d["state"] for d in f["declarations"]] == ["pending", "done", "done"]
    assert f["resolving"] == ogre_decl
    assert next(u for u in f["units"] if u["name"] == "Aiyana")["value"] == 3  # Attack cost 1 spent
    assert f["last"]["type"] == "attacked" and f["last"]["test"]["faces"] == [5, 1]

    # The Ogre attacks the Defending Tahoma: 6 + 2 = 8 vs Block 8 with a Bonus; the Bonus Effect test
    # (Club: 3 dice vs Resist 5 + Iron Chain 5) fails. 2 damage leaves Resolve 8 under Encumbrance 10:
    # one injury marked, the 5 (TO-H-4).
    table.ok(table.gm, "tote.resolve", declaration=ogre_decl, dice=[6, 2, 1, 1, 1, 1])
    tahoma = next(h for h in table.view(ben)["system"]["heroes"] if h["name"] == "Tahoma")
    assert tahoma["resolve"] == 8 and tahoma["blocked_faces"] == [5]
    f = fight_view(table, table.gm)
    assert f["waiting_name"] == "Tahoma"  # TO-DF-1: the defender answers
    prompt = next(p for p in table.view(ben)["prompts"] if p["kind"] == "tote.respond")
    assert prompt["drawn_by_system"] and {c["key"] for c in prompt["choices"]} >= {
        "strike",
        "grapple",
        "pass",
    }
    assert all(c["rolls"] for c in prompt["choices"] if c["key"] != "pass")
    assert table.view(ann)["prompts"] == []  # the question goes to Tahoma's player only
    # Only Ben may answer it (Ann is refused).
    r = table.send(ann, "tote.answer", prompt=prompt["id"], choice="strike", dice=[6, 6, 6])
    assert r.status_code == 403
    # Ben answers with a Strike: the 5 is crossed out (TO-D-2), 4 + Paragon 4 = 8: a Critical (TO-D-4);
    # the Axe slashes: Base 3 + 3 per success = 6 (TO-C-3). The Ogre's last 4 Resolve take 4; the 2 points
    # it cannot take are marked (TO-H-4): N and 5.
    reply = table.ok(ben, "tote.answer", prompt=prompt["id"], choice="strike", dice=[5, 4, 4])
    answer = next(e for e in reply["events"] if e["type"] == "tote.attacked")["data"]
    assert answer["test"]["blocked"] == [5] and answer["test"]["counted"] == [4, 4]
    assert answer["how"] == "critical" and answer["damage"] == 6 and answer["harm"] == "wounded"
    # The Ogre's Resolve and track are the GM's: Ben hears it is wounded, the GM gets the numbers.
    assert "marked" not in answer and "tote.enemy_resolve" not in [e["type"] for e in reply["events"]]
    secret = [e for e in table.events(table.gm) if e["type"] == "tote.enemy_resolve"][-1]["data"]
    assert secret["change"] == -4 and secret["marked"] == ["N", "5"] and secret["resolve"] == 0
    f = fight_view(table, table.gm)
    assert f["round"] == 2 and f["phase"] == "declare"  # every action resolved: round 2 began
    # Defending and answering cost nothing: Tahoma keeps 3; Initiative carries over (TO-I-3).
    assert {u["name"]: u["value"] for u in f["units"]} == {"Aiyana": 3, "Tahoma": 3, "Ogre": 2}
    assert f["last"]["kind"] == "response"


def test_illegal_declarations_are_refused_naming_the_rule(fight: Table):
    table = fight
    ann, ben = table.players["Ann"], table.players["Ben"]
    roll_initiative(table)
    table.ok(table.gm, "tote.declare", participant="Ogre", action="recover")
    table.ok(ben, "tote.declare", participant="Tahoma", action="attack", target="Ogre")
    # Aiyana has 4 Initiative; Disengage costs 3 but she is not engaged.
    r = table.send(ann, "tote.declare", participant="Aiyana", action="disengage")
    assert r.status_code == 409 and "TO-E-2" in r.text
    table.ok(ann, "tote.declare", participant="Aiyana", action="attack", target="Ogre", weapon=0)
    table.ok(ann, "tote.resolve", declaration=fight_view(table, table.gm)["resolving"], dice=[5, 1, 3])
    # Tahoma misses: 1 + 1 = 2.
    table.ok(ben, "tote.resolve", declaration=fight_view(table, table.gm)["resolving"], dice=[1, 1, 1])
    f = fight_view(table, table.gm)
    assert f["round"] == 2
    # Round 2: Tahoma (2) declares first, then the Ogre (3), then Aiyana (3: heroes win ties, so later).
    assert names(f, f["order"]) == ["Tahoma", "Ogre", "Aiyana"]
    table.ok(ben, "tote.declare", participant="Tahoma", action="assault", target="Ogre")
    table.ok(table.gm, "tote.declare", participant="Ogre", action="defend")
    # Shoot while engaged (Aiyana is engaged with the Ogre).
    r = table.send(ann, "tote.declare", participant="Aiyana", action="shoot", target="Ogre", weapon=1)
    assert r.status_code == 409 and "TO-SH-1" in r.text and "engaged" in r.text
    # An unaffordable cost: with 1 Initiative left, Aiyana cannot Assault (cost 2).
    table.ok(table.gm, "tote.adjust", participant="Aiyana", initiative=1)
    r = table.send(ann, "tote.declare", participant="Aiyana", action="assault", target="Ogre")
    assert r.status_code == 409 and "TO-I-3" in r.text and "costs 2 Initiative" in r.text
    # A foe other than the engaged one: bring the Lurker in at Melee.
    table.ok(table.gm, "campaign.set_hidden", participant="Lurker", hidden=False)
    table.ok(table.gm, "tote.join", participant="Lurker", band="melee")
    r = table.send(ann, "tote.declare", participant="Aiyana", action="attack", target="Lurker")
    assert r.status_code == 409 and "TO-E-1" in r.text and "must target that foe" in r.text
    # An unknown action: 422. Ann may not declare for Tahoma: 403.
    r = table.send(ann, "tote.declare", participant="Aiyana", action="dance")
    assert r.status_code == 422
    r = table.send(ann, "tote.declare", participant="Tahoma", action="recover")
    assert r.status_code == 403
    table.ok(ann, "tote.declare", participant="Aiyana", action="attack", target="Ogre", weapon=0)
    # Tahoma's Assault resolves first; only Ben may roll it, and with physical dice he must type them.
    resolving = fight_view(table, table.gm)["resolving"]
    assert fight_view(table, table.gm)["resolving_name"] == "Tahoma"
    assert table.send(ann, "tote.resolve", declaration=resolving).status_code == 403
    r = table.send(ben, "tote.resolve", declaration=resolving)
    assert r.status_code == 422 and "dice" in r.text


def test_a_player_never_sees_enemy_numbers_hidden_enemies_or_gm_only_events(fight: Table):
    table = fight
    ann = table.players["Ann"]
    roll_initiative(table)
    table.ok(table.gm, "tote.declare", participant="Ogre", action="attack", target="Aiyana")
    table.ok(table.players["Ben"], "tote.declare", participant="Tahoma", action="defend")
    replies = [
        json.dumps(table.view(ann)),
        json.dumps(table.events(ann)),
        json.dumps(table.ok(ann, "tote.declare", participant="Aiyana", action="recover")),
    ]
    for text in replies:
        assert "Lurker" not in text and "SECRETFANG" not in text
        assert "tote.enemy_set" not in text
    view = table.view(ann)
    assert view["system"]["enemies"] == []
    ogre = next(c for c in view["system"]["fight"]["combatants"] if c["name"] == "Ogre")
    assert not {"resolve", "track", "block", "resist", "rating", "weapons"} & set(ogre)
    seen = json.dumps({k: v for k, v in view["system"].items() if k != "armour_table"})
    assert '"rating"' not in seen and "Club" not in seen
    # The GM sees it all.
    gm = json.dumps(table.view(table.gm))
    assert "Lurker" in gm and "SECRETFANG" in gm
