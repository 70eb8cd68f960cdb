"""A player's view of the worst scene the caps allow (issue 28, item 9): every fog stroke a scene keeps,
each a polygon of the most corners a stroke may have (a jagged star as wide as the map, the slowest kind
that map.fog.cover takes: outlines that cross themselves are refused), every drawing point a scene keeps,
and every token a campaign keeps, on the scene the players are shown.

`cold` is the first player's view after the fog changed (each spot tested against the strokes once);
`warm` is every later view of the same fog, another player's or the next push's (the tests remembered).
"""

from __future__ import annotations

import math
import random
import statistics
import time

from app.rules import registry
from app.rules.map.commands import MAX_DRAWINGS, MAX_DRAWN_POINTS, MAX_FOG_STROKES, MAX_TOKENS
from app.rules.system import Event, Viewer
from bench.common import emit

SIDE = 4096
CORNERS = 200  # the most a polygon stroke may have (map.fog.cover's model)


def _events() -> list[Event]:
    rng = random.Random(28)
    made: list[tuple[str, dict]] = [
        ("campaign.created", {"id": "c1", "name": "Worst", "system": "generic", "dice_mode": "server"}),
        ("campaign.seat_joined", {"seat": {"id": "gm", "name": "GM", "role": "gm"}}),
        ("campaign.seat_joined", {"seat": {"id": "ann", "name": "Ann", "role": "player"}}),
        ("map.asset_added", {"asset": {"id": "a" * 64, "name": "big", "width": SIDE, "height": SIDE}}),
    ]
    scene = {"id": "s5", "name": "Worst", "asset": "a" * 64, "width": SIDE, "height": SIDE}
    made += [("map.scene_created", {"scene": scene}), ("map.scene_shown", {"scene": "s5", "name": "Worst"})]
    for i in range(MAX_FOG_STROKES):
        cx, cy = rng.uniform(0, SIDE), rng.uniform(0, SIDE)
        turns = sorted(rng.uniform(0, math.tau) for _ in range(CORNERS))
        reach = [rng.uniform(20, SIDE / 2) for _ in turns]
        corners = [[cx + r * math.cos(a), cy + r * math.sin(a)] for a, r in zip(turns, reach, strict=True)]
        op = "cover" if i % 3 else "reveal"
        made.append((f"map.fog_{op}ed", {"scene": "s5", "stroke": {"op": op, "polygon": corners}}))
    per = MAX_DRAWN_POINTS // MAX_DRAWINGS
    for i in range(MAX_DRAWINGS):
        points = [[rng.uniform(0, SIDE), rng.uniform(0, SIDE)] for _ in range(per)]
        made.append(("map.drawn", {"scene": "s5", "drawing": {"id": f"d{i}", "points": points}}))
    for i in range(MAX_TOKENS):
        token = {"id": f"t{i}", "scene": "s5", "x": rng.uniform(0, SIDE), "y": rng.uniform(0, SIDE)}
        made.append(("map.token_placed", {"token": {**token, "label": f"M{i}"}, "name": f"M{i}"}))
    return [Event(seq=n, batch=n, type=t, data=d) for n, (t, d) in enumerate(made, start=1)]


def main(runs: int = 5) -> dict:
    game = registry.game("generic")
    events = _events()
    ann = Viewer(seat_id="ann", role="player")
    cold, warm = [], []
    for _ in range(runs):
        state = game.replay(None, events)  # a fresh state: its scene has tested nothing yet
        began = time.perf_counter()
        view = game.view(state, ann)
        cold.append((time.perf_counter() - began) * 1000)
        began = time.perf_counter()
        game.view(state, Viewer(seat_id="ben", role="player"))
        warm.append((time.perf_counter() - began) * 1000)
    return emit(
        "map_view_worst",
        strokes=MAX_FOG_STROKES,
        corners_per_stroke=CORNERS,
        drawn_points=MAX_DRAWN_POINTS,
        tokens=MAX_TOKENS,
        tokens_seen=len(view["map"]["tokens"]),
        cold_ms_p50=round(statistics.median(cold), 1),
        cold_ms_max=round(max(cold), 1),
        warm_ms_p50=round(statistics.median(warm), 1),
    )


if __name__ == "__main__":
    main()
