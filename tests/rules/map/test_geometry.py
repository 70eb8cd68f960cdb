"""Grid distances (square with each diagonal rule, hex), snapping, and fog as shapes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules.map.geometry import (
    add_stroke,
    distance,
    fogged,
    fogged_points,
    hex_center,
    in_polygon,
    scene_fogged,
    snap,
)
from app.rules.map.state import FogOp, Grid, Scene

SQUARE = Grid(type="square", size=50, per_cell=5)


def centre(cx: int, cy: int, grid: Grid = SQUARE) -> tuple[float, float]:
    return (grid.offset[0] + (cx + 0.5) * grid.size, grid.offset[1] + (cy + 0.5) * grid.size)


@pytest.mark.parametrize(
    ("diagonals", "to", "expected"),
    [
        ("5-5-5", (3, 0), 15),  # straight along a row
        ("5-5-5", (3, 3), 15),  # every diagonal step is one cell
        ("5-5-5", (4, 2), 20),
        ("5-10-5", (1, 1), 5),  # the first diagonal counts once
        ("5-10-5", (2, 2), 15),  # the second counts double
        ("5-10-5", (3, 3), 20),
        ("5-10-5", (4, 2), 25),  # two diagonals (5 + 10) and two straight steps
        ("straight", (3, 4), 25),  # as the crow flies: 5 cells
        ("straight", (3, 0), 15),
    ],
)
def test_square_distance_by_each_diagonal_rule(diagonals: str, to: tuple[int, int], expected: float):
    grid = SQUARE.model_copy(update={"diagonals": diagonals})
    assert distance(grid, centre(0, 0, grid), centre(*to, grid)) == pytest.approx(expected)


def test_square_distance_follows_the_offset_and_the_unit():
    grid = Grid(type="square", size=40, offset=(15, 25), per_cell=1.5, unit="m")
    assert distance(grid, centre(0, 0, grid), centre(2, 0, grid)) == pytest.approx(3.0)
    # Without the offset the same two points would sit in other cells.
    assert distance(grid, (16, 26), (54, 26)) == 0


@pytest.mark.parametrize(
    ("q", "r", "steps"), [(1, 0, 1), (0, 1, 1), (2, -1, 2), (3, 0, 3), (-2, 3, 3), (2, 2, 4)]
)
def test_hex_distance_counts_hex_steps(q: int, r: int, steps: int):
    grid = Grid(type="hex", size=60, per_cell=5)
    assert distance(grid, hex_center(grid, 0, 0), hex_center(grid, q, r)) == pytest.approx(5 * steps)


def test_no_grid_measures_pixels_in_cells():
    grid = Grid(type="none", size=100, per_cell=5)
    assert distance(grid, (0, 0), (300, 400)) == pytest.approx(25)


def test_snap_puts_a_token_in_the_middle_of_its_cell():
    assert snap(SQUARE, 61, 149) == (75, 125)
    hexes = Grid(type="hex", size=60)
    assert snap(hexes, *hex_center(hexes, 2, 1)) == pytest.approx(hex_center(hexes, 2, 1))
    assert snap(Grid(type="none"), 12.5, 7) == (12.5, 7)


def test_fog_is_the_last_stroke_that_holds_the_point():
    fog = add_stroke((), FogOp(op="cover"))
    assert fogged(fog, (10, 10))
    fog = add_stroke(fog, FogOp(op="reveal", rect=(0, 0, 100, 100)))  # difference
    assert not fogged(fog, (10, 10)) and fogged(fog, (150, 10))
    fog = add_stroke(fog, FogOp(op="cover", polygon=((0, 0), (50, 0), (0, 50))))  # union
    assert fogged(fog, (10, 10)) and not fogged(fog, (80, 80))


def test_whole_scene_strokes_start_over():
    fog = add_stroke((), FogOp(op="cover", rect=(0, 0, 5, 5)))
    assert add_stroke(fog, FogOp(op="cover")) == (FogOp(op="cover"),)
    assert add_stroke(fog, FogOp(op="reveal")) == ()
    assert add_stroke((), FogOp(op="reveal", rect=(0, 0, 5, 5))) == ()  # nothing was covered


def test_point_in_polygon_edges_and_concave_corners():
    l_shape = ((0, 0), (100, 0), (100, 40), (40, 40), (40, 100), (0, 100))
    assert in_polygon(l_shape, (20, 80))
    assert not in_polygon(l_shape, (80, 80))  # the notch
    assert in_polygon(l_shape, (100, 20))  # on an edge
    assert in_polygon(l_shape, (40, 40))  # on a corner


@given(
    st.lists(
        st.tuples(st.booleans(), st.tuples(*(st.integers(0, 90),) * 2), st.integers(1, 40)),
        max_size=8,
    ),
    st.tuples(st.integers(0, 130), st.integers(0, 130)),
)
def test_fog_matches_a_pixel_by_pixel_paint(strokes, point):
    """Fog as shapes agrees with painting each stroke onto a grid of cells in order."""
    fog: tuple[FogOp, ...] = ()
    painted = False
    for cover, (x, y), side in strokes:
        op = FogOp(op="cover" if cover else "reveal", rect=(x, y, side, side))
        fog = add_stroke(fog, op)
        if x <= point[0] <= x + side and y <= point[1] <= y + side:
            painted = cover
    assert fogged(fog, point) == painted


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["cover", "reveal"]),
            st.one_of(
                st.tuples(st.integers(0, 90), st.integers(0, 90), st.integers(1, 40), st.integers(1, 40)),
                st.lists(st.tuples(st.integers(0, 130), st.integers(0, 130)), min_size=3, max_size=7),
                st.none(),
            ),
        ),
        max_size=8,
    ),
    st.lists(st.tuples(st.integers(0, 130), st.integers(0, 130)), max_size=20),
)
def test_many_points_at_once_agree_with_one_at_a_time(strokes, points):
    """The vectorised test a view makes (and its memo on the scene) reads every point as `fogged` does,
    edges, crossing outlines of older logs and whole-scene strokes included."""
    fog: tuple[FogOp, ...] = ()
    for op, shape in strokes:
        if isinstance(shape, tuple):
            fog = add_stroke(fog, FogOp(op=op, rect=shape))
        elif shape is not None:
            fog = add_stroke(fog, FogOp(op=op, polygon=tuple(shape)))
        else:
            fog = add_stroke(fog, FogOp(op=op))
    one_at_a_time = [fogged(fog, p) for p in points]
    assert fogged_points(fog, points) == one_at_a_time
    scene = Scene(id="s1", name="Crypt", width=200, height=200, fog=fog)
    assert scene_fogged(scene, points) == one_at_a_time
    assert scene_fogged(scene, points) == one_at_a_time  # from the memo


def test_a_copy_of_a_scene_with_other_fog_does_not_read_the_old_memo():
    covered = Scene(id="s1", name="Crypt", width=200, height=200, fog=(FogOp(op="cover"),))
    assert scene_fogged(covered, [(10, 10)]) == [True]
    cleared = covered.model_copy(update={"fog": ()})  # a reducer's copy carries the memo along
    assert scene_fogged(cleared, [(10, 10)]) == [False]
    assert covered == covered.model_copy() and "fog" in covered.model_dump()
