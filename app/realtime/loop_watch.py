"""How long the event loop was held: a tick every 10 ms notes how late it woke.

Every table of a process shares one event loop, so its longest stall bounds how long one table's work
can hold up another's. `/healthz` reports the longest since the last report (and resets it), which the
benchmarks read under load; nothing else depends on it.
"""

from __future__ import annotations

import asyncio
import time

TICK = 0.01


class LoopWatch:
    def __init__(self) -> None:
        self.longest = 0.0  # seconds late, since the last report
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        while True:
            due = time.perf_counter() + TICK
            await asyncio.sleep(TICK)
            self.longest = max(self.longest, time.perf_counter() - due)

    def report(self) -> float:
        """The longest stall in milliseconds since the last report."""
        longest, self.longest = self.longest, 0.0
        return round(longest * 1000, 1)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
