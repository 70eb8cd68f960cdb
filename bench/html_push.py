"""One room's HTML push in-process, without sockets or a client: where a push's time goes.

N players, each a seat with a character of their own, on the player page; a player adjusts a pool and
rolls, in turn; each push is timed in CPU (`time.process_time`) around the room's broadcast alone, and
what a viewer received for a pool change is measured as text and compressed as `fray serve` sends it.

    .venv/bin/python -m bench.html_push 200 20            # N, pushes
    .venv/bin/python -m bench.html_push 200 20 --profile  # and cProfile's top functions
    .venv/bin/python -m bench.html_push 64 20 --system=trinity  # a game's demo played first

With `--system`, the campaign is that game's and its demo is played through first (its own players'
sheets, a fight under way), so the phones' pages carry the game's board as at a real table.
"""

from __future__ import annotations

import asyncio
import cProfile
import os
import pstats
import sys
import tempfile
import time
import uuid
from typing import Any

from bench.common import emit
from bench.fanout import wire_bytes


class _Socket:
    """Takes each message at once, as `fray serve`'s protocol does when nothing waits before it."""

    def __init__(self, got: list[str]) -> None:
        self.got = got
        self.scope = {"extensions": {"fray.send_now": self._send}}

    def _send(self, message: str) -> bool:
        self.got.append(message)
        return True


def main(n: int = 64, pushes: int = 20, profile: bool = False, system: str = "generic") -> dict:
    os.environ.setdefault("FRAY_RATE_LIMIT_SCALE", "10000")
    from fastapi.testclient import TestClient

    from app.demo import _with_seats
    from app.main import create_app
    from app.realtime.conn import Conn
    from app.realtime.hub import Hub, Room
    from app.rules import registry
    from app.settings import Settings
    from app.store.migrate import upgrade

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/push.db"
        upgrade(url)
        with TestClient(create_app(Settings(database_url=url)), base_url="http://bench") as http:
            made = http.post("/api/campaigns", json={"name": "Bench", "system": system}).json()
            cid, invite = made["id"], made["invite_url"].rsplit("/", 1)[1]
            gm = {"Authorization": f"Bearer {made['gm_token']}"}

            def command(headers: dict, **payload: Any) -> None:
                payload["command_id"] = uuid.uuid4().hex
                r = http.post(f"/api/campaigns/{cid}/commands", headers=headers, json=payload)
                r.raise_for_status()

            demo = registry.game(system).system.demo
            if system != "generic" and demo is not None:
                ids = {}
                for name in demo.players:
                    joined = http.post(f"/api/campaigns/{cid}/join", json={"invite": invite, "name": name})
                    ids[name] = joined.json()["seat_id"]
                for step in demo.commands:
                    command(gm, **_with_seats(step, ids))
            command(gm, type="generic.pool.create", name="Gold", min=None)
            seats = []
            for i in range(n):
                joined = http.post(f"/api/campaigns/{cid}/join", json={"invite": invite, "name": f"P{i}"})
                seat = joined.json()
                command(gm, type="campaign.add_participant", name=f"Hero {i}", owner=seat["seat_id"])
                seats.append(seat)
            first = {"Authorization": f"Bearer {seats[0]['token']}"}
            fray = http.app.state.fray  # type: ignore[attr-defined]
            got: list[str] = []

            async def run() -> dict:
                room = Room(Hub(fray.db, fray.states), cid)
                for seat in seats:
                    room.conns.add(Conn(_Socket(got), seat["seat_id"], "player", "player", "html"))  # type: ignore[arg-type]
                await room._broadcast(await room._load(None))
                times, pool_msgs = [], []
                renders = room.memo.renders
                profiler = cProfile.Profile()
                for k in range(pushes):
                    if k % 2 == 0:
                        command(first, type="generic.pool.adjust", pool="Gold", delta=1)
                    else:
                        command(first, type="generic.roll", expression="2d6+1", label="attack")
                    snap = await room._load(None)
                    got.clear()
                    if profile:
                        profiler.enable()
                    start = time.process_time()
                    await room._broadcast(snap)
                    times.append((time.process_time() - start) * 1000)
                    if profile:
                        profiler.disable()
                    if k % 2 == 0:
                        pool_msgs = list(got)
                if profile:
                    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
                times.sort()
                return {
                    "viewers": n,
                    "pushes": pushes,
                    "cpu_ms_per_push_p50": round(times[len(times) // 2], 2),
                    "cpu_us_per_viewer_p50": round(times[len(times) // 2] * 1000 / n, 1),
                    "renders_per_push": round((room.memo.renders - renders) / pushes, 2),
                    "distinct_pool_messages": len({id(m) for m in pool_msgs}),
                    "pool_push_bytes_text": round(sum(len(m.encode()) for m in pool_msgs) / n),
                    "pool_push_bytes_wire": round(sum(wire_bytes(m, True) for m in pool_msgs) / n),
                }

            return emit("html_push", system=system, **asyncio.run(run()))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    systems = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--system=")]
    main(
        int(args[0]) if args else 64,
        int(args[1]) if len(args) > 1 else 20,
        "--profile" in sys.argv,
        systems[-1] if systems else "generic",
    )
