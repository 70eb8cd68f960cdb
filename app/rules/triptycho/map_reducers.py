"""Reducers for Triptycho's section maps: saved, deleted, loaded onto the table, and a section or a
border changed on the board in play."""

from __future__ import annotations

from typing import Any

from app.rules.triptycho.board import BattleMap, Border, Section, index
from app.rules.triptycho.state import TriptychoState


def map_saved(ext: TriptychoState, d: Any) -> TriptychoState:
    m = BattleMap.model_validate(d.map)
    maps = tuple(x for x in ext.maps if x.id != m.id)
    return ext.model_copy(update={"maps": (*maps, m)})


def map_deleted(ext: TriptychoState, d: Any) -> TriptychoState:
    return ext.model_copy(update={"maps": tuple(m for m in ext.maps if m.id != d.map)})


def map_loaded(ext: TriptychoState, d: Any) -> TriptychoState:
    off = set(d.unplaced)
    entities = tuple(
        e.model_copy(update={"sections": (), "block": None, "climbing": None}) if e.id in off else e
        for e in ext.entities
    )
    return ext.model_copy(
        update={"board": BattleMap.model_validate(d.map), "entities": entities, "far_blocks": ()}
    )


def section_changed(ext: TriptychoState, d: Any) -> TriptychoState:
    board = ext.board
    assert board is not None
    sections = tuple(s.model_copy(update=d.changes) if s.id == d.section else s for s in board.sections)
    return ext.model_copy(update={"board": _rebuilt(board, sections, board.borders)})


def border_changed(ext: TriptychoState, d: Any) -> TriptychoState:
    board = ext.board
    assert board is not None
    new = d.border
    pair = {new.a, new.b}
    borders = (*(b for b in board.borders if {b.a, b.b} != pair), new)
    return ext.model_copy(update={"board": _rebuilt(board, board.sections, borders)})


def _rebuilt(board: BattleMap, sections: tuple[Section, ...], borders: tuple[Border, ...]) -> BattleMap:
    # A new map object gets a new graph index; the shapes were checked when the map was saved.
    m = board.model_copy(update={"sections": sections, "borders": borders})
    index(m)
    return m
