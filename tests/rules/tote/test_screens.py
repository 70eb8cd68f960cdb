"""What round 2 added for the screens and set-up: the JSON import, the set-up form's flat fields, the
last roll kept for drawing, the Resolution order as it happened, the Distance band layout, prompts the
TOTE templates draw, and TOTE keeping its own turn order."""

from __future__ import annotations

import pytest

from app.rules.errors import InputError
from app.rules.tote import SYSTEM
from app.rules.tote.sheets import fold_form
from app.rules.tote.view import COLUMNS, layout
from tests.rules.tote.table import FANGS, SPEAR, Table


def test_tote_keeps_its_own_turn_order_and_the_generic_initiative_commands_are_gone(t: Table):
    assert SYSTEM.owns_initiative
    assert "generic.initiative.next" not in t.game.commands and "tote.roll_initiative" in t.game.commands
    assert t.view("gm")["campaign"]["owns_initiative"] is True


def test_import_adds_new_characters_and_updates_known_ones():
    t = Table()
    t.add("Aiyana", owner="ann")
    events = t.do(
        "gm",
        "tote.import",
        sheets=[
            {"name": "Aiyana", "side": "hero", "resolve": 8, "block": 8, "resist": 6, "weapons": [SPEAR]},
            {"name": "Tahoma", "side": "hero", "player": "ben", "resolve": 9, "block": 7, "resist": 5},
            {
                "name": "Wolf",
                "side": "enemy",
                "hidden": True,
                "rating": 2,
                "block": 7,
                "resist": 6,
                "resolve": 4,
                "track": ["n", "3", "u"],
                "weapons": [FANGS],
            },
        ],
    )
    assert [e.type for e in events] == [
        "campaign.participant_added",
        "campaign.participant_added",
        "tote.hero_set",
        "tote.hero_set",
        "tote.enemy_set",
    ]
    assert t.state.participant("Tahoma").owner == "seat-ben"
    wolf = t.state.participant("Wolf")
    assert wolf.hidden and wolf.kind == "npc" and events[1].audience == "gm"
    assert t.sheet("Wolf").track == ("N", "3", "U") and t.sheet("Aiyana").weapons[0].name == "Spear"
    assert len(t.state.participants) == 3  # Aiyana was already there: updated, not added


@pytest.mark.parametrize(
    ("sheet", "words"),
    [
        ({"side": "hero", "resolve": 5, "block": 5, "resist": 5}, "give the character's name"),
        ({"name": "X", "side": "troll", "resolve": 5, "block": 5, "resist": 5}, "side must be hero or enemy"),
        ({"name": "X", "side": "hero", "block": 5, "resist": 5}, "Sheet 1 (X): Resolve is required"),
        ({"name": "X", "side": "hero", "resolve": 5, "block": 5, "resist": 5, "armour": ["Silk"]}, "Silk"),
        ({"name": "X", "side": "hero", "player": "Zed", "resolve": 5, "block": 5, "resist": 5}, "Zed"),
        ({"name": "X", "side": "enemy", "resolve": 5, "block": 5, "resist": 5}, "Rating is required"),
    ],
)
def test_a_bad_import_names_the_sheet_and_changes_nothing(sheet: dict, words: str):
    t = Table()
    error = t.refused("gm", "tote.import", error=InputError, sheets=[sheet])
    assert words in error.message


def test_a_name_twice_in_one_import_is_refused():
    t = Table()
    twice = {"name": "X", "side": "hero", "resolve": 5, "block": 5, "resist": 5}
    error = t.refused("gm", "tote.import", error=InputError, sheets=[twice, twice])
    assert "appears twice" in error.message


def test_the_set_up_forms_flat_fields_fold_into_a_sheet():
    folded = fold_form(
        {
            "participant": "A",
            "skill_plan": "2",
            "spec_strike": "1",
            "totem_hawk": "3",
            "weapon1_name": "Bow",
            "weapon1_base": "2",
            "weapon1_effect": "2",
            "weapon1_critical": "pierce",
            "weapon1_kind": "ranged",
            "weapon2_name": " ",
            "weapon2_kind": "melee",
            "weapon3_name": "Cestus",
            "weapon3_base": "1",
            "weapon3_effect": "1",
            "weapon3_critical": "bash",
            "weapon3_kind": "brawl",
        }
    )
    assert folded["skills"] == {"plan": "2"} and folded["specialisations"] == {"strike": "1"}
    assert folded["totems"] == {"hawk": "3"}
    assert [(w["name"], w["ranged"], w["brawl"]) for w in folded["weapons"]] == [
        ("Bow", True, False),
        ("Cestus", False, True),
    ]


