"""The round: Initiative (FX-I-1), movement (FX-M-1), the Offensive Action (FX-O-1, FX-O-2), ending a turn."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.rules.campaign.state import CampaignState, Participant
from app.rules.dice import Roller, read_face
from app.rules.errors import Forbidden, RuleError, clipped, quoted
from app.rules.fivebyfive import flow, geometry, odds, tactics
from app.rules.fivebyfive.reducers import REDUCERS
from app.rules.fivebyfive.sheets import MAX_TABLE, inches
from app.rules.fivebyfive.state import (
    DEFENCE_OF,
    Character,
    Fight,
    allowance,
    ext,
    settings,
    sheet,
    side_of,
)
from app.rules.system import Command, Ctx, Event, NewEvent, Viewer


class RollInitiative(Command):
    type: Literal["fivebyfive.roll_initiative"] = "fivebyfive.roll_initiative"


class Move(Command):
    type: Literal["fivebyfive.move"] = "fivebyfive.move"
    participant: str | None = None
    x: float = Field(ge=-MAX_TABLE, le=MAX_TABLE)
    y: float = Field(ge=-MAX_TABLE, le=MAX_TABLE)


class Strike(Command):
    type: Literal["fivebyfive.strike"] = "fivebyfive.strike"
    participant: str | None = None
    target: str


class Aim(Command):
    type: Literal["fivebyfive.aim"] = "fivebyfive.aim"
    participant: str | None = None
    target: str


class Focus(Command):
    type: Literal["fivebyfive.focus"] = "fivebyfive.focus"
    participant: str | None = None
    target: str


class EndTurn(Command):
    type: Literal["fivebyfive.end_turn"] = "fivebyfive.end_turn"
    participant: str | None = None


# --- whose turn -----------------------------------------------------------------------------------


def fight_under_way(state: CampaignState) -> Fight:
    fight = ext(state).fight
    if state.active is None or fight is None:
        raise RuleError("No fight is under way: the GM starts an encounter first.")
    if fight.winner is not None:
        side = "The PCs" if fight.winner == "pc" else "The NPCs"
        raise RuleError(f"The fight is over: {side} won. The GM ends the encounter.", rule="FX-R-1")
    return fight


def current_turn(
    state: CampaignState, ref: str | None, actor: Viewer, acting: bool = True
) -> tuple[Fight, Participant, Character]:
    """The character whose turn it is, checked against the character named and who sent it.

    `acting`: they must be able to act (not so for ending a turn that a GM's change cut short).
    """
    fight = fight_under_way(state)
    pid = fight.current
    if pid is None:
        raise RuleError("Nobody's turn yet: the GM rolls Initiative for the round.", rule="FX-I-1")
    p = state.participant(pid)
    secret = p.hidden and not actor.is_gm
    if ref is not None:
        named = state.find_participant(ref)
        if named is None or named.id != pid:
            who = "the GM's" if secret else f"{p.name}'s"
            raise RuleError(f"It is {who} turn, not {clipped(ref)}'s.", rule="FX-I-1")
    if not actor.controls(pid):
        if secret:
            raise Forbidden("It is the GM's turn.")
        raise Forbidden(f"It is {p.name}'s turn, and {p.name} is not your character.")
    c = sheet(state, pid)
    if acting and not c.able:
        raise RuleError(f"{p.name} is {c.status} and cannot act.", rule="FX-H-3")
    if fight.attack is not None:
        raise RuleError("A hit is still being resolved: answer it first.", rule="FX-O-2")
    return fight, p, c


# --- Initiative -----------------------------------------------------------------------------------


MAX_TIE_ROLLS = 10  # a tie still standing after this many rolls keeps the table's order


def _settle_ties(
    group: list[str],
    roller: Roller,
    tiebreak: dict[str, tuple[int, ...]],
    record: list[dict],
    names: dict,
    depth: int = 0,
) -> list[str]:
    """FX-I-1: a tie on the same side is settled by a d6 each, highest first; tied again, roll again."""
    if len(group) < 2 or depth >= MAX_TIE_ROLLS:
        return group
    faces = roller.roll(6, len(group))
    record.append({"participants": list(group), "names": [names[p] for p in group], "faces": list(faces)})
    for pid, face in zip(group, faces, strict=True):
        tiebreak[pid] = (*tiebreak[pid], face)
    out: list[str] = []
    for face in sorted(set(faces), reverse=True):
        tied = [p for p, f in zip(group, faces, strict=True) if f == face]
        out.extend(_settle_ties(tied, roller, tiebreak, record, names, depth + 1))
    return out


def roll_initiative(state: CampaignState, cmd: RollInitiative, ctx: Ctx) -> list[NewEvent]:
    fight = fight_under_way(state)
    if fight.current is not None:
        name = state.participant(fight.current).name
        raise RuleError(f"Round {fight.round} is still going: it is {name}'s turn.", rule="FX-R-1")
    combatants = [p for p in tactics.roster(state) if tactics.able(state, p.id)]
    if {side_of(p) for p in combatants} != {"pc", "npc"}:
        raise RuleError("A fight needs a PC and an NPC who can act, each with a 5x5 sheet.", rule="FX-R-1")
    rolls: list[dict[str, Any]] = []
    for p in combatants:
        (face,) = ctx.roller.roll(6, 1)
        value = read_face(face, True)
        roll = {
            "expression": "1d5",
            "terms": [
                {"notation": "1d5", "sides": 6, "faces": [face], "values": [value], "kept": [True], "sign": 1}
            ],
            "modifier": 0,
            "total": value,
        }
        rolls.append({"participant": p.id, "name": p.name, "kind": p.kind, "roll": roll, "value": value})
    names = {p.id: p.name for p in combatants}
    value_of = {r["participant"]: r["value"] for r in rolls}
    tiebreak: dict[str, tuple[int, ...]] = {p.id: () for p in combatants}
    ties: list[dict[str, Any]] = []
    order: list[str] = []
    # Highest first; on a tie PCs before NPCs; other ties by the dice.
    for value in sorted(set(value_of.values()), reverse=True):
        for side in ("pc", "npc"):
            group = [p.id for p in combatants if value_of[p.id] == value and side_of(p) == side]
            order.extend(_settle_ties(group, ctx.roller, tiebreak, ties, names))
    round_ = fight.round + 1
    data: dict[str, Any] = {
        "round": round_,
        "rolls": rolls,
        "ties": ties,
        "order": [
            {"participant": p, "initiative": value_of[p], "tiebreak": list(tiebreak[p])} for p in order
        ],
    }
    hidden = {p.id for p in combatants if p.hidden or tactics.out_of_sight(state, p.id)}
    batch = flow.Batch(state)
    batch.add("fivebyfive.round_started", data, audience="gm" if hidden else "all")
    if hidden:
        public = {
            "round": round_,
            "rolls": [r for r in rolls if r["participant"] not in hidden],
            "ties": [t for t in ties if not hidden.intersection(t["participants"])],
            "order": [e for e in data["order"] if e["participant"] not in hidden],
        }
        batch.add("fivebyfive.initiative_shown", public)
    flow.next_turn(batch)
    return batch.events


# --- movement -------------------------------------------------------------------------------------


def move(state: CampaignState, cmd: Move, ctx: Ctx) -> list[NewEvent]:
    fight, p, _ = current_turn(state, cmd.participant, ctx.actor)
    if fight.acted:
        raise RuleError(f"{p.name} has acted: movement comes before the Offensive Action.", rule="FX-O-1")
    board = ext(state).board
    token = board.token(p.id)
    if token is None:
        raise RuleError(
            f"{p.name} has no place on the tabletop: the GM places the token first.", rule="FX-M-1"
        )
    x, y = inches(cmd.x), inches(cmd.y)
    if not (0 <= x <= board.width and 0 <= y <= board.height):
        raise RuleError(
            f"({x:g}, {y:g}) is off the {board.width:g} x {board.height:g} inch table.", rule="FX-M-1"
        )
    step = geometry.distance(token.at, (x, y))
    if step <= geometry.EPS:
        raise RuleError(f"{p.name} is already there.")
    limit = allowance(fight.initiative_of(p.id) or 0)
    left = max(0.0, limit - fight.moved)
    if step > left + geometry.EPS:
        done = f" and has moved {fight.moved:.2f}" if fight.moved else ""
        raise RuleError(
            f"Too far: {p.name} may move {limit} {'inch' if limit == 1 else 'inches'} this turn{done}; "
            f"that spot is {step:.2f} inches away ({left:.2f} left).",
            rule="FX-M-1",
        )
    for t in board.terrain:
        if t.solid and geometry.passes_through(token.at, (x, y), t.points):
            raise RuleError(f"{t.name or 'Solid terrain'} is in the way: go around it.", rule="FX-M-1")
    data = {
        "participant": p.id,
        "name": p.name,
        "from": [token.x, token.y],
        "to": [x, y],
        "distance": round(step, 2),
        "moved": min(float(limit), fight.moved + step),
        "allowance": limit,
    }
    after = REDUCERS["fivebyfive.moved"](state, Event(seq=state.seq + 1, type="fivebyfive.moved", data=data))
    public = tactics.shown(state, p.id) or tactics.shown(after, p.id)
    return [NewEvent(type="fivebyfive.moved", data=data, audience="all" if public else "gm")]


# --- the Offensive Action -------------------------------------------------------------------------


def _target(state: CampaignState, ref: str, actor: Viewer) -> Participant:
    """The character attacked; for a player, one the party cannot see does not exist."""
    p = state.find_participant(ref)
    if p is None or (not actor.is_gm and not tactics.shown(state, p.id)):
        raise RuleError(f"There is no character {quoted(ref)}.")
    return p


def attack(state: CampaignState, cmd: Strike | Aim | Focus, ctx: Ctx) -> list[NewEvent]:
    action = cmd.type.removeprefix("fivebyfive.")
    fight, p, c = current_turn(state, cmd.participant, ctx.actor)
    if fight.acted:
        raise RuleError(f"{p.name} has already made an Offensive Action this turn.", rule="FX-O-1")
    if p.hidden:
        raise RuleError(f"{p.name} is hidden: reveal {p.name} before attacking.")
    d = _target(state, cmd.target, ctx.actor)
    if d.hidden:
        raise RuleError(f"{d.name} is hidden: reveal {d.name} before attacking it.")
    refusal = tactics.reach_refusal(state, p.id, d.id, action)
    if refusal is not None:
        raise RuleError(refusal.text, rule=refusal.rule)
    need = tactics.need(state, c, action)
    roll = odds.roll(ctx.roller)
    hit = roll.success(need.needed)
    hits = (2 if roll.critical(need.needed) else 1) if hit else 0
    result = {0: "miss", 1: "hit", 2: "double_hit"}[hits]
    data: dict[str, Any] = {
        "attacker": p.id,
        "attacker_name": p.name,
        "defender": d.id,
        "defender_name": d.name,
        "action": action,
        "roll": roll.as_dict(),
        "total": roll.total,
        "result": result,
        "hits": hits,
    }
    if side_of(p) == "pc":
        data.update(need=need.as_dict(), needed=need.needed)
    defender = sheet(state, d.id)
    defence = DEFENCE_OF[action].capitalize()
    if hits and defender.able:
        double = " It is a Double Hit: roll twice." if hits == 2 else ""
        data.update(
            prompt=f"fx{state.seq + 1}-0",
            to=d.id,
            text=f"{p.name} Made a Hit with {action.capitalize()}: roll {defence} to Control it.{double}",
            choices=[
                {"key": "roll", "label": f"Roll {defence}" + (" twice" if hits == 2 else ""), "rolls": True}
            ],
        )
    batch = flow.Batch(state)
    batch.add("fivebyfive.attacked", data)
    if side_of(p) == "npc":
        batch.gm_note(f"{p.name}'s {action.capitalize()}: {need.text}.", need=need.as_dict())
    if not hits:
        flow.end_turn(batch, "attacked")
    elif not defender.able:
        # An Unconscious defender cannot Control the Hit: the attacker chooses (FX-H-1).
        for i in range(hits):
            batch.add(
                "fivebyfive.hit_controlled",
                {
                    "defender": d.id,
                    "name": d.name,
                    "hit": i + 1,
                    "of": hits,
                    "result": "uncontrolled",
                    "defence": DEFENCE_OF[action],
                    "reason": defender.status,
                },
            )
        flow.resolve_next_hit(batch)
    return batch.events


def end_turn(state: CampaignState, cmd: EndTurn, ctx: Ctx) -> list[NewEvent]:
    current_turn(state, cmd.participant, ctx.actor, acting=False)
    batch = flow.Batch(state)
    flow.end_turn(batch, "passed")
    return batch.events


__all__ = ["Aim", "EndTurn", "Focus", "Move", "RollInitiative", "Strike", "settings"]
