"""Sight from walls: the area a point sees among a scene's walls, and what light lets it make out.

Pure geometry in image pixels. A visibility polygon is cast from the point to every wall end (and a hair to
either side of it), vectorised with numpy: each ray's nearest hit among the blocking segments (walls and
closed doors; windows and open doors let sight through) and the scene's edges. Shapely does the clipping:
the token's range (a circle), and, in the dark, the lit area (each light's own visibility polygon within
its dim radius) with the token's darkvision.

Everything a scene's sight is made of is remembered with the frozen scene object (its `__dict__`, as
`geometry.scene_fogged` does), keyed by the walls, lights, light and size it was made for: a copy of the
scene with other walls starts afresh, and the many views and audiences of one state share each polygon.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import numpy as np
import shapely

from app.rules.map.state import Scene, Token
from app.rules.map.walls import TokenSight, polygons_in

EPSILON = 1e-5  # radians either side of a wall's end: the rays that slip past a corner
CIRCLE_SEGMENTS = 16  # per quarter circle: a range or a light is a 64-gon drawn inside the circle
MEMO_ENTRIES = 256  # sights a scene object keeps (each a polygon of a few hundred corners)
T = TypeVar("T")
TAU = 2 * np.pi
_MEMO = "_vision"


def _memo(scene: Scene) -> dict[Any, Any]:
    """The scene's vision memo, for its walls, lights, light and size (started afresh when they differ)."""
    made_for = (scene.walls, scene.lights, scene.ambient, scene.width, scene.height)
    memo = scene.__dict__.get(_MEMO)
    if (
        memo is None
        or len(memo[1]) > MEMO_ENTRIES
        or any(a is not b and a != b for a, b in zip(memo[0], made_for, strict=True))
    ):
        memo = scene.__dict__[_MEMO] = (made_for, {})
    return memo[1]


def blocking_segments(scene: Scene) -> np.ndarray:
    """The segments that stop sight, as rows of x1, y1, x2, y2 (the scene's edges not included)."""
    memo = _memo(scene)
    found = memo.get("segments")
    if found is None:
        blocking = [w.points for w in scene.walls if w.blocks_sight]
        points = np.asarray([p for line in blocking for p in line], dtype=float).reshape(-1, 2)
        last = np.cumsum([len(line) for line in blocking], dtype=int) - 1  # none past a wall's end
        keep = np.ones(max(len(points) - 1, 0), dtype=bool)
        keep[last[:-1]] = False
        rows = np.hstack([points[:-1], points[1:]])[keep]
        found = memo["segments"] = rows[(rows[:, 0] != rows[:, 2]) | (rows[:, 1] != rows[:, 3])]
    return found  # type: ignore[no-any-return]


def segment_count(scene: Scene) -> int:
    """Every segment of every wall, door and window of a scene (the cap counts these)."""
    return sum(len(w.points) - 1 for w in scene.walls)


def _edges(width: float, height: float) -> np.ndarray:
    return np.array(
        [[0, 0, width, 0], [width, 0, width, height], [width, height, 0, height], [0, height, 0, 0]],
        dtype=float,
    )


