"""An encounter's set-up: which saved map it is fought on and where each character starts."""

from __future__ import annotations

from typing import Any

from app.rules.campaign.state import CampaignState
from app.rules.errors import InputError
from app.rules.triptycho.state import ext_of


def parse_setup(state: CampaignState, setup: dict[str, Any]) -> dict[str, Any]:
    """`{"map": "<saved map id>", "placements": {"<character>": ["<section>", ...]}}`, both optional."""
    unknown = set(setup) - {"map", "placements"}
    if unknown:
        raise InputError(f"An encounter's set-up takes a map and placements, not {sorted(unknown)[0]}.")
    ext = ext_of(state)
    out: dict[str, Any] = {}
    board = None
    if setup.get("map"):
        board = ext.saved_map(str(setup["map"]))
        out["map"] = board.id
    placements = setup.get("placements") or {}
    if not isinstance(placements, dict):
        raise InputError("Placements map each character to a list of sections.")
    if placements and board is None:
        raise InputError("Name the map the placements are on.")
    sections = {s.id for s in board.sections} if board else set()
    placed: dict[str, list[str]] = {}
    for ref, where in placements.items():
        pid = state.participant(ref).id
        where = [where] if isinstance(where, str) else list(where)
        bad = [s for s in where if s not in sections]
        if bad or not where:
            raise InputError(f"'{bad[0] if bad else ''}' is not a section of {board.name}.")  # type: ignore[union-attr]
        placed[pid] = where
    if placed:
        out["placements"] = placed
    return out
