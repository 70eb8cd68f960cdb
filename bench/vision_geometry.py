"""One token's sight among 300 wall segments: `vision_ms_per_token_300_walls` (median of several runs).

A 4096 x 4096 scene of 10 x 10 cells with two crooked walls each, 300 segments in all; the token stands
among them, and every run casts afresh (a new scene object: nothing remembered but the scene's segments).
Also `vision_explore_ms`: growing a character's explored area by its sight, a step of a 120-step walk
(the reducer's work after a move). CPU time of this process (`time.process_time`): on a machine shared by
other work, wall-clock time measures the others too.
"""

from __future__ import annotations

import math
import statistics
import sys
import time

import shapely

from app.rules.map.explored import bounded
from app.rules.map.state import Scene, Token
from app.rules.map.vision import blocking_segments, segment_count, token_sight
from app.rules.map.walls import Wall
from bench.common import emit


def scene_with_walls(segments: int = 300, side: int = 4096) -> Scene:
    walls: list[Wall] = []
    cells = 10
    step = side / cells
    n = 0
    while len(walls) < segments:
        i, j = divmod(n, cells)
        n += 1
        x, y = (j % cells) * step, (i % cells) * step
        # a wall along the top of each cell, with a door's gap in it, then down its left side
        length = step * 0.4 if n % 2 else step
        shift = (n * 37) % 20
        walls.append(Wall(id=f"w{len(walls)}", scene="s", points=((x + shift, y), (x + length, y + shift))))
        walls.append(Wall(id=f"w{len(walls)}", scene="s", points=((x, y + shift), (x + shift, y + length))))
    scene = Scene(id="s", name="bench", width=side, height=side, walls=tuple(walls[:segments]))
    assert segment_count(scene) == segments
    return scene


def main(runs: int = 31) -> dict:
    token = Token(id="t", scene="s", x=2100.0, y=1900.0)
    times = []
    for _ in range(runs):
        scene = scene_with_walls()
        blocking_segments(scene)  # the scene's, shared by every token on it
        start = time.process_time()
        token_sight(scene, token)
        times.append((time.process_time() - start) * 1000)
    scene, area, grow = scene_with_walls(), shapely.Polygon(), []
    for step in range(120):
        x, y = 2100 + 800 * math.cos(step / 10), 1900 + 800 * math.sin(step / 10)
        start = time.process_time()
        area = bounded(shapely.union(area, token_sight(scene, token.model_copy(update={"x": x, "y": y}))))
        grow.append((time.process_time() - start) * 1000)
    print(f"vision_ms_per_token_300_walls {statistics.median(times):.2f}")
    return emit(
        "vision_geometry",
        ms_per_token_300_walls=round(statistics.median(times), 2),
        explore_ms=round(statistics.median(grow), 2),
        explored_corners=int(shapely.get_num_coordinates(area)),
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 31)
