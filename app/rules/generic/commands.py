"""Generic tabletop commands (`generic.*`): free rolls, roll buttons, pools, tracks, initiative."""

from __future__ import annotations

from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.rules import dice
from app.rules.campaign.state import (
    CampaignState,
    InitiativeEntry,
    Participant,
    Pool,
    Preset,
    Track,
    find_in,
    new_id,
)
from app.rules.contract.commands import Command, CommandSpec, Ctx, command, command_table
from app.rules.contract.envelope import NewEvent
from app.rules.contract.viewer import Viewer, audience_of
from app.rules.errors import Forbidden, RuleError, quoted

Label = Field(default="", max_length=60)
Name = Field(min_length=1, max_length=40)
Bound = Field(default=None, ge=-1_000_000, le=1_000_000)


class Roll(Command):
    type: Literal["generic.roll"] = "generic.roll"
    expression: str | None = Field(default=None, max_length=80)
    preset: str | None = None
    label: str = Label
    participant: str | None = None
    target: int | None = Field(default=None, ge=-10_000, le=10_000)
    hidden: bool = False

    @model_validator(mode="after")
    def _something_to_roll(self) -> Roll:
        if not self.expression and not self.preset:
            raise ValueError("say what to roll: an expression such as 2d6+1, or a roll button")
        return self


class CreatePreset(Command):
    type: Literal["generic.preset.create"] = "generic.preset.create"
    label: str = Field(min_length=1, max_length=40)
    expression: str = Field(max_length=80)
    target: int | None = Field(default=None, ge=-10_000, le=10_000)
    owner: str | None = None


class RemovePreset(Command):
    type: Literal["generic.preset.remove"] = "generic.preset.remove"
    preset: str


class CreatePool(Command):
    type: Literal["generic.pool.create"] = "generic.pool.create"
    name: str = Name
    value: int = Field(default=0, ge=-1_000_000, le=1_000_000)
    min: int | None = Field(default=0, ge=-1_000_000, le=1_000_000)
    max: int | None = Bound
    owner: str | None = None
    hidden: bool = False
    gm_only: bool = False


class AdjustPool(Command):
    type: Literal["generic.pool.adjust"] = "generic.pool.adjust"
    pool: str
    delta: int = Field(ge=-1_000_000, le=1_000_000)


class SetPool(Command):
    type: Literal["generic.pool.set"] = "generic.pool.set"
    pool: str
    value: int = Field(ge=-1_000_000, le=1_000_000)


class RemovePool(Command):
    type: Literal["generic.pool.remove"] = "generic.pool.remove"
    pool: str


class CreateTrack(Command):
    type: Literal["generic.track.create"] = "generic.track.create"
    name: str = Name
    total: int = Field(ge=1, le=100)
    filled: int = Field(default=0, ge=0, le=100)
    owner: str | None = None
    hidden: bool = False


class AdjustTrack(Command):
    type: Literal["generic.track.adjust"] = "generic.track.adjust"
    track: str
    delta: int = Field(ge=-100, le=100)


class SetTrack(Command):
    type: Literal["generic.track.set"] = "generic.track.set"
    track: str
    filled: int = Field(ge=0, le=100)


class RemoveTrack(Command):
    type: Literal["generic.track.remove"] = "generic.track.remove"
    track: str


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


# --- helpers ------------------------------------------------------------------------------------


def acting_participant(state: CampaignState, ref: str | None, actor: Viewer) -> Participant | None:
    """The character a command acts for, checked against who sent it.

    Hidden characters do not exist for players: naming one gets the same answer as a typo.
    """
    if ref is None:
        return None
    p = state.find_participant(ref)
    if p is None or (p.hidden and not actor.is_gm):
        raise RuleError(f"There is no character {quoted(ref)}.")
    if not actor.controls(p.id):
        raise Forbidden(f"{p.name} is not your character.")
    return p


def owner_hidden(state: CampaignState, owner: str | None) -> bool:
    p = state.find_participant(owner) if owner else None
    return bool(p and p.hidden)


