"""How long the event loop was held: a timer every 10 ms notes how late it fired.

Every table of a process shares one event loop, so its longest stall bounds how long one table's work
can hold up another's. `/healthz` reports the longest since the last report (and resets it), which the
benchmarks read under load; nothing else depends on it. The tick is a bare timer callback, not a task
sleeping: an idle server wakes a hundred times a second for it, so each wake-up should cost little.
"""

from __future__ import annotations

import asyncio
import time

TICK = 0.01


class LoopWatch:
    def __init__(self) -> None:
        self.longest = 0.0  # seconds late, since the last report
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._due = 0.0

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._schedule()

    def _schedule(self) -> None:
        assert self._loop is not None
        self._due = time.perf_counter() + TICK
        self._timer = self._loop.call_later(TICK, self._tick)

    def _tick(self) -> None:
        self.longest = max(self.longest, time.perf_counter() - self._due)
        self._schedule()

    def report(self) -> float:
        """The longest stall in milliseconds since the last report."""
        longest, self.longest = self.longest, 0.0
        return round(longest * 1000, 1)

    async def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
