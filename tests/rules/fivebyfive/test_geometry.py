"""The tabletop's plane geometry: distances and what blocks a straight line (used by FX-M-1, FX-O-1)."""

from __future__ import annotations

import math

import pytest

from app.rules.fivebyfive import geometry

WALL = geometry.rectangle(4, 0, 2, 10)  # x 4..6, y 0..10
# An L: the notch (x 2..4, y 2..4) is outside.
ELL = ((0, 0), (4, 0), (4, 2), (2, 2), (2, 4), (0, 4))


def test_distance_is_straight_line_inches():
    assert geometry.distance((0, 0), (3, 4)) == 5
    assert math.isclose(geometry.distance((1.5, 1.5), (2.5, 2.5)), math.sqrt(2))


@pytest.mark.parametrize(
    ("a", "b", "blocked"),
    [
        ((0, 5), (10, 5), True),  # straight through
        ((0, 12), (10, 12), False),  # passes beyond its end
        ((0, 0), (4, 0), False),  # reaches the corner only
        ((0, -2), (10, 8), True),  # crosses diagonally
        ((4, -1), (4, 11), False),  # runs along the edge
        ((2, 10), (8, 10), False),  # runs along the far edge
        ((0, 5), (5, 5), True),  # ends inside
        ((4, 12), (8, 8), False),  # grazes the corner (6, 10)
    ],
)
def test_a_line_is_blocked_only_when_it_runs_through_the_inside(a, b, blocked):
    assert geometry.passes_through(a, b, WALL) is blocked
    assert geometry.passes_through(b, a, WALL) is blocked


def test_a_line_through_the_notch_of_a_concave_polygon_is_clear():
    assert geometry.passes_through((3, 5), (3, 1.9), ELL) is True  # clips the foot of the L
    assert geometry.passes_through((3, 5), (3, 2.5), ELL) is False  # stays in the notch
    assert geometry.passes_through((2.5, 2.5), (5, 5), ELL) is False
    assert geometry.passes_through((1, 1), (1, 3), ELL) is True


def test_points_inside_on_edge_and_outside():
    assert geometry.strictly_inside((5, 5), WALL)
    assert not geometry.strictly_inside((4, 5), WALL)
    assert not geometry.strictly_inside((3, 3), ELL)
    assert geometry.strictly_inside((1, 3), ELL)


def test_clear_line_checks_every_polygon():
    assert geometry.clear_line((0, 12), (10, 12), [WALL, ELL])
    assert not geometry.clear_line((0, 1), (1, 1), [WALL, ELL])


def test_a_self_crossing_outline_is_not_simple():
    assert geometry.simple(ELL)
    assert not geometry.simple(((0, 0), (2, 2), (2, 0), (0, 2)))
    assert geometry.area(WALL) == 20
