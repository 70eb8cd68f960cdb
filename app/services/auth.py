"""Seats and their tokens: 32 random bytes, stored only as a SHA-256 hash."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from sqlalchemy import select
from sqlmodel import col

from app.services.context import Fray
from app.store.models import Campaign, Seat


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


def seat_for(fray: Fray, campaign_id: str, token: str | None) -> SeatAuth | None:
    if not token or len(token) > 200 or any(ord(c) < 32 or ord(c) == 127 for c in campaign_id + token):
        return None  # a NUL names no seat, and PostgreSQL could not even look for it
    query = (
        select(col(Seat.id), col(Seat.role), col(Seat.name), col(Campaign.system))
        .join(Campaign, col(Campaign.id) == col(Seat.campaign_id))
        .where(
            col(Seat.token_hash) == hash_token(token),
            col(Seat.campaign_id) == campaign_id,
            col(Seat.revoked_at).is_(None),
        )
    )
    with fray.db.read() as session:
        row = session.execute(query).first()
    if row is None:
        return None
    return SeatAuth(seat_id=row.id, campaign_id=campaign_id, role=row.role, name=row.name, system=row.system)
