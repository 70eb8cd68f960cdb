"""Set-up commands for the GM's forms (`trinity.*`): give a character a weapon, armour or an item, drop
gear, and import characters, opponents and their gear from JSON in one go."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidationError

from app.rules.campaign.state import CampaignState, Participant
from app.rules.errors import InputError, RuleError, quoted
from app.rules.system import Command, Ctx, NewEvent, explain
from app.rules.trinity.gm import (
    ArmourIn,
    ItemIn,
    SetupCharacter,
    SetupOpponent,
    StrictIn,
    WeaponIn,
    armour_of,
    build_character,
    build_opponent,
    items_of,
    participant_audience,
    pc_sheet,
    weapons_of,
)
from app.rules.trinity.state import Character, RangeBand, ext, put_character


class GiveWeapon(Command):
    type: Literal["trinity.give_weapon"] = "trinity.give_weapon"
    character: str
    name: str = Field(min_length=1, max_length=40)
    harm: int = Field(ge=0, le=20)
    kind: Literal["melee", "ranged"] = "ranged"
    tags: tuple[RangeBand, ...] = ()
    ammo: int | None = Field(default=None, ge=0, le=999)
    capacity: int | None = Field(default=None, ge=1, le=999)
    spares: int = Field(default=0, ge=0, le=999)


class GiveArmour(Command):
    type: Literal["trinity.give_armour"] = "trinity.give_armour"
    character: str
    name: str = Field(default="armour", min_length=1, max_length=40)
    armour: int = Field(ge=1, le=20)
    threshold: int | None = Field(default=None, ge=0, le=999)  # left out: threshold-infinite


class GiveItem(Command):
    type: Literal["trinity.give_item"] = "trinity.give_item"
    character: str
    name: str = Field(min_length=1, max_length=40)
    heal: int = Field(default=0, ge=0, le=20)
    calm: int = Field(default=0, ge=0, le=20)
    timing: Literal["instant", "delayed"] = "instant"
    consumable: int | None = Field(default=None, ge=1, le=99)


class DropGear(Command):
    type: Literal["trinity.drop_gear"] = "trinity.drop_gear"
    character: str
    gear: str = Field(min_length=1, max_length=40)  # a weapon or item id or name, or "armour"


class Sheets(StrictIn):
    """The JSON import: {"characters": [...], "opponents": [...]} (see docs/rules/trinity.md)."""

    characters: tuple[dict[str, Any], ...] = Field(default=(), max_length=40)
    opponents: tuple[dict[str, Any], ...] = Field(default=(), max_length=80)


class Import(Command):
    type: Literal["trinity.import"] = "trinity.import"
    sheets: Sheets


# --- deciders ------------------------------------------------------------------------------------


def _sheet_event(p: Participant, character: Character) -> NewEvent:
    data = {"character": character.model_dump(mode="json"), "name": p.name}
    return NewEvent(type="trinity.character_set", data=data, audience=participant_audience(p))


def give_weapon(state: CampaignState, cmd: GiveWeapon, ctx: Ctx) -> list[NewEvent]:
    p, c = pc_sheet(state, cmd.character)
    if len(c.weapons) >= 12:
        raise RuleError(f"{p.name} carries 12 weapons already.")
    try:
        given = WeaponIn.model_validate(cmd.model_dump(include=set(WeaponIn.model_fields)))
    except ValidationError as error:
        raise InputError(explain(error, prefix="Weapon: ")) from None
    first = max((int(w.id[1:]) for w in c.weapons if w.id[1:].isdigit()), default=0) + 1
    weapons = (*c.weapons, *weapons_of((given,), first))
    return [_sheet_event(p, c.model_copy(update={"weapons": weapons}))]


def give_armour(state: CampaignState, cmd: GiveArmour, ctx: Ctx) -> list[NewEvent]:
    p, c = pc_sheet(state, cmd.character)
    armour = armour_of(ArmourIn(name=cmd.name, armour=cmd.armour, threshold=cmd.threshold))
    return [_sheet_event(p, c.model_copy(update={"armour": armour}))]


def give_item(state: CampaignState, cmd: GiveItem, ctx: Ctx) -> list[NewEvent]:
    p, c = pc_sheet(state, cmd.character)
    if not cmd.heal and not cmd.calm:
        raise InputError("An item heals (heal-N) or calms (calm-N): give it at least one.")
    if len(c.items) >= 12:
        raise RuleError(f"{p.name} carries 12 items already.")
    given = ItemIn.model_validate(cmd.model_dump(include=set(ItemIn.model_fields)))
    first = max((int(i.id[1:]) for i in c.items if i.id[1:].isdigit()), default=0) + 1
    return [_sheet_event(p, c.model_copy(update={"items": (*c.items, *items_of((given,), first))}))]


def drop_gear(state: CampaignState, cmd: DropGear, ctx: Ctx) -> list[NewEvent]:
    p, c = pc_sheet(state, cmd.character)
    if cmd.gear.casefold() == "armour" or (c.armour and cmd.gear.casefold() == c.armour.name.casefold()):
        if c.armour is None:
            raise RuleError(f"{p.name} wears no armour.")
        return [_sheet_event(p, c.model_copy(update={"armour": None}))]
    if (w := c.weapon(cmd.gear)) is not None:
        return [_sheet_event(p, c.model_copy(update={"weapons": tuple(x for x in c.weapons if x != w)}))]
    if (i := c.item(cmd.gear)) is not None:
        return [_sheet_event(p, c.model_copy(update={"items": tuple(x for x in c.items if x != i)}))]
    raise RuleError(f"{p.name} has no '{cmd.gear}'.")


def _seat_of(state: CampaignState, ref: Any) -> str | None:
    if ref in (None, ""):
        return None
    for seat in state.seats:
        if seat.role == "player" and not seat.revoked and ref in (seat.id, seat.name):
            return seat.id
    raise RuleError(
        f'There is no player {quoted(ref)} at this table: leave "player" out, or invite them first.'
    )


def _entry(raw: dict[str, Any], what: str, n: int) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """(name, participant fields, sheet fields) of one imported entry."""
    entry = dict(raw)
    name = entry.pop("name", None)
    if not isinstance(name, str) or not name.strip() or len(name) > 60:
        raise InputError(f'{what} {n}: give a "name" (1 to 60 characters).')
    meta: dict[str, Any] = {k: entry.pop(k) for k in ("player", "hidden", "notes") if k in entry}
    return name.strip(), meta, entry


def import_sheets(state: CampaignState, cmd: Import, ctx: Ctx) -> list[NewEvent]:
    """Characters and opponents from JSON: new names become participants, known ones get the new sheet."""
    if not cmd.sheets.characters and not cmd.sheets.opponents:
        raise InputError('Nothing to import: give "characters" or "opponents".')
    events: list[NewEvent] = []
    seen: set[str] = set()
    t = ext(state)
    wanted = [("Character", raw, "pc") for raw in cmd.sheets.characters]
    wanted += [("Opponent", raw, "npc") for raw in cmd.sheets.opponents]
    for n, (what, raw, kind) in enumerate(wanted, start=1):
        name, meta, fields = _entry(raw, what, n)
        if name.casefold() in seen:
            raise InputError(f"{name} is in the import twice.")
        seen.add(name.casefold())
        p = state.find_participant(name)
        if p is None:
            hidden = meta.get("hidden") is True
            p = Participant(
                id=f"p{state.seq + 1 + len(events)}",
                name=name,
                kind=kind,  # type: ignore[arg-type]  # Participant checks it
                owner=_seat_of(state, meta.get("player")) if kind == "pc" else None,
                hidden=hidden,
            )
            events.append(
                NewEvent(
                    type="campaign.participant_added",
                    data={"participant": p.model_dump(exclude={"notes"})},
                    audience="gm" if hidden else "all",
                )
            )
            if isinstance(meta.get("notes"), str) and meta["notes"]:
                events.append(
                    NewEvent(
                        type="campaign.participant_noted",
                        data={"participant": p.id, "notes": meta["notes"][:4000]},
                        audience="gm",
                    )
                )
        try:
            if kind == "pc":
                if t.opponent(p.id) is not None:
                    raise RuleError(f"{p.name} has an opponent sheet: a character is one or the other.")
                sheet = SetupCharacter.model_validate({**fields, "character": p.id})
                c = build_character(p.id, p.name, sheet, t.character(p.id))
                events.append(_sheet_event(p, c))
                t = put_character(t, c)
            else:
                if t.character(p.id) is not None:
                    raise RuleError(f"{p.name} has a character sheet: a character is one or the other.")
                sheet_o = SetupOpponent.model_validate({**fields, "opponent": p.id})
                o = build_opponent(p.id, sheet_o, t.opponent(p.id))
                data = {"opponent": o.model_dump(mode="json"), "name": p.name}
                events.append(NewEvent(type="trinity.opponent_set", data=data, audience="gm"))
        except ValidationError as error:
            raise InputError(explain(error, prefix=f"{what} {n} ({name}): ")) from None
    return events
