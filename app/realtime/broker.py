"""Brokers carry "campaign X is at seq N" between processes. In one process: memory; across: Redis."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

# (campaign id, seq, whether the calling task made the change in this process)
Deliver = Callable[[str, int, bool], Awaitable[None]]
Resync = Callable[[], Awaitable[None]]
# Ephemeral messages (a map ping, a shared ruler, a drag ghost): relayed to every process's sockets of a
# campaign, never written to the log.
Signal = Callable[[str, dict[str, Any]], Awaitable[None]]


class Broker(Protocol):
    on_signal: Signal | None

    async def start(self, deliver: Deliver, resync: Resync) -> None: ...

    async def publish(self, campaign_id: str, seq: int) -> None: ...

    async def signal(self, campaign_id: str, message: dict[str, Any]) -> None: ...

    async def stop(self) -> None: ...


class MemoryBroker:
    """One process: publishing is delivering."""

    def __init__(self) -> None:
        self._deliver: Deliver | None = None
        self.on_signal: Signal | None = None

    async def start(self, deliver: Deliver, resync: Resync) -> None:
        self._deliver = deliver

    async def publish(self, campaign_id: str, seq: int) -> None:
        if self._deliver is not None:
            await self._deliver(campaign_id, seq, True)  # the publisher's own change: pushed in its task

    async def signal(self, campaign_id: str, message: dict[str, Any]) -> None:
        if self.on_signal is not None:
            await self.on_signal(campaign_id, message)

    async def stop(self) -> None:
        self._deliver = None


class BrokerConfigError(ValueError):
    pass


def make_broker(url: str) -> Broker:
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    if scheme == "memory":
        return MemoryBroker()
    if scheme in ("redis", "rediss", "unix"):
        from app.realtime.redis_broker import RedisBroker

        return RedisBroker(url)
    shown = f"{scheme}://..." if "@" in url else url  # never print a password
    raise BrokerConfigError(
        f"FRAY_BROKER_URL={shown!r} is not a broker this version of Fray knows: use memory:// (one process) "
        "or redis://host:6379/0 (several processes sharing campaigns)."
    )