def audience_for(state: CampaignState, owner: str | None, hidden: bool) -> str:
    return "gm" if hidden or owner_hidden(state, owner) else "all"


# What a player may look up by name: a campaign's pools, tracks and roll buttons, each with an owner.
Owned = TypeVar("Owned", Pool, Track, Preset)


def _visible(state: CampaignState, items: tuple[Owned, ...], actor: Viewer) -> tuple[Owned, ...]:
    """What the actor may see of `items`; a player naming one finds theirs (or the table's) first."""
    if actor.is_gm:
        return items
    seen = tuple(i for i in items if not (getattr(i, "hidden", False) or owner_hidden(state, i.owner)))
    own = tuple(i for i in seen if i.owner is None or i.owner in actor.participants)
    return own + tuple(i for i in seen if i not in own)


def _lookup(state: CampaignState, items: tuple[Owned, ...], ref: str, actor: Viewer, what: str) -> Owned:
    visible = _visible(state, items, actor)
    if not actor.is_gm:
        own = tuple(i for i in visible if i.owner is None or i.owner in actor.participants)
        try:
            return find_in(own, ref, what)
        except RuleError:
            pass
    return find_in(visible, ref, what)


def _visible_pool(state: CampaignState, ref: str, actor: Viewer) -> Pool:
    return _lookup(state, state.pools, ref, actor, "pool")


def _visible_track(state: CampaignState, ref: str, actor: Viewer) -> Track:
    return _lookup(state, state.tracks, ref, actor, "track")


def may_change_pool(pool: Pool, actor: Viewer) -> bool:
    if actor.is_gm:
        return True
    if pool.gm_only or actor.role != "player":
        return False
    return pool.owner is None or pool.owner in actor.participants


def may_change_track(track: Track, actor: Viewer) -> bool:
    return actor.is_gm or (actor.role == "player" and track.owner in actor.participants)


def _owner(state: CampaignState, ref: str | None) -> str | None:
    return state.participant(ref).id if ref else None


def _named(owner: Participant | None, name: str) -> str:
    return f"{owner.name}'s {name}" if owner else name


# --- deciders -----------------------------------------------------------------------------------


def roll(state: CampaignState, cmd: Roll, ctx: Ctx) -> list[NewEvent]:
    if cmd.hidden and not ctx.actor.is_gm:
        raise Forbidden("Only the GM can roll in secret.")
    expression, label, target, participant_ref = cmd.expression, cmd.label, cmd.target, cmd.participant
    if cmd.preset:
        preset = _lookup(state, state.presets, cmd.preset, ctx.actor, "roll button")
        if preset.owner and not ctx.actor.controls(preset.owner):
            raise Forbidden(f"{preset.label} belongs to another character.")
        expression, label = preset.expression, label or preset.label
        target = target if target is not None else preset.target
        participant_ref = participant_ref or preset.owner
    participant = acting_participant(state, participant_ref, ctx.actor)
    result = dice.roll(expression or "", ctx.roller)
    data = {
        "expression": result.expression,
        "label": label,
        "participant": participant.id if participant else None,
        "who": participant.name if participant else state.seat_name(ctx.actor.seat_id),
        "roll": result.as_dict(),
        "total": result.total,
        "hidden": cmd.hidden,
    }
    if target is not None:
        data.update(target=target, success=result.total >= target)
    hidden = cmd.hidden or bool(participant and participant.hidden)
    return [NewEvent(type="generic.rolled", data=data, audience="gm" if hidden else "all")]


def create_preset(state: CampaignState, cmd: CreatePreset, ctx: Ctx) -> list[NewEvent]:
    expression = dice.parse(cmd.expression).text
    dice.distribution(expression)  # a roll button shows exact odds: refuse one whose odds are out of reach
    owner = _owner(state, cmd.owner)
    preset = {
        "id": new_id(state, "r"),
        "label": cmd.label,
        "expression": expression,
        "target": cmd.target,
        "owner": owner,
    }
    return [
        NewEvent(
            type="generic.preset_created", data={"preset": preset}, audience=audience_for(state, owner, False)
        )
    ]


