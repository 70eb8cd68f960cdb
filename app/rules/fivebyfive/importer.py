"""The GM's JSON import: characters with their 5x5 sheets and places, the table's size and terrain.

One command, all or nothing: every line is checked before any event is made. Characters are found
by name; a name the campaign does not know yet becomes a new character (with `kind` and `player`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.rules.campaign.state import CampaignState, Participant, new_id
from app.rules.errors import RuleError
from app.rules.fivebyfive import geometry
from app.rules.fivebyfive.sheets import (
    MAX_TABLE,
    AbilityScore,
    BoardIn,
    CurrentIn,
    RankValue,
    TerrainIn,
    check_limits,
    inches,
    sheet_data,
)
from app.rules.fivebyfive.state import RANKS, Abilities, Board, ext, settings, side_of
from app.rules.system import Command, Ctx, NewEvent


class CharacterIn(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)
    name: str = Field(min_length=1, max_length=60)
    kind: Literal["pc", "npc"] = "pc"
    player: str | None = Field(default=None, max_length=60)  # a player seat's name or id
    hidden: bool = False
    rage: int = AbilityScore
    grace: int = AbilityScore
    precognition: int = AbilityScore
    strike: int = RankValue
    aim: int = RankValue
    focus: int = RankValue
    parry: int = RankValue
    dodge: int = RankValue
    resist: int = RankValue
    current: CurrentIn | None = None
    at: tuple[float, float] | None = None  # where the token stands, in inches


class ImportTable(Command):
    type: Literal["fivebyfive.import"] = "fivebyfive.import"
    characters: tuple[CharacterIn, ...] = Field(default=(), max_length=60)
    board: BoardIn | None = None
    terrain: tuple[TerrainIn, ...] = Field(default=(), max_length=200)

    @model_validator(mode="before")
    @classmethod
    def _from_textarea(cls, data: Any) -> Any:
        """The GM page posts the whole import as one JSON field, `table`."""
        if isinstance(data, dict) and "table" in data:
            data = dict(data)
            table = data.pop("table")
            if not isinstance(table, dict):
                raise ValueError("the import must be a JSON object with characters, board and/or terrain")
            clash = set(table) & set(data)
            if clash:
                raise ValueError(f"{sorted(clash)[0]} is given twice")
            data.update(table)
        return data


def _seat(state: CampaignState, ref: str | None, who: str) -> str | None:
    if ref is None:
        return None
    for seat in state.seats:
        if seat.role == "player" and not seat.revoked and ref in (seat.id, seat.name):
            return seat.id
    raise RuleError(f"{who}: there is no player called '{ref}' at this table.")


def import_table(state: CampaignState, cmd: ImportTable, ctx: Ctx) -> list[NewEvent]:
    if not (cmd.characters or cmd.board or cmd.terrain):
        raise RuleError("Nothing to import: give characters, a board or terrain.")
    five = ext(state)
    events: list[NewEvent] = []
    board = five.board
    if cmd.board:
        board = board.model_copy(
            update={"width": inches(cmd.board.width), "height": inches(cmd.board.height)}
        )
        events.append(
            NewEvent(type="fivebyfive.board_set", data={"width": board.width, "height": board.height})
        )
    added: list[dict[str, Any]] = []
    for i, t in enumerate(cmd.terrain):
        points = t.corners()
        terrain: dict[str, Any] = {
            "id": new_id(state, "t", i + 1),
            "name": t.name,
            "points": [list(p) for p in points],
        }
        terrain["solid"] = t.solid
        added.append(terrain)
        events.append(NewEvent(type="fivebyfive.terrain_added", data={"terrain": terrain}))
    board = Board.model_validate({**board.model_dump(), "terrain": [*board.model_dump()["terrain"], *added]})
    names = [c.name.casefold() for c in cmd.characters]
    twice = next((c.name for c in cmd.characters if names.count(c.name.casefold()) > 1), None)
    if twice:
        raise RuleError(f"{twice} is listed twice.")
    placed: set[str] = set()
    fog = settings(state).fog_of_war
    for i, row in enumerate(cmd.characters):
        p = state.find_participant(row.name)
        if p is None:
            p = Participant(
                id=new_id(state, "p", i + 1),
                name=row.name,
                kind=row.kind,
                owner=_seat(state, row.player, row.name),
                hidden=row.hidden,
            )
            events.append(
                NewEvent(
                    type="campaign.participant_added",
                    data={"participant": p.model_dump(exclude={"notes"})},
                    # With fog of war, players learn of an NPC when a PC sees it on the table.
                    audience="gm" if p.hidden or (side_of(p) == "npc" and fog) else "all",
                )
            )
        scores = Abilities(rage=row.rage, grace=row.grace, precognition=row.precognition)
        ranks = {r: getattr(row, r) for r in RANKS}
        check_limits(p, scores, ranks)
        private = "gm" if p.hidden or side_of(p) == "npc" else "all"
        events.append(
            NewEvent(type="fivebyfive.sheet_set", data=sheet_data(p, row, scores, ranks), audience=private)
        )
        if row.at is not None:
            x, y = inches(row.at[0]), inches(row.at[1])
            _check_spot(board, x, y, p.name)
            placed.add(p.id)
            events.append(
                NewEvent(
                    type="fivebyfive.placed",
                    data={"participant": p.id, "name": p.name, "x": x, "y": y},
                    audience=private,
                )
            )
    for token in board.tokens:
        if token.participant in placed:
            continue
        who = state.participant(token.participant).name
        if not (token.x <= board.width and token.y <= board.height):
            raise RuleError(f"{who}'s token would fall off a {board.width:g} x {board.height:g} inch table.")
        if any(geometry.strictly_inside(token.at, t["points"]) and t["solid"] for t in added):
            raise RuleError(f"{who} stands where new terrain would go: move the token first.")
    return events


def _check_spot(board: Board, x: float, y: float, who: str) -> None:
    if not (0 <= x <= board.width and 0 <= y <= board.height) or max(abs(x), abs(y)) > MAX_TABLE:
        raise RuleError(f"{who}: ({x:g}, {y:g}) is off the {board.width:g} x {board.height:g} inch table.")
    for t in board.terrain:
        if t.solid and geometry.strictly_inside((x, y), t.points):
            raise RuleError(f"{who} cannot stand inside {t.name or 'solid terrain'}.")
