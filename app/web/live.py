"""`/ws/campaigns/{id}`: live fragments (or JSON events with ?format=json); ?after=N resumes.

Sockets may also send: "ping" (answered with the current seq) and commands as JSON, exactly as the
API takes them (answered with the reply or a sentence saying why not).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect

from app.realtime import render
from app.realtime.hub import Conn
from app.rules.errors import RuleError
from app.rules.map import signals
from app.services import commands, map_signals, rate_limits, reads
from app.services.auth import SeatAuth, seat_for_async
from app.services.context import Fray
from app.web.deps import get_fray, get_hub, same_site, token_of
from app.web.errors import SERVER_ERROR

router = APIRouter()
logger = logging.getLogger("fray.web")

CLOSE_WAIT = 5.0  # seconds a socket the hub closed has to send its close frame
PAGE_OF_ROLE: dict[str, Literal["gm", "player", "table"]] = {
    "gm": "gm",
    "player": "player",
    "spectator": "table",
}


def _page_allowed(seat: SeatAuth, page: str, preview: str | None) -> bool:
    if page == "table":
        return True
    if page == "gm":
        return seat.is_gm and not preview
    return (seat.role == "player" and not preview) or (seat.is_gm and bool(preview))


@router.websocket("/ws/campaigns/{campaign_id}")
async def live(
    ws: WebSocket,
    campaign_id: str,
    after: Annotated[int, Query(ge=0, le=2**53)] = 0,
    format: Annotated[Literal["html", "json"], Query()] = "html",
    page: Annotated[Literal["gm", "player", "table"] | None, Query()] = None,
    preview: Annotated[str | None, Query(alias="as", max_length=32)] = None,
) -> None:
    fray, hub = get_fray(ws), get_hub(ws)
    token, from_cookie = token_of(ws, campaign_id)
    seat = await seat_for_async(fray, campaign_id, token)
    await ws.accept()
    if seat is None:
        # Accept, then close with a reason the page can show (a refused handshake only says 1006).
        await ws.close(code=4401, reason="No seat at this table: join with the invite link.")
        return
    if from_cookie and not same_site(ws, fray):
        await ws.close(code=4403, reason="This connection came from another site.")
        return
    page = page or PAGE_OF_ROLE[seat.role]
    if preview and not await reads.is_player_seat_async(fray, seat, preview):
        await ws.close(code=4403, reason="There is no such player seat to view as.")
        return
    if not _page_allowed(seat, page, preview):
        await ws.close(code=4403, reason="This seat cannot open that page.")
        return
    conn = Conn(ws, seat.seat_id, seat.role, page, format, preview)
    await hub.join(campaign_id, conn, after)
    close: tuple[int, str] | None = None
    try:
        while not conn.closed:  # a socket the hub closed (too far behind) is not read from again
            message = await ws.receive()
            hub.busy()  # work has come: the loop watch ticks while it is done
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:  # a binary frame: say what the socket takes, and keep it open
                _error(conn, 422, "Send text: a command as JSON, or 'ping'.")
                continue
            if len(text.encode("utf-8", "surrogatepass")) > fray.settings.max_ws_message_bytes:
                close = (1009, "That message is too big.")
                break
            # The seat is checked on every message: a revoked seat stops acting at once.
            still = await seat_for_async(fray, campaign_id, token)
            if still is None:
                close = (4401, "This seat was removed from the table.")
                break
            try:
                await _handle(fray, seat, conn, text)
            except Exception:  # a bug answers with a sentence, as over HTTP, and the socket lives on
                logger.exception("unexpected error on a socket message to /ws/campaigns/%s", campaign_id)
                _error(conn, 500, SERVER_ERROR)
    except WebSocketDisconnect:
        pass
    finally:
        if conn.closed and conn.sender is not None and not conn.sender.done():
            # The hub closed it (too far behind): let its close frame go out before leaving.
            await asyncio.wait([conn.sender], timeout=CLOSE_WAIT)
        await hub.leave(campaign_id, conn)
    if close is not None:
        await ws.close(code=close[0], reason=close[1])


async def _handle(fray: Fray, seat: SeatAuth, conn: Conn, text: str) -> None:
    if text.strip() in ("ping", '"ping"'):
        conn.push(render.seq_marker(conn.seq) if conn.fmt == "html" else json.dumps({"pong": conn.seq}))
        return
    try:  # a budget per seat for what a socket sends (keep-alive pings aside): a script flooding is refused
        await rate_limits.check(fray.limits, "socket", seat.seat_id, fray.settings.rate_limit_scale)
    except RuleError as error:
        _error(conn, error.status, str(error))
        return
    try:
        payload = json.loads(text)
        if not isinstance(payload, dict):
            raise ValueError
    except (ValueError, RecursionError):  # RecursionError: brackets nested thousands deep
        _error(conn, 422, "Send a command as a JSON object, or 'ping'.")
        return
    payload.pop("HEADERS", None)  # htmx-ext-ws adds the request headers to what it sends
    if payload.get("ping") is not None:
        conn.push(render.seq_marker(conn.seq) if conn.fmt == "html" else json.dumps({"pong": conn.seq}))
        return
    if any(kind in payload for kind in signals.KINDS):
        await _signal(fray, seat, conn, payload)
        return
    try:
        result = await commands.run(fray, seat, payload)
    except RuleError as error:
        _error(conn, error.status, str(error))
        return
    if conn.fmt == "json":
        reply = await reads.reply_for_async(fray, seat, result)
        conn.push(json.dumps({"reply": {"seq": reply["seq"], "events": reply["events"]}}))


async def _signal(fray: Fray, seat: SeatAuth, conn: Conn, payload: dict[str, Any]) -> None:
    """A ping, a shared ruler or a drag ghost: relayed through the broker, never logged."""
    try:
        await map_signals.relay(fray, seat, payload, conn.viewer)
    except RuleError as error:
        _error(conn, error.status, str(error))


def _error(conn: Conn, status: int, detail: str) -> None:
    if conn.fmt == "json":
        conn.push(json.dumps({"error": {"status": status, "detail": detail}}))
    else:
        conn.push(render.flash(detail))
