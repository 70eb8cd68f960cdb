"""Payload models of the `trinity.*` events: the fields each record carries (version 1 unless bumped)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.rules.events import Payload, payload
from app.rules.system import Frozen
from app.rules.trinity.state import Character, EnvTag, Mod, MoveKind, Opponent, PendingTag
from app.rules.trinity.state import Move as MoveState


class FollowUpNote(Frozen):
    """TC-R-4: the doubles modifier a move leaves on its character's next move of the same kind."""

    character: str
    move: MoveKind
    value: int


class TimeChange(Frozen):
    """One character's harm and stress after time passes."""

    character: str
    name: str
    harm_to: int
    stress_to: int


@payload("trinity.advantage_set")
class AdvantageSet(Payload):
    from_: str = Field(alias="from")
    rule: str
    to: str


@payload("trinity.ammo_spent")
class AmmoSpent(Payload):
    character: str
    from_: int = Field(alias="from")
    name: str
    to: int
    weapon: str


@payload("trinity.armour_repaired")
class ArmourRepaired(Payload):
    character: str
    name: str
    threshold: int


@payload("trinity.band_set")
class BandSet(Payload):
    character: str
    from_: str | None = Field(alias="from")
    opponent: str
    target: str
    to: str
    who: str


@payload("trinity.character_set")
class CharacterSet(Payload):
    character: Character
    name: str


@payload("trinity.condition_set")
class ConditionSet(Payload):
    character: str
    harm: int | None = None
    name: str
    stress: int | None = None
    dead: bool | None = None
    lost: bool | None = None


@payload("trinity.effect_chosen")
class EffectChosen(Payload):
    effect: str
    label: str
    move: str
    who: str


@payload("trinity.good_spent")
class GoodSpent(Payload):
    character: str | None  # None: the players spend it, for no one character
    reason: str
    who: str


@payload("trinity.harmed")
class Harmed(Payload):
    absorbed: int
    character: str
    from_: int = Field(alias="from")
    incoming: int
    limit: int
    name: str
    taken: int
    threshold: int | None = None
    to: int
    why: str
    dead: bool | None = None


@payload("trinity.investigation_started")
class InvestigationStarted(Payload):
    number: int


@payload("trinity.item_used")
class ItemUsed(Payload):
    calm: int
    character: str
    harm_to: int
    heal: int
    item: str
    name: str
    stress_to: int
    target: str
    target_name: str
    timing: str
    uses_to: int | None
    who: str


@payload("trinity.karma_added")
class KarmaAdded(Payload):
    amount: int
    from_: int = Field(alias="from")
    pool: str
    to: int


@payload("trinity.karma_grabbed")
class KarmaGrabbed(Payload):
    amount: int
    move: str
    side: str
    who: str


@payload("trinity.karma_returned")
class KarmaReturned(Payload):
    move: str
    to_bad: int
    to_good: int


@payload("trinity.luck_granted")
class LuckGranted(Payload):
    character: str
    from_: int = Field(alias="from")
    name: str
    to: int


@payload("trinity.luck_kept")
class LuckKept(Payload):
    move: str
    who: str


@payload("trinity.luck_spent")
class LuckSpent(Payload):
    character: str
    faces: tuple[int, ...] | None = None
    luck_to: int
    mods: tuple[Mod, ...] | None = None
    move: str
    option: str
    pool: str
    result: str | None = None
    roll: dict[str, Any] | None = None
    total: int | None = None
    who: str


@payload("trinity.made_safe")
class MadeSafe(Payload):
    character: str
    harm_to: int
    name: str
    stress_to: int


@payload("trinity.move_cancelled")
class MoveCancelled(Payload):
    bad_back: int
    good_back: int
    label: str
    move: str


@payload("trinity.move_declared")
class MoveDeclared(Payload):
    label: str
    move: MoveState
    target: str | None
    who: str


@payload("trinity.move_ended")
class MoveEnded(Payload):
    character: str
    kind: str
    move: str
    who: str
    follow_up: FollowUpNote | None = None
    tag: PendingTag | None = None


@payload("trinity.move_resolved")
class MoveResolved(Payload):
    band: str
    character: str
    effect: str | None = None
    inflict: bool | None = None
    kind: str
    move: str
    no_harm: bool | None = None
    opponent: str | None = None
    opponent_may_move: bool
    result: str
    rule: str
    take: bool | None = None
    target: str | None = None
    who: str
    outcome: str | None = None
    text: str | None = None


@payload("trinity.move_rolled")
class MoveRolled(Payload):
    character: str
    faces: tuple[int, ...]
    kind: str
    mods: tuple[Mod, ...]
    move: str
    result: str
    roll: dict[str, Any]
    total: int
    who: str


@payload("trinity.opening_given")
class OpeningGiven(Payload):
    from_: str = Field(alias="from")
    name: str
    to: str
    who: str


@payload("trinity.opponent_harmed")
class OpponentHarmed(Payload):
    absorbed: int
    from_: int = Field(alias="from")
    incoming: int
    limit: int
    name: str
    opponent: str
    taken: int
    to: int
    why: str
    threshold: int | None = None


@payload("trinity.opponent_moved")
class OpponentMoved(Payload):
    character: str
    from_: str = Field(alias="from")
    move: str
    opponent: str
    target: str
    to: str
    who: str


@payload("trinity.opponent_out")
class OpponentOut(Payload):
    name: str
    opponent: str


@payload("trinity.opponent_set")
class OpponentSet(Payload):
    name: str
    opponent: Opponent


@payload("trinity.reloaded")
class Reloaded(Payload):
    ammo: int
    character: str
    name: str
    spares: int
    weapon: str
    who: str


@payload("trinity.shift_set")
class ShiftSet(Payload):
    character: str
    value: int
    who: str


@payload("trinity.stressed")
class Stressed(Payload):
    character: str
    from_: int = Field(alias="from")
    limit: int
    name: str
    to: int
    why: str


@payload("trinity.tag_added")
class TagAdded(Payload):
    pending: str | None = None
    tag: EnvTag


@payload("trinity.tag_removed")
class TagRemoved(Payload):
    tag: str
    text: str


@payload("trinity.tag_skipped")
class TagSkipped(Payload):
    pending: str


@payload("trinity.time_passed")
class TimePassed(Payload):
    changes: tuple[TimeChange, ...]
    hours: int
