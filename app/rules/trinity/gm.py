"""The GM's commands (`trinity.*`): sheets, the board, advantage, shifts, karma, harm and stress,
conditions, Luck, armour and tags. Items, time and Investigations are in care.py."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.rules.campaign.state import CampaignState, Participant
from app.rules.errors import InputError, RuleError, quoted
from app.rules.system import Command, Ctx, NewEvent
from app.rules.trinity.flow import Batch, harm_character, harm_opponent, stress_character
from app.rules.trinity.state import (
    Armour,
    Character,
    Item,
    Opponent,
    RangeBand,
    Weapon,
    ext,
)


class StrictIn(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class WeaponIn(StrictIn):
    name: str = Field(min_length=1, max_length=40)
    harm: int = Field(ge=0, le=20)  # harm-N
    kind: Literal["melee", "ranged"] = "ranged"
    tags: tuple[RangeBand, ...] = ()
    ammo: int | None = Field(default=None, ge=0, le=999)
    capacity: int | None = Field(default=None, ge=1, le=999)
    spares: int = Field(default=0, ge=0, le=999)

    @model_validator(mode="after")
    def _shape(self) -> WeaponIn:
        if self.kind == "ranged" and not self.tags:
            raise ValueError(f"the {self.name} needs at least one range tag: close, medium or long")
        if self.kind == "melee" and (self.tags or self.ammo or self.spares):
            raise ValueError(f"the {self.name} is a melee weapon: no range tags or ammo")
        return self


class ArmourIn(StrictIn):
    name: str = Field(default="armour", min_length=1, max_length=40)
    armour: int = Field(ge=0, le=20)  # armour-N
    threshold: int | None = Field(default=None, ge=0, le=999)  # None: threshold-infinite


class ItemIn(StrictIn):
    name: str = Field(min_length=1, max_length=40)
    heal: int = Field(default=0, ge=0, le=20)
    calm: int = Field(default=0, ge=0, le=20)
    timing: Literal["instant", "delayed"] = "instant"
    consumable: int | None = Field(default=None, ge=1, le=99)


Stat = Field(default=0, ge=-1, le=3)  # TC-R-2


class SetupCharacter(Command):
    type: Literal["trinity.setup_character"] = "trinity.setup_character"
    character: str
    power: int = Stat
    quickness: int = Stat
    cool: int = Stat
    wits: int = Stat
    harm_limit: int = Field(default=7, ge=1, le=30)
    stress_limit: int = Field(default=5, ge=2, le=30)
    luck: int = Field(default=8, ge=0, le=99)
    harm: int | None = Field(default=None, ge=0, le=31)
    stress: int | None = Field(default=None, ge=0, le=30)
    out_of_luck: str = Field(default="", max_length=400)
    armour: ArmourIn | None = None  # None: keep the armour the sheet has (armour 0 takes it off)
    weapons: tuple[WeaponIn, ...] | None = Field(default=None, max_length=12)  # None: keep
    items: tuple[ItemIn, ...] | None = Field(default=None, max_length=12)  # None: keep
    ignores_close_penalty: bool = False


class SetupOpponent(Command):
    type: Literal["trinity.setup_opponent"] = "trinity.setup_opponent"
    opponent: str
    harm: int = Field(default=1, ge=0, le=20)
    harm_limit: int = Field(default=3, ge=1, le=50)
    armour: ArmourIn | None = None  # None: keep (armour 0 takes it off)
    attack: Literal["melee", "ranged"] = "melee"
    taken: int | None = Field(default=None, ge=0, le=50)


class SetBand(Command):
    type: Literal["trinity.set_band"] = "trinity.set_band"
    character: str
    opponent: str
    band: RangeBand


class SetAdvantage(Command):
    type: Literal["trinity.set_advantage"] = "trinity.set_advantage"
    advantage: Literal["none", "team", "enemy"]


class Shift(Command):
    type: Literal["trinity.shift"] = "trinity.shift"
    character: str
    value: int = Field(ge=-3, le=3)


class AddKarma(Command):
    type: Literal["trinity.add_karma"] = "trinity.add_karma"
    pool: Literal["good", "bad"]
    amount: int = Field(ge=-50, le=50)


class Inflict(Command):
    type: Literal["trinity.inflict"] = "trinity.inflict"
    character: str
    harm: int = Field(default=0, ge=0, le=20)
    stress: int = Field(default=0, ge=0, le=20)
    armour: bool = True
    reason: str = Field(default="", max_length=80)


class SetCondition(Command):
    type: Literal["trinity.set_condition"] = "trinity.set_condition"
    character: str
    condition: Literal["dead", "lost"]
    on: bool


class GrantLuck(Command):
    type: Literal["trinity.grant_luck"] = "trinity.grant_luck"
    character: str
    amount: int = Field(ge=1, le=20)


class RepairArmour(Command):
    type: Literal["trinity.repair_armour"] = "trinity.repair_armour"
    character: str
    threshold: int = Field(ge=0, le=999)


class RemoveTag(Command):
    type: Literal["trinity.remove_tag"] = "trinity.remove_tag"
    tag: str


# --- helpers -------------------------------------------------------------------------------------


def participant_audience(p: Participant) -> str:
    return "gm" if p.hidden else "all"


def pc_sheet(state: CampaignState, ref: str) -> tuple[Participant, Character]:
    p = state.participant(ref)
    c = ext(state).character(p.id)
    if c is None:
        raise RuleError(f"{p.name} has no Trinity Code sheet yet.")
    return p, c


def no_move(state: CampaignState) -> None:
    if ext(state).move is not None:
        raise RuleError("Wait until the move being made is finished.")


def armour_of(a: ArmourIn | None) -> Armour | None:
    if a is None or a.armour == 0:
        return None
    return Armour(name=a.name, value=a.armour, threshold=a.threshold)


# --- deciders ------------------------------------------------------------------------------------


def weapons_of(given: tuple[WeaponIn, ...], first: int = 1) -> tuple[Weapon, ...]:
    return tuple(
        Weapon(
            id=f"w{first + i}",
            name=w.name,
            harm=w.harm,
            kind=w.kind,
            tags=w.tags,
            ammo=(w.ammo if w.ammo is not None else (w.capacity or 6)) if w.kind == "ranged" else 0,
            capacity=(w.capacity or w.ammo or 6) if w.kind == "ranged" else 0,
            spares=w.spares,
        )
        for i, w in enumerate(given)
    )


def items_of(given: tuple[ItemIn, ...], first: int = 1) -> tuple[Item, ...]:
    return tuple(
        Item(id=f"i{first + i}", name=x.name, heal=x.heal, calm=x.calm, timing=x.timing, uses=x.consumable)
        for i, x in enumerate(given)
    )


def build_character(pid: str, name: str, cmd: SetupCharacter, old: Character | None) -> Character:
    """A sheet from the set-up; gear left out (None) is kept from the old sheet."""
    harm = cmd.harm if cmd.harm is not None else (old.harm if old else 0)
    stress = cmd.stress if cmd.stress is not None else (old.stress if old else 0)
    if harm > cmd.harm_limit + 1:
        raise RuleError(f"Harm {harm} is past dying for a limit of {cmd.harm_limit}: mark the death instead.")
    if stress > cmd.stress_limit:
        raise RuleError(f"Stress cannot be more than the stress limit ({cmd.stress_limit}).")
    keep = old.model_dump(include={"dead", "lost", "opening", "shift", "follow_up", "delayed"}) if old else {}
    return Character(
        **keep,
        id=pid,
        power=cmd.power,
        quickness=cmd.quickness,
        cool=cmd.cool,
        wits=cmd.wits,
        harm=harm,
        harm_limit=cmd.harm_limit,
        stress=stress,
        stress_limit=cmd.stress_limit,
        luck=cmd.luck,
        out_of_luck=cmd.out_of_luck,
        armour=armour_of(cmd.armour) if cmd.armour is not None else (old.armour if old else None),
        weapons=weapons_of(cmd.weapons) if cmd.weapons is not None else (old.weapons if old else ()),
        items=items_of(cmd.items) if cmd.items is not None else (old.items if old else ()),
        ignores_close_penalty=cmd.ignores_close_penalty,
    )


def setup_character(state: CampaignState, cmd: SetupCharacter, ctx: Ctx) -> list[NewEvent]:
    p = state.participant(cmd.character)
    t = ext(state)
    if t.opponent(p.id) is not None:
        raise RuleError(f"{p.name} has an opponent sheet: a character is one or the other.")
    c = build_character(p.id, p.name, cmd, t.character(p.id))
    data = {"character": c.model_dump(mode="json"), "name": p.name}
    return [NewEvent(type="trinity.character_set", data=data, audience=participant_audience(p))]


def build_opponent(pid: str, cmd: SetupOpponent, old: Opponent | None) -> Opponent:
    taken = cmd.taken if cmd.taken is not None else (old.taken if old else 0)
    armour = armour_of(cmd.armour) if cmd.armour is not None else (old.armour if old else None)
    return Opponent(
        id=pid, harm=cmd.harm, harm_limit=cmd.harm_limit, taken=taken, armour=armour, attack=cmd.attack
    )


def setup_opponent(state: CampaignState, cmd: SetupOpponent, ctx: Ctx) -> list[NewEvent]:
    p = state.participant(cmd.opponent)
    t = ext(state)
    if t.character(p.id) is not None:
        raise RuleError(f"{p.name} has a character sheet: a character is one or the other.")
    o = build_opponent(p.id, cmd, t.opponent(p.id))
    # The stat block is the GM's; players see the name, the kind of attack and whether it is out.
    return [
        NewEvent(
            type="trinity.opponent_set",
            data={"opponent": o.model_dump(mode="json"), "name": p.name},
            audience="gm",
        )
    ]


def set_band(state: CampaignState, cmd: SetBand, ctx: Ctx) -> list[NewEvent]:
    """TC-B-1: the GM sets each player's band to each opponent."""
    p, c = pc_sheet(state, cmd.character)
    o = state.participant(cmd.opponent)
    t = ext(state)
    if t.opponent(o.id) is None:
        raise RuleError(f"{o.name} has no opponent sheet yet.")
    now = next((x.band for x in t.links if x.character == c.id and x.opponent == o.id), None)
    if now == cmd.band:
        raise RuleError(f"{p.name} is already at {cmd.band} range from {o.name}.")
    data = {"character": c.id, "opponent": o.id, "from": now, "to": cmd.band, "who": p.name, "target": o.name}
    return [NewEvent(type="trinity.band_set", data=data, audience="gm" if o.hidden or p.hidden else "all")]


