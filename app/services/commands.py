"""Running a command: authorize → load state → decide → append → publish.

Concurrency is the log's UNIQUE(campaign_id, seq): on SQLite the write transaction starts with
BEGIN IMMEDIATE so writers queue; on PostgreSQL two writers may decide at once, one insert fails and
the loser reloads the state and decides again (where it usually gets a clear refusal instead).

A command first tries the quick way: decided on this process's cached state, stored with one INSERT.
The same unique keys check it: its first event takes the seq right after the cached one, so if any
other writer (thread or process) appended since, the insert fails; a command_id used before fails on
UNIQUE(campaign_id, command_id). Either failure, and any refusal, goes the careful way: read the log's
end, look the command_id up, decide again (a repeated command returns its first result, even where
deciding it again would now be refused). It relies on a campaign's log never shrinking under a running
process: nothing deletes events, an import takes only a free id, and a backup is restored with Fray
stopped (docs/deploy.md).

On SQLite the quick way runs right on the event loop (`Database.write_now`): a fraction of a millisecond,
less than a worker thread's hop there and back. It never waits there: a lock held by another writer, a
cold cache or a refusal sends the command to a worker thread, which runs it from the start.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, TypeVar

from anyio import to_thread
from sqlalchemy import Connection

from app.rules import registry
from app.rules.campaign.state import CampaignState
from app.rules.dice import ManualRoller, Roller
from app.rules.errors import InputError, RuleError
from app.rules.game import Game
from app.rules.system import Command, CommandSpec, Ctx, Event, NewEvent
from app.services.auth import SeatAuth
from app.services.context import Fray
from app.store import log, projections, snapshots
from app.store.db import Executor, WouldWait
from app.store.log import SeqTaken

ATTEMPTS = 10


class Busy(RuleError):
    status = 503


class SeatGone(RuleError):
    status = 401


@dataclass(frozen=True)
class CommandResult:
    seq: int
    events: list[Event]
    state: CampaignState
    game: Game
    repeated: bool = False  # the same command_id came again: this is the first result


def _roller(fray: Fray, state: CampaignState, spec: CommandSpec, command: Command) -> Roller:
    if state.dice_mode == "manual" and spec.rolls:
        return ManualRoller(command.dice or ())
    if command.dice is not None:
        if not spec.rolls:
            raise InputError("This action rolls no dice: leave the dice out.")
        raise InputError(
            "This campaign rolls its dice on the server: leave the dice out, "
            "or let the GM switch the campaign to physical dice."
        )
    return fray.roller()


T = TypeVar("T")


def retrying(attempt: Callable[[], T]) -> T:
    """Run a write; when another writer took the seq first, reload and decide again."""
    for _ in range(ATTEMPTS):
        try:
            return attempt()
        except SeqTaken:
            continue
    raise Busy("The table is very busy right now; try again in a moment.")


class _Recheck(Exception):
    """The quick way cannot tell: go the careful way."""


def execute(fray: Fray, seat: SeatAuth, payload: Mapping[str, Any], internal: bool = False) -> CommandResult:
    """Run one command for a seat (blocking: call it in a worker thread, or use `run`). `internal`: the
    server's own code asks for it (an upload's `map.asset.add`); never for what a client sent."""
    game = registry.game(seat.system)
    spec, command = game.parse(payload, internal)
    try:
        return _on_cache(fray, game, seat, spec, command, fray.db.write_core(seat.campaign_id, queue=False))
    except (SeqTaken, _Recheck):
        pass
    return retrying(lambda: _attempt(fray, game, seat, spec, command))


def _now(fray: Fray, seat: SeatAuth, payload: Mapping[str, Any], internal: bool) -> CommandResult | None:
    """The quick way, right on the event loop (SQLite only: `Database.write_now`), or None when it
    cannot tell or would wait: then the command runs in a worker thread, from the start."""
    if not fray.db.reads_inline:
        return None
    game = registry.game(seat.system)
    spec, command = game.parse(payload, internal)  # a malformed command is refused here as in the thread
    try:
        return _on_cache(fray, game, seat, spec, command, fray.db.write_now())
    except (SeqTaken, _Recheck, WouldWait):
        return None


def _on_cache(
    fray: Fray,
    game: Game,
    seat: SeatAuth,
    spec: CommandSpec,
    command: Command,
    writing: AbstractContextManager[Connection],
) -> CommandResult:
    """The quick way: no read. Raises SeqTaken when the cache was stale or the command_id was used, and
    _Recheck when there is no cached state or the command is refused (it may be refused only on a stale
    state, or be a repeat whose first result is owed)."""
    with writing as conn:
        state = fray.states.get(seat.campaign_id)
        if state is None:
            raise _Recheck
        try:
            return decide_and_append(fray, conn, game, state, seat, spec, command)
        except RuleError:
            raise _Recheck from None


def _attempt(fray: Fray, game: Game, seat: SeatAuth, spec: CommandSpec, command: Command) -> CommandResult:
    """The careful way: the log's end read, the command_id looked up (a repeat gets its first result)."""
    cid = seat.campaign_id
    with fray.db.write_core(cid) as conn:
        state = fray.states.current(conn, game, cid)
        if command.command_id:
            found = log.batch_of(conn, cid, command.command_id)
            if found is not None:
                by, events = found
                if by != seat.seat_id:
                    raise RuleError("That command_id was already used by another seat: choose a fresh one.")
                return CommandResult(events[-1].seq, events, state, game, repeated=True)
        return decide_and_append(fray, conn, game, state, seat, spec, command)


