"""FX-D-1 .. FX-D-4: the d5, the 5x5 roll, its target, its 0 and 25 rules, criticals, unskilled and shifts."""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.rules.dice import ManualRoller
from app.rules.errors import Forbidden
from app.rules.fivebyfive import odds
from tests.rules.fivebyfive.harness import Table, d5

# The author's own table of the 5x5 roll: chance (in 36) of rolling each target or less.
AUTHOR_TABLE = {
    0: 11,
    1: 12,
    2: 14,
    3: 16,
    4: 19,
    5: 21,
    6: 23,
    8: 25,
    9: 26,
    10: 28,
    12: 30,
    15: 32,
    16: 33,
    20: 35,
}


@pytest.mark.rule("FX-D-1")
def test_FX_D_1_a_d5_is_a_d6_whose_six_reads_zero_and_a_5x5_multiplies_two():
    roll = odds.roll(ManualRoller([6, 3]))
    assert roll.faces == (6, 3)
    assert roll.values == (0, 3)
    assert roll.total == 0
    assert odds.FiveRoll((4, 5)).total == 20
    data = odds.FiveRoll((2, 6)).as_dict()
    assert data["expression"] == "5x5"
    assert data["terms"][0]["faces"] == [2, 6] and data["terms"][0]["values"] == [2, 0]
    assert data["total"] == 0
    totals = {odds.FiveRoll((a, b)).total for a in range(1, 7) for b in range(1, 7)}
    assert totals == {0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 12, 15, 16, 20, 25}


@pytest.mark.rule("FX-D-2")
def test_FX_D_2_seed_examples_strike_2_rage_3_needs_6_and_resist_1_precognition_2_needs_2():
    assert odds.target(2, 0, 3) == 6
    assert odds.target(1, 0, 2) == 2
    assert odds.success_chance(6) == Fraction(23, 36)
    assert odds.success_chance(2) == Fraction(14, 36)


@pytest.mark.rule("FX-D-2")
@pytest.mark.parametrize(("needed", "in36"), sorted(AUTHOR_TABLE.items()))
def test_FX_D_2_exact_odds_match_the_authors_table(needed, in36):
    assert odds.success_chance(needed) == Fraction(in36, 36)


@pytest.mark.rule("FX-D-2")
def test_FX_D_2_at_most_the_target_succeeds_a_zero_always_and_25_against_25():
    assert odds.FiveRoll((2, 3)).success(6)
    assert not odds.FiveRoll((2, 4)).success(6)
    assert odds.FiveRoll((6, 5)).success(0)  # 0 x 5 = 0
    assert odds.FiveRoll((6, 6)).success(-1)
    assert odds.FiveRoll((5, 5)).success(25)  # the seed: at most Rank x Ability, and 25 is at most 25
    assert not odds.FiveRoll((5, 5)).success(20)
    assert odds.success_chance(25) == 1
    assert odds.success_chance(-1) == Fraction(11, 36)


@pytest.mark.rule("FX-D-2")
def test_FX_D_2_with_the_authors_later_ruling_a_25_always_fails():
    assert odds.target(5, 0, 5) == 25
    assert odds.target(5, 0, 5, twenty_five_fails=True) == 24
    assert odds.target(4, 0, 5, twenty_five_fails=True) == 20  # below 25 nothing changes
    assert not odds.FiveRoll((5, 5)).success(24)
    assert odds.success_chance(24) == Fraction(35, 36)


@pytest.mark.rule("FX-D-2")
@pytest.mark.parametrize(("setting", "result"), [(False, "double_hit"), (True, "miss")])
def test_FX_D_2_a_25_against_25_is_a_double_hit_and_a_miss_under_the_setting(setting, result):
    ogre = {"rage": 5, "grace": 3, "precognition": 1, "strike": 5, "aim": 2, "focus": 0}
    t = Table(settings={"twenty_five_always_fails": setting}).cast(goblin={**ogre, "parry": 1, "dodge": 1})
    t.start().round(Aria=2, Brick=1, Goblin=3)  # the NPC acts first, Strike 5 x Rage 5
    events = t.do("gm", "fivebyfive.strike", d5(5, 5), participant="Goblin", target="Aria")
    attacked = next(e for e in events if e.type == "fivebyfive.attacked")
    note = next(e for e in events if e.type == "fivebyfive.gm_note")  # an NPC's numbers are the GM's
    assert (note.data["need"]["needed"], attacked.data["result"]) == (24 if setting else 25, result)


@pytest.mark.rule("FX-D-3")
def test_FX_D_3_a_successful_roll_showing_doubles_is_critical_a_failed_one_is_not():
    assert odds.FiveRoll((2, 2)).critical(6)
    assert odds.FiveRoll((6, 6)).critical(0)  # 0 x 0: always succeeds, and doubles
    assert not odds.FiveRoll((3, 3)).critical(6)  # 9: doubles but a failure
    assert odds.FiveRoll((5, 5)).critical(25)  # 25 against 25: a success with doubles
    assert not odds.FiveRoll((5, 5)).critical(24)
    assert not odds.FiveRoll((1, 2)).critical(6)
    crit, plain, fail = odds.chances(6)
    assert (crit, plain, fail) == (Fraction(3, 36), Fraction(20, 36), Fraction(13, 36))
    labels = [b.label for b in odds.attack_bands(6)]
    assert labels == ["Double Hit", "Hit", "Miss"]
    assert [b.label for b in odds.defence_bands(2)] == ["Blocked the Hit", "Controlled", "Not controlled"]
    assert sum(b.chance for b in odds.attack_bands(6)) == 1