def remove_preset(state: CampaignState, cmd: RemovePreset, ctx: Ctx) -> list[NewEvent]:
    preset = state.preset(cmd.preset)
    return [
        NewEvent(
            type="generic.preset_removed",
            data={"preset": preset.id, "label": preset.label},
            audience=audience_for(state, preset.owner, False),
        )
    ]


def create_pool(state: CampaignState, cmd: CreatePool, ctx: Ctx) -> list[NewEvent]:
    owner = state.participant(cmd.owner) if cmd.owner else None
    if cmd.min is not None and cmd.max is not None and cmd.min > cmd.max:
        raise RuleError(f"The least a pool can hold ({cmd.min}) must not be more than the most ({cmd.max}).")
    if (cmd.min is not None and cmd.value < cmd.min) or (cmd.max is not None and cmd.value > cmd.max):
        raise RuleError(
            f"{cmd.name} cannot start at {cmd.value}: it must stay within {_bounds(cmd.min, cmd.max)}."
        )
    if any(
        p.name.casefold() == cmd.name.casefold() and p.owner == (owner.id if owner else None)
        for p in state.pools
    ):
        raise RuleError(f"There is already a pool called {_named(owner, cmd.name)}.")
    pool = Pool(
        id=new_id(state, "pool"),
        name=cmd.name,
        value=cmd.value,
        min=cmd.min,
        max=cmd.max,
        owner=owner.id if owner else None,
        hidden=cmd.hidden,
        gm_only=cmd.gm_only,
    )
    return [
        NewEvent(
            type="generic.pool_created",
            data={"pool": pool.model_dump()},
            audience=audience_for(state, pool.owner, pool.hidden),
        )
    ]


