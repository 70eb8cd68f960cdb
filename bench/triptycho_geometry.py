"""Triptycho's map geometry on a generated 200-section map: distance, reachable sections, visibility.

Prints one JSON line (milliseconds, median of the trials). Each trial starts from a fresh map object, so
the map's index and its caches are cold; `index_ms` is building that index, the rest run on it.

    .venv/bin/python -m bench.triptycho_geometry
"""

from __future__ import annotations

import random
import statistics
import time

from app.rules.triptycho import sight
from app.rules.triptycho.board import BattleMap, Border, grid_map, index
from app.rules.triptycho.movement import Mover, reachable
from app.rules.triptycho.state import Entity, Settings, TriptychoState
from bench.common import emit

COLUMNS, ROWS, TRIALS = 20, 10, 15


def generated_map(seed: int = 7) -> BattleMap:
    """A 20 x 10 grid of sections: some walls, some heights, light and water scattered (seeded)."""
    rnd = random.Random(seed)
    light = {
        f"c{c}r{r}": rnd.choice(["lit", "lit", "lit", "shadowy", "dark"])
        for c in range(COLUMNS)
        for r in range(ROWS)
    }
    water = frozenset(sid for sid in light if rnd.random() < 0.1)
    borders = []
    for r in range(ROWS):
        for c in range(COLUMNS):
            for dc, dr in ((1, 0), (0, 1)):
                if c + dc >= COLUMNS or r + dr >= ROWS:
                    continue
                roll = rnd.random()
                a, b = f"c{c}r{r}", f"c{c + dc}r{r + dr}"
                if roll < 0.12:
                    borders.append(Border(a=a, b=b, kind="hard"))
                elif roll < 0.25:
                    borders.append(Border(a=a, b=b, height=rnd.choice([-2, -1, 1, 2])))
    return grid_map("bench", "Bench", COLUMNS, ROWS, borders=tuple(borders), light=light, water=water)


def ms(fn, *args) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn(*args)
    return (time.perf_counter() - start) * 1000, out


def visible(m: BattleMap, walker: Entity, origin: str) -> list[str]:
    """The sections whose occupants an entity in `origin` sees (sight.sees_into for each)."""
    return [s.id for s in m.sections if sight.sees_into(m, walker, origin, s.id)]


def main() -> dict:
    base = generated_map()
    assert len(base.sections) == COLUMNS * ROWS
    origin, far = "c0r0", f"c{COLUMNS - 1}r{ROWS - 1}"
    walker = Entity(id="w", sections=(origin,), low_light=True)
    settings = Settings()
    times: dict[str, list[float]] = {
        "index_ms": [],
        "distance_ms": [],
        "reachable_ms": [],
        "visibility_ms": [],
    }
    sizes: dict[str, int] = {}
    for _ in range(TRIALS):
        m = base.model_copy(deep=True)  # a new object: a cold index and cold caches
        t, idx = ms(index, m)
        times["index_ms"].append(t)
        t, dist = ms(idx.distance, origin, far)  # type: ignore[attr-defined]
        times["distance_ms"].append(t)
        ext = TriptychoState(board=m, entities=(walker,))
        t, ways = ms(reachable, ext, walker, Mover("move", 6, 0), settings)
        times["reachable_ms"].append(t)
        t, seen = ms(visible, m, walker, origin)
        times["visibility_ms"].append(t)
        sizes = {"distance": dist, "reachable": len(ways), "visible": len(seen)}  # type: ignore[arg-type]
    return emit(
        "triptycho_geometry",
        **{
            "sections": len(base.sections),
            "borders": len(base.borders),
            "trials": TRIALS,
            **{k: round(statistics.median(v), 3) for k, v in times.items()},
            **{f"max_{k}": round(max(v), 3) for k, v in times.items()},
            **sizes,
        },
    )


if __name__ == "__main__":
    main()