def cast(segments: np.ndarray, width: float, height: float, x: float, y: float) -> shapely.Geometry:
    """The polygon a point sees among segments inside a width x height box (the scene's edges).

    Two rays a hair either side of each segment end; a ray is tested only against the segments whose
    angular span from the point holds it (found by sorting, not by testing every pair), and keeps its
    nearest hit. The polygon joins the hits in angle order."""
    segs = np.vstack([segments, _edges(width, height)])
    ends = np.unique(np.concatenate([segs[:, 0] + 1j * segs[:, 1], segs[:, 2] + 1j * segs[:, 3]]))
    to_ends = np.arctan2(ends.imag - y, ends.real - x)
    order = np.argsort(np.concatenate([to_ends - EPSILON, to_ends + EPSILON]) % TAU)
    angles = (np.concatenate([to_ends - EPSILON, to_ends + EPSILON]) % TAU)[order]
    aimed = np.concatenate([ends, ends])[order]  # the wall end each ray passes a hair from
    count = len(angles)
    cos, sin = np.cos(angles), np.sin(angles)
    # Each segment's span of angles, from its first end counterclockwise (y down: by increasing angle).
    a1 = np.arctan2(segs[:, 1] - y, segs[:, 0] - x) % TAU
    a2 = np.arctan2(segs[:, 3] - y, segs[:, 2] - x) % TAU
    turn = (a2 - a1 + np.pi) % TAU - np.pi
    start = np.where(turn >= 0, a1, a2) - 1e-9
    stop = start + np.abs(turn) + 2e-9
    doubled = np.concatenate([angles, angles + TAU])
    lo = np.searchsorted(doubled, start, side="left")
    hi = np.searchsorted(doubled, stop, side="right")
    lo2 = np.where(start < 0, np.searchsorted(doubled, start + TAU, side="left"), lo)
    hi2 = np.where(start < 0, np.searchsorted(doubled, stop + TAU, side="right"), hi)
    lo, hi = np.where(start < 0, lo2, lo), np.where(start < 0, hi2, hi)
    sizes = hi - lo
    seg = np.repeat(np.arange(len(segs)), sizes)
    offsets = np.arange(sizes.sum()) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    ray = (np.repeat(lo, sizes) + offsets) % count
    dx, dy = cos[ray], sin[ray]
    ax, ay = segs[seg, 0] - x, segs[seg, 1] - y
    ex, ey = segs[seg, 2] - segs[seg, 0], segs[seg, 3] - segs[seg, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        denom = dx * ey - dy * ex
        t = (ax * ey - ay * ex) / denom
        u = (ax * dy - ay * dx) / denom
    hit = (t > 1e-9) & (u >= -1e-9) & (u <= 1 + 1e-9) & (np.abs(denom) > 1e-12)
    nearest = np.full(count, np.hypot(width, height) * 2)  # never kept: the box's edges stop every ray
    np.minimum.at(nearest, ray[hit], t[hit])
    ring = np.column_stack([x + nearest * cos, y + nearest * sin])
    # A ray that stops within a tenth of a pixel of the wall end it was aimed past stops at that end: a
    # room's corner is a corner of the polygon, not cut by the two rays either side of it.
    at_end = np.abs((ring[:, 0] + 1j * ring[:, 1]) - aimed) < 0.1
    ring[at_end] = np.column_stack([aimed.real, aimed.imag])[at_end]
    ring = _corners(ring)
    polygon = shapely.polygons(ring)
    if not shapely.is_valid(polygon):
        polygon = areal(shapely.make_valid(polygon))
    return polygon


def _corners(ring: np.ndarray) -> np.ndarray:
    """A ring without the points that turn no corner: repeats (the twin rays that both stopped at a
    corner) and points on a straight edge between their neighbours (rays that hit one wall)."""
    step = np.diff(ring, axis=0, append=ring[:1])
    ring = ring[np.hypot(step[:, 0], step[:, 1]) > 1e-6]
    if len(ring) < 4:
        return ring
    before, after = ring - np.roll(ring, 1, axis=0), np.roll(ring, -1, axis=0) - ring
    cross = before[:, 0] * after[:, 1] - before[:, 1] * after[:, 0]
    scale = np.hypot(before[:, 0], before[:, 1]) * np.hypot(after[:, 0], after[:, 1])
    turning = np.abs(cross) > 1e-6 * np.maximum(scale, 1e-12)
    return ring[turning] if turning.sum() >= 3 else ring


def areal(shape: shapely.Geometry) -> shapely.Geometry:
    """The parts of a shape with an area, as one (multi)polygon: an overlay's stray lines dropped."""
    if isinstance(shape, shapely.Polygon | shapely.MultiPolygon):
        return shape
    parts = polygons_in(shape)
    return parts[0] if len(parts) == 1 else shapely.MultiPolygon(parts)


def circle(x: float, y: float, radius: float) -> shapely.Geometry:
    return shapely.buffer(shapely.points(x, y), radius, quad_segs=CIRCLE_SEGMENTS)


def visible_from(scene: Scene, x: float, y: float, reach: float | None = None) -> shapely.Geometry:
    """What a point of the scene sees among its walls, out to `reach` pixels (None: to the edges)."""
    memo = _memo(scene)
    key = ("from", x, y, reach)
    found = memo.get(key)
    if found is None:
        segments = blocking_segments(scene)
        if reach is not None and len(segments):
            segments = segments[_near(segments, x, y, reach)]  # beyond reach, a wall hides nothing
        found = cast(segments, float(scene.width), float(scene.height), x, y)
        if reach is not None:
            found = areal(shapely.intersection(found, circle(x, y, reach)))
        memo[key] = found
    return found


def _near(segments: np.ndarray, x: float, y: float, reach: float) -> np.ndarray:
    """Which segments come within `reach` of the point."""
    a, b = segments[:, :2], segments[:, 2:]
    ab = b - a
    length2 = np.einsum("ij,ij->i", ab, ab)
    t = np.clip(np.einsum("ij,ij->i", np.array([x, y]) - a, ab) / np.where(length2 > 0, length2, 1), 0, 1)
    closest = a + ab * t[:, None]
    return np.hypot(closest[:, 0] - x, closest[:, 1] - y) <= reach  # type: ignore[no-any-return]


def lit(scene: Scene) -> shapely.Geometry | None:
    """The part of the scene light reaches when its ambient is dark (None: lit or dim, all of it is)."""
    if scene.ambient != "dark":
        return None
    memo = _memo(scene)
    found = memo.get("lit")
    if found is None:
        found = memo["lit"] = areal(
            shapely.union_all(
                [visible_from(scene, light.x, light.y, light.dim) for light in scene.lights if light.dim > 0]
            )
        )
    return found


def token_sight(scene: Scene, token: Token) -> shapely.Geometry:
    """What one token sees of its scene now: in its walls' sight and range, where light or darkvision is."""
    return sight_at(scene, token.x, token.y, token.sight)


def sight_at(scene: Scene, x: float, y: float, sight: TokenSight) -> shapely.Geometry:
    memo = _memo(scene)
    key = ("sight", x, y, sight.range, sight.darkvision)
    found = memo.get(key)
    if found is None:
        seen = visible_from(scene, x, y, sight.range)
        light = lit(scene)
        if light is not None:
            if sight.darkvision > 0:
                light = shapely.union(light, circle(x, y, sight.darkvision))
            seen = areal(shapely.intersection(seen, light))
        found = memo[key] = seen
    return found


def sight_of(scene: Scene, tokens: Iterable[Token]) -> shapely.Geometry:
    """The union of these tokens' sight, prepared for point tests (remembered by where they stand)."""
    ordered = standing(tokens)
    memo = _memo(scene)
    key = ("union", ordered)
    found = memo.get(key)
    if found is None:
        parts = [sight_at(scene, x, y, TokenSight(range=r, darkvision=d)) for x, y, r, d in ordered]
        found = parts[0] if len(parts) == 1 else shapely.union_all(parts) if parts else shapely.Polygon()
        shapely.prepare(found)
        memo[key] = found
    return found


POINTS_PER_SIGHT = 1024  # spots remembered as in or out of one sight (a table's tokens, where they stood)


def points_seen(scene: Scene, tokens: list[Token], points: list[tuple[float, float]]) -> list[bool]:
    """Which of these spots these tokens' sight holds, each remembered with that sight: a push asks every
    player's sight about every token, and only the moved one stands somewhere new."""
    ordered = standing(tokens)
    memo = _memo(scene)
    known: dict[tuple[float, float], bool] | None = memo.get(("points", ordered))
    if known is None or len(known) > POINTS_PER_SIGHT:
        known = memo[("points", ordered)] = {}
    missing = list(dict.fromkeys(p for p in points if p not in known))
    if missing:
        region = sight_of(scene, tokens)
        if len(missing) == 1:  # a moved token's spot: no array for one
            known[missing[0]] = bool(shapely.intersects_xy(region, *missing[0]))
        else:
            xy = np.asarray(missing, dtype=float).reshape(len(missing), 2)
            inside = shapely.intersects_xy(region, xy[:, 0], xy[:, 1])
            known.update(zip(missing, (bool(b) for b in inside), strict=True))
    return [known[p] for p in points]


def standing(tokens: Iterable[Token]) -> tuple[tuple[float, float, float | None, float], ...]:
    """What the sight of these tokens is made of, besides the scene: where each stands and how it sees."""
    return tuple(sorted({(t.x, t.y, t.sight.range, t.sight.darkvision) for t in tokens}))


def of_sight(scene: Scene, tokens: Iterable[Token], what: str, build: Callable[[shapely.Geometry], T]) -> T:
    """A value made of these tokens' sight alone (its outline as drawn), remembered with it: every push
    rebuilds each player's view, and most players' tokens did not move."""
    tokens = tuple(tokens)
    memo = _memo(scene)
    key = (what, standing(tokens))
    if key not in memo:
        memo[key] = build(sight_of(scene, tokens))
    found: T = memo[key]
    return found


def fog_area(scene: Scene) -> shapely.Geometry:
    """The part of the scene under the GM's fog, as one geometry (strokes folded: covers add, reveals
    take away), remembered for the fog it was made of."""
    memo = scene.__dict__.get("_fog_area")
    if memo is not None and memo[0] is scene.fog:
        return memo[1]
    box = shapely.box(0, 0, scene.width, scene.height)
    area = shapely.Polygon()
    for op in scene.fog:
        if op.rect is not None:
            x, y, w, h = op.rect
            shape = shapely.box(x, y, x + w, y + h)
        elif op.polygon is not None:
            shape = shapely.make_valid(shapely.polygons(np.asarray(op.polygon, dtype=float)))
        else:
            shape = box
        area = shapely.union(area, shape) if op.op == "cover" else shapely.difference(area, shape)
    scene.__dict__["_fog_area"] = (scene.fog, area)
    return area


def distance_to(points: tuple[tuple[float, float], ...], x: float, y: float) -> float:
    """How far a point is from a polyline, in pixels."""
    return float(shapely.distance(shapely.LineString(points), shapely.points(x, y)))
