"""The GM's map commands: save, delete and load battle maps (JSON in and out), and change a section's
light or water or a border mid-fight (TP-M-1)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidationError

from app.rules.campaign.state import CampaignState
from app.rules.errors import InputError, RuleError, quoted
from app.rules.system import Command, Ctx, NewEvent, explain
from app.rules.triptycho.board import BattleMap, Border, Light, index
from app.rules.triptycho.cards import parse_dice
from app.rules.triptycho.state import ext_of
from app.rules.triptycho.world import board_of


def dice_ok(text: str) -> bool:
    try:
        return bool(parse_dice(text))
    except ValueError:
        return False


class SaveMap(Command):
    type: Literal["triptycho.map.save"] = "triptycho.map.save"
    map: dict[str, Any]


class DeleteMap(Command):
    type: Literal["triptycho.map.delete"] = "triptycho.map.delete"
    map: str


class LoadMap(Command):
    type: Literal["triptycho.map.load"] = "triptycho.map.load"
    map: str


class SetSection(Command):
    type: Literal["triptycho.section.set"] = "triptycho.section.set"
    section: str
    light: Light | None = None
    water: bool | None = None
    name: str | None = Field(default=None, max_length=60)


class SetBorder(Command):
    type: Literal["triptycho.border.set"] = "triptycho.border.set"
    a: str
    b: str
    kind: Literal["soft", "hard"] | None = None
    height: int | None = Field(default=None, ge=-100, le=100)  # the rise crossing from a to b
    climb: str | None = Field(default=None, max_length=20)


def parse_map(data: dict[str, Any]) -> BattleMap:
    try:
        return BattleMap.model_validate(data)
    except ValidationError as error:
        raise InputError(explain(error, prefix="Map: ")) from None


def save_map(state: CampaignState, cmd: SaveMap, ctx: Ctx) -> list[NewEvent]:
    m = parse_map(cmd.map)
    replaces = any(x.id == m.id for x in ext_of(state).maps)
    return [
        NewEvent(type="triptycho.map_saved", data={"map": m.export(), "replaces": replaces}, audience="gm")
    ]


def delete_map(state: CampaignState, cmd: DeleteMap, ctx: Ctx) -> list[NewEvent]:
    m = ext_of(state).saved_map(cmd.map)
    return [NewEvent(type="triptycho.map_deleted", data={"map": m.id, "name": m.name}, audience="gm")]


def load_map(state: CampaignState, cmd: LoadMap, ctx: Ctx) -> list[NewEvent]:
    ext = ext_of(state)
    m = ext.saved_map(cmd.map)
    if ext.attacks:
        raise RuleError("Finish the attack under way before changing the map.")
    known = {s.id for s in m.sections}
    off = [e.id for e in ext.entities if e.placed and not set(e.sections) <= known]
    return [NewEvent(type="triptycho.map_loaded", data={"map": m.export(), "unplaced": off})]


def set_section(state: CampaignState, cmd: SetSection, ctx: Ctx) -> list[NewEvent]:
    board = board_of(ext_of(state))
    section = index(board).sections.get(cmd.section)
    if section is None:
        raise RuleError(f"There is no section {quoted(cmd.section)} on the map.")
    changes = {
        k: v
        for k, v in {"light": cmd.light, "water": cmd.water, "name": cmd.name}.items()
        if v is not None and getattr(section, k) != v
    }
    if not changes:
        raise RuleError(f"{section.label} is already like that.")
    return [NewEvent(type="triptycho.section_changed", data={"section": section.id, "changes": changes})]


def set_border(state: CampaignState, cmd: SetBorder, ctx: Ctx) -> list[NewEvent]:
    board = board_of(ext_of(state))
    edge = index(board).edge(cmd.a, cmd.b)
    if edge is None:
        raise RuleError(f"{quoted(cmd.a)} and {quoted(cmd.b)} do not share a border.", rule="TP-M-1")
    old = edge.border
    height = old.rise(cmd.a) if cmd.height is None else cmd.height
    if cmd.climb is not None and cmd.climb and not dice_ok(cmd.climb):
        raise InputError(f"{quoted(cmd.climb)} is not a dice entry: write it like 1d6.")
    new = Border(
        a=cmd.a,
        b=cmd.b,
        kind=cmd.kind or old.kind,
        height=height,
        climb=(cmd.climb or None) if cmd.climb is not None else old.climb,
    )
    if (new.kind, new.rise(cmd.a), new.climb) == (old.kind, old.rise(cmd.a), old.climb):
        raise RuleError("That border is already like that.")
    return [NewEvent(type="triptycho.border_changed", data={"border": new.model_dump()})]
