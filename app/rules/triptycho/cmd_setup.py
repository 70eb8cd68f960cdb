"""The GM's set-up of characters: sheets and cards, adding entities, importing them as JSON.

The GM's hand during play (placing, pushing, conditions, damage, decks, initiative) is in `cmd_gm`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidationError

from app.rules.campaign.state import CampaignState, Participant, new_id
from app.rules.errors import InputError, RuleError, quoted
from app.rules.system import Command, Ctx, NewEvent, audience_of, explain
from app.rules.triptycho.board import index
from app.rules.triptycho.cards import Card
from app.rules.triptycho.cmd_maps import dice_ok
from app.rules.triptycho.state import (
    Side,
    Size,
    ext_of,
)
from app.rules.triptycho.world import board_of

# --- characters -----------------------------------------------------------------------------------


class Sheet(Command):
    """The fields of a Triptycho sheet: size, senses, dice, health and cards."""

    side: Side | None = None
    size: Size = "medium"
    low_light: bool = False
    darkvision: bool = False
    light_sensitive: bool = False
    aquatic: bool = False
    acrobatics: str = Field(default="1d6", max_length=20)
    initiative: str = Field(default="1d6", max_length=20)
    health: int | None = Field(default=None, ge=1, le=10_000)
    uses_deck: bool | None = None
    cards: tuple[dict[str, Any], ...] = Field(default=(), max_length=100)
    deck: tuple[str, ...] = Field(default=(), max_length=200)


class SetUp(Sheet):
    """A character's Triptycho sheet and cards, as JSON (a card editor or an import)."""

    type: Literal["triptycho.setup"] = "triptycho.setup"
    participant: str


def _sheet(state: CampaignState, p: Participant, cmd: Sheet, label: str = "") -> tuple[dict[str, Any], str]:
    """The checked sheet of participant `p` and the audience of its event."""
    for what, text in (("Acrobatics", cmd.acrobatics), ("Initiative", cmd.initiative)):
        if not dice_ok(text):
            raise InputError(f"{label}{what} {quoted(text)} is not a dice entry: write it like 1d6.")
    cards: list[Card] = []
    for i, raw in enumerate(cmd.cards):
        try:
            cards.append(Card.model_validate(raw))
        except ValidationError as error:
            raise InputError(explain(error, prefix=f"{label}Card {i + 1}: ")) from None
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        raise InputError(f"{label}Two cards have the same id.")
    unknown = [c for c in cmd.deck if c not in ids]
    if unknown:
        raise InputError(f"{label}The deck lists {quoted(unknown[0])}, which is not one of the cards.")
    old = ext_of(state).entity(p.id)
    side = cmd.side or (old.side if old else ("party" if p.kind == "pc" else "foes"))
    sheet = {
        "id": p.id,
        "side": side,
        "size": cmd.size,
        "low_light": cmd.low_light,
        "darkvision": cmd.darkvision,
        "light_sensitive": cmd.light_sensitive,
        "aquatic": cmd.aquatic,
        "acrobatics": cmd.acrobatics,
        "initiative": cmd.initiative,
        "health": cmd.health,
        "uses_deck": cmd.uses_deck if cmd.uses_deck is not None else p.kind == "pc",
        "cards": [c.model_dump(mode="json") for c in cards],
        "deck_list": list(cmd.deck),
    }
    secret = "gm" if p.hidden or (side == "foes" and p.owner is None) else audience_of(p.id)
    return sheet, secret


def setup(state: CampaignState, cmd: SetUp, ctx: Ctx) -> list[NewEvent]:
    p = state.participant(cmd.participant)
    sheet, secret = _sheet(state, p, cmd)
    return [NewEvent(type="triptycho.sheet_set", data={"sheet": sheet, "name": p.name}, audience=secret)]


class AddEntity(Sheet):
    """A new character with its sheet in one step. An adversary (side foes, run by the GM) is added
    quietly: only the GM's log says so, and players learn of it when their characters see it (TP-I-6)."""

    type: Literal["triptycho.add"] = "triptycho.add"
    name: str = Field(min_length=1, max_length=60)
    kind: Literal["pc", "npc"] | None = None
    sections: tuple[str, ...] = Field(default=(), max_length=12)  # where it stands, if a map is loaded


