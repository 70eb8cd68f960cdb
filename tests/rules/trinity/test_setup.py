"""The set-up commands behind the GM's forms and the JSON import: gear given and taken away, sheets
re-saved without losing gear, characters and opponents imported in one command."""

from __future__ import annotations

from app.rules.errors import Forbidden, InputError, RuleError
from tests.rules.trinity.conftest import SECRET, Table


def test_saving_a_sheet_again_keeps_its_gear_unless_new_gear_is_given(table: Table):
    table.do("gm", "trinity.setup_character", character="Aria", power=2, luck=5)
    aria = table.char("Aria")
    assert aria.power == 2 and aria.luck == 5
    assert [w.name for w in aria.weapons] == ["pistol", "rifle"] and aria.armour.threshold == 6
    table.do("gm", "trinity.setup_character", character="Aria", weapons=[], armour={"armour": 0})
    assert table.char("Aria").weapons == () and table.char("Aria").armour is None


def test_the_gm_gives_a_weapon_armour_and_an_item_and_takes_them_away(table: Table):
    table.do("gm", "trinity.give_weapon", character="Brick", name="shotgun", harm=3, tags=["close"], ammo=2)
    table.do("gm", "trinity.give_armour", character="Brick", name="vest", armour=1)
    table.do(
        "gm", "trinity.give_item", character="Brick", name="pills", calm=1, consumable=3, timing="delayed"
    )
    brick = table.char("Brick")
    shotgun = brick.weapon("shotgun")
    assert shotgun.id == "w2" and (shotgun.ammo, shotgun.capacity, shotgun.tags) == (2, 2, ("close",))
    assert brick.armour.value == 1 and brick.armour.threshold is None  # threshold-infinite
    assert brick.item("pills").uses == 3 and brick.item("pills").timing == "delayed"
    table.do("gm", "trinity.drop_gear", character="Brick", gear="shotgun")
    table.do("gm", "trinity.drop_gear", character="Brick", gear="armour")
    assert table.char("Brick").weapon("shotgun") is None and table.char("Brick").armour is None
    assert "no 'shotgun'" in table.refused("gm", "trinity.drop_gear", character="Brick", gear="shotgun")


def test_gear_needs_sense_and_the_gm(table: Table):
    assert "range tag" in table.refused(
        "gm", "trinity.give_weapon", InputError, character="Brick", name="bow", harm=2, kind="ranged"
    )
    assert "heals" in table.refused("gm", "trinity.give_item", InputError, character="Brick", name="rock")
    table.refused("ann", "trinity.give_armour", Forbidden, character="Aria", armour=3)
    assert "no Trinity Code sheet" in table.refused(
        "gm", "trinity.give_armour", character="Cultist", armour=3
    )


def test_the_import_creates_characters_and_opponents_and_updates_known_ones(table: Table):
    table.do(
        "gm",
        "trinity.import",
        sheets={
            "characters": [
                {
                    "name": "Cleo",
                    "player": "Ann",
                    "cool": 2,
                    "weapons": [{"name": "knife", "harm": 1, "kind": "melee"}],
                },
                {"name": "Brick", "power": 3},
            ],
            "opponents": [
                {"name": "Hound", "harm": 2, "harm_limit": 4, "hidden": True, "notes": SECRET},
                {"name": "Ghoul", "harm": 4, "harm_limit": 6},
            ],
        },
    )
    cleo = table.state.participant("Cleo")
    assert cleo.owner == "seat-ann" and table.char("Cleo").cool == 2 and table.char("Cleo").weapon("knife")
    assert table.char("Brick").power == 3 and table.char("Brick").weapon("knife")  # gear kept
    hound = table.state.participant("Hound")
    assert hound.hidden and hound.kind == "npc" and table.opp("Hound").harm_limit == 4
    assert table.opp("Ghoul").harm == 4 and table.opp("Ghoul").armour.value == 1  # armour kept
    assert len({p.id for p in table.state.participants}) == len(table.state.participants)
    assert SECRET not in table.dump("ann") and "Hound" not in table.dump("ann")


def test_a_bad_import_is_refused_whole(table: Table):
    table.refused("gm", "trinity.import", InputError, sheets={})
    table.refused("gm", "trinity.import", InputError, sheets={"characters": [{"power": 1}]})
    table.refused("gm", "trinity.import", InputError, sheets={"characters": [{"name": "Zed", "power": 9}]})
    table.refused(
        "gm", "trinity.import", InputError, sheets={"characters": [{"name": "Zed"}, {"name": "zed"}]}
    )
    assert "no player" in table.refused(
        "gm", "trinity.import", RuleError, sheets={"characters": [{"name": "Zed", "player": "Nobody"}]}
    )
    assert "one or the other" in table.refused(
        "gm", "trinity.import", RuleError, sheets={"opponents": [{"name": "Aria"}]}
    )
    table.refused("ann", "trinity.import", Forbidden, sheets={"characters": [{"name": "Zed"}]})
