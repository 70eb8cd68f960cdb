"""The battle map (TP-M-1): sections with polygon shapes, borders soft or hard with a Height.

`BattleMap` is what the GM draws and what JSON import/export carries. `index(map)` builds (once per map
object) the graph the rules walk: neighbours across each border with the rise in that direction, the
border's shape, and caches of distances and lines of sight.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from app.rules.contract.frozen import kept_whole
from app.rules.errors import quoted
from app.rules.system import Frozen
from app.rules.triptycho import geometry as geo

Light = Literal["lit", "shadowy", "dark"]
Kind = Literal["soft", "hard"]

MAX_SECTIONS = 400
MAX_CORNERS = 64
MAX_COORD = 100_000
INF = 1 << 30


class Section(Frozen):
    id: str = Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.:-]+$")
    name: str = Field(default="", max_length=60)
    points: tuple[tuple[int, int], ...] = Field(min_length=3, max_length=MAX_CORNERS)
    light: Light = "lit"
    water: bool = False

    @field_validator("points")
    @classmethod
    def _simple(cls, points: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
        if any(abs(x) > MAX_COORD or abs(y) > MAX_COORD for x, y in points):
            raise ValueError(f"corners must be within {MAX_COORD} grid steps of the origin")
        problem = geo.polygon_problem(points)
        if problem:
            raise ValueError(f"a section's shape {problem}")
        return points

    @property
    def label(self) -> str:
        return self.name or self.id


class Border(Frozen):
    """The border between sections a and b. `height` is the rise when crossing from a to b."""

    a: str
    b: str
    kind: Kind = "soft"
    height: int = Field(default=0, ge=-100, le=100)
    climb: str | None = Field(default=None, max_length=20)  # the GM's Acrobatics dice to climb it

    def rise(self, frm: str) -> int:
        return self.height if frm == self.a else -self.height


class BattleMap(Frozen):
    id: str = Field(min_length=1, max_length=40)
    name: str = Field(min_length=1, max_length=60)
    grid: int = Field(default=1, ge=1, le=1000)  # how many units one grid step is on screen
    sections: tuple[Section, ...] = Field(min_length=1, max_length=MAX_SECTIONS)
    borders: tuple[Border, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> BattleMap:
        ids = [s.id for s in self.sections]
        if len(set(ids)) != len(ids):
            raise ValueError("two sections have the same id")
        known = set(ids)
        pairs: set[frozenset[str]] = set()
        for b in self.borders:
            for end in (b.a, b.b):
                if end not in known:
                    raise ValueError(f"a border names section '{end}', which is not on the map")
            pair = frozenset((b.a, b.b))
            if len(pair) < 2:
                raise ValueError(f"a border needs two different sections, not '{b.a}' twice")
            if pair in pairs:
                raise ValueError(f"the border between '{b.a}' and '{b.b}' is given twice")
            pairs.add(pair)
        touching = index(self).touching
        for b in self.borders:
            if frozenset((b.a, b.b)) not in touching:
                raise ValueError(f"sections {quoted(b.a)} and {quoted(b.b)} do not share a border on the map")
        return self

    def section(self, sid: str) -> Section:
        return index(self).sections[sid]

    def export(self) -> dict[str, Any]:
        """The map as JSON for export (and import back through `triptycho.map.save`)."""
        return self.model_dump(mode="json")


@dataclass(frozen=True)
class Edge:
    """Crossing from one section into a neighbour."""

    to: str
    kind: Kind
    rise: int
    pieces: tuple[tuple[geo.Point, geo.Point], ...]  # (right, left) ends, facing the direction of travel
    border: Border


@dataclass
class MapIndex:
    """The graph of one map, built once per map object; distances and sight are cached on it."""

    sections: dict[str, Section]
    edges: dict[str, tuple[Edge, ...]]
    touching: set[frozenset[str]]
    _soft: dict[str, dict[str, int]] = field(default_factory=dict)
    _any: dict[str, dict[str, int]] = field(default_factory=dict)
    sight: dict[tuple[str, str], bool] = field(default_factory=dict)
    _levels: dict[str, int] | None = None
    _levels_done: bool = False

    @property
    def levels(self) -> dict[str, int] | None:
        """Each section's ground level, when every loop of borders adds up to no rise (else None)."""
        if not self._levels_done:
            self._levels_done = True
            levels: dict[str, int] = {}
            for start in self.sections:
                if start in levels:
                    continue
                levels[start] = 0
                queue = deque((start,))
                while queue:
                    here = queue.popleft()
                    for e in self.edges[here]:
                        level = levels[here] + e.rise
                        if e.to not in levels:
                            levels[e.to] = level
                            queue.append(e.to)
                        elif levels[e.to] != level:
                            return None
            self._levels = levels
        return self._levels

    _centres: dict[str, tuple[float, float]] = field(default_factory=dict)

    def centre(self, sid: str) -> tuple[float, float]:
        found = self._centres.get(sid)
        if found is None:
            found = self._centres[sid] = geo.centroid(self.sections[sid].points)
        return found

    def edge(self, a: str, b: str) -> Edge | None:
        for e in self.edges.get(a, ()):
            if e.to == b:
                return e
        return None

    def distances(self, source: str, hard: bool = False) -> dict[str, int]:
        """Least borders crossed from `source` to every section it can reach (TP-D-1).

        Soft borders only, unless `hard` (for Phase and Teleport, which pass walls).
        """
        cache = self._any if hard else self._soft
        found = cache.get(source)
        if found is None:
            found = {source: 0}
            queue = deque((source,))
            while queue:
                here = queue.popleft()
                d = found[here] + 1
                for e in self.edges[here]:
                    if e.to not in found and (hard or e.kind == "soft"):
                        found[e.to] = d
                        queue.append(e.to)
            if len(cache) > 4 * len(self.sections):
                cache.clear()
            cache[source] = found
        return found

    def distance(self, a: str, b: str, hard: bool = False) -> int | None:
        return self.distances(a, hard).get(b)


