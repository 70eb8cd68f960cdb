"""Several commands the server makes at once, decided in turn and appended as one batch: all or nothing.

An import (a Universal VTT map: its image, its scene, then the scene's walls, doors and lights) is many
commands, and a later one may need what an earlier one made (the new scene's id). Each stage gives its
commands from the events decided so far; each command is decided on the state the ones before it made;
all their events are appended in one write, one batch in the log (one entry, undone at once). A refusal
anywhere writes nothing. Always `internal`: the server's own code asks, never a client.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from anyio import to_thread

from app.rules import registry
from app.rules.system import Ctx, Event, NewEvent
from app.services import commands
from app.services.auth import SeatAuth
from app.services.commands import CommandResult, SeatGone
from app.services.context import Fray
from app.store import log

Stage = Callable[[list[Event]], Sequence[Mapping[str, Any]]]


def execute(fray: Fray, seat: SeatAuth, stages: Sequence[Stage]) -> CommandResult:
    """Run the stages' commands as one batch (blocking: call it in a worker thread, or use `run`)."""
    game = registry.game(seat.system)

    def attempt() -> CommandResult:
        cid = seat.campaign_id
        with fray.db.write_core(cid) as conn:
            state = fray.states.current(conn, game, cid)
            known = state.seat(seat.seat_id)
            if known is not None and known.revoked:
                raise SeatGone("This seat was removed from the table.")
            actor = state.viewer_for(seat.seat_id, seat.role)
            now, made, decided = state, list[NewEvent](), list[Event]()
            for stage in stages:
                for payload in stage(decided):
                    _, command = game.parse(payload, internal=True)
                    new = game.decide(now, command, Ctx(roller=fray.roller(), actor=actor))
                    _, events = log.stamped(cid, now.seq, new, seat.seat_id, now.active_encounter)
                    now = game.replay(now, events)
                    made += new
                    decided += events
            events, new_state = commands.append(fray, conn, game, state, made, seat.seat_id)
            fray.db.commit(conn)
            fray.states.put(new_state)
            fray.states.remember(new_state.id, events)
            return CommandResult(new_state.seq, events, new_state, game)

    return commands.retrying(attempt)


async def run(fray: Fray, seat: SeatAuth, stages: Sequence[Stage]) -> CommandResult:
    """`execute` in a worker thread, then every process's sockets told, as for one command."""
    result = await to_thread.run_sync(execute, fray, seat, stages)
    await fray.broker.publish(seat.campaign_id, result.seq)
    return result