def set_advantage(state: CampaignState, cmd: SetAdvantage, ctx: Ctx) -> list[NewEvent]:
    """TC-A-1: the GM gives advantage (a profession's start-of-combat move) or takes it away."""
    if state.active is None:
        raise RuleError("Advantage belongs to a fight: start an encounter first.", rule="TC-A-1")
    now = ext(state).advantage
    if now == cmd.advantage:
        raise RuleError(f"Advantage is already with {_with(now)}.")
    return [NewEvent(type="trinity.advantage_set", data={"from": now, "to": cmd.advantage, "rule": "TC-A-1"})]


def _with(advantage: str) -> str:
    return {"team": "the team", "enemy": "the enemy", "none": "nobody"}[advantage]


def shift(state: CampaignState, cmd: Shift, ctx: Ctx) -> list[NewEvent]:
    """TC-R-3: a GM shift on a character's next move."""
    p, c = pc_sheet(state, cmd.character)
    if c.shift == cmd.value:
        raise RuleError(f"{p.name}'s next move already has that shift.")
    data = {"character": c.id, "who": p.name, "value": cmd.value}
    return [NewEvent(type="trinity.shift_set", data=data, audience=participant_audience(p))]


def add_karma(state: CampaignState, cmd: AddKarma, ctx: Ctx) -> list[NewEvent]:
    """TC-K-5: the GM adds points to (or takes them from) either pool."""
    if cmd.amount == 0:
        raise RuleError("Add at least 1 point.")
    now = getattr(ext(state), cmd.pool)
    to = now + cmd.amount
    if to < 0:
        raise RuleError(f"The {cmd.pool.capitalize()} karma pool has only {now}.")
    return [
        NewEvent(
            type="trinity.karma_added", data={"pool": cmd.pool, "from": now, "to": to, "amount": cmd.amount}
        )
    ]


