"""Seats and their tokens: 32 random bytes, stored only as a SHA-256 hash."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlmodel import col

from app.rules.campaign.state import CampaignState
from app.store.models import Campaign, Seat

if TYPE_CHECKING:
    from app.services.context import Fray


@dataclass(frozen=True)
class SeatAuth:
    """An authenticated seat at one campaign's table."""

    seat_id: str
    campaign_id: str
    role: str
    name: str
    system: str

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_code() -> str:
    """An invite or spectator code: unguessable, short enough for a QR code."""
    return secrets.token_urlsafe(12)


def new_id(nbytes: int = 6) -> str:
    return secrets.token_hex(nbytes)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


class SeatCache:
    """Seats this process has authenticated, so a request at a busy table needs no database read.

    An entry is trusted for `ttl` seconds, and only while the campaign's state in this process (kept
    current from the log, and refreshed by every command and push) still shows that seat as it was:
    a seat the state shows revoked, renamed or gone is looked up again at once. Every command also
    checks its seat against the state it decides on (app/services/commands.py), so a revocation made
    by another process stops a seat acting at once; only reads may lag it, by `ttl` at most.
    """

    def __init__(self, size: int = 10_000, ttl: float = 10.0, clock: Callable[[], float] = time.monotonic):
        self.size, self.ttl, self.clock = size, ttl, clock
        self._kept: OrderedDict[tuple[str, str], tuple[float, SeatAuth]] = OrderedDict()
        self._lock = threading.Lock()

    def get(
        self, campaign_id: str, token_hash: str, state: CampaignState | None, acting: bool = False
    ) -> SeatAuth | None:
        """The seat kept for this token, or None. `acting`: for a command, whose seat is checked again
        against the state it decides on; the entry's age does not matter then (a token names one seat
        for good: seats are revoked, never given another token), so a busy table's commands never wait
        on a read because an entry grew old."""
        key = (campaign_id, token_hash)
        with self._lock:
            kept = self._kept.get(key)
            if kept is None:
                return None
            since, seat = kept
            info = state.seat(seat.seat_id) if state is not None else None
            stale = state is not None and (info is None or info.revoked or info.name != seat.name)
            if stale or (not acting and self.clock() - since > self.ttl):
                del self._kept[key]
                return None
            self._kept.move_to_end(key)
            return seat

    def put(self, token_hash: str, seat: SeatAuth) -> None:
        with self._lock:
            self._kept[(seat.campaign_id, token_hash)] = (self.clock(), seat)
            self._kept.move_to_end((seat.campaign_id, token_hash))
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def forget(self, campaign_id: str, seat_id: str) -> None:
        with self._lock:
            gone = [k for k, (_, s) in self._kept.items() if k[0] == campaign_id and s.seat_id == seat_id]
            for key in gone:
                del self._kept[key]


_CONTROL = re.compile("[\x00-\x1f\x7f]")


def _well_formed(campaign_id: str, token: str | None) -> bool:
    # A NUL names no seat, and PostgreSQL could not even look for it. (A regular expression: looping
    # over the characters in Python cost more than the rest of a cached seat's look-up.)
    return (
        bool(token)
        and len(token or "") <= 200
        and _CONTROL.search(campaign_id) is None
        and _CONTROL.search(token or "") is None
    )


def known_seat(fray: Fray, campaign_id: str, token: str | None) -> SeatAuth | None:
    """The seat of a token this process has authenticated lately, without touching the database."""
    if not _well_formed(campaign_id, token):
        return None
    return fray.seats.get(campaign_id, hash_token(token or ""), fray.states.get(campaign_id))


def seat_for(fray: Fray, campaign_id: str, token: str | None) -> SeatAuth | None:
    if not _well_formed(campaign_id, token):
        return None
    token_hash = hash_token(token or "")
    seat = fray.seats.get(campaign_id, token_hash, fray.states.get(campaign_id))
    if seat is not None:
        return seat
    query = (
        select(col(Seat.id), col(Seat.role), col(Seat.name), col(Campaign.system))
        .join(Campaign, col(Campaign.id) == col(Seat.campaign_id))
        .where(
            col(Seat.token_hash) == token_hash,
            col(Seat.campaign_id) == campaign_id,
            col(Seat.revoked_at).is_(None),
        )
    )
    with fray.db.read() as session:
        row = session.execute(query).first()
    if row is None:
        return None
    seat = SeatAuth(seat_id=row.id, campaign_id=campaign_id, role=row.role, name=row.name, system=row.system)
    fray.seats.put(token_hash, seat)
    return seat


async def seat_for_async(
    fray: Fray, campaign_id: str, token: str | None, acting: bool = False
) -> SeatAuth | None:
    """The web layer's way to a seat: one authenticated lately needs neither a read nor a worker thread.
    `acting`: the seat is for a command (`SeatCache.get`)."""
    if not _well_formed(campaign_id, token):
        return None
    known = fray.seats.get(campaign_id, hash_token(token or ""), fray.states.get(campaign_id), acting)
    return known or await fray.db.run_read(seat_for, fray, campaign_id, token)
