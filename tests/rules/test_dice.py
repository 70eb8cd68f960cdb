"""Dice expressions, rollers and exact distributions (app/rules/dice.py)."""

from __future__ import annotations

import signal
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import dice
from app.rules.dice import ManualRoller
from app.rules.errors import InputError, RuleError
from app.services.rollers import SecureRoller, SeededRoller

# --- helpers -------------------------------------------------------------------------------------


def brute_force(count: int, sides: int, total_of) -> dict[int, Fraction]:
    """The distribution of total_of(faces) over every one of the sides**count rolls."""
    outcomes = Counter(total_of(faces) for faces in product(range(1, sides + 1), repeat=count))
    n = sides**count
    return {total: Fraction(ways, n) for total, ways in sorted(outcomes.items())}


def is_sentence(message: str) -> bool:
    return message.endswith(".") and " " in message and len(message) >= 15 and "Traceback" not in message


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise TimeoutError in this (main) thread when the block runs longer than `seconds`."""

    def _expired(signum, frame):
        raise TimeoutError(f"took longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, _expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --- exact distributions -------------------------------------------------------------------------


def test_two_d6_at_least_ten_is_exactly_one_sixth():
    assert dice.at_least(dice.distribution("2d6"), 10) == Fraction(1, 6)


def test_two_d6_totals_match_the_36_outcomes_and_sum_to_one():
    dist = dice.distribution("2d6")
    counts = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
    assert dist == {total: Fraction(ways, 36) for total, ways in counts.items()}
    assert sum(dist.values()) == 1
    assert dist[7] == Fraction(1, 6)
    assert dice.at_most(dist, 4) == Fraction(6, 36)


def test_one_d20_is_uniform_from_1_to_20():
    dist = dice.distribution("1d20")
    assert list(dist) == list(range(1, 21))
    assert set(dist.values()) == {Fraction(1, 20)}
    assert dice.mean(dist) == Fraction(21, 2)


def test_four_d6_keep_highest_three_matches_all_1296_rolls():
    dist = dice.distribution("4d6kh3")
    expected = brute_force(4, 6, lambda faces: sum(sorted(faces)[1:]))
    assert dist == expected
    assert dist[3] == Fraction(1, 1296)
    assert dist[18] == Fraction(21, 1296)
    assert sum(dist.values()) == 1


def test_two_d20_keep_lowest_one_matches_all_400_rolls():
    dist = dice.distribution("2d20kl1")
    assert dist == brute_force(2, 20, min)
    assert dist[1] == Fraction(39, 400)
    assert dist[20] == Fraction(1, 400)


def test_keep_without_h_or_l_keeps_the_highest():
    assert dice.parse("4d6k3").text == "4d6kh3"
    assert dice.distribution("4d6k3") == dice.distribution("4d6kh3")


def test_modifier_and_subtracted_dice_shift_and_mirror_the_distribution():
    assert dice.distribution("2d6+1") == {t + 1: p for t, p in dice.distribution("2d6").items()}
    assert dice.distribution("3d6-2") == {t - 2: p for t, p in dice.distribution("3d6").items()}
    assert dice.distribution("1d4-1d4") == brute_force(2, 4, lambda f: f[0] - f[1])
    assert dice.distribution("1d4+1d6") == {
        total: Fraction(ways, 24)
        for total, ways in sorted(Counter(a + b for a in range(1, 5) for b in range(1, 7)).items())
    }


def test_d5_is_a_d6_read_one_to_five_with_six_as_zero():
    dist = dice.distribution("d5")
    assert dist == {v: Fraction(1, 6) for v in range(6)}
    assert dice.parse("d5").text == "1d5"
    assert dice.parse("d5").terms[0].sides == 6


def test_d5_rolled_with_typed_faces_reads_six_as_zero():
    six = dice.roll("d5", ManualRoller([6]))
    assert six.total == 0
    assert six.as_dict()["terms"][0]["faces"] == [6]
    assert six.as_dict()["terms"][0]["values"] == [0]
    assert dice.roll("d5", ManualRoller([3])).total == 3
    assert dice.roll_d5(ManualRoller([6, 5, 1]), 3) == (0, 5, 1)


def test_d5_keep_highest_counts_zero_as_lowest():
    # 2d5kh1 over the 36 physical rolls: a six reads 0, so [6, 1] keeps 1.
    assert dice.distribution("2d5kh1") == brute_force(2, 6, lambda f: max(0 if x == 6 else x for x in f))
    result = dice.roll("2d5kh1", ManualRoller([6, 1]))
    assert result.as_dict()["terms"][0]["kept"] == [False, True]
    assert result.total == 1


def test_percentile_die_is_a_d100():
    assert dice.parse("d%").text == "1d100"
    assert dice.distribution("d%") == {v: Fraction(1, 100) for v in range(1, 101)}


def test_distribution_returned_is_a_copy_the_cache_keeps_its_own():
    first = dice.distribution("2d6")
    first[7] = Fraction(0)
    first[99] = Fraction(1)
    again = dice.distribution("2d6")
    assert again[7] == Fraction(1, 6)
    assert 99 not in again


def test_keep_odds_for_too_many_dice_are_refused_with_a_sentence():
    with pytest.raises(InputError) as info:
        dice.distribution("100d20kh1")
    assert is_sentence(str(info.value))
    assert "100d20" in str(info.value)


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")
def test_exact_odds_of_the_largest_allowed_roll_are_quick_or_refused():
    with time_limit(3):
        try:
            dist = dice.distribution("100d1000")
        except InputError as error:
            assert is_sentence(str(error))
        else:
            assert min(dist) == 100 and max(dist) == 100_000


def test_fraction_text_reads_as_a_percentage():
    assert dice.fraction_text(Fraction(1, 6)) == "16.7%"
    assert dice.fraction_text(Fraction(1)) == "100%"
    assert dice.fraction_text(Fraction(0)) == "0%"
    assert dice.fraction_text(Fraction(1, 10_000)) == "<0.1%"


# --- rolling: faces go into the result ---------------------------------------------------------


def test_two_d6_plus_one_writes_faces_values_kept_and_total():
    result = dice.roll("2d6+1", ManualRoller([3, 5]))
    assert result.as_dict() == {
        "expression": "2d6+1",
        "terms": [
            {
                "notation": "2d6",
                "sides": 6,
                "faces": [3, 5],
                "values": [3, 5],
                "kept": [True, True],
                "sign": 1,
            }
        ],
        "modifier": 1,
        "total": 9,
    }
    assert result.total == 9
    assert result.faces == (3, 5)


def test_three_d6_minus_two_totals_the_faces_less_two():
    result = dice.roll("3d6-2", ManualRoller([1, 2, 6]))
    data = result.as_dict()
    assert data["expression"] == "3d6-2"
    assert data["modifier"] == -2
    assert data["terms"][0]["faces"] == [1, 2, 6]
    assert data["total"] == 7


def test_one_d4_plus_one_d6_rolls_each_die_from_the_faces_in_order():
    roller = ManualRoller([4, 6])
    data = dice.roll("1d4+1d6", roller).as_dict()
    roller.finish()
    assert [(t["notation"], t["sides"], t["faces"]) for t in data["terms"]] == [
        ("1d4", 4, [4]),
        ("1d6", 6, [6]),
    ]
    assert data["total"] == 10


def test_subtracted_dice_count_against_the_total():
    data = dice.roll("1d20-1d4+2", ManualRoller([15, 3])).as_dict()
    assert [t["sign"] for t in data["terms"]] == [1, -1]
    assert data["total"] == 14


def test_keep_highest_marks_the_dropped_die():
    data = dice.roll("4d6kh3", ManualRoller([5, 1, 6, 3])).as_dict()
    assert data["terms"][0]["faces"] == [5, 1, 6, 3]
    assert data["terms"][0]["kept"] == [True, False, True, True]
    assert data["total"] == 14


def test_keep_lowest_marks_the_higher_die_dropped():
    data = dice.roll("2d20kl1", ManualRoller([15, 7])).as_dict()
    assert data["terms"][0]["kept"] == [False, True]
    assert data["total"] == 7


def test_keep_with_tied_faces_keeps_exactly_the_number_asked():
    data = dice.roll("3d6kh2", ManualRoller([4, 4, 4])).as_dict()
    assert sum(data["terms"][0]["kept"]) == 2
    assert data["total"] == 8


# --- parsing -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "normal"),
    [
        (" 2D6 + 1 ", "2d6+1"),
        ("D20", "1d20"),
        ("4d6KH3", "4d6kh3"),
        ("2d20kl1", "2d20kl1"),
        ("1d6+1d6", "1d6+1d6"),
        ("3 - 1d4", "-1d4+3"),
        ("+2d6", "2d6"),
        ("2d6+1-1", "2d6"),
    ],
)
def test_parse_normalizes_the_text(text, normal):
    assert dice.parse(text).text == normal


def test_parse_counts_dice_and_modifier():
    expression = dice.parse("4d6kh3+1d8-2")
    assert expression.dice_count == 5
    assert expression.modifier == -2
    assert [(t.count, t.sides, t.keep, t.keep_highest) for t in expression.terms] == [
        (4, 6, 3, True),
        (1, 8, None, True),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "2x6",
        "0d6",
        "d1",
        "101d6",
        "60d6+50d6",
        "4d6kh5",
        "4d6kh0",
        "2d6+",
        "2d6++1",
        "d10000",
        "1d6+10001",
        "7",
        "d",
        "4d6k",
        "1d6+" * 30 + "1",
        "hello world",
    ],
)
def test_malformed_expressions_are_refused_with_a_sentence(text):
    with pytest.raises(InputError) as info:
        dice.parse(text)
    message = str(info.value)
    assert is_sentence(message), message
    assert info.value.status == 422


def test_specific_refusals_say_what_is_wrong():
    def refusal(text: str) -> str:
        with pytest.raises(InputError) as info:
            dice.parse(text)
        return str(info.value)

    assert "2d6+1" in refusal("")
    assert "at least one die" in refusal("0d6")
    assert "at least 2 sides" in refusal("d1")
    assert "more than 100 dice" in refusal("101d6")
    assert "keep from 1 to 4" in refusal("4d6kh5")
    assert "too many sides" in refusal("d10000")
    assert "too long" in refusal("1d6+" * 30 + "1")
    assert "'2x6' is not a dice expression" in refusal("2x6")


def test_input_error_is_a_rule_error():
    assert issubclass(InputError, RuleError)


# --- rollers -------------------------------------------------------------------------------------


def test_manual_roller_refuses_a_face_out_of_range_naming_the_die():
    with pytest.raises(InputError) as info:
        dice.roll("1d6", ManualRoller([7]))
    assert "d6" in str(info.value)
    assert "7" in str(info.value)
    assert is_sentence(str(info.value))
    with pytest.raises(InputError, match="d20"):
        ManualRoller([0]).roll(20)


def test_manual_roller_for_a_d5_takes_physical_d6_faces():
    with pytest.raises(InputError, match="d6"):
        dice.roll("d5", ManualRoller([7]))


def test_manual_roller_refuses_too_few_faces():
    roller = ManualRoller([3])
    with pytest.raises(InputError) as info:
        dice.roll("2d6", roller)
    assert "Not enough dice" in str(info.value)
    assert "2 faces" in str(info.value)
    assert roller.used == 0


def test_manual_roller_refuses_leftover_faces_on_finish():
    roller = ManualRoller([1, 2, 3])
    dice.roll("2d6", roller)
    assert roller.used == 2
    with pytest.raises(InputError) as info:
        roller.finish()
    assert str(info.value) == "You entered 3 dice, but this roll uses 2."


def test_manual_roller_finish_with_no_dice_used_says_the_action_rolls_none():
    with pytest.raises(InputError) as info:
        ManualRoller([4]).finish()
    assert "rolls no dice" in str(info.value)
    assert is_sentence(str(info.value))


def test_manual_roller_finish_passes_when_every_face_is_used():
    roller = ManualRoller([2, 6, 1])
    dice.roll("1d4+2d6", roller)
    roller.finish()
    ManualRoller([]).finish()


def test_seeded_roller_is_repeatable_for_the_same_seed():
    a, b = SeededRoller(42), SeededRoller(42)
    first = [a.roll(20, 5) for _ in range(10)]
    assert first == [b.roll(20, 5) for _ in range(10)]
    assert all(1 <= face <= 20 for faces in first for face in faces)
    assert dice.roll("4d6kh3", SeededRoller("demo")) == dice.roll("4d6kh3", SeededRoller("demo"))


def test_secure_roller_faces_are_within_range():
    roller = SecureRoller()
    for sides in (2, 6, 20, 100):
        faces = roller.roll(sides, 200)
        assert len(faces) == 200
        assert all(1 <= face <= sides for face in faces)
    assert roller.roll(6) and len(roller.roll(6)) == 1


# --- properties ----------------------------------------------------------------------------------

SIDES = (2, 4, 6, 8, 10, 12, 20)


@st.composite
def small_expressions(draw):
    """(text, terms, modifier) with terms as (sign, count, sides, keep) and keep (kind, n) or None."""
    terms = []
    for index in range(draw(st.integers(1, 2))):
        count = draw(st.integers(1, 4))
        sides = draw(st.sampled_from(SIDES))
        keep = draw(st.none() | st.tuples(st.sampled_from(["kh", "kl"]), st.integers(1, count)))
        sign = 1 if index == 0 else draw(st.sampled_from([1, -1]))
        terms.append((sign, count, sides, keep))
    modifier = draw(st.integers(-5, 5))
    text = ""
    for sign, count, sides, keep in terms:
        text += ("-" if sign < 0 else "+") + f"{count}d{sides}" + (f"{keep[0]}{keep[1]}" if keep else "")
    text = text.lstrip("+") + (f"{modifier:+d}" if modifier else "")
    return text, terms, modifier


def bounds(terms, modifier) -> tuple[int, int]:
    low = high = modifier
    for sign, count, sides, keep in terms:
        kept = keep[1] if keep else count
        lo, hi = kept, kept * sides
        if sign > 0:
            low, high = low + lo, high + hi
        else:
            low, high = low - hi, high - lo
    return low, high


@settings(max_examples=80, deadline=None)
@given(small_expressions())
def test_property_small_distributions_sum_to_one_within_theoretical_bounds(case):
    text, terms, modifier = case
    dist = dice.distribution(text)
    assert sum(dist.values()) == 1
    assert all(p > 0 for p in dist.values())
    assert (min(dist), max(dist)) == bounds(terms, modifier)
    assert dice.parse(dice.parse(text).text).text == dice.parse(text).text


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_property_any_valid_typed_faces_give_a_possible_total(data):
    text, terms, modifier = data.draw(small_expressions())
    faces = []
    for _sign, count, sides, _keep in terms:
        faces += data.draw(st.lists(st.integers(1, sides), min_size=count, max_size=count))
    roller = ManualRoller(faces)
    result = dice.roll(text, roller)
    roller.finish()
    dist = dice.distribution(text)
    assert dist.get(result.total, 0) > 0
    assert list(result.faces) == faces
    low, high = bounds(terms, modifier)
    assert low <= result.total <= high


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(1, 4),
    sides=st.sampled_from((2, 3, 4, 6)),
    highest=st.booleans(),
    data=st.data(),
)
def test_property_keep_odds_agree_with_brute_force(count, sides, highest, data):
    keep = data.draw(st.integers(1, count))
    text = f"{count}d{sides}{'kh' if highest else 'kl'}{keep}"

    def kept_total(faces):
        ordered = sorted(faces, reverse=highest)
        return sum(ordered[:keep])

    assert dice.distribution(text) == brute_force(count, sides, kept_total)


# Exact odds count ways in integers (polynomials multiplied as big integers, kept dice face by face):
# checked here against every roll spelled out, for random small expressions of every kind.
@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(1, 4),
    sides=st.sampled_from([2, 3, 4, 5, 6, 8]),
    keep=st.integers(0, 4),
    highest=st.booleans(),
    sign=st.sampled_from(["+", "-"]),
    other=st.sampled_from(["", "1d4", "2d3", "1d5"]),
    modifier=st.integers(-3, 3),
)
def test_exact_odds_match_every_roll_spelled_out(count, sides, keep, highest, sign, other, modifier):
    keep = min(keep, count)
    first = f"{count}d{sides}" + (f"{'kh' if highest else 'kl'}{keep}" if keep else "")
    text = first + (f"{sign}{other}" if other else "") + (f"{modifier:+d}" if modifier else "")
    expression = dice.parse(text)
    faces_of = [
        [dice.read_face(f, t.zero_high) for f in range(1, t.sides + 1)]
        for t in expression.terms
        for _ in range(t.count)
    ]
    outcomes: Counter[int] = Counter()
    for roll in product(*faces_of):
        total, i = expression.modifier, 0
        for term in expression.terms:
            mine = sorted(roll[i : i + term.count])
            i += term.count
            kept = (
                mine
                if term.keep is None
                else (mine[-term.keep :] if term.keep_highest else mine[: term.keep])
            )
            total += term.sign * sum(kept)
        outcomes[total] += 1
    rolls = sum(outcomes.values())
    assert dice.distribution(text) == {v: Fraction(n, rolls) for v, n in sorted(outcomes.items())}


def test_the_largest_plain_rolls_are_exact():
    dist = dice.distribution("99d20")
    assert sum(dist.values()) == 1 and dice.mean(dist) == Fraction(99 * 21, 2)
    assert dist[99] == Fraction(1, 20**99) and dist[1980] == Fraction(1, 20**99)
    assert dist[1039] == dist[1040]  # symmetric about the mean, 1039.5
    both = dice.distribution("3d100kh2+16d100")
    assert sum(both.values()) == 1 and min(both) == 18 and max(both) == 1800
