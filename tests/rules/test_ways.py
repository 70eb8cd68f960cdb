"""Counting ways in integers (app/rules/ways.py), against every roll spelled out."""

from __future__ import annotations

from collections import Counter
from itertools import product
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import ways


def spelled_out(count: int, lo: int, hi: int, total_of) -> dict[int, int]:
    return dict(Counter(total_of(roll) for roll in product(range(lo, hi + 1), repeat=count)))


def as_dict(table: ways.Table) -> dict[int, int]:
    start, counts = table
    return {start + i: w for i, w in enumerate(counts) if w}


@settings(max_examples=60, deadline=None)
@given(count=st.integers(1, 6), lo=st.integers(0, 2), faces=st.integers(2, 7))
def test_a_sum_of_dice_counts_every_roll(count, lo, faces):
    hi = lo + faces - 1
    assert as_dict(ways.sum_of(count, lo, hi)) == spelled_out(count, lo, hi, sum)


@settings(max_examples=80, deadline=None)
@given(
    count=st.integers(1, 6),
    lo=st.integers(0, 1),
    faces=st.integers(2, 6),
    highest=st.booleans(),
    data=st.data(),
)
def test_kept_dice_count_every_roll_by_their_threshold(count, lo, faces, highest, data):
    keep = data.draw(st.integers(1, count))
    hi = lo + faces - 1

    def kept(roll):
        return sum(sorted(roll, reverse=highest)[:keep])

    assert as_dict(ways.keep_of(count, lo, hi, keep, highest)) == spelled_out(count, lo, hi, kept)


@pytest.mark.parametrize("keep", [1, 50, 99, 100])
def test_a_hundred_kept_dice_count_all_their_rolls(keep):
    start, counts = ways.keep_of(100, 1, 4, keep, True)
    assert start == keep and len(counts) == 3 * keep + 1
    assert sum(counts) == 4**100
    assert counts[0] == 1  # the lowest kept sum: every die shows 1
    # The highest: at least `keep` fours, any of the three other faces on the rest.
    assert counts[-1] == sum(comb(100, j) * 3**j for j in range(100 - keep + 1))


def test_the_largest_plain_sums_are_symmetric_and_count_every_roll():
    start, counts = ways.sum_of(99, 1, 20)
    assert start == 99 and len(counts) == 99 * 19 + 1
    assert sum(counts) == 20**99 and counts == counts[::-1]
    assert counts[1] == 99  # one die shows a 2, the rest a 1


def test_tables_multiply_and_negate_as_sums_and_differences_of_rolls():
    d6, d4 = ways.sum_of(1, 1, 6), ways.sum_of(1, 1, 4)
    both = Counter(a + b for a in range(1, 7) for b in range(1, 5))
    assert as_dict(ways.multiply(d6, d4)) == dict(both)
    less = Counter(a - b for a in range(1, 7) for b in range(1, 5))
    assert as_dict(ways.multiply(d6, ways.negate(d4))) == dict(less)