def _bounds(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"{low} to {high}"
    if low is not None:
        return f"{low} or more"
    return f"{high} or less" if high is not None else "any value"


def _pool_change(state: CampaignState, pool: Pool, value: int) -> list[NewEvent]:
    owner = state.find_participant(pool.owner)
    name = _named(owner, pool.name)
    if pool.min is not None and value < pool.min:
        raise RuleError(
            f"{name} has {pool.value}; it cannot go below {pool.min}."
            if pool.value > pool.min
            else f"{name} is already at {pool.value}, its least: nothing left to take."
        )
    if pool.max is not None and value > pool.max:
        raise RuleError(f"{name} has {pool.value}; it cannot go above {pool.max}.")
    if value == pool.value:
        raise RuleError(f"{name} is already at {value}.")
    return [
        NewEvent(
            type="generic.pool_changed",
            data={"pool": pool.id, "name": name, "from": pool.value, "to": value},
            audience=audience_for(state, pool.owner, pool.hidden),
        )
    ]


def adjust_pool(state: CampaignState, cmd: AdjustPool, ctx: Ctx) -> list[NewEvent]:
    pool = _visible_pool(state, cmd.pool, ctx.actor)
    if not may_change_pool(pool, ctx.actor):
        raise Forbidden(f"Only the GM can change {pool.name}.")
    if cmd.delta == 0:
        raise RuleError("Adjust by at least 1.")
    return _pool_change(state, pool, pool.value + cmd.delta)


def set_pool(state: CampaignState, cmd: SetPool, ctx: Ctx) -> list[NewEvent]:
    pool = state.pool(cmd.pool)
    return _pool_change(state, pool, cmd.value)


def remove_pool(state: CampaignState, cmd: RemovePool, ctx: Ctx) -> list[NewEvent]:
    pool = state.pool(cmd.pool)
    return [
        NewEvent(
            type="generic.pool_removed",
            data={"pool": pool.id, "name": pool.name},
            audience=audience_for(state, pool.owner, pool.hidden),
        )
    ]


def create_track(state: CampaignState, cmd: CreateTrack, ctx: Ctx) -> list[NewEvent]:
    owner = state.participant(cmd.owner) if cmd.owner else None
    if cmd.filled > cmd.total:
        raise RuleError(f"A track of {cmd.total} boxes cannot start with {cmd.filled} filled.")
    if any(
        t.name.casefold() == cmd.name.casefold() and t.owner == (owner.id if owner else None)
        for t in state.tracks
    ):
        raise RuleError(f"There is already a track called {_named(owner, cmd.name)}.")
    track = Track(
        id=new_id(state, "track"),
        name=cmd.name,
        filled=cmd.filled,
        total=cmd.total,
        owner=owner.id if owner else None,
        hidden=cmd.hidden,
    )
    return [
        NewEvent(
            type="generic.track_created",
            data={"track": track.model_dump()},
            audience=audience_for(state, track.owner, track.hidden),
        )
    ]


def _track_change(state: CampaignState, track: Track, filled: int) -> list[NewEvent]:
    owner = state.find_participant(track.owner)
    name = _named(owner, track.name)
    if filled < 0:
        raise RuleError(f"{name} has {track.filled} of {track.total} filled; it cannot go below 0.")
    if filled > track.total:
        raise RuleError(
            f"{name} has {track.filled} of {track.total} filled; it cannot go above {track.total}."
        )
    if filled == track.filled:
        raise RuleError(f"{name} already has {filled} filled.")
    return [
        NewEvent(
            type="generic.track_changed",
            data={"track": track.id, "name": name, "from": track.filled, "to": filled, "total": track.total},
            audience=audience_for(state, track.owner, track.hidden),
        )
    ]


def adjust_track(state: CampaignState, cmd: AdjustTrack, ctx: Ctx) -> list[NewEvent]:
    track = _visible_track(state, cmd.track, ctx.actor)
    if not may_change_track(track, ctx.actor):
        raise Forbidden(f"Only the GM can change {track.name}.")
    if cmd.delta == 0:
        raise RuleError("Adjust by at least 1.")
    return _track_change(state, track, track.filled + cmd.delta)


def set_track(state: CampaignState, cmd: SetTrack, ctx: Ctx) -> list[NewEvent]:
    track = _visible_track(state, cmd.track, ctx.actor)
    if not may_change_track(track, ctx.actor):
        raise Forbidden(f"Only the GM can change {track.name}.")
    return _track_change(state, track, cmd.filled)


def remove_track(state: CampaignState, cmd: RemoveTrack, ctx: Ctx) -> list[NewEvent]:
    track = state.track(cmd.track)
    return [
        NewEvent(
            type="generic.track_removed",
            data={"track": track.id, "name": track.name},
            audience=audience_for(state, track.owner, track.hidden),
        )
    ]


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


_TABLE: list[CommandSpec] = [
    command(Roll, roll, "Roll dice", rolls=True),
    command(CreatePreset, create_preset, "Add a roll button", gm_only=True),
    command(RemovePreset, remove_preset, "Remove a roll button", gm_only=True),
    command(CreatePool, create_pool, "Create a pool", gm_only=True),
    command(AdjustPool, adjust_pool, "Adjust a pool"),
    command(SetPool, set_pool, "Set a pool", gm_only=True),
    command(RemovePool, remove_pool, "Remove a pool", gm_only=True),
    command(CreateTrack, create_track, "Create a track", gm_only=True),
    command(AdjustTrack, adjust_track, "Adjust a track"),
    command(SetTrack, set_track, "Set a track"),
    command(RemoveTrack, remove_track, "Remove a track", gm_only=True),
    command(SetInitiative, set_initiative, "Set the initiative order", gm_only=True),
    command(AddInitiative, add_initiative, "Add to the initiative order", gm_only=True),
    command(RemoveInitiative, remove_initiative, "Take out of the initiative order", gm_only=True),
    command(RollInitiative, roll_initiative, "Roll initiative", gm_only=True, rolls=True),
    command(NextTurn, next_turn, "Move to the next turn"),
    command(ClearInitiative, clear_initiative, "Clear the initiative order", gm_only=True),
]

COMMANDS = command_table(_TABLE)

__all__ = ["COMMANDS", "acting_participant", "audience_of", "may_change_pool", "may_change_track"]
