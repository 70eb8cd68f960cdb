"""Seats at the table (`campaign.seat.*`): taking a seat with an invite, watching, a GM removing one.

Joining and watching are made only by the server's own code: the invite or spectator code is checked
there, with the seat's token, before the rules are asked (`app/services/campaigns.py`). Removing a seat
is the GM's, sent by the seats route, which also stops the seat's token in the same write. A fresh
invite or spectator link is the GM's too: the event says which link changed, never the code (a secret kept
out of the log; the route writes it in the same transaction).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.rules.campaign.state import CampaignState
from app.rules.contract.commands import Command, CommandSpec, Ctx, command, command_table
from app.rules.contract.envelope import NewEvent
from app.rules.errors import RuleError


class JoinSeat(Command):
    """A player takes a seat through the invite link; the seat's id is the server's."""

    type: Literal["campaign.seat.join"] = "campaign.seat.join"
    seat: str = Field(min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=60)


class WatchSeat(Command):
    """A spectator's seat through the spectator link: it watches, it never acts."""

    type: Literal["campaign.seat.watch"] = "campaign.seat.watch"
    seat: str = Field(min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=60)


class RevokeSeat(Command):
    type: Literal["campaign.seat.revoke"] = "campaign.seat.revoke"
    seat: str = Field(min_length=1, max_length=64)


class RotateLink(Command):
    """A fresh invite (or spectator) link: the old one stops letting anyone in."""

    type: Literal["campaign.link.rotate"] = "campaign.link.rotate"
    link: Literal["invite", "spectator"] = "invite"


def _joined(seat: str, name: str, role: str) -> list[NewEvent]:
    return [NewEvent(type="campaign.seat_joined", data={"seat": {"id": seat, "name": name, "role": role}})]


def join(state: CampaignState, cmd: JoinSeat, ctx: Ctx) -> list[NewEvent]:
    """Two players of one name would be told apart by nobody: the second picks another."""
    if any(
        s.name.casefold() == cmd.name.casefold() and not s.revoked and s.role != "spectator"
        for s in state.seats
    ):
        raise RuleError(f"Someone at this table is already called {cmd.name}: pick another name.")
    return _joined(cmd.seat, cmd.name, "player")


def watch(state: CampaignState, cmd: WatchSeat, ctx: Ctx) -> list[NewEvent]:
    return _joined(cmd.seat, cmd.name, "spectator")


def revoke(state: CampaignState, cmd: RevokeSeat, ctx: Ctx) -> list[NewEvent]:
    if cmd.seat == ctx.actor.seat_id:
        raise RuleError("You cannot remove your own GM seat.")
    seat = state.seat(cmd.seat)
    if seat is None:
        raise RuleError("There is no such seat at this table.")
    if seat.revoked:
        raise RuleError(f"{seat.name} was already removed.")
    return [NewEvent(type="campaign.seat_revoked", data={"seat": seat.id, "name": seat.name})]


def rotate(state: CampaignState, cmd: RotateLink, ctx: Ctx) -> list[NewEvent]:
    return [NewEvent(type="campaign.link_rotated", data={"link": cmd.link}, audience="gm")]


COMMANDS: dict[str, CommandSpec] = command_table(
    [
        command(
            JoinSeat,
            join,
            "Take a seat",
            internal="take a seat through the invite link: POST /api/campaigns/{id}/join",
        ),
        command(
            WatchSeat,
            watch,
            "Watch the table",
            spectators=True,
            internal="watch through the spectator link: POST /api/campaigns/{id}/watch",
        ),
        command(
            RevokeSeat,
            revoke,
            "Remove a seat",
            gm_only=True,
            internal="remove a seat with POST /api/campaigns/{id}/seats/{seat}/revoke",
        ),
        command(
            RotateLink,
            rotate,
            "Make a fresh link",
            gm_only=True,
            internal="a fresh link with POST /api/campaigns/{id}/invite/rotate",
        ),
    ]
)
