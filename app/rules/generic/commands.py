"""Generic tabletop commands (`generic.*`): free rolls and roll buttons, and what every `generic.*` decider
shares (who acts, who may see). Pools and tracks are in `counters`, initiative in `initiative`, the
table of them all in `table`."""

from __future__ import annotations

from typing import Literal, TypeVar

from pydantic import Field, model_validator

from app.rules import dice
from app.rules.campaign.state import (
    CampaignState,
    Participant,
    Pool,
    Preset,
    Track,
    find_in,
    new_id,
)
from app.rules.contract.commands import Command, Ctx
from app.rules.contract.envelope import NewEvent
from app.rules.contract.viewer import Viewer, audience_of
from app.rules.errors import Forbidden, RuleError, quoted

Label = Field(default="", max_length=60)


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


def visible_pool(state: CampaignState, ref: str, actor: Viewer) -> Pool:
    return _lookup(state, state.pools, ref, actor, "pool")


def visible_track(state: CampaignState, ref: str, actor: Viewer) -> Track:
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


def named(owner: Participant | None, name: str) -> str:
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


__all__ = ["acting_participant", "audience_of", "may_change_pool", "may_change_track"]
