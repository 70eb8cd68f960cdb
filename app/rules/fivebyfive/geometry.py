"""Plane geometry for the tabletop, in inches: distances, polygons and what blocks a straight line.

Tokens are points. Terrain is a simple polygon (a rectangle is four corners). A straight line is
blocked by a polygon when some stretch of it runs through the polygon's inside: touching a corner
or running along an edge does not block (you see past the corner of a wall).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

Point = tuple[float, float]
EPS = 1e-9


def distance(a: Point, b: Point) -> float:
    return math.hypot(b[0] - a[0], b[1] - a[1])


def rectangle(x: float, y: float, width: float, height: float) -> tuple[Point, ...]:
    return ((x, y), (x + width, y), (x + width, y + height), (x, y + height))


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def area(polygon: Sequence[Point]) -> float:
    n = len(polygon)
    return abs(sum(_cross((0.0, 0.0), polygon[i], polygon[(i + 1) % n]) for i in range(n))) / 2


def _on_segment(p: Point, a: Point, b: Point) -> bool:
    if abs(_cross(a, b, p)) > EPS * max(1.0, distance(a, b)):
        return False
    return (
        min(a[0], b[0]) - EPS <= p[0] <= max(a[0], b[0]) + EPS
        and min(a[1], b[1]) - EPS <= p[1] <= max(a[1], b[1]) + EPS
    )


def on_boundary(p: Point, polygon: Sequence[Point]) -> bool:
    n = len(polygon)
    return any(_on_segment(p, polygon[i], polygon[(i + 1) % n]) for i in range(n))


def strictly_inside(p: Point, polygon: Sequence[Point]) -> bool:
    """Inside the polygon and not on its edge (even-odd rule, so any simple polygon works)."""
    if on_boundary(p, polygon):
        return False
    inside = False
    n = len(polygon)
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        if (y1 > p[1]) != (y2 > p[1]):
            x = x1 + (p[1] - y1) * (x2 - x1) / (y2 - y1)
            if p[0] < x:
                inside = not inside
    return inside


def _crossings(a: Point, b: Point, c: Point, d: Point) -> list[float]:
    """Where along a→b (as fractions 0..1) the segment meets c→d, ends of an overlap included."""
    r = (b[0] - a[0], b[1] - a[1])
    s = (d[0] - c[0], d[1] - c[1])
    denom = r[0] * s[1] - r[1] * s[0]
    qp = (c[0] - a[0], c[1] - a[1])
    rr = r[0] * r[0] + r[1] * r[1]
    if abs(denom) <= EPS * max(rr, 1.0):
        # Parallel: only a collinear overlap meets; its ends are where the line may enter or leave.
        if rr == 0 or abs(qp[0] * r[1] - qp[1] * r[0]) > EPS * max(rr, 1.0):
            return []
        t0 = (qp[0] * r[0] + qp[1] * r[1]) / rr
        t1 = ((d[0] - a[0]) * r[0] + (d[1] - a[1]) * r[1]) / rr
        return [t for t in (t0, t1) if -EPS <= t <= 1 + EPS]
    t = (qp[0] * s[1] - qp[1] * s[0]) / denom
    u = (qp[0] * r[1] - qp[1] * r[0]) / denom
    if -EPS <= t <= 1 + EPS and -EPS <= u <= 1 + EPS:
        return [t]
    return []


def passes_through(a: Point, b: Point, polygon: Sequence[Point]) -> bool:
    """Does the segment a→b run through the inside of the polygon?

    Cut the segment where it meets the polygon's edges; it runs through the inside exactly when the
    middle of one of the pieces lies strictly inside.
    """
    n = len(polygon)
    cuts = {0.0, 1.0}
    for i in range(n):
        cuts.update(min(1.0, max(0.0, t)) for t in _crossings(a, b, polygon[i], polygon[(i + 1) % n]))
    ordered = sorted(cuts)
    for t0, t1 in itertools.pairwise(ordered):
        if t1 - t0 <= EPS:
            continue
        mid = (t0 + t1) / 2
        point = (a[0] + (b[0] - a[0]) * mid, a[1] + (b[1] - a[1]) * mid)
        if strictly_inside(point, polygon):
            return True
    # A zero-length segment: is the point itself inside?
    return a == b and strictly_inside(a, polygon)


def clear_line(a: Point, b: Point, polygons: Sequence[Sequence[Point]]) -> bool:
    return not any(passes_through(a, b, polygon) for polygon in polygons)


def simple(polygon: Sequence[Point]) -> bool:
    """True if no two non-adjacent edges of the polygon meet (it does not cross itself)."""
    n = len(polygon)
    for i in range(n):
        for j in range(i + 1, n):
            if j == i + 1 or (i == 0 and j == n - 1):
                continue
            a, b = polygon[i], polygon[(i + 1) % n]
            c, d = polygon[j], polygon[(j + 1) % n]
            if _segments_meet(a, b, c, d):
                return False
    return True


def _segments_meet(a: Point, b: Point, c: Point, d: Point) -> bool:
    return bool(_crossings(a, b, c, d)) or _on_segment(a, c, d) or _on_segment(c, a, b)
