"""Movement (TP-M-2..5), blocks (TP-BL-1..4) and swimming's toll on long Moves (TP-W-2).

`reachable` walks the map from an entity's section with one Move, Phase, Fly or Teleport and returns,
for every section it can end in, the cheapest way there and how far it falls on the way.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from itertools import pairwise

from app.rules.triptycho.board import BattleMap, index
from app.rules.triptycho.state import Entity, Settings, TriptychoState
from app.rules.triptycho.world import can_see, enemies


@dataclass(frozen=True)
class Mover:
    kind: str = "move"  # move | phase | fly | teleport
    n: int = 1
    height: int = 0


@dataclass(frozen=True)
class Way:
    """How an entity gets to a section: the sections passed, what it cost, and the drops it falls."""

    path: tuple[str, ...]
    cost: int
    falls: tuple[int, ...] = ()

    @property
    def fall(self) -> int:
        return sum(self.falls)


def blocked(ext: TriptychoState, mover: Entity, kind: str, frm: str, to: str) -> str | None:
    """Why `mover` may not leave `frm` for `to` because of a block, or None (TP-BL-1, -3, -4)."""
    if kind in ("phase", "fly", "teleport"):
        return None  # TP-BL-3
    for fb in ext.far_blocks:
        if {fb.a, fb.b} == {frm, to}:
            by = ext.entity(fb.by) if fb.by else None
            if by is None or enemies(by, mover):
                return "TP-BL-4"
    for e in ext.entities:
        b = e.block
        if b is None or e.id == mover.id or not enemies(e, mover):
            continue
        if b.section == frm and b.toward == to and frm in e.sections and can_see(ext, e, mover):
            return "TP-BL-1"
    return None


def step_rule(
    board: BattleMap, mover: Mover, frm: str, to: str, settings: Settings
) -> tuple[str | None, int]:
    """(the rule that forbids this crossing or None, the height fallen crossing it)."""
    edge = index(board).edge(frm, to)
    if edge is None:
        return "TP-M-1", 0
    if edge.kind == "hard" and mover.kind != "phase":
        return "TP-M-3", 0
    rise = edge.rise
    if mover.kind == "fly":
        return None, 0
    if mover.kind == "phase":
        return (None, 0) if mover.n >= abs(rise) else ("TP-M-4", 0)
    if rise > 0:
        return (None, 0) if mover.height >= rise else ("TP-M-4", 0)
    if rise < 0 and not (settings.descend_with_height and mover.height >= -rise):
        return None, -rise  # TP-M-5: a fall
    return None, 0


def _swims(board: BattleMap, entity: Entity, mover: Mover, to: str) -> bool:
    return (
        mover.kind in ("move", "phase")
        and mover.n > 1
        and not entity.aquatic
        and index(board).sections[to].water
    )


def crossing(
    ext: TriptychoState, entity: Entity, mover: Mover, settings: Settings, frm: str, to: str
) -> tuple[int, int] | None:
    """(what crossing from `frm` into `to` costs, the height fallen), or None when not allowed."""
    board = ext.board
    assert board is not None
    rule, drop = step_rule(board, mover, frm, to, settings)
    if rule or blocked(ext, entity, mover.kind, frm, to):
        return None
    # TP-W-2: a Move of more than one section loses 1 for each swimming section entered.
    return (2 if _swims(board, entity, mover, to) else 1), drop


def reachable(
    ext: TriptychoState, entity: Entity, mover: Mover, settings: Settings, start: str | None = None
) -> dict[str, Way]:
    """Every section this Move can end in, with the cheapest way there (least cost, then least fall)."""
    board = ext.board
    start = start or entity.section
    if board is None or start is None:
        return {}
    idx = index(board)
    if mover.kind == "teleport":
        return _teleport(ext, start, mover)
    best: dict[str, Way] = {start: Way((start,), 0)}
    heap: list[tuple[int, int, str, tuple[str, ...], tuple[int, ...]]] = [(0, 0, start, (start,), ())]
    while heap:
        cost, _, here, path, falls = heapq.heappop(heap)
        if best[here].path != path:
            continue
        for edge in idx.edges[here]:
            to = edge.to
            if to in path:
                continue
            crossed = crossing(ext, entity, mover, settings, here, to)
            if crossed is None:
                continue
            step, drop = crossed
            new_cost = cost + step
            if new_cost > mover.n:
                continue
            new_falls = (*falls, drop) if drop else falls
            way = Way((*path, to), new_cost, new_falls)
            old = best.get(to)
            if old is None or (way.cost, way.fall) < (old.cost, old.fall):
                best[to] = way
                heapq.heappush(heap, (new_cost, way.fall, to, way.path, new_falls))
    return best


def _teleport(ext: TriptychoState, start: str, mover: Mover) -> dict[str, Way]:
    """Teleport N: straight to any section within N borders (walls included), if the rise is at most N."""
    idx = index(ext.board)  # type: ignore[arg-type]  # reachable() checked the board
    levels = idx.levels
    out: dict[str, Way] = {}
    for sid, d in idx.distances(start, hard=True).items():
        if d > mover.n:
            continue
        rise = (levels[sid] - levels[start]) if levels is not None else 0
        if abs(rise) <= mover.n:
            out[sid] = Way((start, sid) if sid != start else (start,), d)
    return out


def crossings(board: BattleMap, path: tuple[str, ...]) -> list[tuple[str, str, str, int]]:
    """(from, to, border kind, rise) for each border a path crosses."""
    idx = index(board)
    out: list[tuple[str, str, str, int]] = []
    for a, b in pairwise(path):
        edge = idx.edge(a, b)
        out.append((a, b, edge.kind if edge else "none", edge.rise if edge else 0))
    return out
