"""Plane geometry for battle maps: polygons on a grid, shared borders, and straight lines through borders.

Pure and dependency-free. Points are integer grid coordinates `(x, y)`.

The straight-line test (TP-D-3) asks whether one straight line can cross a chosen sequence of borders
("portals") in order. Every line that crosses the first portal moving forward is written as
`x = R + s*T + mu*(N + lam*T)`, where R is the portal's right end, T = left - right and N is T turned to
face forward. A point p = R + alpha*T + beta*N lies left of such a line when `alpha - s - lam*beta > 0`,
which is linear in (s, lam). So the lines that cross portals 1..k in order, each with its left end on
the left and its right end on the right, form a convex polygon in the (s, lam) plane that each new
portal clips by two half-planes: the test costs a few float operations per portal.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from math import gcd

Point = tuple[int, int]
Segment = tuple[Point, Point]
Region = tuple[tuple[float, float], ...]

EPS = 1e-7  # a line must cross a border's inside: one that only grazes a corner does not count
LAM = 1e4  # lines are at most ~89.99 degrees off the first portal's normal


def signed_area2(points: Sequence[Point]) -> int:
    """Twice the signed area: positive when the points run counter-clockwise."""
    total = 0
    n = len(points)
    for i in range(n):
        x1, y1 = points[i]
        x2, y2 = points[(i + 1) % n]
        total += x1 * y2 - x2 * y1
    return total


def ccw(points: Sequence[Point]) -> tuple[Point, ...]:
    """The polygon's points in counter-clockwise order."""
    pts = tuple(points)
    return pts if signed_area2(pts) > 0 else tuple(reversed(pts))


def _orient(a: Point, b: Point, c: Point) -> int:
    v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (v > 0) - (v < 0)


