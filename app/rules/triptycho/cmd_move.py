"""Moving in a turn: the innate Move and granted Moves (TP-M-2..5), climbing, letting go and diving
(TP-CL-*), and why a move is refused."""

from __future__ import annotations

from itertools import pairwise
from typing import Literal

from pydantic import Field

from app.rules.campaign.state import CampaignState
from app.rules.contract.commands import Command, Ctx
from app.rules.contract.envelope import NewEvent
from app.rules.errors import RuleError, quoted
from app.rules.triptycho import flow
from app.rules.triptycho.board import index
from app.rules.triptycho.movement import Mover, Way, blocked, crossing, reachable, step_rule
from app.rules.triptycho.state import Entity, GrantedMove, Settings, TriptychoState, ext_of, settings_of
from app.rules.triptycho.world import acting, audience, board_of, name_of


class Move(Command):
    type: Literal["triptycho.move"] = "triptycho.move"
    participant: str | None = None
    to: str
    move: str | None = None  # "innate", a granted Move's id, or left out for the first available
    path: tuple[str, ...] | None = Field(default=None, max_length=30)


def mover_of(granted: GrantedMove | None) -> Mover:
    if granted is None:
        return Mover("move", 1, 0)
    return Mover(granted.kind, granted.n, granted.height)


def why_not(ext: TriptychoState, e: Entity, mover: Mover, to: str, settings: Settings) -> RuleError:
    """The plainest reason a Move cannot end in `to`."""
    board = board_of(ext)
    idx = index(board)
    if to not in idx.sections:
        return RuleError(f"There is no section {quoted(to)} on the map.")
    here = e.section
    label = idx.sections[to].label
    if mover.kind == "teleport":
        return RuleError(f"{label} is beyond Teleport {mover.n}.", rule="TP-M-4")
    edge = idx.edge(here, to)  # type: ignore[arg-type]  # a mover is placed
    if edge is not None:
        rule, _ = step_rule(board, mover, here, to, settings)  # type: ignore[arg-type]  # a mover is placed
        if rule == "TP-M-3":
            return RuleError("A wall stands in the way: only Phase passes walls.", rule="TP-M-3")
        if rule == "TP-M-4":
            return RuleError(
                f"That border rises {abs(edge.rise)}: climb it, or use a Move with Height {abs(edge.rise)}, "
                f"Fly, or a Phase or Teleport of at least {abs(edge.rise)}.",
                rule="TP-M-4",
            )
        why = blocked(ext, e, mover.kind, here, to)  # type: ignore[arg-type]  # a mover is placed
        if why:
            return RuleError("An enemy blocks leaving across that border.", rule=why)
    word = mover.kind.capitalize()
    return RuleError(f"{word} {mover.n} cannot get to {label} from here.", rule="TP-M-2")


def move(state: CampaignState, cmd: Move, ctx: Ctx) -> list[NewEvent]:
    e = acting(state, cmd.participant, ctx.actor)
    ext = ext_of(state)
    settings = settings_of(state)
    board_of(ext)
    if not e.placed:
        raise RuleError("Place the character on the map first.")
    granted = flow.take_move(state, e, cmd.move, ("move", "phase", "fly", "teleport"))
    mover = mover_of(granted)
    if e.has("immobilized"):
        raise RuleError(f"{name_of(state, e.id)} is Immobilized: no Move.", rule="TP-T-5")
    if e.climbing is not None and mover.kind in ("move", "phase"):
        raise RuleError("You are climbing: climb on, or let go and fall.", rule="TP-CL-3")
    if cmd.to == e.section:
        raise RuleError("You are already there.")
    way: Way | None
    if cmd.path:
        way = _chosen_way(ext, e, mover, settings, cmd.path, cmd.to)
    else:
        way = reachable(ext, e, mover, settings).get(cmd.to)
    if way is None:
        raise why_not(ext, e, mover, cmd.to, settings)
    after = e.model_copy(update={"sections": (cmd.to,), "climbing": None})
    events = [
        NewEvent(
            type="triptycho.moved",
            data={
                "participant": e.id,
                "name": name_of(state, e.id),
                "path": list(way.path),
                "kind": mover.kind,
                "move": granted.id if granted else "innate",
                "falls": list(way.falls),
            },
            audience=flow.moved_audience(state, e, after),
        )
    ]
    return events + flow.fall(state, settings, after, way.fall, "dropped down a height border", ctx.roller)