def inflict(state: CampaignState, cmd: Inflict, ctx: Ctx) -> list[NewEvent]:
    """TC-S-3 and GM harm: through armour unless the GM says otherwise (TC-H-2)."""
    if not cmd.harm and not cmd.stress:
        raise InputError("Inflict at least 1 harm or 1 stress.")
    no_move(state)
    p = state.participant(cmd.character)
    t = ext(state)
    b = Batch(state)
    why = cmd.reason or "the GM"
    o = t.opponent(p.id)
    if o is not None:
        if cmd.stress:
            raise RuleError("Opponents take harm, not stress.")
        harm_opponent(b, o if cmd.armour else o.model_copy(update={"armour": None}), cmd.harm, why)
        return b.events
    c = t.character(p.id)
    if c is None:
        raise RuleError(f"{p.name} has no Trinity Code sheet yet.")
    if c.dead:
        raise RuleError(f"{p.name} is dead.", rule="TC-H-7")
    if cmd.harm:
        harm_character(b, c, cmd.harm, armour=cmd.armour, why=why)
    if cmd.stress:
        c = ext(b.state).character(c.id) or c
        stress_character(b, c, cmd.stress, why)
    return b.events


def set_condition(state: CampaignState, cmd: SetCondition, ctx: Ctx) -> list[NewEvent]:
    """TC-H-7: dead stays dead unless the GM removes it; the same for lost (TC-S-2)."""
    p, c = pc_sheet(state, cmd.character)
    no_move(state)
    if getattr(c, cmd.condition) == cmd.on:
        raise RuleError(f"{p.name} is {'already' if cmd.on else 'not'} {cmd.condition}.")
    data: dict[str, Any] = {"character": c.id, "name": p.name, cmd.condition: cmd.on}
    if cmd.condition == "dead" and not cmd.on and c.harm > c.harm_limit:
        data["harm"] = c.harm_limit  # back from death: unconscious, stable (ruling)
    if cmd.condition == "lost" and not cmd.on and c.stress >= c.stress_limit:
        data["stress"] = c.stress_limit - 1
    return [NewEvent(type="trinity.condition_set", data=data, audience=participant_audience(p))]


