"""Sheet commands (`tote.hero`, `tote.enemy`, `tote.import`, `tote.adjust`): from the set-up form or JSON."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator

from app.rules.campaign.state import CampaignState, Participant, new_id
from app.rules.errors import InputError, RuleError, quoted
from app.rules.system import Command, Ctx, NewEvent, audience_of, explain
from app.rules.tote.flow import Sim, advance
from app.rules.tote.model import ARMOUR, HERO_TRACK, Enemy, Hero, Weapon
from app.rules.tote.rules import combatant, name, sheet, the_fight

Ref = Field(min_length=1, max_length=64)


def _lower_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k).strip().lower(): v for k, v in value.items()}
    return value


def _check_track(track: tuple[str, ...] | None) -> tuple[str, ...] | None:
    if track is None:
        return None
    labels = tuple(str(t).strip().upper() for t in track)
    if not labels or labels[-1] != "U":
        raise ValueError("an injury track ends with its U circle")
    for label in labels[:-1]:
        if label not in ("1", "2", "3", "4", "5", "6", "N"):
            raise ValueError(f"{quoted(label)} is not a circle: use 1 to 6, N or a last U")
    return labels


WEAPON_FIELD = re.compile(r"weapon(\d)_(name|base|effect|critical|kind)")
FLAT = (("skill_", "skills"), ("spec_", "specialisations"), ("totem_", "totems"))


def fold_form(data: Any) -> Any:
    """The set-up form's flat fields (`skill_plan`, `totem_hawk`, `weapon1_name`...) as a sheet's dicts."""
    if not isinstance(data, dict):
        return data
    data = dict(data)
    for prefix, key in FLAT:
        flat = {k[len(prefix) :]: data.pop(k) for k in list(data) if k.startswith(prefix)}
        if flat:
            data[key] = {**flat, **(data.get(key) or {})}
    rows: dict[int, dict[str, Any]] = {}
    for k in list(data):
        if m := WEAPON_FIELD.fullmatch(k):
            rows.setdefault(int(m[1]), {})[m[2]] = data.pop(k)
    weapons = []
    for _, row in sorted(rows.items()):
        if not str(row.get("name") or "").strip():
            continue  # a row left blank
        kind = row.pop("kind", "melee")
        weapons.append({**row, "ranged": kind == "ranged", "brawl": kind == "brawl"})
    if weapons:
        data["weapons"] = [*(data.get("weapons") or []), *weapons]
    return data


class SheetFields(Command):
    participant: str = Ref
    resolve: int = Field(ge=0, le=100)
    current_resolve: int | None = Field(default=None, ge=0, le=100)
    block: int = Field(ge=0, le=40)
    resist: int = Field(ge=0, le=40)
    encumbrance: int | None = Field(default=None, ge=0, le=100)
    weapons: tuple[Weapon, ...] = Field(default=(), max_length=8)
    track: tuple[str, ...] | None = Field(default=None, min_length=1, max_length=20)
    injuries: int = Field(default=0, ge=0, le=20)

    @model_validator(mode="before")
    @classmethod
    def _form(cls, data: Any) -> Any:
        return fold_form(data)

    @field_validator("track")
    @classmethod
    def _track(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        return _check_track(value)

    @model_validator(mode="after")
    def _fits(self) -> SheetFields:
        if self.current_resolve is not None and self.current_resolve > self.resolve:
            raise ValueError("current Resolve cannot be above the starting total")
        if self.injuries > len(self.track or HERO_TRACK):
            raise ValueError("more injuries than circles on the track")
        return self


class SetHero(SheetFields):
    type: Literal["tote.hero"] = "tote.hero"
    skills: dict[str, int] = Field(default_factory=dict, max_length=20)
    specialisations: dict[str, int] = Field(default_factory=dict, max_length=20)
    totems: dict[str, int] = Field(default_factory=dict, max_length=10)
    armour: tuple[str, ...] = Field(default=(), max_length=2)

    @field_validator("skills", "specialisations", "totems", mode="before")
    @classmethod
    def _keys(cls, value: Any) -> Any:
        return _lower_keys(value)

    @model_validator(mode="after")
    def _ranges(self) -> SetHero:
        for skill, rating in self.skills.items():
            if not 0 <= rating <= 5:
                raise ValueError(f"{skill} must be rated 0 to 5")
        for skill, bonus in self.specialisations.items():
            if not 0 <= bonus <= 5:
                raise ValueError(f"a specialisation in {skill} gives +0 to +5")
        for totem, value in self.totems.items():
            if not 0 <= value <= 10:
                raise ValueError(f"the {totem} totem must be 0 to 10")
        return self


class SetEnemy(SheetFields):
    type: Literal["tote.enemy"] = "tote.enemy"
    rating: int = Field(ge=0, le=10)
    group: str | None = Field(default=None, min_length=1, max_length=40)


class Adjust(Command):
    type: Literal["tote.adjust"] = "tote.adjust"
    participant: str = Ref
    resolve: int | None = Field(default=None, ge=0, le=100)
    injuries: int | None = Field(default=None, ge=0, le=20)
    initiative: int | None = Field(default=None, ge=0, le=100)


def _common(cmd: SheetFields, track: tuple[str, ...]) -> dict[str, Any]:
    return {
        "resolve_max": cmd.resolve,
        "resolve": cmd.resolve if cmd.current_resolve is None else cmd.current_resolve,
        "block": cmd.block,
        "resist": cmd.resist,
        "weapons": [w.model_dump() for w in cmd.weapons],
        "track": list(track),
        "injuries": cmd.injuries,
    }


# --- sheets ---------------------------------------------------------------------------------------


def set_hero(state: CampaignState, cmd: SetHero, ctx: Ctx) -> list[NewEvent]:
    pid = state.participant(cmd.participant).id
    return [_hero_event(_hero(cmd, pid))]


def _hero_event(hero: Hero) -> NewEvent:
    return NewEvent(
        type="tote.hero_set", data={"hero": hero.model_dump(mode="json")}, audience=audience_of(hero.id)
    )


def _enemy_event(enemy: Enemy) -> NewEvent:
    return NewEvent(type="tote.enemy_set", data={"enemy": enemy.model_dump(mode="json")}, audience="gm")


def _hero(cmd: SetHero, pid: str) -> Hero:
    armour = []
    for piece in cmd.armour:
        known = next((a for a in ARMOUR if a.casefold() == piece.strip().casefold()), None)
        if known is None:
            raise InputError(f"{quoted(piece)} is not in the armour table: choose from {', '.join(ARMOUR)}.")
        armour.append(known)
    encumbrance = sum(ARMOUR[a][1] for a in armour) if cmd.encumbrance is None else cmd.encumbrance
    return Hero.model_validate(
        {
            "id": pid,
            "skills": cmd.skills,
            "specialisations": cmd.specialisations,
            "totems": cmd.totems,
            "armour": armour,
            "encumbrance": encumbrance,
            **_common(cmd, cmd.track or HERO_TRACK),
        }
    )


def set_enemy(state: CampaignState, cmd: SetEnemy, ctx: Ctx) -> list[NewEvent]:
    pid = state.participant(cmd.participant).id
    return [_enemy_event(_enemy(cmd, pid))]


def _enemy(cmd: SetEnemy, pid: str) -> Enemy:
    return Enemy.model_validate(
        {
            "id": pid,
            "rating": cmd.rating,
            "encumbrance": cmd.encumbrance or 0,
            "group": cmd.group,
            **_common(cmd, cmd.track or HERO_TRACK),
        }
    )


# --- JSON import ----------------------------------------------------------------------------------


class Import(Command):
    """Heroes and enemies with their gear in one go: a list of sheets, each naming its character.

    A sheet whose name is not yet at the table adds that character (a hero as a PC, handed to the
    seat named by `player`; an enemy as an NPC, hidden if `hidden` is true).
    """

    type: Literal["tote.import"] = "tote.import"
    sheets: tuple[dict[str, Any], ...] = Field(min_length=1, max_length=40)


def _seat_id(state: CampaignState, player: Any, label: str) -> str | None:
    if player in (None, ""):
        return None
    wanted = str(player).strip().casefold()
    for seat in state.seats:
        if (
            seat.role == "player"
            and not seat.revoked
            and wanted in (seat.id.casefold(), seat.name.casefold())
        ):
            return seat.id
    raise InputError(f"{label}: no player seat is called '{player}'.")


def import_sheets(state: CampaignState, cmd: Import, ctx: Ctx) -> list[NewEvent]:
    added: list[NewEvent] = []
    sheets: list[NewEvent] = []
    names: set[str] = set()
    for i, raw in enumerate(cmd.sheets):
        label = f"Sheet {i + 1}"
        item = dict(raw)
        title = str(item.pop("name", "") or "").strip()
        if not title or len(title) > 60:
            raise InputError(f"{label}: give the character's name (1 to 60 letters).")
        label = f"{label} ({title})"
        if title.casefold() in names:
            raise InputError(f"{label}: {title} appears twice in the import.")
        names.add(title.casefold())
        side = str(item.pop("side", "hero")).strip().lower()
        if side not in ("hero", "enemy"):
            raise InputError(f"{label}: side must be hero or enemy.")
        player = item.pop("player", None)
        hidden = bool(item.pop("hidden", False))
        model = SetHero if side == "hero" else SetEnemy
        try:
            cmd_ = model.model_validate({**item, "participant": title})
        except ValidationError as error:
            raise InputError(explain(error, prefix=f"{label}: ")) from None
        p = state.find_participant(title)
        if p is None:
            pid = new_id(state, "p", i + 1)
            participant = Participant(
                id=pid,
                name=title,
                kind="pc" if side == "hero" else "npc",
                owner=_seat_id(state, player, label) if side == "hero" else None,
                hidden=hidden and side == "enemy",
            )
            audience = "gm" if participant.hidden else "all"
            added.append(
                NewEvent(
                    type="campaign.participant_added",
                    data={"participant": participant.model_dump(exclude={"notes"})},
                    audience=audience,
                )
            )
        else:
            pid = p.id
        try:
            sheets.append(
                _hero_event(_hero(cmd_, pid))
                if isinstance(cmd_, SetHero)
                else _enemy_event(_enemy(cmd_, pid))
            )
        except InputError as error:
            raise InputError(f"{label}: {error.message}") from None
    return [*added, *sheets]


def adjust(state: CampaignState, cmd: Adjust, ctx: Ctx) -> list[NewEvent]:
    pid = state.participant(cmd.participant).id
    s = sheet(state, pid)
    if s is None:
        raise RuleError(f"{name(state, pid)} has no TOTE sheet yet.")
    if cmd.resolve is not None and cmd.resolve > s.resolve_max:
        raise RuleError(
            f"{name(state, pid)}'s Resolve cannot go above its start, {s.resolve_max}.", rule="TO-RC-1"
        )
    if cmd.injuries is not None and cmd.injuries > len(s.track):
        raise RuleError(f"{name(state, pid)}'s track has {len(s.track)} circles.", rule="TO-J-2")
    if cmd.initiative is not None:
        f = the_fight(state)
        if combatant(f, pid) is None:
            raise RuleError(f"{name(state, pid)} is not in this fight.")
    if cmd.resolve is None and cmd.injuries is None and cmd.initiative is None:
        raise RuleError("Nothing to change: give Resolve, injuries or Initiative.")
    sim = Sim(state)
    data = {"participant": pid, "name": name(state, pid), "resolve": cmd.resolve, "injuries": cmd.injuries}
    data["initiative"] = cmd.initiative
    sim.add("tote.adjusted", data, "gm" if isinstance(s, Enemy) else "all")
    advance(sim)
    return sim.events
