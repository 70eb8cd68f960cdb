"""The GM's set-up commands: character sheets, circumstance shifts, the tabletop, terrain and tokens."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from app.rules.campaign.state import CampaignState, Participant, new_id
from app.rules.errors import InputError, RuleError, quoted
from app.rules.fivebyfive import geometry, tactics
from app.rules.fivebyfive.reducers import REDUCERS
from app.rules.fivebyfive.state import (
    ABILITIES,
    ABILITY_MAX,
    PC_ABILITY_MAX,
    PC_RANK_MAX,
    RANK_MAX,
    RANKS,
    Abilities,
    Board,
    Rank,
    ext,
    side_of,
    status_after,
)
from app.rules.system import Command, Ctx, Event, NewEvent, explain

MAX_TABLE = 600.0  # inches: fifty feet of table is plenty
Coordinate = Field(ge=-MAX_TABLE, le=MAX_TABLE)
AbilityScore = Field(ge=1, le=ABILITY_MAX)
RankValue = Field(default=0, ge=0, le=RANK_MAX)


def inches(value: float) -> float:
    """Positions are kept to a hundredth of an inch."""
    return round(float(value), 2)


class CurrentIn(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    rage: int = Field(ge=-1, le=ABILITY_MAX)
    grace: int = Field(ge=-1, le=ABILITY_MAX)
    precognition: int = Field(ge=-1, le=ABILITY_MAX)


class SetSheet(Command):
    type: Literal["fivebyfive.setup"] = "fivebyfive.setup"
    participant: str
    rage: int = AbilityScore
    grace: int = AbilityScore
    precognition: int = AbilityScore
    strike: int = RankValue
    aim: int = RankValue
    focus: int = RankValue
    parry: int = RankValue
    dodge: int = RankValue
    resist: int = RankValue
    current: CurrentIn | None = None  # damage a character carries in; omitted: undamaged


class SetShift(Command):
    type: Literal["fivebyfive.shift"] = "fivebyfive.shift"
    participant: str
    rank: Rank
    shift: int = Field(ge=-1, le=1)


class BoardIn(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    width: float = Field(gt=0, le=MAX_TABLE)
    height: float = Field(gt=0, le=MAX_TABLE)


class SetBoard(Command, BoardIn):
    type: Literal["fivebyfive.board"] = "fivebyfive.board"


class RectIn(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    x: float = Coordinate
    y: float = Coordinate
    width: float = Field(gt=0, le=MAX_TABLE)
    height: float = Field(gt=0, le=MAX_TABLE)


class TerrainIn(BaseModel):
    """A rectangle {x, y, width, height} or a polygon of 3 to 32 corners [[x, y], ...]."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(default="", max_length=40)
    rect: RectIn | None = None
    points: tuple[tuple[float, float], ...] | None = Field(default=None, min_length=3, max_length=32)
    solid: bool = True

    @model_validator(mode="after")
    def _one_shape(self) -> TerrainIn:
        if (self.rect is None) == (self.points is None):
            raise ValueError("give terrain either a rect or points")
        return self

    def corners(self) -> tuple[tuple[float, float], ...]:
        if self.rect is not None:
            r = self.rect
            return tuple((inches(x), inches(y)) for x, y in geometry.rectangle(r.x, r.y, r.width, r.height))
        points = tuple((inches(x), inches(y)) for x, y in self.points or ())
        if any(abs(c) > MAX_TABLE for p in points for c in p):
            raise InputError(f"Terrain corners must lie within {MAX_TABLE:g} inches of the table's corner.")
        if geometry.area(points) <= geometry.EPS or not geometry.simple(points):
            raise InputError(
                "That terrain's outline crosses itself or has no area: list its corners in order."
            )
        return points


