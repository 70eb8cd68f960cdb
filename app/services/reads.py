"""Reading a campaign as one seat sees it: views, events, the log, replays of past encounters."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from anyio import to_thread

from app.realtime import render
from app.realtime.log import log_entries
from app.rules import registry
from app.rules.campaign.state import CampaignState
from app.rules.errors import Forbidden, RuleError
from app.rules.game import Game
from app.rules.system import Viewer
from app.services.auth import SeatAuth, seat_for
from app.services.commands import CommandResult
from app.services.context import Fray
from app.store import log


class NotFound(RuleError):
    status = 404


def current(fray: Fray, seat: SeatAuth) -> tuple[Game, CampaignState]:
    game = registry.game(seat.system)
    with fray.db.read() as session:
        return game, fray.states.current(session, game, seat.campaign_id)


def viewer_of(
    state: CampaignState, seat: SeatAuth, page: str | None = None, preview: str | None = None
) -> Viewer:
    """The viewer a page shows: the table view is public; the GM may preview a player's seat."""
    if page == "table":
        return state.table_viewer(seat.seat_id, seat.role)
    if preview:
        if not seat.is_gm:
            raise Forbidden("Only the GM can see the table as another player.")
        target = state.seat(preview)
        if target is None or target.role != "player":
            raise RuleError("There is no such player seat to view as.")
        return state.viewer_for(preview, "player")
    return state.viewer_for(seat.seat_id, seat.role)


def view_for(fray: Fray, seat: SeatAuth, scene: str | None = None) -> dict[str, Any]:
    game, state = current(fray, seat)
    return game.view(state, viewer_of(state, seat), scene)


def reply_for(fray: Fray, seat: SeatAuth, result: CommandResult) -> dict[str, Any]:
    """A command's reply: its seq, the events the caller may see, and the caller's view after it."""
    game, state = result.game, result.state
    if result.repeated:
        game, state = current(fray, seat)
    viewer = viewer_of(state, seat)
    return {
        "seq": result.seq,
        "events": [e.public() for e in game.visible(result.events, viewer, state)],
        "view": game.view(state, viewer),
    }


def events_for(fray: Fray, seat: SeatAuth, after: int, limit: int) -> dict[str, Any]:
    game, state = current(fray, seat)
    with fray.db.read() as session:
        events = log.after(session, seat.campaign_id, after, limit=limit)
    viewer = viewer_of(state, seat)
    last = events[-1].seq if len(events) == limit else state.seq
    return {"seq": last, "events": [e.public() for e in game.visible(events, viewer, state)]}


def page_context(
    fray: Fray, seat: SeatAuth, page: str, preview: str | None = None, **extra: Any
) -> dict[str, Any]:
    game = registry.game(seat.system)
    with fray.db.read() as session:
        state = fray.states.current(session, game, seat.campaign_id)
        recent = log.recent(session, seat.campaign_id, fray.settings.log_page)
    viewer = viewer_of(state, seat, page, preview)
    return render.page_context(game, state, viewer, recent, page, preview=preview, seat=seat, **extra)


def hidden_as_now(then: CampaignState, now: CampaignState) -> CampaignState:
    """A past state with every character hidden today hidden in it too."""
    hidden = {p.id for p in now.participants if p.hidden}
    if not any(p.id in hidden and not p.hidden for p in then.participants):
        return then
    masked = tuple(p.model_copy(update={"hidden": True}) if p.id in hidden else p for p in then.participants)
    return then.model_copy(update={"participants": masked})


def replay_for(
    fray: Fray, seat: SeatAuth, encounter_id: str, seq: int | None, page: str | None = None
) -> dict[str, Any]:
    """A past (or running) encounter: its log, and the table as it stood at `seq`."""
    game = registry.game(seat.system)
    with fray.db.read() as session:
        now = fray.states.current(session, game, seat.campaign_id)
        encounter = next((e for e in now.encounters if encounter_id in (e.id, e.name)), None)
        if encounter is None or (encounter.status == "prepared" and not seat.is_gm):
            raise NotFound("There is no such encounter to replay.")
        if encounter.status == "prepared":
            raise RuleError(f"{encounter.name} has not been played yet.")
        events = log.of_encounter(session, seat.campaign_id, encounter.id)
        first, last = events[0].seq, events[-1].seq
        at = last if seq is None else max(first, min(seq, last))
        state = fray.states.rebuild(session, game, seat.campaign_id, upto=at)
        recent = log.after(session, seat.campaign_id, first - 1, upto=at)
    # What is hidden now stays hidden in the past too: a replay judges its events by the campaign today.
    state = hidden_as_now(state, now)
    viewer = viewer_of(state, seat, page)
    visible = game.visible(events, viewer, now)
    steps = [e.seq for e in visible]
    return {
        "encounter": {"id": encounter.id, "name": encounter.name, "status": encounter.status},
        "seq": at,
        "steps": steps,
        "events": [{"seq": e.seq, "text": game.describe(e), "type": e.type} for e in visible],
        "view": game.view(state, viewer),
        "log": log_entries(game, state, [e for e in recent if e.seq <= at], viewer),
    }


def tables_of(fray: Fray, tokens: Mapping[str, str]) -> list[dict[str, str]]:
    """The tables a browser has seats at (campaign id -> its seat token), for the home page."""
    tables = []
    for campaign_id, token in tokens.items():
        seat = seat_for(fray, campaign_id, token)
        if seat is None:
            continue
        game, state = current(fray, seat)
        tables.append({"id": campaign_id, "name": state.name, "role": seat.role, "system": game.system.title})
    return tables[:20]


def is_player_seat(fray: Fray, seat: SeatAuth, seat_id: str) -> bool:
    _, state = current(fray, seat)
    target = state.seat(seat_id)
    return target is not None and target.role == "player" and not target.revoked


# The web layer's entry points; each owns its hop off the loop. A read of the current state goes through
# the database's `run_read` (on the loop on SQLite, where it is quicker than a thread hop; a worker thread
# on a server database). A read of many rows (a page of events, a page's whole context, a past encounter
# folded again, every table of a browser) runs in a worker thread, so other tables are not kept waiting.
async def current_async(fray: Fray, seat: SeatAuth) -> tuple[Game, CampaignState]:
    return await fray.db.run_read(current, fray, seat)


async def view_for_async(fray: Fray, seat: SeatAuth, scene: str | None = None) -> dict[str, Any]:
    return await fray.db.run_read(view_for, fray, seat, scene)


async def reply_for_async(fray: Fray, seat: SeatAuth, result: CommandResult) -> dict[str, Any]:
    return await fray.db.run_read(reply_for, fray, seat, result)


async def is_player_seat_async(fray: Fray, seat: SeatAuth, seat_id: str) -> bool:
    return await fray.db.run_read(is_player_seat, fray, seat, seat_id)


async def events_for_async(fray: Fray, seat: SeatAuth, after: int, limit: int) -> dict[str, Any]:
    return await to_thread.run_sync(events_for, fray, seat, after, limit)


async def page_context_async(
    fray: Fray, seat: SeatAuth, page: str, preview: str | None = None, **extra: Any
) -> dict[str, Any]:
    return await to_thread.run_sync(lambda: page_context(fray, seat, page, preview, **extra))


async def replay_for_async(
    fray: Fray, seat: SeatAuth, encounter_id: str, seq: int | None, page: str | None = None
) -> dict[str, Any]:
    return await to_thread.run_sync(replay_for, fray, seat, encounter_id, seq, page)


async def tables_of_async(fray: Fray, tokens: Mapping[str, str]) -> list[dict[str, str]]:
    return await to_thread.run_sync(tables_of, fray, tokens)