def _on_segment(a: Point, b: Point, p: Point) -> bool:
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def segments_intersect(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Closed segments p1p2 and q1q2 share at least one point."""
    o1, o2, o3, o4 = _orient(p1, p2, q1), _orient(p1, p2, q2), _orient(q1, q2, p1), _orient(q1, q2, p2)
    if o1 != o2 and o3 != o4:
        return True
    return (
        (o1 == 0 and _on_segment(p1, p2, q1))
        or (o2 == 0 and _on_segment(p1, p2, q2))
        or (o3 == 0 and _on_segment(q1, q2, p1))
        or (o4 == 0 and _on_segment(q1, q2, p2))
    )


def polygon_problem(points: Sequence[Point]) -> str | None:
    """Why these points are not a simple polygon, or None when they are."""
    n = len(points)
    if n < 3:
        return "needs at least 3 corners"
    if len(set(points)) != n:
        return "repeats a corner"
    if signed_area2(points) == 0:
        return "has no area"
    edges = [(points[i], points[(i + 1) % n]) for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if j == i + 1 or (i == 0 and j == n - 1):
                continue  # neighbouring edges share a corner
            if segments_intersect(*edges[i], *edges[j]):
                return "crosses itself"
    return None


def _line_key(p: Point, q: Point) -> tuple[tuple[int, int], int]:
    dx, dy = q[0] - p[0], q[1] - p[1]
    g = gcd(dx, dy)
    dx, dy = dx // g, dy // g
    if dx < 0 or (dx == 0 and dy < 0):
        dx, dy = -dx, -dy
    return (dx, dy), dx * p[1] - dy * p[0]


def shared_edges(polygons: dict[str, tuple[Point, ...]]) -> dict[tuple[str, str], list[Segment]]:
    """Where polygons touch along a line: {(a, b): [(u, v), ...]} for a < b.

    Each piece (u, v) runs in a's counter-clockwise direction (so a's inside is on its left). Polygons
    touching only at a corner share nothing. Edges are grouped by the line they lie on, so this is fast
    for large maps.
    """
    by_line: dict[tuple, list[tuple[int, int, str, Point, Point]]] = defaultdict(list)
    for sid, pts in polygons.items():
        n = len(pts)
        for i in range(n):
            p, q = pts[i], pts[(i + 1) % n]
            key = _line_key(p, q)
            (dx, dy), _ = key
            tp, tq = p[0] * dx + p[1] * dy, q[0] * dx + q[1] * dy
            by_line[key].append((min(tp, tq), max(tp, tq), sid, p, q))
    out: dict[tuple[str, str], list[Segment]] = defaultdict(list)
    for (direction, _), edges in by_line.items():
        if len(edges) < 2:
            continue
        edges.sort()
        dx, dy = direction
        for i, (lo1, hi1, s1, p1, q1) in enumerate(edges):
            for lo2, hi2, s2, p2, q2 in edges[i + 1 :]:
                if lo2 >= hi1:
                    break
                if s1 == s2:
                    continue
                lo, hi = max(lo1, lo2), min(hi1, hi2)
                if hi <= lo:
                    continue
                a, b, p, q = (s1, s2, p1, q1) if s1 < s2 else (s2, s1, p2, q2)
                ends = [pt for pt in (p1, q1, p2, q2) if pt[0] * dx + pt[1] * dy in (lo, hi)]
                u = next(pt for pt in ends if pt[0] * dx + pt[1] * dy == lo)
                v = next(pt for pt in ends if pt[0] * dx + pt[1] * dy == hi)
                # Order the piece along a's edge direction p -> q.
                forward = (q[0] - p[0]) * dx + (q[1] - p[1]) * dy > 0
                out[(a, b)].append((u, v) if forward else (v, u))
    return dict(out)


# --- the straight-line test ---------------------------------------------------------------------


class Frame:
    """Coordinates relative to the first portal: p = R + alpha*T + beta*N."""

    __slots__ = ("n2", "nx", "ny", "rx", "ry", "tx", "ty")

    def __init__(self, right: Point, left: Point):
        self.rx, self.ry = right
        self.tx, self.ty = left[0] - right[0], left[1] - right[1]
        self.nx, self.ny = self.ty, -self.tx  # T turned clockwise: facing forward through the portal
        self.n2 = float(self.tx * self.tx + self.ty * self.ty)

    def coords(self, p: Point) -> tuple[float, float]:
        dx, dy = p[0] - self.rx, p[1] - self.ry
        return (dx * self.tx + dy * self.ty) / self.n2, (dx * self.nx + dy * self.ny) / self.n2


def first_region() -> Region:
    return ((EPS, -LAM), (1.0 - EPS, -LAM), (1.0 - EPS, LAM), (EPS, LAM))


def _clip(region: Region, a: float, b: float, c: float) -> Region:
    """Keep the part of the convex polygon where a*s + b*lam + c >= EPS (strictly inside the half-plane)."""
    c -= EPS
    values = [a * s + b * lam + c for s, lam in region]
    low, high = min(values), max(values)
    if low >= 0:  # wholly inside: most clips along a straight corridor
        return region
    if high < 0:
        return ()
    out: list[tuple[float, float]] = []
    n = len(region)
    for i in range(n):
        s1, l1 = region[i]
        v1 = values[i]
        j = i + 1 if i + 1 < n else 0
        v2 = values[j]
        if v1 >= 0:
            out.append((s1, l1))
        if (v1 >= 0) != (v2 >= 0):
            s2, l2 = region[j]
            t = v1 / (v1 - v2)
            out.append((s1 + t * (s2 - s1), l1 + t * (l2 - l1)))
    return tuple(out)


def clip_portal(region: Region, frame: Frame, right: Point, left: Point) -> Region:
    """The lines of `region` that also cross the portal (right, left) with its ends on those sides."""
    al, bl = frame.coords(left)
    region = _clip(region, -1.0, -bl, al)  # alpha_L - s - lam*beta_L >= 0
    if not region:
        return region
    ar, br = frame.coords(right)
    return _clip(region, 1.0, br, -ar)  # alpha_R - s - lam*beta_R <= 0


def may_reach(region: Region, frame: Frame, target: Sequence[tuple[float, float]]) -> bool:
    """Whether some line of `region` may pass through the convex polygon whose frame coordinates these are.

    A line misses a convex polygon only when every corner is on one side of it; the lines with every
    corner left (or right) form a convex set, so a convex region lies inside it when its corners do.
    """
    all_left = all_right = True
    for s, lam in region:
        for alpha, beta in target:
            g = alpha - s - lam * beta
            if g <= -EPS:
                all_left = False
            if g >= EPS:
                all_right = False
        if not (all_left or all_right):
            return True
    return False


def straight_through(portals: Iterable[tuple[Point, Point]]) -> bool:
    """Can one straight line cross these (right, left) portals in order? (TP-D-3)"""
    region: Region | None = None
    frame: Frame | None = None
    for right, left in portals:
        if frame is None:
            frame = Frame(right, left)
            region = first_region()
            continue
        region = clip_portal(region, frame, right, left)  # type: ignore[arg-type]  # set with the first frame
        if not region:
            return False
    return True


def centroid(points: Sequence[Point]) -> tuple[float, float]:
    """The polygon's centre of area (for labels and tokens)."""
    a2 = signed_area2(points)
    cx = cy = 0.0
    n = len(points)
    for i in range(n):
        x1, y1 = points[i]
        x2, y2 = points[(i + 1) % n]
        f = x1 * y2 - x2 * y1
        cx += (x1 + x2) * f
        cy += (y1 + y2) * f
    return cx / (3 * a2), cy / (3 * a2)
