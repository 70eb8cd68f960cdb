"""Two `fray serve` processes on one PostgreSQL database and one Redis, as behind a load balancer.

Sockets on one process see commands sent to the other; two players on different processes race for
the last point of a pool and exactly one gets it; Redis restarts mid-session and every socket still
reaches the latest seq, commands sent while it was down included.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import httpx
import websockets

from tests.helpers import Table, pool

SEQ_MARKER = re.compile(r'id="live-seq" data-seq="(\d+)"')


def run(scenario) -> None:
    """Run an async scenario on a fresh loop in its own thread."""
    with ThreadPoolExecutor(1) as executor:
        executor.submit(asyncio.run, scenario()).result()


def connect(app, table: Table, seat, **params):
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return websockets.connect(
        f"{app.ws_url}/ws/campaigns/{table.id}?{query}", additional_headers=seat.auth, open_timeout=10
    )


def seq_of(message: str) -> int | None:
    if message.startswith("{"):
        return json.loads(message).get("seq")
    seqs = [int(s) for s in SEQ_MARKER.findall(message)]
    return max(seqs) if seqs else None


async def reach(ws, seq: int, timeout: float = 10.0) -> list[str]:
    """Read until the socket has been brought up to `seq`; the messages read on the way."""
    seen: list[str] = []
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        assert left > 0, f"the socket never reached seq {seq}; it got {[seq_of(m) for m in seen]}"
        try:
            message = await asyncio.wait_for(ws.recv(), left)
        except TimeoutError:
            continue
        seen.append(message)
        got = seq_of(message)
        if got is not None and got >= seq:
            return seen


def events_in(messages: list[str]) -> list[dict]:
    return [e for m in messages if m.startswith("{") for e in json.loads(m).get("events", [])]


def seq_now(table: Table) -> int:
    return table.view(table.gm)["campaign"]["seq"]


def test_a_socket_on_one_process_sees_a_command_sent_to_the_other(shared_apps):
    a, b = shared_apps
    with httpx.Client(base_url=a.url, timeout=10) as on_a, httpx.Client(base_url=b.url, timeout=10) as on_b:
        table = Table.create(on_a)
        ann = table.join("Ann")
        table.ok(table.gm, "generic.pool.create", name="Good Karma", value=3)
        table_b = replace(table, http=on_b)  # the same campaign, reached through process B
        start = seq_now(table)

        async def scenario():
            async with (
                connect(a, table, table.gm, format="json", after=start) as gm_on_a,
                connect(b, table, ann, format="json", after=start) as ann_on_b,
                connect(a, table, ann, after=start) as ann_page_on_a,
            ):
                # A command sent to B reaches the sockets on A, the JSON one and the page's fragments.
                sent = await asyncio.to_thread(
                    table_b.ok, ann, "generic.pool.adjust", pool="Good Karma", delta=-1
                )
                seen = await reach(gm_on_a, sent["seq"])
                assert "generic.pool_changed" in [e["type"] for e in events_in(seen)]
                await reach(ann_page_on_a, sent["seq"])
                await reach(ann_on_b, sent["seq"])
                # And the other way round.
                back = await asyncio.to_thread(
                    table.ok, table.gm, "generic.pool.adjust", pool="Good Karma", delta=1
                )
                seen = await reach(ann_on_b, back["seq"])
                assert "generic.pool_changed" in [e["type"] for e in events_in(seen)]
                await reach(gm_on_a, back["seq"])
                await reach(ann_page_on_a, back["seq"])

        run(scenario)
        # Both processes read the same table.
        assert pool(table.view(ann), "Good Karma") == pool(table_b.view(ann), "Good Karma")


def test_two_players_on_different_processes_take_the_last_point_and_exactly_one_wins(shared_apps):
    a, b = shared_apps
    with httpx.Client(base_url=a.url, timeout=10) as on_a:
        table = Table.create(on_a)
        ann, ben = table.join("Ann"), table.join("Ben")
        table.ok(table.gm, "generic.pool.create", name="Good Karma", value=1, min=0)
        barrier = threading.Barrier(2)
        results: dict[str, httpx.Response] = {}

        def take(seat, app) -> None:
            with httpx.Client(base_url=app.url, timeout=10) as http:
                barrier.wait()
                results[seat.name] = http.post(
                    f"/api/campaigns/{table.id}/commands",
                    headers=seat.auth,
                    json={
                        "command_id": uuid.uuid4().hex,
                        "type": "generic.pool.adjust",
                        "pool": "Good Karma",
                        "delta": -1,
                    },
                )

        for _ in range(8):  # several rounds, to give the race a real chance
            threads = [threading.Thread(target=take, args=pair) for pair in ((ann, a), (ben, b))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            statuses = sorted(r.status_code for r in results.values())
            assert statuses == [200, 409], {k: (v.status_code, v.text) for k, v in results.items()}
            loser = next(r for r in results.values() if r.status_code == 409)
            assert "nothing left to take" in loser.json()["detail"]
            assert pool(table.view(table.gm), "Good Karma")["value"] == 0
            table.ok(table.gm, "generic.pool.set", pool="Good Karma", value=1)
        changes = [e for e in table.events(table.gm) if e["type"] == "generic.pool_changed"]
        assert len(changes) == 8 * 2  # one take and one reset per round, never two takes


def test_redis_restarts_mid_session_and_every_socket_reaches_the_latest_seq(start_apps, own_redis):
    a, b = start_apps(own_redis.url)
    with httpx.Client(base_url=a.url, timeout=10) as on_a, httpx.Client(base_url=b.url, timeout=10) as on_b:
        table = Table.create(on_a)
        ann, ben = table.join("Ann"), table.join("Ben")
        table.ok(table.gm, "generic.pool.create", name="Good Karma", value=10)
        table_b = replace(table, http=on_b)
        start = seq_now(table)

        def adjust(on: Table, seat) -> int:
            began = time.monotonic()
            reply = on.ok(seat, "generic.pool.adjust", pool="Good Karma", delta=-1)
            assert time.monotonic() - began < 5, "a command waited on the missing Redis"
            return reply["seq"]

        async def scenario():
            async with (
                connect(a, table, table.gm, format="json", after=start) as gm_on_a,
                connect(b, table, ann, format="json", after=start) as ann_on_b,
                connect(a, table, ben, format="json", after=start) as ben_on_a,
                connect(b, table, table.gm, after=start) as gm_page_on_b,
            ):
                sockets = [gm_on_a, ann_on_b, ben_on_a, gm_page_on_b]
                first = await asyncio.to_thread(adjust, table_b, ann)
                for ws in sockets:
                    await reach(ws, first)

                await asyncio.to_thread(own_redis.stop)
                # While Redis is down, commands still succeed on both processes.
                await asyncio.to_thread(adjust, table, ben)
                await asyncio.to_thread(adjust, table_b, ann)
                down = await asyncio.to_thread(adjust, table, table.gm)
                await asyncio.sleep(0.5)
                await asyncio.to_thread(own_redis.start)

                # Each process resubscribes, resyncs its rooms from the database, and every socket
                # (the same sockets, never closed) catches up with what was sent while Redis was down.
                for ws in sockets:
                    await reach(ws, down, timeout=20)
                after = await asyncio.to_thread(adjust, table_b, ben)
                for ws in sockets:
                    await reach(ws, after, timeout=20)

        run(scenario)
        assert pool(table.view(table.gm), "Good Karma")["value"] == 10 - 5
