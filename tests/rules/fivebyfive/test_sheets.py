"""FX-A-1 (Abilities and Combat Ranks) and the GM's set-up: sheets, the tabletop, terrain, tokens."""

from __future__ import annotations

import pytest

from app.rules.errors import Forbidden, InputError
from app.rules.fivebyfive import tactics
from app.rules.fivebyfive.state import ABILITY_OF, DEFENCE_OF
from tests.rules.fivebyfive.harness import ARIA, GOBLIN, Table


@pytest.mark.rule("FX-A-1")
def test_FX_A_1_three_abilities_and_six_ranks_each_rank_multiplies_its_ability():
    assert ABILITY_OF == {
        "strike": "rage",
        "parry": "rage",
        "aim": "grace",
        "dodge": "grace",
        "focus": "precognition",
        "resist": "precognition",
    }
    assert DEFENCE_OF == {"strike": "parry", "aim": "dodge", "focus": "resist"}
    t = Table().cast(
        aria={"rage": 2, "grace": 3, "precognition": 4, "strike": 1, "aim": 2, "focus": 3, "parry": 4}
    )
    aria = t.char("Aria")
    needs = {rank: tactics.need(t.state, aria, rank).needed for rank in ("strike", "aim", "focus", "parry")}
    assert needs == {"strike": 2, "aim": 6, "focus": 12, "parry": 8}
    assert tactics.need(t.state, aria, "dodge").needed == 0  # unskilled: 0 x Grace, as the seed says
    assert tactics.need(t.state, aria, "resist").needed == 0  # unskilled too


@pytest.mark.rule("FX-A-1")
def test_FX_A_1_a_pcs_abilities_run_1_to_4_and_ranks_0_to_4():
    t = Table()
    t.do("gm", "campaign.add_participant", name="Aria", owner="seat-ann")
    t.do("gm", "campaign.add_participant", name="Ogre", kind="npc")
    error = t.refused("gm", "fivebyfive.setup", participant="Aria", **ARIA | {"rage": 5})
    assert str(error) == "A PC's Ability Scores run from 1 to 4. (FX-A-1)"
    error = t.refused("gm", "fivebyfive.setup", participant="Aria", **ARIA | {"strike": 5})
    assert error.rule == "FX-D-4"
    t.refused("gm", "fivebyfive.setup", InputError, participant="Aria", **ARIA | {"rage": 0})
    t.refused(
        "gm",
        "fivebyfive.setup",
        participant="Aria",
        **ARIA,
        current={"rage": 4, "grace": 2, "precognition": 2},
    )
    # An NPC may be stronger.
    (event,) = t.do("gm", "fivebyfive.setup", participant="Ogre", **GOBLIN | {"rage": 5, "strike": 5})
    assert event.audience == "gm"
    (event,) = t.do("gm", "fivebyfive.setup", participant="Aria", **ARIA)
    assert event.audience == "all"
    assert t.game.describe(event) == "Aria's 5x5 sheet set."
    t.refused("ann", "fivebyfive.setup", Forbidden, participant="Aria", **ARIA)


@pytest.mark.rule("FX-A-1")
def test_FX_A_1_a_character_without_a_sheet_is_not_in_the_fight():
    t = Table().cast()
    t.do("gm", "campaign.add_participant", name="Bystander", kind="npc")
    t.start(tokens={"Aria": [5, 5], "Goblin": [5.8, 5], "Brick": [10, 5]})
    assert [p.name for p in tactics.roster(t.state)] == ["Aria", "Brick", "Goblin"]
    error = t.refused("gm", "fivebyfive.shift", participant="Bystander", rank="aim", shift=1)
    assert error.rule == "FX-A-1"


def test_damage_stays_on_a_character_across_encounters(t: Table):
    t.round(Aria=1, Brick=2, Goblin=3)
    t.do("gm", "fivebyfive.strike", [1, 2], target="Aria")
    t.do("ann", "fivebyfive.control", [5, 5], prompt=t.prompt("control").id)
    t.do("gm", "fivebyfive.damage", prompt=t.prompt("damage").id, choice="rage")
    t.do("gm", "campaign.encounter.end")
    t.start(name="Alley")
    assert t.current("Aria")["rage"] == 2
    assert t.five.fight.round == 0


def test_the_snapshot_of_the_state_loads_back_the_same(t: Table):
    t.round(Aria=3, Brick=1, Goblin=2)
    t.do("ann", "fivebyfive.move", x=5, y=6)
    assert t.game.load(t.game.dump(t.state)) == t.state


def test_undo_takes_back_a_move(t: Table):
    t.round(Aria=3, Brick=1, Goblin=2)
    t.do("ann", "fivebyfive.move", x=5, y=6)
    t.do("gm", "campaign.undo")
    assert t.five.board.token(t.pid("Aria")).at == (5, 5)
    assert t.five.fight.moved == 0


