"""How long the event loop was held: while there is work, a timer every 10 ms notes how late it fired.

Every table of a process shares one event loop, so its longest stall bounds how long one table's work
can hold up another's. `/healthz` reports the longest since the last report (and resets it), which the
benchmarks read under load; nothing else depends on it.

The timer runs only while the loop has work. A wake-up of an idle process costs about 150 µs of CPU on
a small virtual machine, so a tick every 10 ms around the clock cost 15 ms of CPU a second: on a
table's evening of a command every few seconds, more than the commands themselves. Work wakes the
watch (`wake`: each request, each socket message, each push), and it ticks until the loop has been
quiet for `LINGER`. A stall that starts on an idle loop is measured from its first tick, at most one
`TICK` after the work began: the same bound a watch ticking all the time has.
"""

from __future__ import annotations

import asyncio
import time

TICK = 0.01
LINGER = 0.05  # ticks go on this long after the last wake-up: a command and its push are over by then
BUSY = 0.001  # a tick this late means the loop is still at work: the watch keeps ticking


class LoopWatch:
    def __init__(self) -> None:
        self.longest = 0.0  # seconds late, since the last report
        self.ticks = 0  # how many times it fired (tests see an idle watch rest)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._due = 0.0
        self._woken = 0.0

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self.wake()

    def wake(self) -> None:
        """Work has come: tick until it is over. Cheap enough to call on every message."""
        self._woken = time.perf_counter()
        if self._timer is None and self._loop is not None:
            self._schedule(self._woken)

    def _schedule(self, now: float) -> None:
        assert self._loop is not None
        self._due = now + TICK
        self._timer = self._loop.call_later(TICK, self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        late = now - self._due
        self.ticks += 1
        self.longest = max(self.longest, late)
        if late > BUSY or now - self._woken < LINGER:
            self._schedule(now)
        else:
            self._timer = None  # quiet: the next wake-up starts the timer again

    def report(self) -> float:
        """The longest stall in milliseconds since the last report."""
        longest, self.longest = self.longest, 0.0
        return round(longest * 1000, 1)

    async def stop(self) -> None:
        self._loop = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
