"""Every band of every combat move (TC-GT, TC-OF, TC-PH, TC-AI, TC-SG, TC-TC), TC-MV-1 and TC-OP-1.

The table (conftest): Aria (Quickness +2, Power +1, tactical armour armour-2 threshold-6, pistol harm-2
close medium, rifle harm-3 medium), Brick (Power +2, Quickness 0, knife harm-1 melee); the Cultist fires
(harm 2, limit 3, no armour), the Ghoul claws (harm 3, limit 5, hide armour-1 threshold-4). Bands: Aria is
at medium from the Cultist and close to the Ghoul; Brick at long from the Cultist and close to the Ghoul.
"""

from __future__ import annotations

import pytest

from app.rules.errors import Forbidden
from tests.rules.trinity.conftest import Table


def made(t: Table, who: str, character: str, move: str, opponent: str, faces, weapon=None, pick=None):
    """Declare, roll (no karma in the pools), keep Luck, pick a 10+ effect if asked."""
    t.move(who, character, move, opponent, faces=faces, weapon=weapon)
    t.keep_luck(who)
    if pick is not None:
        t.answer(who, "effect", pick)
    return t


def last(t: Table, type_: str):
    return next(e for e in reversed(t.events) if e.type == type_)


# --- go toe to toe --------------------------------------------------------------------------------


@pytest.mark.rule("TC-GT-1")
def test_TC_GT_1_six_or_less_you_take_their_harm_they_gain_advantage_and_may_move(fight: Table):
    made(fight, "ben", "Brick", "go_toe_to_toe", "Ghoul", (1, 2))  # 3 + Power 2 = 5
    assert last(fight, "trinity.move_rolled").data["result"] == "miss"
    assert fight.char("Brick").harm == 3
    assert fight.opp("Ghoul").taken == 0
    assert fight.t.advantage == "enemy"
    assert fight.prompt("band").to == "gm"
    assert fight.t.move is not None  # the move waits for the GM's band answer


@pytest.mark.rule("TC-GT-2")
def test_TC_GT_2_seven_to_nine_both_inflict_harm_advantage_unchanged(fight: Table):
    made(fight, "ben", "Brick", "go_toe_to_toe", "Ghoul", (2, 4))  # 8
    assert fight.char("Brick").harm == 3
    ghoul = fight.opp("Ghoul")
    assert ghoul.taken == 0 and ghoul.armour.threshold == 3  # knife harm-1 all absorbed by hide armour-1
    assert fight.t.advantage == "none"
    assert fight.t.move is None and not fight.has_prompt("band")


@pytest.mark.rule("TC-GT-3")
@pytest.mark.parametrize(
    ("pick", "brick_harm", "ghoul_taken", "band"),
    [("harm_plus", 3, 1, "close"), ("harm_minus", 2, 0, "close"), ("further", 3, 0, "medium")],
)
def test_TC_GT_3_ten_plus_both_inflict_team_gains_advantage_and_picks_one(
    fight: Table, pick: str, brick_harm: int, ghoul_taken: int, band: str
):
    fight.move("ben", "Brick", "go_toe_to_toe", "Ghoul", faces=(3, 5))  # 10
    fight.keep_luck("ben")
    assert fight.choices("effect") == ["harm_plus", "harm_minus", "further"]  # already close: no closer
    fight.answer("ben", "effect", pick)
    assert fight.char("Brick").harm == brick_harm
    assert fight.opp("Ghoul").taken == ghoul_taken
    assert fight.t.advantage == "team"
    assert fight.t.band(fight.pid("Brick"), fight.pid("Ghoul"), "medium") == band


# --- open fire ------------------------------------------------------------------------------------


@pytest.mark.rule("TC-OF-1")
def test_TC_OF_1_six_or_less_misses_spends_ammo_and_a_firing_opponent_hits_back(fight: Table):
    made(fight, "ann", "Aria", "open_fire", "Cultist", (1, 2), weapon="pistol")  # 3 + 2 = 5
    aria = fight.char("Aria")
    assert fight.opp("Cultist").taken == 0
    assert aria.weapon("pistol").ammo == 5
    assert aria.harm == 0 and aria.armour.threshold == 5  # harm 2 all absorbed by armour-2
    assert last(fight, "trinity.harmed").data["absorbed"] == 2
    assert fight.t.advantage == "enemy"
    assert fight.prompt("band").to == "gm"


