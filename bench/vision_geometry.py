"""One token's sight among 300 wall segments: `vision_ms_per_token_300_walls` (median of several runs).

A 4096 x 4096 scene of 10 x 10 rooms whose walls have door gaps, 300 segments in all; the token stands in
a room, and every run casts afresh (a new scene object: nothing remembered).
"""

from __future__ import annotations

import statistics
import sys
import time

from app.rules.map.state import Scene, Token
from app.rules.map.vision import segment_count, token_sight
from app.rules.map.walls import Wall


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


def main(runs: int = 31) -> None:
    token = Token(id="t", scene="s", x=2100.0, y=1900.0)
    times = []
    for _ in range(runs):
        scene = scene_with_walls()
        start = time.perf_counter()
        token_sight(scene, token)
        times.append((time.perf_counter() - start) * 1000)
    print(f"vision_ms_per_token_300_walls {statistics.median(times):.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 31)