# --- the tabletop --------------------------------------------------------------------------------------


def test_the_gm_sizes_the_table_places_terrain_and_tokens(t: Table):
    (event,) = t.do("gm", "fivebyfive.board", width=48, height=30)
    assert (t.five.board.width, t.five.board.height) == (48, 30)
    assert t.game.describe(event) == "The table is 48 x 30 inches."
    (event,) = t.do("gm", "fivebyfive.terrain", name="Crate", points=[[20, 20], [22, 20], [21, 23]])
    assert t.five.board.terrain[-1].points == ((20, 20), (22, 20), (21, 23))
    t.do("gm", "fivebyfive.terrain", name="Van", rect={"x": 30, "y": 2, "width": 6, "height": 3})
    assert [x.name for x in t.five.board.terrain] == ["Crate", "Van"]
    t.do("gm", "fivebyfive.remove_terrain", terrain="crate")
    assert [x.name for x in t.five.board.terrain] == ["Van"]
    assert (
        t.refused("gm", "fivebyfive.remove_terrain", terrain="Crate").message
        == "There is no terrain 'Crate' on the table."
    )
    t.do("gm", "fivebyfive.place", participant="Brick", x=40.126, y=12)
    assert t.five.board.token(t.pid("Brick")).at == (40.13, 12)
    t.do("gm", "fivebyfive.place", participant="Brick")
    assert t.five.board.token(t.pid("Brick")) is None
    t.refused("ann", "fivebyfive.place", Forbidden, participant="Aria", x=1, y=1)


def test_the_table_refuses_what_does_not_fit(t: Table):
    assert t.refused("gm", "fivebyfive.board", width=8, height=8).message == (
        "Brick's token would fall off a 8 x 8 inch table."
    )
    assert t.refused("gm", "fivebyfive.place", participant="Aria", x=40, y=1).message == (
        "(40, 1) is off the 36 x 24 inch table."
    )
    error = t.refused(
        "gm", "fivebyfive.terrain", name="Pillar", rect={"x": 4, "y": 4, "width": 2, "height": 2}
    )
    assert error.message == "Aria stands where that terrain would go: move the token first."
    t.do("gm", "fivebyfive.terrain", name="Mist", rect={"x": 4, "y": 4, "width": 2, "height": 2}, solid=False)
    t.do("gm", "fivebyfive.terrain", name="Pillar", rect={"x": 20, "y": 20, "width": 2, "height": 2})
    assert t.refused("gm", "fivebyfive.place", participant="Aria", x=21, y=21).message == (
        "Aria cannot stand inside Pillar."
    )
    t.refused("gm", "fivebyfive.terrain", InputError, name="Bow", points=[[0, 0], [2, 2], [2, 0], [0, 2]])
    t.refused("gm", "fivebyfive.terrain", InputError, name="Both")


def test_an_encounter_setup_is_checked_when_prepared():
    t = Table().cast()

    def prepare(setup):
        with pytest.raises(InputError) as info:
            t.do("gm", "campaign.encounter.prepare", name="Bad", participants=["Aria"], setup=setup)
        return str(info.value)

    assert prepare({"tokens": {"Aria": [50, 1]}}) == "Set-up: (50, 1) is off the 36 x 24 inch table."
    assert "Set-up:" in prepare({"board": {"width": -3, "height": 3}})
    assert "Set-up:" in prepare({"walls": []})
    assert "crosses itself" in prepare({"terrain": [{"points": [[0, 0], [2, 2], [2, 0], [0, 2]]}]})
    assert "cannot stand inside" in prepare(
        {"terrain": [{"rect": {"x": 0, "y": 0, "width": 3, "height": 3}}], "tokens": {"Aria": [1, 1]}}
    )
    with pytest.raises(Exception, match="There is no character 'Zed'"):
        t.do("gm", "campaign.encounter.prepare", name="Bad", setup={"tokens": {"Zed": [1, 1]}})
    (event,) = t.do(
        "gm",
        "campaign.encounter.prepare",
        name="Good",
        setup={
            "board": {"width": 10, "height": 10},
            "terrain": [{"name": "Box", "rect": {"x": 1, "y": 1, "width": 1, "height": 1}}],
            "tokens": {"aria": [5, 5]},
        },
    )
    setup = event.data["encounter"]["setup"]
    assert setup["tokens"] == {t.pid("Aria"): [5.0, 5.0]}
    assert setup["terrain"][0]["points"] == [[1.0, 1.0], [2.0, 1.0], [2.0, 2.0], [1.0, 2.0]]
    t.do("gm", "campaign.encounter.start", encounter="Good")
    assert (t.five.board.width, [x.name for x in t.five.board.terrain]) == (10, ["Box"])