@pytest.mark.rule("TC-OF-1")
def test_TC_OF_1_a_melee_opponent_beyond_close_range_does_not_hit_back(fight: Table):
    fight.do("gm", "trinity.set_band", character="Aria", opponent="Ghoul", band="medium")
    made(fight, "ann", "Aria", "open_fire", "Ghoul", (1, 2), weapon="pistol")
    assert not [e for e in fight.events if e.type == "trinity.harmed"]
    assert fight.char("Aria").armour.threshold == 6
    assert fight.t.advantage == "enemy"


@pytest.mark.rule("TC-OF-1")
def test_TC_OF_1_a_melee_opponent_at_close_range_hits_back(fight: Table):
    made(fight, "ann", "Aria", "open_fire", "Ghoul", (1, 2), weapon="pistol")  # close: -1 close tag
    assert fight.char("Aria").harm == 1  # harm 3 - armour 2


@pytest.mark.rule("TC-OF-2")
def test_TC_OF_2_seven_to_nine_hits_spends_ammo_return_fire_advantage_unchanged(fight: Table):
    made(fight, "ann", "Aria", "open_fire", "Cultist", (2, 3), weapon="pistol")  # 7
    assert fight.opp("Cultist").taken == 2
    assert fight.char("Aria").weapon("pistol").ammo == 5
    assert last(fight, "trinity.harmed").data["incoming"] == 2
    assert fight.t.advantage == "none"
    assert fight.t.move is None


@pytest.mark.rule("TC-OF-3")
@pytest.mark.parametrize(
    ("pick", "taken", "incoming", "band"),
    [("harm_plus", 3, 2, "medium"), ("harm_minus", 2, 1, "medium"), ("closer", 2, 2, "close")],
)
def test_TC_OF_3_ten_plus_hits_team_gains_advantage_and_picks_one(
    fight: Table, pick: str, taken: int, incoming: int, band: str
):
    fight.move("ann", "Aria", "open_fire", "Cultist", faces=(3, 5), weapon="pistol")  # 10
    fight.keep_luck("ann")
    assert fight.choices("effect") == ["harm_plus", "harm_minus", "closer", "further"]
    fight.answer("ann", "effect", pick)
    assert fight.opp("Cultist").taken == taken
    assert last(fight, "trinity.harmed").data["incoming"] == incoming
    assert fight.char("Aria").weapon("pistol").ammo == 5
    assert fight.t.advantage == "team"
    assert fight.t.band(fight.pid("Aria"), fight.pid("Cultist"), "long") == band


# --- press home -----------------------------------------------------------------------------------


@pytest.fixture
def ours() -> Table:
    return Table().cast().fight(advantage="team")


@pytest.mark.rule("TC-PH-1")
def test_TC_PH_1_six_or_less_you_take_their_harm_they_gain_advantage_and_may_move(ours: Table):
    made(ours, "ben", "Brick", "press_home", "Ghoul", (1, 2))  # 3 + 2 + team 1 = 6
    assert ours.char("Brick").harm == 3
    assert ours.opp("Ghoul").taken == 0
    assert ours.t.advantage == "enemy"
    assert ours.has_prompt("band")


@pytest.mark.rule("TC-PH-2")
def test_TC_PH_2_seven_to_nine_you_hurt_them_take_nothing_and_nobody_has_advantage(ours: Table):
    made(ours, "ben", "Brick", "press_home", "Ghoul", (2, 3))  # 8
    assert ours.char("Brick").harm == 0
    assert last(ours, "trinity.opponent_harmed").data["incoming"] == 1
    assert ours.t.advantage == "none"


