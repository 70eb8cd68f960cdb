"""TOTE's dice rulings TO-D-1..6, the injury-blocked faces, and the exact odds against brute force."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from app.rules.dice import ManualRoller
from app.rules.errors import InputError
from app.rules.tote import odds, rolls
from app.rules.tote.odds import Outcome


def hero(faces, blocked=(), modifier=0, target=8, keep="highest", double_six="critical"):
    roller = ManualRoller(faces)
    rating = len(faces) - 1
    test = rolls.hero_test(roller, "test", rating, blocked, modifier, target, keep, double_six)
    roller.finish()
    return test


def enemy(faces, blocked=(), modifier=0, target=8, double_six="critical"):
    roller = ManualRoller(faces)
    test = rolls.enemy_test(roller, "test", len(faces), blocked, modifier, target, double_six)
    roller.finish()
    return test


# --- TO-D-1 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TO-D-1")
def test_TO_D_1_keeps_the_highest_skill_die_adds_the_paragon_and_passes_at_the_target():
    """TO-D-1: 3 skill dice (2, 5, 3) keep the 5; Paragon 3 makes 8: T8 passes at 8."""
    test = hero([2, 5, 3, 3])
    assert test.counted == (5, 3) and test.kept == (1,)
    assert test.score.total == 8 and test.passed and test.successes == 1


@pytest.mark.rule("TO-D-1")
def test_TO_D_1_one_short_of_the_target_fails_and_scores_nothing():
    test = hero([2, 4, 3, 3])
    assert test.score.total == 7 and not test.passed and test.successes == 0


@pytest.mark.rule("TO-D-1")
def test_TO_D_1_specialisation_and_modifiers_add_to_the_total():
    test = hero([4, 3], modifier=1)
    assert test.score.total == 8 and test.passed
    assert hero([4, 3], modifier=-2).score.total == 5


@pytest.mark.rule("TO-D-1")
def test_TO_D_1_a_skill_of_zero_rolls_the_paragon_die_alone():
    roller = ManualRoller([6])
    test = rolls.hero_test(roller, "Plan", 0, (), 2, 8)
    assert test.faces == () and test.counted == (6,) and test.score.total == 8 and test.passed


@pytest.mark.rule("TO-D-1")
def test_TO_D_1_the_keep_die_setting_can_prefer_a_critical():
    """Ruling: the highest usable die by default; the "critical" setting keeps a die matching the
    Paragon die when the test still passes with it."""
    assert hero([6, 4, 4]).counted == (6, 4)
    chosen = hero([6, 4, 4], keep="critical")
    assert chosen.counted == (4, 4) and chosen.score.critical and chosen.passed
    # ...but never at the cost of failing: 3 + 3 < 8, so the 6 is kept.
    assert hero([6, 3, 3], keep="critical").counted == (6, 3)


@pytest.mark.rule("TO-D-1")
def test_TO_D_1_manual_dice_must_be_faces_of_a_d6():
    with pytest.raises(InputError, match="not a face of a d6"):
        hero([7, 3])


# --- TO-D-2 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TO-D-2")
def test_TO_D_2_an_injured_number_cannot_be_kept_on_a_skill_die():
    """TO-D-2: with 5 filled, a rolled 5 is crossed out and the 4 is kept."""
    test = hero([5, 4, 4], blocked={5})
    assert test.counted == (4, 4) and test.kept == (1,)
    assert test.as_roll()["terms"][0]["blocked"] == [True, False]


@pytest.mark.rule("TO-D-2")
def test_TO_D_2_the_paragon_die_always_counts_even_on_an_injured_number():
    test = hero([3, 5], blocked={5})
    assert test.counted == (3, 5) and test.score.total == 8 and test.passed


@pytest.mark.rule("TO-D-2")
def test_TO_D_2_with_no_usable_skill_die_the_paragon_counts_alone():
    test = hero([5, 4, 6], blocked={5, 4})
    assert test.counted == (6,) and test.kept == () and test.score.total == 6 and not test.passed
    # Alone, the Paragon die can give at most one Bonus and never a Critical.
    lone = hero([5, 6], blocked={5}, target=6)
    assert lone.passed and lone.score.bonuses == 1 and lone.successes == 2 and not lone.score.critical


# --- TO-D-3 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TO-D-3")
def test_TO_D_3_a_pass_scores_one_success():
    assert hero([5, 4]).successes == 1


@pytest.mark.rule("TO-D-3")
def test_TO_D_3_a_six_on_a_counted_die_is_a_bonus():
    test = hero([6, 2])
    assert test.score.bonuses == 1 and test.successes == 2
    assert hero([2, 6]).successes == 2  # the Paragon die's 6 counts too


@pytest.mark.rule("TO-D-3")
def test_TO_D_3_two_sixes_are_two_bonuses():
    test = hero([6, 6], double_six="bonuses")
    assert test.score.bonuses == 2 and test.successes == 3 and not test.score.critical


@pytest.mark.rule("TO-D-3")
def test_TO_D_3_a_failed_test_scores_none_even_with_a_six():
    test = hero([6, 1], target=8)
    assert not test.passed and test.successes == 0 and test.score.bonuses == 0


@pytest.mark.rule("TO-D-3")
def test_TO_D_3_a_six_on_a_die_not_counted_is_no_bonus():
    test = enemy([6, 5, 4, 1], blocked={6})
    assert test.counted == (5, 4) and test.score.bonuses == 0


# --- TO-D-4 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TO-D-4")
def test_TO_D_4_matching_counted_dice_on_a_pass_are_a_critical():
    test = hero([1, 4, 4])
    assert test.passed and test.score.critical and test.successes == 1


@pytest.mark.rule("TO-D-4")
def test_TO_D_4_a_matching_pair_on_a_fail_is_no_critical():
    test = hero([3, 3])
    assert not test.passed and not test.score.critical


@pytest.mark.rule("TO-D-4")
def test_TO_D_4_double_six_is_a_critical_with_two_bonuses_unless_the_setting_says_bonuses():
    crit = hero([6, 6])
    assert crit.score.critical and crit.successes == 3
    plain = hero([6, 6], double_six="bonuses")
    assert not plain.score.critical and plain.successes == 3


# --- TO-D-5 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TO-D-5")
def test_TO_D_5_enemies_roll_their_rating_and_count_the_two_highest():
    test = enemy([2, 5, 1, 4])
    assert test.paragon is None and test.counted == (5, 4) and test.score.total == 9 and test.passed
    assert test.as_roll()["terms"][0]["kept"] == [False, True, False, True]


@pytest.mark.rule("TO-D-5")
def test_TO_D_5_a_rating_of_one_counts_its_single_die():
    test = enemy([6], target=6)
    assert test.counted == (6,) and test.passed and not test.score.critical


@pytest.mark.rule("TO-D-5")
def test_TO_D_5_an_enemy_pair_is_a_critical_and_sixes_are_bonuses():
    test = enemy([5, 5, 2])
    assert test.score.critical and test.successes == 1
    assert enemy([6, 3, 1]).successes == 2


# --- TO-D-6 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TO-D-6")
def test_TO_D_6_an_effect_test_counts_the_two_highest_effect_dice_against_resist():
    roller = ManualRoller([3, 6, 2])
    test = rolls.effect_test(roller, "Effect", 3, 9)
    assert test.counted == (6, 3) and test.score.total == 9 and test.passed
    roller = ManualRoller([3, 5, 2])
    assert not rolls.effect_test(roller, "Effect", 3, 9).passed


@pytest.mark.rule("TO-D-6")
def test_TO_D_6_effect_tests_have_no_bonuses_criticals_or_paragon():
    roller = ManualRoller([6, 6])
    test = rolls.effect_test(roller, "Effect", 2, 5)
    assert test.paragon is None and test.score.bonuses == 0 and not test.score.critical


@pytest.mark.rule("TO-D-6")
def test_TO_D_6_a_weapon_without_effect_dice_never_passes():
    test = rolls.effect_test(ManualRoller([]), "Effect", 0, 1)
    assert not test.passed and test.faces == ()


# --- exact odds -------------------------------------------------------------------------------------


def brute_hero(rating, blocked, modifier, target, keep="highest", double_six="critical"):
    out: dict[Outcome, Fraction] = {}
    for faces in product(range(1, 7), repeat=rating + 1):
        counted = rolls.keep_hero(faces[:-1], frozenset(blocked), faces[-1], modifier, target, keep)
        s = rolls.score(counted.counted, modifier, target, double_six)
        key = (s.successes, s.critical)
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 6 ** (rating + 1))
    return out


@pytest.mark.rule("TO-D-1")
@pytest.mark.parametrize(
    ("rating", "blocked", "modifier", "target", "keep"),
    [
        (0, (), 0, 8, "highest"),
        (1, (), 0, 8, "highest"),
        (3, (), 1, 9, "highest"),
        (3, (5, 4), 0, 8, "highest"),
        (2, (6,), 0, 7, "critical"),
        (4, (5, 4, 3, 2, 1), 0, 8, "highest"),
    ],
)
def test_TO_D_1_hero_odds_are_exact_given_the_usable_faces(rating, blocked, modifier, target, keep):
    """TO-D-1/TO-D-2: the multiset enumeration equals every ordered roll counted one by one."""
    fast = odds.hero_outcomes(rating, frozenset(blocked), modifier, target, keep, "critical")
    assert fast == brute_hero(rating, blocked, modifier, target, keep)
    assert sum(fast.values()) == 1


@pytest.mark.rule("TO-D-2")
def test_TO_D_2_injuries_lower_the_odds_exactly():
    whole = odds.pass_chance(odds.hero_outcomes(2, frozenset(), 0, 8, "highest", "critical"))
    hurt = odds.pass_chance(odds.hero_outcomes(2, frozenset({5, 4}), 0, 8, "highest", "critical"))
    assert hurt < whole
    # With 6 usable only: pass needs a usable 6 with Paragon 2+, or Paragon alone can't reach 8.
    only_six = frozenset({1, 2, 3, 4, 5})
    p = odds.pass_chance(odds.hero_outcomes(1, only_six, 0, 8, "highest", "critical"))
    assert p == Fraction(1, 6) * Fraction(5, 6)


@pytest.mark.rule("TO-D-5")
def test_TO_D_5_enemy_odds_are_exact():
    fast = odds.enemy_outcomes(3, frozenset(), 0, 8, "critical")
    brute: dict[Outcome, Fraction] = {}
    for faces in product(range(1, 7), repeat=3):
        s = rolls.score(rolls.keep_two(faces, frozenset()).counted, 0, 8)
        brute[(s.successes, s.critical)] = brute.get((s.successes, s.critical), Fraction(0)) + Fraction(
            1, 216
        )
    assert fast == brute


@pytest.mark.rule("TO-D-6")
def test_TO_D_6_effect_odds_are_exact():
    assert odds.effect_chance(1, 6) == Fraction(1, 6)  # one die counts alone
    assert odds.effect_chance(1, 5) == Fraction(2, 6)
    assert odds.effect_chance(2, 12) == Fraction(1, 36)
    assert odds.effect_chance(0, 1) == 0


@pytest.mark.rule("TO-H-1")
def test_TO_H_1_hit_bands_partition_every_outcome():
    outcomes = odds.hero_outcomes(3, frozenset({5}), 0, 8, "highest", "critical")
    bands = odds.hit_bands(outcomes)
    assert sum(b.chance for b in bands) == 1
    assert [b.label for b in bands] == ["Miss", "Hit", "Hit + 1 Bonus", "Critical"]
    plain = odds.hit_bands(odds.hero_outcomes(3, frozenset(), 0, 8, "highest", "bonuses"))
    assert "Hit + 2 Bonuses" in [b.label for b in plain] and sum(b.chance for b in plain) == 1