@pytest.mark.rule("FX-D-4")
@pytest.mark.parametrize(
    ("rank", "shift", "ability", "needed", "minus_one"),
    [
        (0, 0, 3, 0, False),  # the seed: unskilled is 0 x Ability
        (0, -1, 3, 0, False),  # weak: still only a 0
        (0, 1, 3, 3, False),  # unskilled shifted up: Rank 1
        (1, -1, 4, 0, False),  # Rank 1 shifted down: unskilled
        (4, 1, 4, 20, False),  # Rank 5 only by a shift
        (5, 1, 5, 25, False),  # never past 5
        (2, 1, 3, 9, False),
        (2, -1, 3, 3, False),
        (0, 0, 3, 2, True),  # the author's later ruling: Ability - 1
        (0, -1, 3, 1, True),  # weak: Ability - 2
        (1, -1, 4, 3, True),
    ],
)
def test_FX_D_4_shifts_and_unskilled_targets(rank, shift, ability, needed, minus_one):
    assert odds.target(rank, shift, ability, unskilled_minus_one=minus_one) == needed


@pytest.mark.rule("FX-D-4")
def test_FX_D_4_an_unskilled_strike_succeeds_only_on_a_0_as_the_seed_says():
    t = Table().cast(aria={"rage": 3, "grace": 2, "precognition": 2, "strike": 0})
    t.start().round(Aria=3, Brick=1, Goblin=1)
    option = t.options("ann")[f"strike-{t.pid('Goblin')}"]
    assert option.hint.startswith("Strike unskilled: 0 x Rage 3: 0 or less")
    assert [b.exact for b in option.odds] == ["1/36", "5/18", "25/36"]  # 11/36 succeed; (0,0) is double
    (attacked, *_) = t.do("ann", "fivebyfive.strike", d5(1, 1), target="Goblin")  # a 1: over 0
    assert (attacked.data["needed"], attacked.data["result"]) == (0, "miss")


@pytest.mark.rule("FX-D-4")
def test_FX_D_4_an_unskilled_roll_of_0_hits():
    t = Table().cast(aria={"rage": 3, "grace": 2, "precognition": 2, "strike": 0})
    t.start().round(Aria=3, Brick=1, Goblin=1)
    (attacked, *_) = t.do("ann", "fivebyfive.strike", d5(6, 2), target="Goblin")  # 0 x 2 = 0
    assert (attacked.data["needed"], attacked.data["result"]) == (0, "hit")


@pytest.mark.rule("FX-D-4")
def test_FX_D_4_the_gms_circumstance_shift_changes_the_roll_and_its_odds(t: Table):
    t.round(Aria=3, Brick=1, Goblin=1)
    goblin = t.pid("Goblin")
    assert t.options("ann")[f"strike-{goblin}"].hint.startswith("Strike 2 x Rage 3: 6 or less")
    t.do("gm", "fivebyfive.shift", participant="Aria", rank="strike", shift=1)
    option = t.options("ann")[f"strike-{goblin}"]
    assert option.hint.startswith("Strike 2 +1 (circumstances) x Rage 3: 9 or less")
    assert sum(b.chance for b in option.odds[:2]) == Fraction(26, 36)
    (attacked, *_) = t.do("ann", "fivebyfive.strike", d5(3, 3), target="Goblin")
    assert (attacked.data["needed"], attacked.data["result"]) == (9, "double_hit")
    t.refused("ann", "fivebyfive.shift", Forbidden, participant="Aria", rank="strike", shift=1)


@pytest.mark.rule("FX-D-4")
def test_FX_D_4_under_the_setting_an_unskilled_strike_aims_for_ability_minus_one():
    t = Table(settings={"unskilled_ability_minus_one": True}).cast(
        aria={"rage": 3, "grace": 2, "precognition": 2, "strike": 0, "parry": 1}
    )
    t.start().round(Aria=3, Brick=1, Goblin=1)
    assert t.options("ann")[f"strike-{t.pid('Goblin')}"].hint.startswith(
        "Strike unskilled: Rage 3 -1: 2 or less"
    )
    (attacked, *_) = t.do("ann", "fivebyfive.strike", d5(1, 3), target="Goblin")
    assert attacked.data["needed"] == 2
    assert attacked.data["result"] == "miss"
    other = Table(settings={"unskilled_ability_minus_one": True}).cast(
        aria={"rage": 3, "grace": 2, "precognition": 2, "strike": 0, "parry": 1}
    )
    other.start().round(Aria=3, Brick=1, Goblin=1)
    (again, *_) = other.do("ann", "fivebyfive.strike", d5(1, 2), target="Goblin")
    assert (again.data["needed"], again.data["result"]) == (2, "hit")
