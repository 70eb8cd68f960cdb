"""The battle map as a graph with geometry: TP-M-1, TP-D-1, TP-D-3 and TP-M-7's worked examples."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from app.rules.triptycho import geometry as geo
from app.rules.triptycho import paths
from app.rules.triptycho.board import BattleMap, Border, Section, grid_map, index
from app.rules.triptycho.samples import CHASM, CLIFF, HALLWAY, SAMPLES


def box(x0, y0, x1, y1):
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def row(*rises: int) -> BattleMap:
    """Sections s0..sN in a row with these rises between neighbours."""
    n = len(rises) + 1
    return grid_map(
        "row",
        "Row",
        n,
        1,
        borders=tuple(Border(a=f"c{i}r0", b=f"c{i + 1}r0", height=h) for i, h in enumerate(rises)),
    )


# --- TP-M-1: sections, borders, heights ----------------------------------------------------------


@pytest.mark.rule("TP-M-1")
def test_TP_M_1_borders_come_from_shared_polygon_edges_with_kind_and_height():
    """TP-M-1: neighbours share an edge; a border is soft or hard and carries a signed height."""
    idx = index(CHASM)
    near_to_chasm = idx.edge("near", "chasm")
    assert (near_to_chasm.kind, near_to_chasm.rise) == ("soft", -6)
    assert idx.edge("chasm", "near").rise == 6  # the rise the other way is the opposite
    assert idx.edge("far", "alcove").kind == "hard"
    assert idx.edge("near", "far") is None  # not neighbours
    assert sorted(e.to for e in idx.edges["chasm"]) == ["far", "near"]


@pytest.mark.rule("TP-M-1")
def test_TP_M_1_unlisted_touching_sections_get_a_soft_flat_border_and_corners_do_not_touch():
    """TP-M-1: a drawn neighbour without a listed border is soft and flat; a corner is not a border."""
    m = BattleMap(
        id="m",
        name="Corners",
        sections=(
            Section(id="a", points=box(0, 0, 4, 4)),
            Section(id="b", points=box(4, 0, 8, 4)),
            Section(id="c", points=box(4, 4, 8, 8)),
        ),
    )
    idx = index(m)
    assert idx.edge("a", "b").kind == "soft" and idx.edge("a", "b").rise == 0
    assert idx.edge("a", "c") is None
    assert idx.distance("a", "c") == 2


@pytest.mark.rule("TP-M-1")
def test_TP_M_1_a_long_wall_borders_several_smaller_sections():
    """TP-M-1: a long section touching three short ones along one side has three borders."""
    m = BattleMap(
        id="m",
        name="T",
        sections=(
            Section(id="hall", points=box(0, 0, 12, 4)),
            Section(id="r1", points=box(0, 4, 4, 8)),
            Section(id="r2", points=box(4, 4, 8, 8)),
            Section(id="r3", points=box(8, 4, 12, 8)),
        ),
    )
    idx = index(m)
    assert sorted(e.to for e in idx.edges["hall"]) == ["r1", "r2", "r3"]
    (piece,) = idx.edge("hall", "r2").pieces
    assert set(piece) == {(4, 4), (8, 4)}


@pytest.mark.rule("TP-M-1")
@pytest.mark.parametrize(
    ("sections", "borders", "says"),
    [
        ((Section(id="a", points=box(0, 0, 4, 4)),), (Border(a="a", b="z"),), "not on the map"),
        (
            (Section(id="a", points=box(0, 0, 4, 4)), Section(id="b", points=box(8, 0, 12, 4))),
            (Border(a="a", b="b"),),
            "do not share a border",
        ),
        (
            (Section(id="a", points=box(0, 0, 4, 4)), Section(id="a", points=box(4, 0, 8, 4))),
            (),
            "same id",
        ),
    ],
)
def test_TP_M_1_inconsistent_maps_are_refused_with_a_sentence(sections, borders, says):
    """TP-M-1: a map whose borders do not match its shapes is not accepted."""
    with pytest.raises(ValidationError, match=says):
        BattleMap(id="m", name="Bad", sections=sections, borders=borders)


@pytest.mark.rule("TP-M-1")
def test_TP_M_1_a_self_crossing_section_is_refused():
    """TP-M-1: sections are simple polygons."""
    with pytest.raises(ValidationError, match="crosses itself"):
        Section(id="bow", points=((0, 0), (8, 4), (8, 0), (0, 6)))


@pytest.mark.rule("TP-M-1")
def test_TP_M_1_maps_export_and_import_as_json_unchanged():
    """TP-M-1: a map exports to JSON and imports back as the same map (the three samples too)."""
    for m in SAMPLES:
        again = BattleMap.model_validate(m.export())
        assert again == m
    assert {m.id for m in SAMPLES} == {"hallway", "chasm", "cliff"}
    assert [b.height for b in CHASM.borders if b.height] == [-6, 6]
    assert sorted(b.height for b in CLIFF.borders if b.height > 0) == [1, 2]
    assert all(s.light == "dark" for s in CLIFF.sections if s.id in ("floor", "ledge", "top"))


# --- TP-D-1: distance -----------------------------------------------------------------------------


@pytest.mark.rule("TP-D-1")
def test_TP_D_1_the_seeds_hallway_is_distance_two_end_to_end():
    """TP-D-1: two sections sharing a soft border are distance 1; hallway ends are distance 2."""
    idx = index(HALLWAY)
    assert idx.distance("west", "middle") == 1
    assert idx.distance("west", "east") == 2
    assert idx.distance("east", "east") == 0


@pytest.mark.rule("TP-D-1")
def test_TP_D_1_distance_counts_soft_borders_only_and_walls_make_detours():
    """TP-D-1: distance is the least number of soft borders crossed; a wall forces the way round."""
    m = grid_map("g", "G", 3, 2, borders=(Border(a="c0r0", b="c1r0", kind="hard"),))
    idx = index(m)
    assert idx.distance("c0r0", "c1r0") == 3  # down, across, up
    assert idx.distance("c0r0", "c1r0", hard=True) == 1
    walled = BattleMap(
        id="w",
        name="Sealed",
        sections=(Section(id="a", points=box(0, 0, 4, 4)), Section(id="b", points=box(4, 0, 8, 4))),
        borders=(Border(a="a", b="b", kind="hard"),),
    )
    assert index(walled).distance("a", "b") is None


@st.composite
def walled_grids(draw):
    cols, rows = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    pairs = [(f"c{c}r{r}", f"c{c + 1}r{r}") for c in range(cols - 1) for r in range(rows)]
    pairs += [(f"c{c}r{r}", f"c{c}r{r + 1}") for c in range(cols) for r in range(rows - 1)]
    hard = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    heights = draw(st.lists(st.integers(-3, 3), min_size=len(pairs), max_size=len(pairs)))
    borders = tuple(
        Border(a=a, b=b, kind="hard" if h else "soft", height=z)
        for (a, b), h, z in zip(pairs, hard, heights, strict=True)
    )
    return grid_map("h", "H", cols, rows, borders=borders)


@pytest.mark.rule("TP-D-1")
@settings(max_examples=60, deadline=None)
@given(walled_grids(), st.data())
def test_TP_D_1_distance_is_symmetric_and_obeys_the_triangle_inequality(m, data):
    """TP-D-1 (Hypothesis): over soft borders, d(a,b) = d(b,a) and d(a,c) <= d(a,b) + d(b,c)."""
    idx = index(m)
    ids = sorted(idx.sections)
    a, b, c = (data.draw(st.sampled_from(ids)) for _ in range(3))
    assert idx.distance(a, b) == idx.distance(b, a)
    ab, bc, ac = idx.distance(a, b), idx.distance(b, c), idx.distance(a, c)
    if ab is not None and bc is not None:
        assert ac is not None and ac <= ab + bc
    assert idx.distance(a, a) == 0


# --- TP-D-3: straight lines -----------------------------------------------------------------------

# A U-shaped corridor: a-b-c along the bottom, then d above c and e above b.
U = BattleMap(
    id="u",
    name="U",
    sections=(
        Section(id="a", points=box(0, 0, 4, 4)),
        Section(id="b", points=box(4, 0, 8, 4)),
        Section(id="c", points=box(8, 0, 12, 4)),
        Section(id="d", points=box(8, 4, 12, 8)),
        Section(id="e", points=box(4, 4, 8, 8)),
    ),
    borders=(Border(a="b", b="e", kind="hard"),),
)


@pytest.mark.rule("TP-D-3")
def test_TP_D_3_a_line_cannot_curve_around_a_corner():
    """TP-D-3: a-b-c-d-e bends back on itself: no straight line crosses those borders in that order."""
    idx = index(U)
    route, why, rule = paths.check_route(idx, ("a", "b", "c", "d", "e"))
    assert route is None and rule == "TP-D-3"
    assert "do not curve" in why
    route, _, _ = paths.check_route(idx, ("a", "b", "c", "d"))
    assert route is not None and route.borders == 3  # a gentle diagonal up into d is straight
    assert paths.check_route(idx, ("b", "e"))[2] == "TP-D-1"  # a wall is no route


@pytest.mark.rule("TP-D-3")
def test_TP_D_3_the_straight_line_test_on_portals():
    """TP-D-3: portals in a row line up; a portal behind and to the side does not."""
    assert geo.straight_through([((4, 0), (4, 4)), ((8, 0), (8, 4)), ((12, 0), (12, 4))])
    # Right across x=4, then up through y=4 at x 4..8: a diagonal does it.
    assert geo.straight_through([((4, 0), (4, 4)), ((8, 4), (4, 4)), ((8, 8), (4, 8))])
    # Across x=4 heading east, then back west across x=0: impossible.
    assert not geo.straight_through([((4, 0), (4, 4)), ((8, 0), (8, 4)), ((4, 8), (4, 4)), ((0, 4), (0, 8))])


@pytest.mark.rule("TP-D-3")
def test_TP_D_3_the_attacker_may_choose_a_longer_straight_route():
    """TP-D-3: any straight route of soft borders is allowed; the best one needs the least range."""
    m = grid_map("g", "G", 3, 3)
    idx = index(m)
    route, _, _ = paths.check_route(idx, ("c0r0", "c1r0", "c1r1"))
    assert route is not None and route.borders == 2
    best, _ = paths.best_route(idx, "c0r0", "c2r2", 4)
    assert best is not None and best.borders == 4
    reach = paths.routes_within(idx, "c1r1", 1)
    assert sorted(reach) == ["c0r1", "c1r0", "c1r1", "c1r2", "c2r1"]


# --- TP-M-7: the seed's four examples -------------------------------------------------------------


@pytest.mark.rule("TP-M-7")
@pytest.mark.parametrize(
    ("rises", "needs", "blocked"),
    [((1, 2), 3, False), ((-6, 6), 2, False), ((1, -2), None, True), ((-2, -1), 3, False)],
)
def test_TP_M_7_the_seeds_four_worked_examples(rises, needs, blocked):
    """TP-M-7: +1,+2 needs range 3; -6,+6 needs range 2; +1,-2 is blocked; -2,-1 needs range 3."""
    m = row(*rises)
    idx = index(m)
    best, shortest = paths.best_route(idx, "c0r0", "c2r0", 10)
    assert shortest is not None and shortest.rises == rises
    if blocked:
        assert best is None and shortest.blocked
        assert not paths.line_of_sight(idx, "c0r0", "c2r0")
        for reach in range(0, 12):
            assert "c2r0" not in paths.routes_within(idx, "c0r0", reach)
    else:
        assert best.needs == needs
        assert "c2r0" not in paths.routes_within(idx, "c0r0", needs - 1)
        assert "c2r0" in paths.routes_within(idx, "c0r0", needs)
    assert paths.height_needs(rises) == (needs if not blocked else max(2, abs(sum(rises))), blocked)


@pytest.mark.rule("TP-M-7")
def test_TP_M_7_range_needed_is_the_larger_of_borders_and_height_change():
    """TP-M-7: range must cover the borders crossed and the total height change."""
    assert paths.height_needs((1,)) == (1, False)
    assert paths.height_needs((3,)) == (3, False)
    assert paths.height_needs((0, 0, 0)) == (3, False)
    assert paths.height_needs((2, -2)) == (2, True)  # a ridge between equal ends hides them


# --- speed: a 200-section map ---------------------------------------------------------------------


def test_a_200_section_map_answers_distance_routes_and_sight_quickly():
    """Distance, reach and sight on a 10x20 map: each well under 10 ms once the map is indexed."""
    walls = tuple(Border(a=f"c{c}r9", b=f"c{c}r10", kind="hard") for c in range(10) if c != 4)
    m = grid_map("big", "Big", 10, 20, borders=walls)
    idx = index(m)
    assert len(idx.sections) == 200
    timings = []
    for fn in (
        lambda: idx.distances("c0r0"),
        lambda: paths.routes_within(idx, "c5r5", 5),
        lambda: paths.line_of_sight(idx, "c0r0", "c9r8"),
    ):
        start = time.perf_counter()
        fn()
        timings.append(time.perf_counter() - start)
    assert idx.distance("c0r0", "c0r19") == 19 + 8  # round through the gap at c4
    assert max(timings) < 0.5  # generous for slow CI; the figures are printed by bench runs
