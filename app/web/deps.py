"""Dependencies shared by routes: the app context, the caller's seat, cookies."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, HTTPException, Request
from starlette.requests import HTTPConnection
from starlette.responses import Response

from app.realtime.hub import Hub
from app.services import rate_limits
from app.services.auth import SeatAuth, seat_for_async
from app.services.context import Fray

COOKIE_PREFIX = "fray_"
COOKIE_MAX_AGE = 400 * 24 * 3600  # a campaign lasts months


def get_fray(conn: HTTPConnection) -> Fray:
    fray: Fray = conn.app.state.fray
    return fray


def get_hub(conn: HTTPConnection) -> Hub:
    hub: Hub = conn.app.state.hub
    return hub


# The dependencies are coroutines: FastAPI runs a plain `def` dependency in a worker thread, and that
# hop (a thread wake-up, a GIL hand-over, back to the loop) cost every request more than all it does.
async def fray_dep(conn: HTTPConnection) -> Fray:
    return get_fray(conn)


async def hub_dep(conn: HTTPConnection) -> Hub:
    return get_hub(conn)


FrayDep = Annotated[Fray, Depends(fray_dep)]
HubDep = Annotated[Hub, Depends(hub_dep)]


def cookie_name(campaign_id: str) -> str:
    return f"{COOKIE_PREFIX}{campaign_id}"


def bearer(conn: HTTPConnection) -> str | None:
    # The first Authorization header, as `conn.headers` reads it, without building that object: every
    # command asks.
    raw = next((value for name, value in conn.scope["headers"] if name == b"authorization"), b"")
    scheme, _, token = raw.decode("latin-1").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def token_of(conn: HTTPConnection, campaign_id: str) -> tuple[str | None, bool]:
    """The seat token and whether it came from a cookie (cookie posts must pass the Origin check)."""
    token = bearer(conn)
    if token:
        return token, False
    return conn.cookies.get(cookie_name(campaign_id)), True


def same_site(conn: HTTPConnection, fray: Fray) -> bool:
    """Whether a cookie-carrying request comes from this site's own pages (no Origin: not a browser)."""
    origin = conn.headers.get("origin")
    if not origin:
        return True
    allowed = {conn.url.netloc}
    if fray.settings.public_url:
        allowed.add(urlsplit(fray.settings.public_url).netloc)
    return urlsplit(origin).netloc in allowed


def check_origin(request: Request, fray: Fray) -> None:
    """Cookie-authenticated writes must come from this site's own pages."""
    if not same_site(request, fray):
        raise HTTPException(403, "This request came from another site, so it was refused.")


async def _seat(request: Request, campaign_id: str, acting: bool = False) -> SeatAuth | None:
    fray = get_fray(request)
    token, from_cookie = token_of(request, campaign_id)
    seat = await seat_for_async(fray, campaign_id, token, acting) if token else None
    if seat and from_cookie and request.method not in ("GET", "HEAD", "OPTIONS"):
        check_origin(request, fray)
    return seat


# Each is one dependency with no dependencies of its own: FastAPI solves every level of a tree for
# each request, and a seat is asked for on almost every request.
async def optional_seat(request: Request, campaign_id: str) -> SeatAuth | None:
    return await _seat(request, campaign_id)


async def required_seat(request: Request, campaign_id: str) -> SeatAuth:
    return await _required(request, campaign_id)


async def command_seat(request: Request, campaign_id: str) -> SeatAuth:
    """The seat of a command's caller: a command checks its seat again against the state it decides on
    (app/services/commands.py), so a seat this process knows needs no read however long ago it was."""
    return await _required(request, campaign_id, acting=True)


async def _required(request: Request, campaign_id: str, acting: bool = False) -> SeatAuth:
    seat = await _seat(request, campaign_id, acting)
    if seat is None:
        token, _ = token_of(request, campaign_id)
        if token:
            raise HTTPException(
                401, "That seat is not at this table (the link may be old, or the GM removed it)."
            )
        raise HTTPException(
            401, "Join this table first: you need a seat token (the invite link gives you one)."
        )
    return seat


async def gm_seat(seat: Annotated[SeatAuth, Depends(required_seat)]) -> SeatAuth:
    if not seat.is_gm:
        raise HTTPException(403, "Only the GM can do that.")
    return seat


SeatDep = Annotated[SeatAuth, Depends(required_seat)]
CommandSeatDep = Annotated[SeatAuth, Depends(command_seat)]
OptionalSeatDep = Annotated[SeatAuth | None, Depends(optional_seat)]
GmDep = Annotated[SeatAuth, Depends(gm_seat)]


def set_seat_cookie(response: Response, fray: Fray, campaign_id: str, token: str) -> None:
    response.set_cookie(
        cookie_name(campaign_id),
        token,
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=fray.settings.secure_cookies,
        path="/",
    )


def base_url(request: Request, fray: Fray) -> str:
    return (fray.settings.public_url or str(request.base_url)).rstrip("/")


def address(conn: HTTPConnection) -> str:
    """The caller's address (the proxy's forwarded one behind a trusted proxy: uvicorn's proxy_headers)."""
    return conn.client.host if conn.client else "unknown"


async def limit_address(conn: HTTPConnection, fray: Fray, name: str) -> None:
    await rate_limits.check(fray.limits, name, address(conn), fray.settings.rate_limit_scale)


async def limit_new_campaign(conn: HTTPConnection, fray: Fray) -> None:
    """Creating or importing a campaign: a budget per address, and one for tries of the admin password."""
    await limit_address(conn, fray, "create")
    if fray.settings.admin_password:
        await limit_address(conn, fray, "admin")


async def limit_seat(fray: Fray, name: str, seat_id: str) -> None:
    await rate_limits.check(fray.limits, name, seat_id, fray.settings.rate_limit_scale)