def _build(m: BattleMap) -> MapIndex:
    sections = {s.id: s for s in m.sections}
    polygons = {s.id: geo.ccw(s.points) for s in m.sections}
    shared = geo.shared_edges(polygons)
    given = {frozenset((b.a, b.b)): b for b in m.borders}
    edges: dict[str, list[Edge]] = {sid: [] for sid in sections}
    for (a, b), pieces in shared.items():
        border = given.get(frozenset((a, b))) or Border(a=a, b=b)
        # A piece (u, v) runs along a's edge: crossing a -> b, v is on the left and u on the right.
        edges[a].append(Edge(b, border.kind, border.rise(a), tuple((u, v) for u, v in pieces), border))
        edges[b].append(Edge(a, border.kind, border.rise(b), tuple((v, u) for u, v in pieces), border))
    return MapIndex(
        sections=sections,
        edges={sid: tuple(sorted(es, key=lambda e: e.to)) for sid, es in edges.items()},
        touching={frozenset(k) for k in shared},
    )


def index(m: BattleMap) -> MapIndex:
    """The map's graph: built once per map object and kept on it (`kept`) while the object is in use."""
    return kept_whole(m, "_index", lambda: _build(m))


def grid_map(
    map_id: str,
    name: str,
    columns: int,
    rows: int,
    size: int = 4,
    borders: tuple[Border, ...] = (),
    light: dict[str, Light] | None = None,
    water: frozenset[str] = frozenset(),
) -> BattleMap:
    """A rectangle of square sections named `c<col>r<row>` (tests, benchmarks, a quick start)."""
    light = light or {}
    sections = []
    for r in range(rows):
        for c in range(columns):
            sid = f"c{c}r{r}"
            x, y = c * size, r * size
            sections.append(
                Section(
                    id=sid,
                    points=((x, y), (x + size, y), (x + size, y + size), (x, y + size)),
                    light=light.get(sid, "lit"),
                    water=sid in water,
                )
            )
    return BattleMap(id=map_id, name=name, grid=size, sections=tuple(sections), borders=borders)
