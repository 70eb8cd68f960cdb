"""An encounter's set-up: which saved map it is fought on and where each character starts."""

from __future__ import annotations

from typing import Any

from app.rules.campaign.state import CampaignState
from app.rules.errors import InputError, quoted
from app.rules.triptycho.state import ext_of


def parse_setup(state: CampaignState, setup: dict[str, Any]) -> dict[str, Any]:
    """`{"map": "<saved map id>", "placements": {"<character>": ["<section>", ...]}}`, both optional."""
    unknown = set(setup) - {"map", "placements"}
    if unknown:
        first = quoted(sorted(unknown)[0])
        raise InputError(f"An encounter's set-up takes a map and placements, not {first}.")
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
        where = [where] if isinstance(where, str) else where
        if not isinstance(where, list | tuple) or not where or not all(isinstance(s, str) for s in where):
            raise InputError(f"Place {state.participant(pid).name} on a list of the map's sections.")
        bad = [s for s in where if s not in sections]
        if bad:
            raise InputError(f"{quoted(bad[0])} is not a section of {board.name}.")  # type: ignore[union-attr]  # placements need a map
        placed[pid] = list(where)
    if placed:
        out["placements"] = placed
    return out
