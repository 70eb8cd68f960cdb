"""Payload models of the `tote.*` events: the fields each record carries (version 1 unless bumped)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.rules.events import Payload, payload
from app.rules.system import Frozen
from app.rules.tote.model import Declaration, Enemy, Hero


class PromptSpec(Frozen):
    """A question an attack puts (to answer it back) or a notice it gives (knocked down)."""

    id: str
    to: str
    kind: str
    text: str
    answer: str
    choices: tuple[tuple[str, str], ...]
    data: dict[str, Any] = {}


class Gain(Frozen):
    """TO-DF-1: a unit of Defenders left alone gains Initiative at the round's end."""

    unit: str
    participant: str
    name: str
    gain: int


@payload("tote.action_lost")
class ActionLost(Payload):
    action: str
    actor: str
    actor_name: str
    declaration: str
    reason: str


@payload("tote.adjusted")
class Adjusted(Payload):
    initiative: int | None
    injuries: int | None
    name: str
    participant: str
    resolve: int | None


@payload("tote.answered")
class Answered(Payload):
    choice: str
    name: str
    prompt: str


@payload("tote.attacked")
class Attacked(Payload):
    action: str
    actor: str
    actor_name: str
    damage: int
    declaration: str | None
    down_round: int | None
    effects: tuple[Any, ...]
    engage: bool
    harm: str | None = None
    how: str
    kind: str
    knocked_down: bool
    out: str | None
    roll: dict[str, Any]
    rolls: tuple[Any, ...]
    spend: int
    target: str
    target_name: str
    test: dict[str, Any]
    weapon: dict[str, Any]
    absorbed: int | None = None
    ask: PromptSpec | None = None
    marked: tuple[str, ...] | None = None
    marks: int | None = None
    replaces: str | None = None
    notice: PromptSpec | None = None


@payload("tote.declared")
class Declared(Payload):
    actor_name: str
    declaration: Declaration
    target_name: str | None


@payload("tote.defending")
class Defending(Payload):
    actor: str
    actor_name: str
    declaration: str
    spend: int


@payload("tote.disengaging")
class Disengaging(Payload):
    actor: str
    actor_name: str
    declaration: str
    spend: int


@payload("tote.enemy_resolve")
class EnemyResolve(Payload):
    change: int
    marked: tuple[str, ...]
    marks: int
    name: str
    participant: str
    resolve: int
    resolve_max: int
    why: str


@payload("tote.enemy_set")
class EnemySet(Payload):
    enemy: Enemy


@payload("tote.fight_over")
class FightOver(Payload):
    round: int
    winner: str


@payload("tote.hero_set")
class HeroSet(Payload):
    hero: Hero


@payload("tote.initiative_rolled")
class InitiativeRolled(Payload):
    base: int
    basis: str
    hidden: bool
    members: tuple[str, ...]
    name: str
    roll: dict[str, Any]
    test: dict[str, Any]
    unit: str
    value: int


@payload("tote.initiative_secret")
class InitiativeSecret(Payload):
    members: tuple[str, ...]
    name: str
    unit: str


@payload("tote.intimidated")
class Intimidated(Payload):
    actor: str
    actor_name: str
    declaration: str
    lost: int
    roll: dict[str, Any]
    spend: int
    target: str
    target_name: str
    test: dict[str, Any]
    unit: str


@payload("tote.joined")
class Joined(Payload):
    band: str
    name: str
    participant: str


@payload("tote.moved")
class Moved(Payload):
    actor: str
    actor_name: str
    declaration: str
    direction: str
    from_: str = Field(alias="from")
    spend: int
    to: str | None


@payload("tote.placed")
class Placed(Payload):
    from_: str = Field(alias="from")
    name: str
    participant: str
    to: str


@payload("tote.recovered")
class Recovered(Payload):
    actor: str
    actor_name: str
    declaration: str
    gained: int | None
    spend: int


@payload("tote.resolution_started")
class ResolutionStarted(Payload):
    round: int


@payload("tote.round_ended")
class RoundEnded(Payload):
    disengaged: tuple[str, ...]
    gains: tuple[Gain, ...]
    round: int


@payload("tote.round_started")
class RoundStarted(Payload):
    knocked_down: tuple[str, ...]
    names: tuple[str, ...]
    order: tuple[str, ...]
    round: int
