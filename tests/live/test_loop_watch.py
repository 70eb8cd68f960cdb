"""The loop watch (app/realtime/loop_watch.py): it reports how long the event loop was held."""

from __future__ import annotations

import asyncio
import time

from app.realtime.loop_watch import TICK, LoopWatch


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
