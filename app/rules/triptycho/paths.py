"""Routes across the map: straight lines through soft borders, height along them, and line of sight.

- A ranged route (TP-D-3) is a sequence of sections, each sharing a soft border with the next, that one
  straight line can pass through in order.
- Height along it (TP-M-7): the total rise decides the range it needs (range >= |total rise| as well as
  >= the borders crossed); a section on the way that stands higher than both ends blocks the line
  (ruling: "+1, -2 is blocked" in the seed).
- Line of sight is a straight route whose terrain does not block it, whatever its length.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise

from app.rules.triptycho import geometry as geo
from app.rules.triptycho.board import INF, Edge, MapIndex

SIGHT_SLACK = 3  # a line of sight may cross this many more borders than the shortest walk (ruling)


@dataclass(frozen=True)
class Route:
    """A straight route from path[0] to path[-1] and what it needs."""

    path: tuple[str, ...]
    rises: tuple[int, ...]

    @property
    def borders(self) -> int:
        return len(self.path) - 1

    @property
    def net(self) -> int:
        return sum(self.rises)

    @property
    def blocked(self) -> bool:
        """A section on the way higher than both ends hides one from the other (TP-M-7)."""
        level = 0
        levels = []
        for r in self.rises:
            level += r
            levels.append(level)
        if len(levels) < 2:
            return False
        top = max(0, levels[-1])
        return any(h > top for h in levels[:-1])

    @property
    def needs(self) -> int:
        """The range an Action needs to reach along this route (TP-D-2, TP-M-7)."""
        return max(self.borders, abs(self.net))

    @property
    def crosses_height(self) -> bool:
        return any(self.rises)


def height_needs(rises: Sequence[int]) -> tuple[int, bool]:
    """(range needed, blocked) for a route of len(rises) borders with these rises: TP-M-7 by itself."""
    route = Route(path=tuple(str(i) for i in range(len(rises) + 1)), rises=tuple(rises))
    return route.needs, route.blocked


def _walk(
    idx: MapIndex, origin: str, budget: int, target: str | None = None, skip_blocked: bool = False
) -> Iterator[tuple[tuple[str, ...], tuple[int, ...]]]:
    """Every straight route from `origin` of at most `budget` borders (only those to `target` if given).

    With `skip_blocked` (and a target), routes that higher ground is sure to block are left out early.
    """
    to_target = idx.distances(target) if target is not None else None
    hull = idx.sections[target].points if target is not None else ()
    corners: dict[int, list[tuple[float, float]]] = {}
    levels = idx.levels if target is not None and skip_blocked else None
    # With consistent heights the target's level is known: a route already over it and the start is lost.
    ceiling = max(0, levels[target] - levels[origin]) if levels is not None and target is not None else None

    def aims(frame: geo.Frame, region: geo.Region) -> bool:
        if target is None:
            return True
        found = corners.get(id(frame))
        if found is None:
            found = corners[id(frame)] = [frame.coords(p) for p in hull]
        return geo.may_reach(region, frame, found)

    def step(
        here: str,
        path: tuple[str, ...],
        rises: tuple[int, ...],
        frame: geo.Frame | None,
        region: geo.Region | None,
        level: int,
    ) -> Iterator[tuple[tuple[str, ...], tuple[int, ...]]]:
        edges: Sequence[Edge] = idx.edges[here]
        if to_target is not None:
            edges = sorted(edges, key=lambda e: to_target.get(e.to, INF))
        for edge in edges:
            nxt = edge.to
            if edge.kind != "soft" or nxt in path:
                continue
            left_budget = budget - len(rises) - 1
            if left_budget < 0:
                continue
            if to_target is not None and to_target.get(nxt, INF) > left_budget:
                continue
            new_level = level + edge.rise
            if ceiling is not None and nxt != target and new_level > ceiling:
                continue
            new_path = (*path, nxt)
            new_rises = (*rises, edge.rise)
            seen = False
            for right, left in edge.pieces:
                if frame is None:
                    f, reg = geo.Frame(right, left), geo.first_region()
                else:
                    assert region is not None  # a frame always comes with its region
                    f, reg = frame, geo.clip_portal(region, frame, right, left)
                    if not reg:
                        continue
                if nxt != target and not aims(f, reg):
                    continue
                if not seen and (target is None or nxt == target):
                    seen = True
                    yield new_path, new_rises
                if nxt != target:
                    yield from step(nxt, new_path, new_rises, f, reg, new_level)

    yield from step(origin, (origin,), (), None, None, 0)


def routes_within(idx: MapIndex, origin: str, reach: int) -> dict[str, Route]:
    """The best straight route to every section a range-`reach` Action reaches from `origin`."""
    best: dict[str, Route] = {origin: Route((origin,), ())}
    if reach <= 0:
        return best
    for path, rises in _walk(idx, origin, reach):
        route = Route(path, rises)
        if route.blocked or route.needs > reach:
            continue
        old = best.get(path[-1])
        if old is None or (route.needs, route.borders) < (old.needs, old.borders):
            best[path[-1]] = route
    return best


def best_route(idx: MapIndex, origin: str, target: str, budget: int) -> tuple[Route | None, Route | None]:
    """(the straight unblocked route needing the least range, the shortest straight route at all)."""
    if origin == target:
        route = Route((origin,), ())
        return route, route
    best = shortest = None
    for path, rises in _walk(idx, origin, budget, target):
        route = Route(path, rises)
        if shortest is None or route.borders < shortest.borders:
            shortest = route
        if not route.blocked and (best is None or (route.needs, route.borders) < (best.needs, best.borders)):
            best = route
    return best, shortest


def check_route(idx: MapIndex, path: Sequence[str]) -> tuple[Route | None, str, str | None]:
    """A route the attacker chose: (the route, "", None) or (None, why not, the rule it breaks)."""
    if len(path) < 1 or any(sid not in idx.sections for sid in path):
        return None, "That route names a section that is not on the map.", None
    if len(set(path)) != len(path):
        return None, "A route does not pass through a section twice.", "TP-D-3"
    rises = []
    portals: list[list[tuple[geo.Point, geo.Point]]] = []
    for a, b in pairwise(path):
        edge = idx.edge(a, b)
        if edge is None:
            return None, f"{_n(idx, a)} and {_n(idx, b)} do not share a border.", "TP-M-1"
        if edge.kind != "soft":
            return None, f"The border between {_n(idx, a)} and {_n(idx, b)} is a wall.", "TP-D-1"
        rises.append(edge.rise)
        portals.append(list(edge.pieces))
    if not _any_straight(portals):
        return None, "No straight line crosses those borders in that order: attacks do not curve.", "TP-D-3"
    return Route(tuple(path), tuple(rises)), "", None


def _any_straight(portals: list[list[tuple[geo.Point, geo.Point]]]) -> bool:
    def go(i: int, frame: geo.Frame | None, region: geo.Region | None) -> bool:
        if i == len(portals):
            return True
        for right, left in portals[i]:
            if frame is None:
                if go(i + 1, geo.Frame(right, left), geo.first_region()):
                    return True
                continue
            assert region is not None  # a frame always comes with its region
            reg = geo.clip_portal(region, frame, right, left)
            if reg and go(i + 1, frame, reg):
                return True
        return False

    return go(0, None, None)


def visible_from(idx: MapIndex, origin: str) -> set[str]:
    """Every section terrain lets someone in `origin` see into: the ends of the straight, unblocked routes
    of soft borders at most SIGHT_SLACK longer than the shortest walk there (one sweep from the origin).

    A route already longer than that to a section can lead nowhere that counts: the walk to anything
    beyond is at most the walk to that section plus the rest, so such branches are cut at once.
    """
    dist = idx.distances(origin)
    seen = {origin}

    def step(
        here: str,
        path: tuple[str, ...],
        rises: tuple[int, ...],
        frame: geo.Frame | None,
        region: geo.Region | None,
    ) -> None:
        for edge in idx.edges[here]:
            nxt = edge.to
            if edge.kind != "soft" or nxt in path or len(path) > dist.get(nxt, INF) + SIGHT_SLACK:
                continue
            new_path = (*path, nxt)
            new_rises = (*rises, edge.rise)
            first = True
            for right, left in edge.pieces:
                if frame is None:
                    f, reg = geo.Frame(right, left), geo.first_region()
                else:
                    assert region is not None  # a frame always comes with its region
                    f, reg = frame, geo.clip_portal(region, frame, right, left)
                    if not reg:
                        continue
                if first:
                    first = False
                    if nxt not in seen and not Route(new_path, new_rises).blocked:
                        seen.add(nxt)
                step(nxt, new_path, new_rises, f, reg)

    step(origin, (origin,), (), None, None)
    return seen


def line_of_sight(idx: MapIndex, a: str, b: str) -> bool:
    """Whether terrain lets someone in `a` see into `b` (walls and higher ground block; light aside).

    The first question from a section sweeps the whole map from it once; every answer from there is
    then a look-up (sight is symmetric: the same straight line runs both ways)."""
    if a == b:
        return True
    key = (a, b) if a < b else (b, a)
    found = idx.sight.get(key)
    if found is None:
        seen = visible_from(idx, a)
        for sid in idx.sections:
            if sid != a:
                idx.sight[(a, sid) if a < sid else (sid, a)] = sid in seen
        found = idx.sight[key]
    return found


def _n(idx: MapIndex, sid: str) -> str:
    return idx.sections[sid].label