@pytest.mark.rule("TC-PH-3")
def test_TC_PH_3_ten_plus_team_keeps_advantage_and_may_create_an_opening(ours: Table):
    ours.move("ben", "Brick", "press_home", "Ghoul", faces=(3, 4))  # 10
    ours.keep_luck("ben")
    aria = ours.pid("Aria")
    assert ours.choices("effect") == ["harm_plus", "further", f"opening:{aria}"]
    ours.answer("ben", "effect", f"opening:{aria}")
    assert ours.char("Brick").harm == 0
    assert ours.t.advantage == "team"
    assert ours.char("Aria").opening == 1


@pytest.mark.rule("TC-PH-3")
def test_TC_PH_3_the_plus_one_harm_pick(ours: Table):
    made(ours, "ben", "Brick", "press_home", "Ghoul", (3, 4), pick="harm_plus")
    assert last(ours, "trinity.opponent_harmed").data["incoming"] == 2
    assert ours.opp("Ghoul").taken == 1


# --- aim ------------------------------------------------------------------------------------------


@pytest.mark.rule("TC-AI-1")
def test_TC_AI_1_six_or_less_is_open_fire_six_or_less(ours: Table):
    made(ours, "ann", "Aria", "aim", "Cultist", (1, 2), weapon="rifle")  # 3 + 2 + 1 = 6
    aria = ours.char("Aria")
    assert aria.weapon("rifle").ammo == 4
    assert last(ours, "trinity.harmed").data["incoming"] == 2
    assert ours.opp("Cultist").taken == 0
    assert ours.t.advantage == "enemy"
    assert ours.has_prompt("band")


@pytest.mark.rule("TC-AI-2")
def test_TC_AI_2_seven_to_nine_hits_no_return_harm_team_loses_advantage(ours: Table):
    made(ours, "ann", "Aria", "aim", "Cultist", (2, 3), weapon="rifle")  # 8
    assert ours.opp("Cultist").taken == 3
    assert not [e for e in ours.events if e.type == "trinity.harmed"]
    assert ours.char("Aria").weapon("rifle").ammo == 4
    assert ours.t.advantage == "none"


@pytest.mark.rule("TC-AI-3")
def test_TC_AI_3_ten_plus_hits_keeps_advantage_and_picks(ours: Table):
    ours.move("ann", "Aria", "aim", "Cultist", faces=(3, 4), weapon="rifle")  # 10
    ours.keep_luck("ann")
    brick = ours.pid("Brick")
    assert ours.choices("effect") == ["harm_plus", "closer", "further", f"opening:{brick}"]
    ours.answer("ann", "effect", "further")
    assert ours.opp("Cultist").taken == 3
    assert ours.t.advantage == "team"
    assert ours.t.band(ours.pid("Aria"), ours.pid("Cultist"), "close") == "long"
    assert not [e for e in ours.events if e.type == "trinity.harmed"]


# --- stand ground and take cover ------------------------------------------------------------------


@pytest.fixture
def theirs() -> Table:
    return Table().cast().fight(advantage="enemy")


@pytest.mark.rule("TC-SG-1")
def test_TC_SG_1_six_or_less_you_take_their_harm_they_keep_advantage_and_may_move(theirs: Table):
    made(theirs, "ben", "Brick", "stand_ground", "Ghoul", (1, 2))  # 3 + 2 - 1 = 4
    assert theirs.char("Brick").harm == 3
    assert theirs.t.advantage == "enemy"
    assert theirs.has_prompt("band")


@pytest.mark.rule("TC-SG-2")
def test_TC_SG_2_seven_to_nine_you_take_their_harm_and_they_lose_advantage(theirs: Table):
    made(theirs, "ben", "Brick", "stand_ground", "Ghoul", (3, 4))  # 8
    assert theirs.char("Brick").harm == 3
    assert theirs.opp("Ghoul").taken == 0
    assert theirs.t.advantage == "none"


