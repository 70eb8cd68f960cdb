"""The loop watch (app/realtime/loop_watch.py): it reports how long the event loop was held."""

from __future__ import annotations

import asyncio
import time

from app.realtime.hub import Hub, Room
from app.realtime.loop_watch import BUSY, LINGER, TICK, LoopWatch
from app.web.gate import Gate


def test_a_held_loop_is_reported_once_and_then_the_watch_starts_again():
    async def scenario() -> tuple[float, float, float]:
        watch = LoopWatch()
        watch.start()
        await asyncio.sleep(TICK * 3)
        quiet = watch.report()
        time.sleep(0.08)  # holds the loop: the tick due meanwhile fires late
        await asyncio.sleep(TICK * 2)
        held = watch.report()
        after = watch.report()
        await watch.stop()
        return quiet, held, after

    quiet, held, after = asyncio.run(scenario())
    assert quiet < 40
    assert held >= 80 - TICK * 1000  # the block began at most one tick before the due time
    assert after == 0.0  # a report resets it


def test_a_stopped_watch_no_longer_ticks():
    async def scenario() -> float:
        watch = LoopWatch()
        watch.start()
        await watch.stop()
        time.sleep(0.05)
        await asyncio.sleep(TICK * 2)
        return watch.report()

    assert asyncio.run(scenario()) == 0.0


def test_an_idle_watch_rests_and_work_wakes_it():
    async def scenario() -> tuple[int, int, int, float]:
        watch = LoopWatch()
        watch.start()
        await asyncio.sleep(LINGER + TICK * 5)
        rested = watch.ticks
        await asyncio.sleep(TICK * 10)
        still = watch.ticks  # nothing woke it: no tick in a hundred milliseconds
        watch.wake()
        time.sleep(0.06)  # work right after the wake-up holds the loop
        await asyncio.sleep(TICK * 2)
        woken = watch.ticks
        held = watch.report()
        await watch.stop()
        return rested, still, woken, held

    rested, still, woken, held = asyncio.run(scenario())
    assert rested <= (LINGER / TICK) + 3  # it ticked while it lingered, then stopped
    assert still == rested
    assert woken > still
    assert held >= 60 - TICK * 1000  # measured from its first tick after the wake-up


def test_a_loop_still_at_work_keeps_the_watch_ticking_past_its_linger():
    async def scenario() -> float:
        watch = LoopWatch()
        watch.start()
        busy_until = time.perf_counter() + LINGER * 4
        while time.perf_counter() < busy_until:  # a long push in slices: nothing wakes the watch
            time.sleep(BUSY * 3)
            await asyncio.sleep(0)
        watch.report()
        time.sleep(0.06)  # a stall long after the last wake-up
        await asyncio.sleep(TICK * 2)
        held = watch.report()
        await watch.stop()
        return held

    assert asyncio.run(scenario()) >= 60 - TICK * 1000


def _gate(app, watch: LoopWatch) -> Gate:
    return Gate(app, watch, public_url=None, max_bytes=1024, upload_bytes=1024)


def test_requests_sockets_and_pushes_wake_the_watch_and_an_open_socket_keeps_no_frame_of_it():
    woken: list[str] = []

    class Counting(LoopWatch):
        def wake(self) -> None:
            woken.append("wake")

    watch = Counting()

    async def app(scope, receive, send) -> None:
        await receive()

    async def nothing() -> dict:
        return {"type": "websocket.receive", "text": "hi"}

    async def scenario() -> list[int]:
        counts = []
        middleware = _gate(app, watch)
        await middleware({"type": "http", "path": "/", "method": "GET", "headers": []}, nothing, nothing)
        counts.append(len(woken))
        await middleware({"type": "websocket"}, nothing, nothing)
        counts.append(len(woken))
        return counts

    assert asyncio.run(scenario()) == [1, 2]
    # The app's own coroutine comes back, not one of the middleware's awaiting it: an open socket keeps
    # no frame of the middleware alive (2.6 KB a socket, measured).
    handed = _gate(app, watch)({"type": "websocket"}, nothing, nothing)
    assert handed.cr_code is app.__code__
    handed.close()

    async def push() -> None:
        hub = Hub(None, None, busy=watch.wake)  # type: ignore[arg-type]  # an empty room's push reads neither
        Room(hub, "c").poke()
        await asyncio.sleep(0)

    before = len(woken)
    asyncio.run(push())
    assert len(woken) == before + 1


def test_each_message_a_socket_receives_wakes_the_watch(client):
    from tests.helpers import Table

    table = Table.create(client, dice="server")
    ann = table.join("Ann")
    hub = client.app.state.hub
    woken: list[int] = []
    hub.busy = lambda: woken.append(1)
    seq = table.view(table.gm)["campaign"]["seq"]
    url = f"/ws/campaigns/{table.id}?format=json&after={seq}"
    with client.websocket_connect(url, headers=ann.auth) as ws:
        counts = []
        for _ in range(3):
            ws.send_text("ping")
            assert ws.receive_json() == {"pong": seq}
            counts.append(len(woken))
    assert counts[1] - counts[0] == 1 and counts[2] - counts[1] == 1  # a ping pokes no push: its own wake
