"""Relaying a ping, a shared ruler or a drag ghost: checked, budgeted per seat, through the broker."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.realtime import signals
from app.rules.campaign.state import CampaignState
from app.rules.system import Viewer
from app.services import reads
from app.services.auth import SeatAuth
from app.services.commands import SeatGone
from app.services.context import Fray

BUDGETS = signals.Budgets()


async def relay(
    fray: Fray, seat: SeatAuth, payload: dict[str, Any], viewer_of: Callable[[CampaignState], Viewer]
) -> dict[str, Any]:
    """Send what a seat pointed at to every socket of the campaign that may see it; never logged."""
    if not BUDGETS.take(seat.seat_id):
        raise signals.TooFast("Too many pings at once: wait a moment.")
    _, state = await fray.db.run_read(reads.current, fray, seat)
    known = state.seat(seat.seat_id)
    if known is not None and known.revoked:  # removed by another process since it was authenticated
        raise SeatGone("This seat was removed from the table.")
    name = "GM" if seat.is_gm else state.seat_name(seat.seat_id)
    message = signals.build(state, viewer_of(state), name, payload)
    await fray.broker.signal(seat.campaign_id, {**message, "_seat": seat.seat_id})
    return message