@pytest.mark.rule("TC-SG-3")
def test_TC_SG_3_ten_plus_you_hurt_them_take_nothing_and_gain_advantage(theirs: Table):
    made(theirs, "ben", "Brick", "stand_ground", "Ghoul", (4, 5))  # 10
    assert theirs.char("Brick").harm == 0
    assert last(theirs, "trinity.opponent_harmed").data["incoming"] == 1
    assert theirs.t.advantage == "team"
    assert not theirs.has_prompt("effect")


@pytest.mark.rule("TC-TC-1")
def test_TC_TC_1_six_or_less_you_take_their_harm_they_keep_advantage_and_may_move(theirs: Table):
    made(theirs, "ann", "Aria", "take_cover", "Cultist", (1, 2))  # 3 + 2 - 1 = 4
    assert last(theirs, "trinity.harmed").data["incoming"] == 2
    assert theirs.t.advantage == "enemy"
    assert theirs.has_prompt("band")


@pytest.mark.rule("TC-TC-2")
def test_TC_TC_2_seven_to_nine_you_take_their_harm_and_they_lose_advantage(theirs: Table):
    made(theirs, "ann", "Aria", "take_cover", "Cultist", (3, 4))  # 8
    assert last(theirs, "trinity.harmed").data["incoming"] == 2
    assert theirs.opp("Cultist").taken == 0
    assert theirs.t.advantage == "none"


@pytest.mark.rule("TC-TC-3")
def test_TC_TC_3_ten_plus_you_take_no_harm_and_gain_advantage(theirs: Table):
    made(theirs, "ann", "Aria", "take_cover", "Cultist", (4, 5))  # 10
    assert not [e for e in theirs.events if e.type in ("trinity.harmed", "trinity.opponent_harmed")]
    assert theirs.t.advantage == "team"


# --- moving and openings --------------------------------------------------------------------------


@pytest.mark.rule("TC-MV-1")
def test_TC_MV_1_the_gm_answers_an_opponents_band_move(fight: Table):
    made(fight, "ann", "Aria", "open_fire", "Cultist", (1, 2), weapon="pistol")
    prompt = fight.prompt("band")
    assert [c.key for c in prompt.choices] == ["closer", "further", "stay"]
    fight.refused("ann", "trinity.band_move", Forbidden, prompt=prompt.id, choice="closer")
    events = fight.answer("gm", "band", "closer")
    assert fight.t.band(fight.pid("Aria"), fight.pid("Cultist"), "long") == "close"
    assert "Cultist moves to close range from Aria." in fight.texts(events)
    assert fight.t.move is None


@pytest.mark.rule("TC-MV-1")
def test_TC_MV_1_the_gm_may_keep_the_opponent_where_it_is(fight: Table):
    made(fight, "ann", "Aria", "open_fire", "Cultist", (1, 2), weapon="pistol")
    fight.answer("gm", "band", "stay")
    assert fight.t.band(fight.pid("Aria"), fight.pid("Cultist"), "long") == "medium"
    assert fight.t.move is None


@pytest.mark.rule("TC-MV-1")
def test_TC_MV_1_a_player_moves_by_a_choice_on_their_screen(fight: Table):
    fight.move("ann", "Aria", "open_fire", "Cultist", faces=(3, 5), weapon="pistol")
    fight.keep_luck("ann")
    prompt = fight.prompt("effect")
    assert prompt.to == fight.pid("Aria")
    assert any(o.command.get("choice") == "closer" for o in fight.options("ann"))


@pytest.mark.rule("TC-OP-1")
def test_TC_OP_1_an_opening_gives_plus_one_on_the_next_move_then_it_is_gone(ours: Table):
    made(ours, "ben", "Brick", "press_home", "Ghoul", (3, 4), pick=f"opening:{ours.pid('Aria')}")
    option = ours.option("ann", f"aim-{ours.pid('Aria')}-{ours.pid('Cultist')}-w2")
    assert "an opening from a teammate +1" in option.hint
    ours.move("ann", "Aria", "aim", "Cultist", faces=(1, 1), weapon="rifle")
    mods = {m["key"]: m["value"] for m in last(ours, "trinity.move_rolled").data["mods"]}
    assert mods["opening"] == 1
    assert ours.char("Aria").opening == 0
