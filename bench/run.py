"""`make bench` and `make bench-quick` (small, under a minute): a JSON line per scenario, then a summary."""

from __future__ import annotations

import json
import sys

from bench import commands, fanout, first_load, idle_sockets, odds, triptycho_geometry
from bench import map as battle_map


def main(quick: bool) -> dict:
    duration = 3.0 if quick else 10.0
    eight = fanout.scenario(8, 8, 5.0, duration)
    crowd = fanout.scenario(1, 200, 5.0, duration)
    persisted = commands.main(500 if quick else 5000)[0]
    idle = idle_sockets.main(500 if quick else 5000)
    load = first_load.main()
    triptycho_geometry.main()
    board = battle_map.main(quick)
    exact = odds.main()
    summary = {
        "ratio_p99": eight["ratio_p99"],
        "p99_ms_8x8": eight["p99_ms"],
        "p99_ms_1x200": crowd["p99_ms"],
        "commands_per_s": persisted["commands_per_s"],
        "kb_per_socket": idle["kb_per_socket"],
        "player_first_load_kb": load["player_first_load_kb"],
        "map_upload_4096_ms": board["upload_to_ready_ms"],
        "map_fog_mask_ms": board["fog_mask_ms_p50"],
        "map_token_move_p99_ms": board["token_move_p99_ms"],
        "odds_cold_worst_ms": exact["worst_ms"],
    }
    print(json.dumps(summary), flush=True)
    return summary


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
