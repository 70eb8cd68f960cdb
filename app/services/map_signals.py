"""Relaying a ping, a shared ruler or a drag ghost: budgeted per seat by the one rate limiter, checked by
the map's rules, through the broker."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.rules.campaign.state import CampaignState
from app.rules.map import signals
from app.rules.system import Viewer
from app.services import rate_limits, reads
from app.services.auth import SeatAuth
from app.services.commands import SeatGone
from app.services.context import Fray


async def relay(
    fray: Fray, seat: SeatAuth, payload: dict[str, Any], viewer_of: Callable[[CampaignState], Viewer]
) -> dict[str, Any]:
    """Send what a seat pointed at to every socket of the campaign that may see it; never logged."""
    await rate_limits.check(fray.limits, "signals", seat.seat_id, fray.settings.rate_limit_scale)
    _, state = await fray.db.run_read(reads.current, fray, seat)
    known = state.seat(seat.seat_id)
    if known is not None and known.revoked:  # removed by another process since it was authenticated
        raise SeatGone("This seat was removed from the table.")
    name = "GM" if seat.is_gm else state.seat_name(seat.seat_id)
    message = signals.build(state, viewer_of(state), name, payload)
    if not any(isinstance(body, dict) and body.get("private") for body in message.values()):
        await fray.broker.signal(seat.campaign_id, {**message, "_seat": seat.seat_id})
    return message