def grant_luck(state: CampaignState, cmd: GrantLuck, ctx: Ctx) -> list[NewEvent]:
    """TC-L-1: spent Luck comes back only when the GM grants it (an improvement)."""
    p, c = pc_sheet(state, cmd.character)
    data = {"character": c.id, "name": p.name, "from": c.luck, "to": c.luck + cmd.amount}
    return [NewEvent(type="trinity.luck_granted", data=data, audience=participant_audience(p))]


def repair_armour(state: CampaignState, cmd: RepairArmour, ctx: Ctx) -> list[NewEvent]:
    """TC-H-2: worn armour protects again once repaired or replaced."""
    p, c = pc_sheet(state, cmd.character)
    if c.armour is None:
        raise RuleError(f"{p.name} wears no armour.")
    if c.armour.threshold is None:
        raise RuleError(f"{p.name}'s {c.armour.name} never wears (threshold-infinite).")
    data = {"character": c.id, "name": p.name, "threshold": cmd.threshold}
    return [NewEvent(type="trinity.armour_repaired", data=data, audience=participant_audience(p))]


def remove_tag(state: CampaignState, cmd: RemoveTag, ctx: Ctx) -> list[NewEvent]:
    tag = next(
        (x for x in ext(state).tags if x.id == cmd.tag or x.text.casefold() == cmd.tag.casefold()), None
    )
    if tag is None:
        raise RuleError(f"There is no environment tag {quoted(cmd.tag)}.")
    return [NewEvent(type="trinity.tag_removed", data={"tag": tag.id, "text": tag.text})]
