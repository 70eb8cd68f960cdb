"""Grid distances, snapping and fog as shapes: plain geometry in image pixels, no I/O."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely

from app.rules.map.state import Drawing, FogOp, Grid, Point, Rect, Scene

SQRT3 = math.sqrt(3.0)


# --- grids -------------------------------------------------------------------------------------


def square_cell(grid: Grid, x: float, y: float) -> tuple[int, int]:
    return (math.floor((x - grid.offset[0]) / grid.size), math.floor((y - grid.offset[1]) / grid.size))


def hex_cell(grid: Grid, x: float, y: float) -> tuple[int, int]:
    """The axial (q, r) of the pointy-top hex holding a point; `size` is a hex's width."""
    radius = grid.size / SQRT3
    px, py = x - grid.offset[0] - grid.size / 2, y - grid.offset[1] - radius
    q = (SQRT3 / 3 * px - py / 3) / radius
    r = (2 / 3 * py) / radius
    return _hex_round(q, r)


def _hex_round(q: float, r: float) -> tuple[int, int]:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return int(rq), int(rr)


def hex_center(grid: Grid, q: int, r: int) -> Point:
    radius = grid.size / SQRT3
    x = radius * SQRT3 * (q + r / 2) + grid.offset[0] + grid.size / 2
    y = radius * 1.5 * r + grid.offset[1] + radius
    return (x, y)