class AddTerrain(Command, TerrainIn):
    """Terrain from the API ({rect} or {points}) or from the GM's form (flat x, y, width, height, or
    `corners` typed as "6,18 10,18 8,22")."""

    type: Literal["fivebyfive.terrain"] = "fivebyfive.terrain"

    @model_validator(mode="before")
    @classmethod
    def _from_form(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        flat = {k: data.pop(k) for k in ("x", "y", "width", "height") if k in data}
        if flat and "rect" not in data:
            data["rect"] = flat
        elif flat:
            raise ValueError("give the rectangle either as rect or as x, y, width and height")
        corners = data.pop("corners", None)
        if corners is not None and "points" not in data:
            data["points"] = _corners(corners)
        if "solid" in data and isinstance(data["solid"], str):
            data["solid"] = data["solid"].strip().lower() in ("true", "on", "yes", "1")
        return data


def _corners(text: Any) -> Any:
    """ "6,18 10,18 8,22" (or "6 18; 10 18; 8 22") as [[6, 18], [10, 18], [8, 22]]."""
    if not isinstance(text, str):
        return text
    pairs = [p for p in text.replace(";", " ").split() if p]
    if all("," in p for p in pairs):
        numbers = [n for p in pairs for n in p.split(",")]
    else:
        numbers = text.replace(";", " ").replace(",", " ").split()
    try:
        values = [float(n) for n in numbers if n]
    except ValueError:
        raise ValueError("corners are pairs of inches, like 6,18 10,18 8,22") from None
    if len(values) % 2:
        raise ValueError("corners are pairs of inches, like 6,18 10,18 8,22: one number is missing")
    return [values[i : i + 2] for i in range(0, len(values), 2)]


class RemoveTerrain(Command):
    type: Literal["fivebyfive.remove_terrain"] = "fivebyfive.remove_terrain"
    terrain: str


class Place(Command):
    type: Literal["fivebyfive.place"] = "fivebyfive.place"
    participant: str
    x: float | None = Field(default=None, ge=-MAX_TABLE, le=MAX_TABLE)
    y: float | None = Field(default=None, ge=-MAX_TABLE, le=MAX_TABLE)

    @model_validator(mode="after")
    def _both_or_neither(self) -> Place:
        if (self.x is None) != (self.y is None):
            raise ValueError("give both x and y, or neither to take the token off the table")
        return self


class SetupIn(BaseModel):
    """An encounter's set-up: the table's size, its terrain and where the tokens start."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    board: BoardIn | None = None
    terrain: tuple[TerrainIn, ...] = Field(default=(), max_length=200)
    tokens: dict[str, tuple[float, float]] = Field(default_factory=dict)


# --- checks ---------------------------------------------------------------------------------------


def _spot_problem(board: Board, x: float, y: float, who: str) -> str | None:
    if not (0 <= x <= board.width and 0 <= y <= board.height):
        return f"({x:g}, {y:g}) is off the {board.width:g} x {board.height:g} inch table."
    for t in board.terrain:
        if t.solid and geometry.strictly_inside((x, y), t.points):
            return f"{who} cannot stand inside {t.name or 'solid terrain'}."
    return None


def _check_spot(board: Board, x: float, y: float, who: str, rule: str | None = None) -> None:
    problem = _spot_problem(board, x, y, who)
    if problem:
        raise RuleError(problem, rule=rule)


def _audience(state: CampaignState, pid: str) -> str:
    p = state.participant(pid)
    return "gm" if p.hidden or side_of(p) == "npc" else "all"


# --- deciders -------------------------------------------------------------------------------------


def set_sheet(state: CampaignState, cmd: SetSheet, ctx: Ctx) -> list[NewEvent]:
    p = state.participant(cmd.participant)
    scores = Abilities(rage=cmd.rage, grace=cmd.grace, precognition=cmd.precognition)
    ranks = {r: getattr(cmd, r) for r in RANKS}
    check_limits(p, scores, ranks)
    data = sheet_data(p, cmd, scores, ranks)
    return [NewEvent(type="fivebyfive.sheet_set", data=data, audience=_audience(state, p.id))]


def check_limits(p: Participant, scores: Abilities, ranks: dict[Rank, int]) -> None:
    """FX-A-1 / FX-D-4: a PC's Abilities run 1-4 and its Ranks 0-4."""
    if p.kind == "pc":
        if max(scores.values()) > PC_ABILITY_MAX:
            raise RuleError(f"A PC's Ability Scores run from 1 to {PC_ABILITY_MAX}.", rule="FX-A-1")
        if max(ranks.values()) > PC_RANK_MAX:
            raise RuleError(
                f"A PC's Combat Ranks run from 0 (unskilled) to {PC_RANK_MAX}; 5 comes only from a shift.",
                rule="FX-D-4",
            )


def sheet_data(p: Participant, cmd: Any, scores: Abilities, ranks: dict[Rank, int]) -> dict[str, Any]:
    current = Abilities.model_validate(cmd.current.model_dump()) if cmd.current else scores
    over = [a for a in ABILITIES if current.get(a) > scores.get(a)]
    if over:
        raise RuleError(f"{p.name}'s current {over[0].capitalize()} cannot be above its score.")
    return {
        "participant": p.id,
        "name": p.name,
        "scores": scores.model_dump(),
        "current": current.model_dump(),
        "ranks": ranks,
        "status": status_after("ok", current),
    }


def set_shift(state: CampaignState, cmd: SetShift, ctx: Ctx) -> list[NewEvent]:
    p = state.participant(cmd.participant)
    c = tactics.ext(state).character(p.id)
    if c is None:
        raise RuleError(f"{p.name} has no 5x5 character sheet yet.", rule="FX-A-1")
    if c.shifts.get(cmd.rank) == cmd.shift:
        raise RuleError(f"{p.name}'s {cmd.rank.capitalize()} already has that shift.")
    data = {"participant": p.id, "name": p.name, "rank": cmd.rank, "shift": cmd.shift}
    return [NewEvent(type="fivebyfive.shift_set", data=data, audience=_audience(state, p.id))]


def set_board(state: CampaignState, cmd: SetBoard, ctx: Ctx) -> list[NewEvent]:
    board = ext(state).board
    resized = board.model_copy(update={"width": inches(cmd.width), "height": inches(cmd.height)})
    for token in board.tokens:
        if not (token.x <= resized.width and token.y <= resized.height):
            who = state.participant(token.participant).name
            raise RuleError(f"{who}'s token would fall off a {cmd.width:g} x {cmd.height:g} inch table.")
    return [NewEvent(type="fivebyfive.board_set", data={"width": resized.width, "height": resized.height})]


def add_terrain(state: CampaignState, cmd: AddTerrain, ctx: Ctx) -> list[NewEvent]:
    points = cmd.corners()
    if cmd.solid:
        for token in ext(state).board.tokens:
            if geometry.strictly_inside(token.at, points):
                who = state.participant(token.participant).name
                raise RuleError(f"{who} stands where that terrain would go: move the token first.")
    terrain: dict[str, Any] = {
        "id": new_id(state, "t"),
        "name": cmd.name,
        "points": [list(p) for p in points],
    }
    terrain["solid"] = cmd.solid
    return [NewEvent(type="fivebyfive.terrain_added", data={"terrain": terrain})]


def remove_terrain(state: CampaignState, cmd: RemoveTerrain, ctx: Ctx) -> list[NewEvent]:
    board = ext(state).board
    found = [t for t in board.terrain if t.id == cmd.terrain] or [
        t for t in board.terrain if t.name and t.name.casefold() == cmd.terrain.casefold()
    ]
    if not found:
        raise RuleError(f"There is no terrain {quoted(cmd.terrain)} on the table.")
    if len(found) > 1:
        raise RuleError(f"More than one piece of terrain is called '{cmd.terrain}': use its id.")
    return [NewEvent(type="fivebyfive.terrain_removed", data={"terrain": found[0].id, "name": found[0].name})]


def place(state: CampaignState, cmd: Place, ctx: Ctx) -> list[NewEvent]:
    p = state.participant(cmd.participant)
    data: dict[str, Any] = {"participant": p.id, "name": p.name, "x": None, "y": None}
    if cmd.x is not None and cmd.y is not None:
        x, y = inches(cmd.x), inches(cmd.y)
        _check_spot(ext(state).board, x, y, p.name)
        data.update(x=x, y=y)
    elif ext(state).board.token(p.id) is None:
        raise RuleError(f"{p.name} is not on the table.")
    after = REDUCERS["fivebyfive.placed"](
        state, Event(seq=state.seq + 1, type="fivebyfive.placed", data=data)
    )
    public = tactics.shown(state, p.id) or tactics.shown(after, p.id)
    return [NewEvent(type="fivebyfive.placed", data=data, audience="all" if public else "gm")]


def parse_setup(state: CampaignState, setup: dict[str, Any]) -> dict[str, Any]:
    """Check an encounter's set-up; names become ids, rectangles become corners."""
    try:
        parsed = SetupIn.model_validate(dict(setup))
    except ValidationError as error:
        raise InputError(explain(error, prefix="Set-up: ")) from None
    board = Board(
        width=inches(parsed.board.width) if parsed.board else ext(state).board.width,
        height=inches(parsed.board.height) if parsed.board else ext(state).board.height,
    )
    terrain = []
    for i, t in enumerate(parsed.terrain):
        terrain.append(
            {"id": f"s{i + 1}", "name": t.name, "points": [list(p) for p in t.corners()], "solid": t.solid}
        )
    board = Board.model_validate({**board.model_dump(), "terrain": terrain})
    tokens: dict[str, list[float]] = {}
    for ref, (x, y) in parsed.tokens.items():
        p = state.participant(ref)
        x, y = inches(x), inches(y)
        problem = _spot_problem(board, x, y, p.name)
        if problem:
            raise InputError(f"Set-up: {problem}")
        tokens[p.id] = [x, y]
    out: dict[str, Any] = {}
    if parsed.board:
        out["board"] = {"width": board.width, "height": board.height}
    if terrain:
        out["terrain"] = terrain
    if tokens:
        out["tokens"] = tokens
    return out
