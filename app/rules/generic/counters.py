"""Pools (a number a character spends) and tracks (boxes filled in): `generic.pool.*`, `generic.track.*`."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.rules.campaign.state import (
    CampaignState,
    Pool,
    Track,
    new_id,
)
from app.rules.contract.commands import Command, Ctx
from app.rules.contract.envelope import NewEvent
from app.rules.errors import Forbidden, RuleError
from app.rules.generic.commands import (
    audience_for,
    may_change_pool,
    may_change_track,
    named,
    visible_pool,
    visible_track,
)

Name = Field(min_length=1, max_length=40)
Bound = Field(default=None, ge=-1_000_000, le=1_000_000)


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
        raise RuleError(f"There is already a pool called {named(owner, cmd.name)}.")
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
    name = named(owner, pool.name)
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
    pool = visible_pool(state, cmd.pool, ctx.actor)
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
        raise RuleError(f"There is already a track called {named(owner, cmd.name)}.")
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
    name = named(owner, track.name)
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
    track = visible_track(state, cmd.track, ctx.actor)
    if not may_change_track(track, ctx.actor):
        raise Forbidden(f"Only the GM can change {track.name}.")
    if cmd.delta == 0:
        raise RuleError("Adjust by at least 1.")
    return _track_change(state, track, track.filled + cmd.delta)


def set_track(state: CampaignState, cmd: SetTrack, ctx: Ctx) -> list[NewEvent]:
    track = visible_track(state, cmd.track, ctx.actor)
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