def cell_steps(grid: Grid, a: Point, b: Point) -> float:
    """How many cells apart two points are, by the grid's own rule (fractions only with no grid)."""
    if grid.type == "hex":
        (q1, r1), (q2, r2) = hex_cell(grid, *a), hex_cell(grid, *b)
        dq, dr = q2 - q1, r2 - r1
        return float((abs(dq) + abs(dr) + abs(dq + dr)) // 2)
    if grid.type == "none":
        return math.dist(a, b) / grid.size
    (x1, y1), (x2, y2) = square_cell(grid, *a), square_cell(grid, *b)
    dx, dy = abs(x2 - x1), abs(y2 - y1)
    diagonal, straight = min(dx, dy), abs(dx - dy)
    if grid.diagonals == "5-5-5":
        return float(diagonal + straight)
    if grid.diagonals == "5-10-5":  # every second diagonal counts double
        return float(straight + diagonal + diagonal // 2)
    return math.hypot(dx, dy)


def distance(grid: Grid, a: Point, b: Point) -> float:
    """The distance between two points in the scene's units (e.g. feet)."""
    return cell_steps(grid, a, b) * grid.per_cell


def ruler_text(grid: Grid, a: Point, b: Point) -> str:
    """A ruler's label: the distance to a tenth, in the scene's unit ("15 ft", "7.5 ft")."""
    d = round(distance(grid, a, b), 1)
    return f"{int(d) if d.is_integer() else d} {grid.unit}".strip()


def snap(grid: Grid, x: float, y: float) -> Point:
    """The centre of the cell holding a point (the point itself with no grid)."""
    if grid.type == "square":
        cx, cy = square_cell(grid, x, y)
        return (grid.offset[0] + (cx + 0.5) * grid.size, grid.offset[1] + (cy + 0.5) * grid.size)
    if grid.type == "hex":
        return hex_center(grid, *hex_cell(grid, x, y))
    return (x, y)


# --- fog -----------------------------------------------------------------------------------------


def in_rect(rect: Rect, p: Point) -> bool:
    x, y, w, h = rect
    return x <= p[0] <= x + w and y <= p[1] <= y + h


def in_polygon(polygon: tuple[Point, ...], p: Point) -> bool:
    """Even-odd ray casting; a point on an edge counts as inside."""
    x, y = p
    inside = False
    n = len(polygon)
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        if _on_segment((x1, y1), (x2, y2), p):
            return True
        if (y1 > y) != (y2 > y):
            cross_x = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < cross_x:
                inside = not inside
    return inside


def _on_segment(a: Point, b: Point, p: Point) -> bool:
    cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    if abs(cross) > 1e-9 * max(1.0, math.dist(a, b)):
        return False
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def op_contains(op: FogOp, p: Point) -> bool:
    if op.rect is not None:
        return in_rect(op.rect, p)
    if op.polygon is not None:
        return in_polygon(op.polygon, p)
    return True  # no shape: the whole scene


def fogged(fog: Sequence[FogOp], p: Point) -> bool:
    """Whether a point is under fog: the last stroke that holds it decides (a union and a difference)."""
    for op in reversed(fog):
        if op_contains(op, p):
            return op.op == "cover"
    return False


def fogged_points(fog: Sequence[FogOp], points: Sequence[Point]) -> list[bool]:
    """`fogged` for many points at once: one vectorised test a stroke, newest first, each point settled by
    the first stroke that holds it (points outside a stroke's bounds are passed over before any polygon
    test). A view asks this once for every token and drawing it might show: a few calls into C a stroke,
    not a Python polygon test per stroke, point and viewer."""
    count = len(points)
    if not fog or not count:
        return [False] * count
    xy = np.asarray(points, dtype=float).reshape(count, 2)
    covered = np.zeros(count, dtype=bool)
    unsettled = np.arange(count)
    for op in reversed(fog):
        x, y = xy[unsettled, 0], xy[unsettled, 1]
        left, top, right, bottom = op.bounds
        holds = (left <= x) & (x <= right) & (top <= y) & (y <= bottom)
        if op.polygon is not None and holds.any():
            inside = np.flatnonzero(holds)
            # The edge counts as inside, as in `in_polygon`.
            holds[inside] = shapely.intersects_xy(op.shape, x[inside], y[inside])
        covered[unsettled[holds]] = op.op == "cover"
        unsettled = unsettled[~holds]
        if not unsettled.size:
            break
    return [bool(c) for c in covered]


def scene_fogged(scene: Scene, points: Sequence[Point]) -> list[bool]:
    """`fogged_points` for a scene's fog, remembered with the scene: a scene object outlives many views
    (states share it until it changes), so each spot is tested once per fog, however many viewers and
    pushes ask. The memo is keyed by the fog tuple it was made for: a copy of the scene with other fog
    (reducers copy scenes) starts afresh."""
    memo = scene.__dict__.get(_MEMO)
    if memo is None or memo[0] is not scene.fog or len(memo[1]) > MEMO_POINTS:
        memo = scene.__dict__[_MEMO] = (scene.fog, {})
    known: dict[Point, bool] = memo[1]
    missing = [p for p in dict.fromkeys(points) if p not in known]
    if missing:
        known.update(zip(missing, fogged_points(scene.fog, missing), strict=True))
    return [known[p] for p in points]


def drawings_in_the_open(scene: Scene) -> tuple[Drawing, ...]:
    """The scene's drawings with no point under fog, remembered with the scene for its fog and drawings."""
    memo = scene.__dict__.get(_DRAWINGS_MEMO)
    if memo is not None and memo[0] is scene.fog and memo[1] is scene.drawings:
        return memo[2]  # type: ignore[no-any-return]  # what this function stored
    points = [p for d in scene.drawings for p in d.points]
    fogged = iter(fogged_points(scene.fog, points))
    # Each drawing's points are consumed in order, all of them (no short cut that would misalign the rest).
    seen = tuple(d for d in scene.drawings if not any([next(fogged) for _ in d.points]))
    scene.__dict__[_DRAWINGS_MEMO] = (scene.fog, scene.drawings, seen)
    return seen


# Keys of the scene's __dict__ that are no fields: models ignore them (dumps, equality, copies' checks).
_MEMO = "_fogged_points"
_DRAWINGS_MEMO = "_drawings_in_the_open"
MEMO_POINTS = 20_000


def add_stroke(fog: tuple[FogOp, ...], op: FogOp) -> tuple[FogOp, ...]:
    """The fog after one more stroke. A whole-scene stroke replaces everything before it."""
    if op.rect is None and op.polygon is None:
        return (op,) if op.op == "cover" else ()
    if not fog and op.op == "reveal":
        return ()  # revealing what was never covered changes nothing
    return (*fog, op)


def has_cover(fog: tuple[FogOp, ...]) -> bool:
    return any(op.op == "cover" for op in fog)