def test_the_last_roll_is_kept_for_the_screens_with_its_crossed_out_faces(t: Table):
    t.brawl(Aiyana=3, Tahoma=2, Goblin=1)
    assert t.view("spec")["system"]["fight"]["last"] is None
    t.do("gm", "tote.adjust", participant="Aiyana", injuries=1)  # the 5 is filled
    t.declare("gm", "Goblin", "defend")
    t.declare("ben", "Tahoma", "defend")
    t.declare("ann", "Aiyana", "attack", "Goblin", weapon=0)
    t.resolve("ann", [5, 4, 1, 4])  # 5 unusable: 4 + Paragon 4 = 8 vs Block 8, a Critical (Axe: Slash)
    last = t.view("spec")["system"]["fight"]["last"]
    assert last["type"] == "attacked" and last["test"]["blocked"] == [5] and last["test"]["paragon"] == 4
    assert last["test"]["roll"]["terms"][0]["kept"] == [False, True, False] and last["test"]["critical"]
    assert last["test"]["target"] is None  # the Goblin's Block stays the GM's
    assert "ask" not in last and "notice" not in last


def test_the_resolution_order_shows_what_happened_first_then_what_is_due(t: Table):
    t.brawl(Aiyana=1, Tahoma=2, Goblin=3)
    t.declare("ann", "Aiyana", "attack", "Goblin", weapon=0)
    t.declare("ben", "Tahoma", "attack", "Goblin", weapon=0)
    t.declare("gm", "Goblin", "attack", "Aiyana")
    t.resolve("gm", [1, 1, 1])  # the Goblin (3) misses, and spends 1: now 2, level with Tahoma
    fv = t.view("gm")["system"]["fight"]
    names = {d["id"]: d["actor_name"] for d in fv["declarations"]}
    assert [names[i] for i in fv["resolution_order"]] == ["Goblin", "Tahoma", "Aiyana"]
    assert fv["resolving_name"] == "Tahoma" and fv["my_turn"] == {
        "declare": False,
        "resolve": False,
        "answer": False,
    }
    assert t.view("ben")["system"]["fight"]["my_turn"]["resolve"] is True


def test_the_distance_band_puts_heroes_left_enemies_right_and_melee_in_the_middle():
    drawn = layout(
        [
            {"id": "a", "side": "hero", "band": "far", "status": "fighting"},
            {"id": "b", "side": "hero", "band": "melee", "status": "fighting"},
            {"id": "c", "side": "enemy", "band": "melee", "status": "fighting"},
            {"id": "d", "side": "enemy", "band": "melee", "status": "fighting"},
            {"id": "e", "side": "enemy", "band": "close", "status": "fled"},
        ]
    )
    at = drawn["at"]
    assert at["a"]["x"] < at["b"]["x"] < at["c"]["x"] == at["d"]["x"] and at["d"]["y"] > at["c"]["y"]
    assert "e" not in at and COLUMNS[("enemy", "far")] > COLUMNS[("enemy", "close")] > at["c"]["x"]


def test_the_defend_question_is_drawn_by_tote_with_dice_and_the_knock_down_notice_does_not_block(t: Table):
    t.brawl(Aiyana=1, Tahoma=2, Goblin=3)
    t.declare("ann", "Aiyana", "defend")
    t.declare("ben", "Tahoma", "defend")
    t.declare("gm", "Goblin", "attack", "Aiyana")
    t.resolve("gm", [6, 4, 1, 1, 1])  # 6 + 4 = 10 vs Block 8: a hit with a Bonus; its Effect test fails
    ask = next(p for p in t.state.prompts if p.kind == "tote.respond")
    assert ask.drawn_by_system and ask.blocking and ask.to == t.pid("Aiyana")
    assert {c.key: c.rolls for c in ask.choices} == {"strike": True, "grapple": True, "pass": False}
    answer = next(o for o in t.options("ann") if o.group == "answer" and o.command["choice"] == "strike")
    assert answer.odds and answer.rolls and "Paragon" in answer.hint
    assert not [o for o in t.options("ben") if o.group == "answer"]
