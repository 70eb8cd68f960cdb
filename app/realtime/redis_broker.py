"""Redis pub/sub between processes: "campaign X is at seq N", nothing more.

The database keeps the log; Redis only wakes the other processes. Every process subscribes to one
channel and hands each message to its hub, which renders for its own sockets. When the subscription
breaks (Redis restarts, the network drops), the listener reconnects with capped, jittered exponential
backoff and then asks the hub to resync: every room re-reads its seq from the database, so whatever
was published while Redis was away is still delivered.

redis-py's own silent retries are turned off on the subscriber: a reconnect it made by itself would hide
the outage, and with it the resync.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections import deque
from contextlib import suppress
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from app.realtime.broker import BrokerConfigError, Deliver, Resync, Signal

logger = logging.getLogger("fray.broker")

CHANNEL = "fray:seq"
BASE_DELAY = 0.1  # seconds before the first reconnect attempt (about; see backoff)
MAX_DELAY = 5.0  # the cap: a restarted Redis is noticed within this long
CONNECT_WAIT = 3.0  # how long start() waits for the first subscription before going on without it


def backoff(failures: int, base: float, cap: float, rng: random.Random) -> float:
    """Delay before reconnect attempt `failures` + 1: exponential, capped, with "equal jitter".

    Half the ceiling is fixed and half is random, so processes that lost Redis together do not all
    come back in the same instant, and the delay still grows.
    """
    ceiling: float = min(cap, base * 2 ** min(failures, 32))
    return ceiling / 2 + rng.random() * ceiling / 2


class RedisBroker:
    def __init__(
        self,
        url: str,
        channel: str = CHANNEL,
        base_delay: float = BASE_DELAY,
        max_delay: float = MAX_DELAY,
        rng: random.Random | None = None,
    ):
        self.url = url
        self.channel = channel
        self.base_delay = base_delay
        self.max_delay = max_delay
        self._rng = rng or random.Random()
        try:
            # Publishing retries once on a fresh connection (a pooled one may predate a Redis restart).
            self._pub = Redis.from_url(
                url, retry=Retry(NoBackoff(), 1), socket_connect_timeout=2, socket_timeout=2
            )
            self._sub = Redis.from_url(
                url,
                retry=Retry(NoBackoff(), 0),
                socket_connect_timeout=2,
                socket_keepalive=True,
                health_check_interval=10,
            )
        except ValueError as error:
            raise BrokerConfigError(
                f"FRAY_BROKER_URL is not a Redis URL Fray can use ({error}): write it like "
                "redis://host:6379/0, rediss://host:6380/0 (TLS) or unix:///run/redis/redis.sock."
            ) from None
        self._deliver: Deliver | None = None
        self._resync: Resync | None = None
        self.on_signal: Signal | None = None
        self._task: asyncio.Task | None = None
        self.connected = asyncio.Event()
        # For tests and logs: the delays slept before reconnecting, and how many resyncs ran.
        self.delays: deque[float] = deque(maxlen=100)
        self.resyncs = 0

    async def start(self, deliver: Deliver, resync: Resync) -> None:
        self._deliver, self._resync = deliver, resync
        self._task = asyncio.create_task(self._listen(), name="fray-redis-broker")
        try:
            await asyncio.wait_for(self.connected.wait(), CONNECT_WAIT)
        except TimeoutError:
            logger.warning(
                "Redis (FRAY_BROKER_URL) does not answer yet; other processes' changes will reach this "
                "one's sockets once it does."
            )

    async def publish(self, campaign_id: str, seq: int) -> None:
        try:
            await self._pub.publish(self.channel, f"{campaign_id} {seq}")
        except (RedisError, OSError) as error:
            # The change is committed; this process's own sockets hear of it now, the others when their
            # subscription comes back and they resync from the database.
            logger.warning("Could not publish to Redis (%s); delivering in this process only.", error)
            await self._local(campaign_id, seq)
            return
        if not self.connected.is_set():
            await self._local(campaign_id, seq)  # our own subscription is down: do not wait for it

    async def signal(self, campaign_id: str, message: dict[str, Any]) -> None:
        """An ephemeral message to every process: `!campaign json` on the same channel, lost if Redis is."""
        try:
            await self._pub.publish(self.channel, f"!{campaign_id} {json.dumps(message)}")
        except (RedisError, OSError) as error:
            logger.warning("Could not relay a map signal through Redis (%s); this process only.", error)
            await self._local_signal(campaign_id, message)
            return
        if not self.connected.is_set():
            await self._local_signal(campaign_id, message)

    async def _local_signal(self, campaign_id: str, message: dict[str, Any]) -> None:
        if self.on_signal is not None:
            await self.on_signal(campaign_id, message)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self.connected.clear()
        await self._pub.aclose()
        await self._sub.aclose()
        self._deliver = self._resync = None

    async def _local(self, campaign_id: str, seq: int) -> None:
        if self._deliver is not None:
            await self._deliver(campaign_id, seq, False)

    async def _listen(self) -> None:
        failures = 0
        lost = False
        while True:
            pubsub = self._sub.pubsub()
            try:
                await pubsub.subscribe(self.channel)
                await self._confirmed(pubsub)
                failures = 0
                self.connected.set()
                if lost:
                    logger.warning("Redis is back: every room catches up from the database.")
                lost = False
                await self._resync_rooms()
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None and message.get("type") == "message":
                        await self._on_message(message["data"])
            except (RedisError, OSError) as error:
                self.connected.clear()
                if not lost:
                    logger.warning("Lost the Redis subscription (%s); reconnecting.", error)
                lost = True
            finally:
                with suppress(Exception):
                    await pubsub.aclose()
            delay = backoff(failures, self.base_delay, self.max_delay, self._rng)
            failures += 1
            self.delays.append(delay)
            await asyncio.sleep(delay)

    async def _confirmed(self, pubsub: PubSub) -> None:
        """Wait until Redis has registered the subscription: only then is a resync complete."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 5
        while loop.time() < deadline:
            message = await pubsub.get_message(timeout=max(0.01, deadline - loop.time()))
            if message is None:
                continue
            if message.get("type") == "subscribe":
                return
            if message.get("type") == "message":
                await self._on_message(message["data"])
        raise RedisError("Redis did not confirm the subscription in time.")

    async def _resync_rooms(self) -> None:
        self.resyncs += 1
        if self._resync is None:
            return
        try:
            await self._resync()
        except Exception:
            logger.exception("The resync after (re)connecting to Redis failed.")

    async def _on_message(self, data: bytes | str) -> None:
        text = data.decode() if isinstance(data, bytes) else data
        if text.startswith("!"):
            await self._on_signal(text[1:])
            return
        campaign_id, _, seq = text.partition(" ")
        try:
            number = int(seq)
        except ValueError:
            logger.warning("Ignored a malformed broker message: %r", text[:80])
            return
        if self._deliver is None:
            return
        try:
            await self._deliver(campaign_id, number, False)
        except Exception:
            logger.exception("Delivering campaign %s at seq %s failed.", campaign_id, number)

    async def _on_signal(self, text: str) -> None:
        campaign_id, _, body = text.partition(" ")
        try:
            message = json.loads(body)
        except ValueError:
            logger.warning("Ignored a malformed map signal: %r", text[:80])
            return
        try:
            await self._local_signal(campaign_id, message)
        except Exception:
            logger.exception("Relaying a map signal for campaign %s failed.", campaign_id)
