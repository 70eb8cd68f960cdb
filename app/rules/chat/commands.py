"""`chat.say {text, to?: [seat ids], as?: participant}` from any seat (spectators watch; they do not talk).

A whisper's audience is its seats (the speaker's too) and the GM, by seat: no other seat's view, events,
sockets, replay or export holds it. The GM may speak as one of their NPCs that the players can see. Text is
plain (the pages escape it and make nothing of it but text), one line of at most 500 characters.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.rules.campaign.state import CampaignState
from app.rules.contract.commands import Command, Ctx, command, command_table
from app.rules.contract.envelope import NewEvent
from app.rules.contract.validation import CONTROL
from app.rules.contract.viewer import seats_audience
from app.rules.errors import Forbidden, InputError, RuleError

MAX_TEXT = 500


class Say(Command):
    type: Literal["chat.say"] = "chat.say"
    text: str = Field(min_length=1, max_length=MAX_TEXT)
    to: tuple[str, ...] = Field(default=(), max_length=20)
    as_: str | None = Field(default=None, alias="as", max_length=64)


def say(state: CampaignState, cmd: Say, ctx: Ctx) -> list[NewEvent]:
    text = " ".join(cmd.text.split())  # one line: no markup, no layout of the speaker's own
    if not text:
        raise InputError("Say something: the message is empty.")
    if any(c in CONTROL for c in cmd.text):
        raise InputError("The message holds a control character: take it out.")
    speaker = state.seat_name(ctx.actor.seat_id)
    character = None
    if cmd.as_ is not None:
        if not ctx.actor.is_gm:
            raise Forbidden("Only the GM speaks as another character.")
        npc = state.participant(cmd.as_)
        if npc.owner is not None:
            raise RuleError(f"{npc.name} is a player's character: only their player speaks for them.")
        if npc.hidden:
            raise RuleError(
                f"{npc.name} is hidden: reveal them first, or the players cannot hear who speaks."
            )
        speaker, character = npc.name, npc.id
    seats = []
    for seat_id in dict.fromkeys(cmd.to):
        seat = state.seat(seat_id)
        if seat is None or seat.revoked or seat.role == "spectator":
            raise RuleError("A whisper goes to seats at this table: that one is not.")
        seats.append(seat)
    data = {
        "text": text,
        "speaker": speaker,
        "character": character,
        "to": [s.id for s in seats],
        "to_names": [s.name for s in seats],
    }
    audience = (
        seats_audience(*(s.id for s in seats), *([ctx.actor.seat_id] if ctx.actor.seat_id else []))
        if seats
        else "all"
    )
    return [NewEvent(type="chat.said", data=data, audience=audience)]


COMMANDS = command_table([command(Say, say, "Say something to the table")])