def _chosen_way(
    ext: TriptychoState, e: Entity, mover: Mover, settings: Settings, path: tuple[str, ...], to: str
) -> Way:
    """A path the player traced: every step allowed, and no more than the Move pays for."""
    if mover.kind == "teleport" or path[0] != e.section or path[-1] != to or len(set(path)) != len(path):
        raise RuleError("A path runs from your section to where you stop, once through each.", rule="TP-M-2")
    cost, falls = 0, []
    for a, b in pairwise(path):
        crossed = crossing(ext, e, mover, settings, a, b) if index(ext.board).edge(a, b) else None  # type: ignore[arg-type]  # move() checked the board
        if crossed is None:
            raise why_not(ext, e.model_copy(update={"sections": (a,)}), mover, b, settings)
        cost += crossed[0]
        if crossed[1]:
            falls.append(crossed[1])
    if cost > mover.n:
        raise RuleError(f"That path costs {cost}; the {mover.kind.capitalize()} is {mover.n}.", rule="TP-M-2")
    return Way(tuple(path), cost, tuple(falls))


class Climb(Command):
    """Spend a Move on an Acrobatics check against a rising border: each success climbs 1 (TP-CL-1)."""

    type: Literal["triptycho.climb"] = "triptycho.climb"
    participant: str | None = None
    toward: str | None = None
    move: str | None = None


def climb(state: CampaignState, cmd: Climb, ctx: Ctx) -> list[NewEvent]:
    e = acting(state, cmd.participant, ctx.actor)
    ext = ext_of(state)
    settings = settings_of(state)
    board = board_of(ext)
    if not e.placed:
        raise RuleError("Place the character on the map first.")
    if e.has("immobilized"):
        raise RuleError(f"{name_of(state, e.id)} is Immobilized: no Move.", rule="TP-T-5")
    if e.climbing is not None:
        frm, to, progress = e.climbing.frm, e.climbing.to, e.climbing.progress
        if cmd.toward not in (None, to):
            raise RuleError("Finish this climb (or let go) before climbing elsewhere.", rule="TP-CL-2")
    else:
        if not cmd.toward:
            raise RuleError("Say which border to climb.")
        frm, to, progress = e.sections[0], cmd.toward, 0  # placed: it has a section
        edge = index(board).edge(frm, to)
        if edge is None:
            raise RuleError("Climb a border of your own section.", rule="TP-CL-1")
        if edge.kind == "hard":
            raise RuleError("A wall cannot be climbed through: only Phase passes walls.", rule="TP-M-3")
        if edge.rise <= 0:
            raise RuleError("That border does not rise: just Move across it.", rule="TP-CL-1")
        if blocked(ext, e, "move", frm, to):
            raise RuleError("An enemy blocks leaving across that border.", rule="TP-BL-1")
    granted = flow.take_move(state, e, cmd.move, ("move",))
    rise = index(board).edge(frm, to).rise  # type: ignore[union-attr]  # a climb is always along a border
    check = flow.acrobatics(e, flow.climb_dice(ext, settings, frm, to), ctx.roller)
    progress += 1 if check["success"] else 0
    done = progress >= rise
    data = {
        "participant": e.id,
        "name": name_of(state, e.id),
        "frm": frm,
        "to": to,
        "height": rise,
        "progress": progress,
        "done": done,
        "move": granted.id if granted else "innate",
        **check,
    }
    after = e.model_copy(update={"sections": (to,)}) if done else e
    return [NewEvent(type="triptycho.climbed", data=data, audience=flow.moved_audience(state, e, after))]


class LetGo(Command):
    """Stop climbing by falling, as a Move (TP-CL-3)."""

    type: Literal["triptycho.let_go"] = "triptycho.let_go"
    participant: str | None = None
    move: str | None = None


def let_go(state: CampaignState, cmd: LetGo, ctx: Ctx) -> list[NewEvent]:
    e = acting(state, cmd.participant, ctx.actor)
    if e.climbing is None:
        raise RuleError(f"{name_of(state, e.id)} is not climbing.", rule="TP-CL-3")
    granted = flow.take_move(state, e, cmd.move, ("move",))
    events = [
        NewEvent(
            type="triptycho.let_go",
            data={
                "participant": e.id,
                "name": name_of(state, e.id),
                "move": granted.id if granted else "innate",
            },
            audience=audience(state, e),
        )
    ]
    return events + flow.fall(state, settings_of(state), e, e.climbing.progress, "let go", ctx.roller)


class Dive(Command):
    """Go under the water of a water section, or come up (TP-W-4)."""

    type: Literal["triptycho.dive"] = "triptycho.dive"
    participant: str | None = None
    underwater: bool = True


def dive(state: CampaignState, cmd: Dive, ctx: Ctx) -> list[NewEvent]:
    e = acting(state, cmd.participant, ctx.actor)
    board = board_of(ext_of(state))
    if not e.placed or not index(board).sections[e.section].water:  # type: ignore[index]  # placed: it has a section
        raise RuleError("Only a water section has an underwater.", rule="TP-W-4")
    if e.underwater == cmd.underwater:
        raise RuleError(f"{name_of(state, e.id)} is {'already' if e.underwater else 'not'} underwater.")
    return [
        NewEvent(
            type="triptycho.dived",
            data={"participant": e.id, "name": name_of(state, e.id), "underwater": cmd.underwater},
            audience=audience(state, e),
        )
    ]
