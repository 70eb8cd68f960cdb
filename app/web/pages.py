"""HTML pages: landing, joining, the GM console, the player's phone page, the table view, replays."""

from __future__ import annotations

import json
from typing import Annotated, Any
from urllib.parse import urlsplit

import segno
from fastapi import APIRouter, File, Form, HTTPException, Path, Query, Request, UploadFile
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from markupsafe import Markup

from app.realtime import render
from app.resources import ROOT
from app.rules import registry
from app.rules.errors import InputError
from app.services import campaigns, commands, reads, transfer
from app.services.auth import SeatAuth, seat_for_async
from app.services.context import Fray
from app.web.deps import (
    COOKIE_PREFIX,
    CommandSeatDep,
    FrayDep,
    GmDep,
    SeatDep,
    base_url,
    cookie_name,
    limit_address,
    limit_new_campaign,
    limit_seat,
    set_seat_cookie,
    token_of,
)

router = APIRouter(include_in_schema=False)


NO_CACHE = {"Cache-Control": "no-cache"}  # a new service worker is picked up on the next visit


def html(body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(body, status_code=status)


def redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def qr_svg(url: str) -> Markup:
    return Markup(
        segno.make(url, error="m").svg_inline(scale=4, dark="#111", light="#fff", title="Invite QR code")
    )


async def form_payload(request: Request) -> dict[str, Any]:
    """A form as a command: empty fields left out, `name[]` as lists, `name:json` parsed."""
    form = await request.form()
    payload: dict[str, Any] = {}
    for key in dict.fromkeys(form.keys()):
        if key.startswith("_"):
            continue
        values = [v for v in form.getlist(key) if isinstance(v, str) and v.strip() != ""]
        if key.endswith(":json"):
            if values:
                try:
                    payload[key[:-5]] = json.loads(values[-1])
                except (ValueError, RecursionError):  # RecursionError: brackets nested thousands deep
                    raise InputError(f"{key[:-5]} is not valid JSON.") from None
        elif key.endswith("[]"):
            payload[key[:-2]] = values
        elif values:
            payload[key] = values[-1]
    return payload


@router.get("/", response_class=HTMLResponse)
async def landing(request: Request, fray: FrayDep):
    seats = {k[len(COOKIE_PREFIX) :]: v for k, v in request.cookies.items() if k.startswith(COOKIE_PREFIX)}
    tables = await reads.tables_of_async(fray, seats)
    return html(
        render.render_template(
            "pages/landing.html",
            {
                "systems": registry.systems(),
                "tables": tables,
                "needs_password": bool(fray.settings.admin_password),
            },
        )
    )


@router.post("/campaigns")
async def create(
    request: Request,
    fray: FrayDep,
    name: Annotated[str, Form()] = "",
    system: Annotated[str, Form()] = "generic",
    dice: Annotated[str, Form()] = "server",
    gm_name: Annotated[str, Form()] = "",
    admin_password: Annotated[str, Form()] = "",
):
    await limit_new_campaign(request, fray)
    new = await campaigns.create_async(fray, name, system, dice, gm_name, admin_password)
    response = redirect(f"/c/{new.id}/gm")
    set_seat_cookie(response, fray, new.id, new.gm.token)
    return response


@router.post("/import")
async def import_campaign(
    request: Request,
    fray: FrayDep,
    file: Annotated[UploadFile, File()],
    admin_password: Annotated[str, Form()] = "",
):
    """A GM brings a campaign from a backup file: it opens on a GM console with a fresh GM link."""
    await limit_new_campaign(request, fray)
    campaigns.check_admin(fray, admin_password)
    raw = await file.read(fray.settings.max_upload_bytes + 1)
    done = await transfer.import_campaign_async(fray, raw, False)
    response = redirect(f"/c/{done.campaign_id}/gm")
    if done.gm_token:
        set_seat_cookie(response, fray, done.campaign_id, done.gm_token)
    return response


@router.post("/join")
async def join_by_link(link: Annotated[str, Form()] = ""):
    """Someone pasted an invite link (or typed its address): take them to it."""
    path = urlsplit(link.strip()).path.rstrip("/")
    parts = path.split("/")
    if len(parts) >= 5 and parts[-4] == "c" and parts[-2] in ("join", "watch"):
        return redirect("/" + "/".join(parts[-4:]))
    raise InputError("That does not look like a Fray invite link: it ends in /c/…/join/….")


@router.get("/c/{campaign_id}")
async def seat_home(campaign_id: str, seat: SeatDep):
    page = {"gm": "gm", "player": "play", "spectator": "table"}[seat.role]
    return redirect(f"/c/{campaign_id}/{page}")


@router.get("/c/{campaign_id}/join/{code}", response_class=HTMLResponse)
async def join_form(campaign_id: str, code: str, request: Request, fray: FrayDep):
    token, _ = token_of(request, campaign_id)
    seat = await seat_for_async(fray, campaign_id, token)
    if seat is not None:
        return redirect(f"/c/{campaign_id}")
    if not await campaigns.exists_async(fray, campaign_id):
        raise HTTPException(404, "There is no such campaign: check the link with your GM.")
    return html(render.render_template("pages/join.html", {"campaign_id": campaign_id, "code": code}))


@router.post("/c/{campaign_id}/join/{code}")
async def join(
    campaign_id: str, code: str, request: Request, fray: FrayDep, name: Annotated[str, Form()] = ""
):
    await limit_address(request, fray, "join")
    seat = await campaigns.join_async(fray, campaign_id, code, name)
    response = redirect(f"/c/{campaign_id}/play")
    set_seat_cookie(response, fray, campaign_id, seat.token)
    return response


@router.get("/c/{campaign_id}/watch/{code}")
async def watch(campaign_id: str, code: str, request: Request, fray: FrayDep):
    token, _ = token_of(request, campaign_id)
    if token and await seat_for_async(fray, campaign_id, token) is not None:
        return redirect(f"/c/{campaign_id}/table")
    await limit_address(request, fray, "join")
    seat = await campaigns.join_async(fray, campaign_id, code, None, role="spectator")
    response = redirect(f"/c/{campaign_id}/table")
    set_seat_cookie(response, fray, campaign_id, seat.token)
    return response


@router.get("/c/{campaign_id}/seat/{token}")
async def claim(campaign_id: str, token: str, fray: FrayDep):
    """A seat's own link (from `fray demo`, or saved to come back on another device)."""
    seat = await seat_for_async(fray, campaign_id, token)
    if seat is None:
        raise HTTPException(401, "That seat link is not valid any more: ask the GM for a fresh invite.")
    response = redirect(f"/c/{campaign_id}")
    set_seat_cookie(response, fray, campaign_id, token)
    return response


def _own_link(request: Request, fray: Fray, campaign_id: str) -> str | None:
    token, from_cookie = token_of(request, campaign_id)
    return f"{base_url(request, fray)}/c/{campaign_id}/seat/{token}" if token and from_cookie else None


@router.get("/c/{campaign_id}/gm", response_class=HTMLResponse)
async def gm_page(campaign_id: str, request: Request, seat: GmDep, fray: FrayDep):
    invite, spectator = await campaigns.codes_async(fray, seat)
    base = base_url(request, fray)
    invite_url = f"{base}/c/{campaign_id}/join/{invite}"
    context = await reads.page_context_async(
        fray,
        seat,
        "gm",
        invite_url=invite_url,
        invite_qr=qr_svg(invite_url),
        spectator_url=f"{base}/c/{campaign_id}/watch/{spectator}",
        own_link=_own_link(request, fray, campaign_id),
        systems=registry.systems(),
    )
    return html(render.render_page("gm", context))


@router.get("/c/{campaign_id}/gm/{tool}", response_class=HTMLResponse)
async def gm_tool(
    campaign_id: str,
    seat: GmDep,
    fray: FrayDep,
    tool: Annotated[str, Path(pattern=r"^[a-z][a-z0-9_-]{0,31}$")],
):
    """A game system's own GM page beside the console (Triptycho's map editor, a card editor)."""
    name = render.system_tool(seat.system, tool)
    if name is None:
        raise reads.NotFound("This game has no such GM page.")
    context = await reads.page_context_async(fray, seat, "gm", tool=tool)
    return html(render.render_tool(name, context))


@router.get("/c/{campaign_id}/play", response_class=HTMLResponse)
async def player_page(
    campaign_id: str,
    request: Request,
    seat: SeatDep,
    fray: FrayDep,
    preview: Annotated[str | None, Query(alias="as", max_length=32)] = None,
):
    if seat.role == "spectator":
        return redirect(f"/c/{campaign_id}/table")
    if seat.is_gm and not preview:
        return redirect(f"/c/{campaign_id}/gm")
    context = await reads.page_context_async(
        fray,
        seat,
        "player",
        preview=preview,
        own_link=None if preview else _own_link(request, fray, campaign_id),
    )
    return html(render.render_page("player", context))


@router.get("/c/{campaign_id}/table", response_class=HTMLResponse)
async def table_page(campaign_id: str, seat: SeatDep, fray: FrayDep):
    context = await reads.page_context_async(fray, seat, "table")
    return html(render.render_page("table", context))


@router.get("/c/{campaign_id}/encounters/{encounter_id}", response_class=HTMLResponse)
async def replay_page(
    campaign_id: str,
    encounter_id: str,
    seat: SeatDep,
    fray: FrayDep,
    seq: Annotated[int | None, Query(ge=0)] = None,
):
    data = await reads.replay_for_async(fray, seat, encounter_id, seq)
    steps = data["steps"]
    earlier = [s for s in steps if s < data["seq"]]
    later = [s for s in steps if s > data["seq"]]
    context = {
        **data,
        "campaign_id": campaign_id,
        "system": seat.system,
        "role": seat.role,
        # The boards draw from `v`, the view folded up to this step for this seat (a player's own view).
        "v": data["view"],
        "board_template": render.system_board(seat.system),
        "replay_template": render.system_replay(seat.system),
        "system_assets": render.system_assets(seat.system),
        "prev": earlier[-1] if earlier else None,
        "next": later[0] if later else None,
        "first": steps[0] if steps else None,
        "last": steps[-1] if steps else None,
    }
    return html(render.render_template("pages/replay.html", context))


@router.post("/c/{campaign_id}/commands")
async def command(campaign_id: str, request: Request, seat: CommandSeatDep, fray: FrayDep):
    """A form from a page, run as a command. HTMX gets a short confirmation; the socket brings the rest.
    A form sent as HTMX sends it is answered before it gets here (app/web/quick_commands.py)."""
    return await form_command(request, campaign_id, seat, fray)


async def form_command(request: Request, campaign_id: str, seat: SeatAuth, fray: Fray) -> Response:
    """A seat's form run as a command, and the page's answer."""
    payload = await form_payload(request)
    await limit_seat(fray, "commands", seat.seat_id)
    result = await commands.run(fray, seat, payload)
    if "hx-request" not in request.headers:
        # Back to the page the form was on (its path only: never off to another site).
        back = urlsplit(request.headers.get("referer", ""))
        same_table = back.path.startswith(f"/c/{campaign_id}/")
        return redirect(
            back.path + (f"?{back.query}" if back.query else "") if same_table else f"/c/{campaign_id}"
        )
    viewer = reads.viewer_of(result.state, seat)
    visible = result.game.visible(result.events, viewer, result.state)
    text = result.game.describe(visible[-1]) if visible else "Done."
    return html(render.render_template("partials/msg.html", {"message": text, "kind": "ok"}))


@router.post("/c/{campaign_id}/seats/{seat_id}/revoke")
async def revoke(campaign_id: str, seat_id: str, seat: GmDep, fray: FrayDep):
    await campaigns.revoke_async(fray, seat, seat_id)
    return html(render.render_template("partials/msg.html", {"message": "Seat removed.", "kind": "ok"}))


@router.post("/c/{campaign_id}/invite/rotate")
async def rotate(
    campaign_id: str, request: Request, seat: GmDep, fray: FrayDep, which: Annotated[str, Form()] = "invite"
):
    if which not in ("invite", "spectator"):
        raise InputError("Choose the invite or the spectator link.")
    await campaigns.rotate_async(fray, seat, which)
    if "hx-request" in request.headers:
        return Response(status_code=204, headers={"HX-Refresh": "true"})
    return redirect(f"/c/{campaign_id}/gm")


@router.get("/sw.js", include_in_schema=False)
async def service_worker():
    """The service worker (static/js/sw.js), from the root: it may keep only pages under its own path."""
    return FileResponse(ROOT / "static" / "js" / "sw.js", media_type="text/javascript", headers=NO_CACHE)


@router.get("/c/{campaign_id}/manifest.webmanifest", include_in_schema=False)
async def manifest(campaign_id: Annotated[str, Path(max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]):
    """Add to Home Screen opens this table like an app: /c/{id} takes the seat to its own page."""
    icons = [
        {"src": f"/static/img/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png"} for n in (192, 512)
    ]
    body = {
        "name": "Fray",
        "short_name": "Fray",
        "start_url": f"/c/{campaign_id}",
        "scope": "/",
        "display": "standalone",
        "background_color": "#16161d",
        "theme_color": "#16161d",
        "icons": icons,
    }
    return JSONResponse(body, media_type="application/manifest+json")


@router.post("/c/{campaign_id}/leave")
async def leave(campaign_id: str):
    """Forget this browser's seat at the table (the seat itself stays until the GM removes it)."""
    response = redirect("/")
    response.delete_cookie(cookie_name(campaign_id), path="/")
    return response