def decide_and_append(
    fray: Fray,
    conn: Connection,
    game: Game,
    state: CampaignState,
    seat: SeatAuth,
    spec: CommandSpec,
    command: Command,
) -> CommandResult:
    """The one write of a command, either way it came: the seat still there, its dice, the rules decide,
    the events appended and committed, this process's cache told before the next writer's turn."""
    known = state.seat(seat.seat_id)
    if known is not None and known.revoked:  # another process removed it since it was authenticated
        raise SeatGone("This seat was removed from the table.")
    actor = state.viewer_for(seat.seat_id, seat.role)
    roller = _roller(fray, state, spec, command)
    new_events = game.decide(state, command, Ctx(roller=roller, actor=actor))
    if isinstance(roller, ManualRoller):
        roller.finish()
    events, new_state = append(fray, conn, game, state, new_events, seat.seat_id, command.command_id)
    fray.db.commit(conn)
    fray.states.put(new_state)  # this process's sockets are pushed from memory
    fray.states.remember(new_state.id, events)
    return CommandResult(new_state.seq, events, new_state, game)


def append(
    fray: Fray,
    session: Executor,
    game: Game,
    state: CampaignState,
    new_events: list[NewEvent],
    actor: str | None,
    command_id: str | None = None,
) -> tuple[list[Event], CampaignState]:
    """Append events in the open write transaction and fold them; keeps snapshots and projections in step.
    When the events' insert is the whole write, it runs as one statement of its own (`Database.alone`)."""
    if not new_events:
        raise RuleError("Nothing to do.")
    rows, events = log.stamped(state.id, state.seq, new_events, actor, state.active_encounter, command_id)
    undone = [seq for e in events if e.type == "campaign.undone" for seq in e.data["seqs"]]
    if undone:
        log.insert_rows(session, rows)
        snapshots.drop_from(session, state.id, min(undone))
        new_state = fray.states.rebuild(session, game, state.id)
        projections.rebuild(session, new_state)
        return events, new_state
    new_state = game.replay(state, events)
    if not projections.changes(state, new_state) and not fray.states.snapshot_due(state, new_state):
        fray.db.alone(session)
    log.insert_rows(session, rows)
    projections.sync(session, state, new_state)
    fray.states.maybe_snapshot(session, game, state, new_state)
    return events, new_state


async def run(
    fray: Fray, seat: SeatAuth, payload: Mapping[str, Any], internal: bool = False
) -> CommandResult:
    """Run a command (the quick way on the loop when it can, else in a worker thread), then tell every
    process's sockets about it. `internal` as for `execute`."""
    result = _now(fray, seat, payload, internal)
    if result is None:
        result = await to_thread.run_sync(execute, fray, seat, payload, internal)
    if not result.repeated:
        # In one process the room's push runs here, before this reply is built and sent (about a
        # millisecond of HTTP): the phones wait on the push, and the caller's own page is updated by it too.
        await fray.broker.publish(seat.campaign_id, result.seq)
    return result