def _placed(
    state: CampaignState, p: Participant, sections: tuple[str, ...], quiet: bool, label: str
) -> NewEvent:
    known = index(board_of(ext_of(state))).sections
    bad = [s for s in sections if s not in known]
    if bad:
        raise RuleError(f"{label}There is no section {quoted(bad[0])} on the map.")
    return NewEvent(
        type="triptycho.placed",
        data={"participant": p.id, "name": p.name, "sections": list(dict.fromkeys(sections))},
        audience="gm" if quiet else "all",
    )


def _sheet_for_existing(
    state: CampaignState, p: Participant, cmd: Sheet, sections: tuple[str, ...], label: str
) -> list[NewEvent]:
    """A character already at the table (added on the Characters card, say) gets the sheet, and stands
    where the form or the list says."""
    sheet, secret = _sheet(state, p, cmd, label)
    events = [NewEvent(type="triptycho.sheet_set", data={"sheet": sheet, "name": p.name}, audience=secret)]
    if sections:
        quiet = p.hidden or (sheet["side"] == "foes" and p.owner is None)
        events.append(_placed(state, p, sections, quiet, label))
    return events


def _add_events(state: CampaignState, cmd: AddEntity, index_: int = 0, label: str = "") -> list[NewEvent]:
    name = " ".join(cmd.name.split())
    existing = next((p for p in state.participants if p.name.casefold() == name.casefold()), None)
    if existing is not None:
        return _sheet_for_existing(state, existing, cmd, cmd.sections, label)
    kind = cmd.kind or ("pc" if cmd.side == "party" else "npc")
    p = Participant(id=new_id(state, "p", index_), name=name, kind=kind)
    sheet, secret = _sheet(state, p, cmd, label)
    quiet = sheet["side"] == "foes" or kind == "npc"
    events = [
        NewEvent(
            type="campaign.participant_added",
            data={"participant": p.model_dump(exclude={"notes"})},
            audience="gm" if quiet else "all",
        ),
        NewEvent(type="triptycho.sheet_set", data={"sheet": sheet, "name": name}, audience=secret),
    ]
    if cmd.sections:
        events.append(_placed(state, p, cmd.sections, quiet, label))
    return events


def add_entity(state: CampaignState, cmd: AddEntity, ctx: Ctx) -> list[NewEvent]:
    return _add_events(state, cmd)


class Import(Command):
    """Characters, adversaries and their cards as JSON: a new name is added (adversaries quietly),
    a known name gets the sheet. All or nothing: one bad entry changes nothing."""

    type: Literal["triptycho.import"] = "triptycho.import"
    characters: tuple[dict[str, Any], ...] = Field(min_length=1, max_length=50)


def import_characters(state: CampaignState, cmd: Import, ctx: Ctx) -> list[NewEvent]:
    events: list[NewEvent] = []
    names: set[str] = set()
    for i, raw in enumerate(cmd.characters):
        label = f"Character {i + 1}: "
        if not isinstance(raw, dict) or not str(raw.get("name") or "").strip():
            raise InputError(f"{label}give each character a name.")
        name = str(raw["name"]).strip()
        if name.casefold() in names:
            raise InputError(f"{label}{name} is listed twice.")
        names.add(name.casefold())
        existing = state.find_participant(name)
        try:
            if existing is not None:
                fields = {k: v for k, v in raw.items() if k not in ("name", "kind", "sections")}
                sheet_cmd = SetUp.model_validate({**fields, "participant": existing.id})
                sections = tuple(AddEntity.model_validate({"name": name, **raw}).sections)
                events += _sheet_for_existing(state, existing, sheet_cmd, sections, label)
            else:
                events += _add_events(state, AddEntity.model_validate(raw), i + 1, label)
        except ValidationError as error:
            raise InputError(explain(error, prefix=label)) from None
    return events
