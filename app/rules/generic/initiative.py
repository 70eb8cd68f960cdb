"""The initiative order (`generic.initiative.*`): set, add, take out, roll, next turn, clear."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.rules import dice
from app.rules.campaign.state import (
    CampaignState,
    InitiativeEntry,
)
from app.rules.contract.commands import Command, Ctx
from app.rules.contract.envelope import NewEvent
from app.rules.errors import Forbidden, RuleError


class InitiativeItem(BaseModel):
    """One line of an initiative order."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    participant: str
    value: int = Field(default=0, ge=-1000, le=1000)


class SetInitiative(Command):
    type: Literal["generic.initiative.set"] = "generic.initiative.set"
    entries: tuple[InitiativeItem, ...] = Field(max_length=100)


class AddInitiative(Command):
    type: Literal["generic.initiative.add"] = "generic.initiative.add"
    participant: str
    value: int = Field(default=0, ge=-1000, le=1000)


class RemoveInitiative(Command):
    type: Literal["generic.initiative.remove"] = "generic.initiative.remove"
    participant: str


class RollInitiative(Command):
    type: Literal["generic.initiative.roll"] = "generic.initiative.roll"
    expression: str = Field(default="1d20", max_length=80)
    participants: tuple[str, ...] | None = None


class NextTurn(Command):
    type: Literal["generic.initiative.next"] = "generic.initiative.next"


class ClearInitiative(Command):
    type: Literal["generic.initiative.clear"] = "generic.initiative.clear"


def _order(state: CampaignState, entries: list[InitiativeEntry]) -> list[NewEvent]:
    # Highest first; a stable sort keeps the GM's order for ties.
    ordered = sorted(entries, key=lambda e: -e.value)
    data = {"entries": [e.model_dump() for e in ordered]}
    return [
        NewEvent(
            type="generic.initiative_set",
            data=data,
            audience="gm" if any(state.participant(e.participant).hidden for e in ordered) else "all",
        )
    ]


def set_initiative(state: CampaignState, cmd: SetInitiative, ctx: Ctx) -> list[NewEvent]:
    seen: set[str] = set()
    entries = []
    for item in cmd.entries:
        p = state.participant(item.participant)
        if p.id in seen:
            raise RuleError(f"{p.name} is in the order twice.")
        seen.add(p.id)
        entries.append(InitiativeEntry(participant=p.id, value=item.value))
    return _order(state, entries)


def add_initiative(state: CampaignState, cmd: AddInitiative, ctx: Ctx) -> list[NewEvent]:
    p = state.participant(cmd.participant)
    entries = [e for e in state.initiative.entries if e.participant != p.id]
    return _order(state, [*entries, InitiativeEntry(participant=p.id, value=cmd.value)])


def remove_initiative(state: CampaignState, cmd: RemoveInitiative, ctx: Ctx) -> list[NewEvent]:
    p = state.participant(cmd.participant)
    entries = [e for e in state.initiative.entries if e.participant != p.id]
    if len(entries) == len(state.initiative.entries):
        raise RuleError(f"{p.name} is not in the initiative order.")
    return _order(state, entries)


def roll_initiative(state: CampaignState, cmd: RollInitiative, ctx: Ctx) -> list[NewEvent]:
    expression = dice.parse(cmd.expression)
    if cmd.participants is not None:
        ids = [state.participant(ref).id for ref in cmd.participants]
    elif state.active and state.active.participants:
        ids = list(state.active.participants)
    else:
        ids = [p.id for p in state.participants]
    if not ids:
        raise RuleError("Add characters before rolling initiative.")
    rolls: list[dict[str, Any]] = []
    for pid in dict.fromkeys(ids):
        result = dice.roll(expression, ctx.roller)
        rolls.append(
            {
                "participant": pid,
                "name": state.participant(pid).name,
                "roll": result.as_dict(),
                "value": result.total,
            }
        )
    public = [r for r in rolls if not state.participant(r["participant"]).hidden]
    secret = [r for r in rolls if state.participant(r["participant"]).hidden]
    events = []
    if public:
        events.append(
            NewEvent(type="generic.initiative_rolled", data={"expression": expression.text, "rolls": public})
        )
    if secret:
        events.append(
            NewEvent(
                type="generic.initiative_rolled",
                data={"expression": expression.text, "rolls": secret},
                audience="gm",
            )
        )
    entries = [InitiativeEntry(participant=r["participant"], value=r["value"]) for r in rolls]
    return events + _order(state, entries)


def next_turn(state: CampaignState, cmd: NextTurn, ctx: Ctx) -> list[NewEvent]:
    init = state.initiative
    if not init.entries:
        raise RuleError("There is no initiative order yet.")
    current = init.current
    if not ctx.actor.is_gm and (current is None or current not in ctx.actor.participants):
        raise Forbidden("Only the GM, or the player whose turn it is, can move to the next turn.")
    if init.round == 0:
        turn, round_ = 0, 1
    else:
        turn, round_ = init.turn + 1, init.round
        if turn >= len(init.entries):
            turn, round_ = 0, init.round + 1
    pid = init.entries[turn].participant
    p = state.participant(pid)
    data = {
        "turn": turn,
        "round": round_,
        "participant": pid if not p.hidden else None,
        "name": p.name if not p.hidden else None,
    }
    events = [NewEvent(type="generic.turn_advanced", data=data)]
    if p.hidden:
        events.append(
            NewEvent(type="generic.turn_noted", data={"participant": pid, "name": p.name}, audience="gm")
        )
    return events


def clear_initiative(state: CampaignState, cmd: ClearInitiative, ctx: Ctx) -> list[NewEvent]:
    if not state.initiative.entries:
        raise RuleError("The initiative order is already empty.")
    return [NewEvent(type="generic.initiative_cleared")]
