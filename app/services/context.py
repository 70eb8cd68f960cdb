"""What every service needs, built once per app: settings, the database, the state cache, the broker."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from app.realtime.broker import Broker
from app.rules.dice import Roller
from app.services.auth import SeatCache
from app.services.rate_limits import Buckets, MemoryBuckets
from app.services.rollers import SecureRoller
from app.settings import Settings
from app.store.db import Database
from app.store.states import StateCache


@dataclass
class Fray:
    settings: Settings
    db: Database
    broker: Broker
    states: StateCache = field(default_factory=StateCache)
    seats: SeatCache = field(default_factory=SeatCache)  # seats authenticated lately (app/services/auth.py)
    limits: Buckets = field(default_factory=MemoryBuckets)  # rate limits (Redis-shared with a Redis broker)
    # The server's dice; tests and benchmarks may swap in a seeded roller.
    roller: Callable[[], Roller] = SecureRoller
