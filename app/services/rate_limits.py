"""Rate limits, the app's only ones: a token bucket per address for creating campaigns, joining and the
admin password, and per seat for commands, socket messages, pings (map signals) and image uploads.

Each bucket holds `burst` tokens and refills at `per_second`; a request takes one, and one that finds the
bucket empty is refused with 429, a sentence and Retry-After, and changes nothing. The limits are set so a
real table never meets them (a whole table rolling at once, a convention's players joining from one
address) while a script hammering does at once.

With a Redis broker the buckets live in Redis, so every process of a deployment shares them: a short Lua
script takes a token atomically on Redis's own clock. We wrote the bucket rather than take a library:
the well-kept ones (`limits`, slowapi) count fixed or moving windows per route, where a bucket's burst
is what lets a table roll together, and this is twenty lines in each backend. If Redis does not answer,
the request goes through: a limit is a guard against floods, not a reason to turn a table away.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass, replace
from functools import cache
from typing import Protocol

from app.rules.errors import RuleError

logger = logging.getLogger("fray.limits")


@dataclass(frozen=True)
class Limit:
    name: str
    burst: float
    per_second: float
    sentence: str  # what the refusal says, before "try again in N seconds"


LIMITS = {
    limit.name: limit
    for limit in (
        Limit("create", 30, 1 / 20, "Too many campaigns were created from your address"),
        Limit("join", 120, 1, "Too many joins came from your address"),
        Limit("admin", 10, 1 / 30, "Too many tries of the admin password came from your address"),
        Limit("commands", 60, 10, "Too many commands came from your seat at once"),
        Limit("socket", 120, 20, "Too many messages came from your seat at once"),
        Limit("uploads", 20, 1 / 6, "Too many images came from your seat at once"),
        # Pings, rulers and drag ghosts: a GM dragging a shared ruler sends a stream of them.
        Limit("signals", 20, 5, "Too many pings came from your seat at once"),
    )
}


@cache
def _scaled(name: str, scale: float) -> Limit:
    """A limit times `FRAY_RATE_LIMIT_SCALE` (one scale a process: made once, not every request)."""
    limit = LIMITS[name]
    return replace(limit, burst=limit.burst * scale, per_second=limit.per_second * scale)


class TooMany(RuleError):
    status = 429

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class Buckets(Protocol):
    async def take(self, limit: Limit, key: str) -> float:
        """Take a token: 0 when there was one, else the seconds until there will be."""
        ...

    async def close(self) -> None: ...


class MemoryBuckets:
    """This process's buckets (one process, or no Redis)."""

    KEEP = 100_000  # buckets kept; past this they start afresh (a full bucket is the same as none)

    def __init__(self) -> None:
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}

    async def take(self, limit: Limit, key: str) -> float:
        now = time.monotonic()
        tokens, at = self._buckets.get((limit.name, key), (limit.burst, now))
        tokens = min(limit.burst, tokens + (now - at) * limit.per_second)
        wait = 0.0 if tokens >= 1 else (1 - tokens) / limit.per_second
        if len(self._buckets) >= self.KEEP:
            self._buckets.clear()
        self._buckets[(limit.name, key)] = (tokens - 1 if tokens >= 1 else tokens, now)
        return wait

    async def close(self) -> None:
        return None


# KEYS[1]: the bucket; ARGV: burst, per second. Redis's clock, so every process agrees.
_TAKE = """
local burst, rate = tonumber(ARGV[1]), tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local saved = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens = tonumber(saved[1]) or burst
local at = tonumber(saved[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / rate end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
return tostring(wait)
"""


class RedisBuckets:
    """Buckets shared by every process through Redis."""

    def __init__(self, url: str):
        from redis.asyncio import Redis

        self.redis = Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
        self.script = self.redis.register_script(_TAKE)

    async def take(self, limit: Limit, key: str) -> float:
        try:
            wait = await self.script(
                keys=[f"fray:limit:{limit.name}:{key}"], args=[limit.burst, limit.per_second]
            )
        except Exception as error:  # Redis away: let the request through (see the module's note)
            logger.warning("rate limit not checked, Redis did not answer: %s", error)
            return 0.0
        return float(wait)

    async def close(self) -> None:
        await self.redis.aclose()


def buckets_for(broker_url: str) -> Buckets:
    return RedisBuckets(broker_url) if broker_url.startswith(("redis://", "rediss://")) else MemoryBuckets()


async def check(buckets: Buckets, name: str, key: str, scale: float = 1.0) -> None:
    """Take a token from this bucket, or refuse with a sentence that says when to try again."""
    limit = LIMITS[name] if scale == 1.0 else _scaled(name, scale)
    wait = await buckets.take(limit, key)
    if wait > 0:
        seconds = max(1, math.ceil(wait))
        raise TooMany(
            f"{limit.sentence}: try again in {seconds} second{'s' if seconds != 1 else ''}.", seconds
        )
