"""A turn (TP-T-1): draw, Strategy Phase (draw, Strategy card, Gear, Block), Action Phase, discard;
the innate Move and granted Moves in between (TP-M-2..5), climbing (TP-CL-*) and incanting (TP-N-*)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any, Literal

from pydantic import Field

from app.rules.campaign.state import CampaignState
from app.rules.errors import RuleError, quoted
from app.rules.generic.initiative import NextTurn, SetInitiative, next_turn, set_initiative
from app.rules.system import Command, Ctx, NewEvent
from app.rules.triptycho import decks, flow
from app.rules.triptycho.board import index
from app.rules.triptycho.cards import Card
from app.rules.triptycho.movement import Mover, Way, blocked, crossing, reachable, step_rule
from app.rules.triptycho.state import Entity, GrantedMove, Settings, TriptychoState, ext_of, settings_of
from app.rules.triptycho.world import acting, audience, board_of, enemy_in_section, name_of

# --- draw and the Strategy Phase ---------------------------------------------------------------------


class Draw(Command):
    type: Literal["triptycho.draw"] = "triptycho.draw"
    participant: str | None = None


def draw(state: CampaignState, cmd: Draw, ctx: Ctx) -> list[NewEvent]:
    e = acting(state, cmd.participant, ctx.actor)
    flow.on_turn(state, e, "draw")
    gained = 1 if e.incanting else 0  # TP-N-1: still incanting at the start of the turn
    events = [
        NewEvent(
            type="triptycho.turn_began",
            data={
                "participant": e.id,
                "name": name_of(state, e.id),
                "charge_gained": gained,
                "charges": e.charges + gained,
            },
            audience=audience(state, e),
        )
    ]
    if e.uses_deck:
        events += decks.draw_events(state, e, 1, ctx.roller)
    return events


class Strategy(Command):
    type: Literal["triptycho.strategy"] = "triptycho.strategy"
    participant: str | None = None
    choice: Literal["draw", "card", "gear"]
    card: str | None = None
    note: str = Field(default="", max_length=120)


def strategy(state: CampaignState, cmd: Strategy, ctx: Ctx) -> list[NewEvent]:
    e = acting(state, cmd.participant, ctx.actor)
    flow.on_turn(state, e, "strategy")
    data: dict[str, Any] = {
        "participant": e.id,
        "name": name_of(state, e.id),
        "choice": cmd.choice,
        "note": cmd.note,
    }
    events: list[NewEvent] = []
    if cmd.choice == "card":
        if not cmd.card:
            raise RuleError("Say which Strategy card to play.")
        instance, card = hand_card(e, cmd.card)
        if card.kind != "strategy":
            raise RuleError(f"{card.name} is not a Strategy card.", rule="TP-T-1")
        data.update(card=card.name, instance=instance, entries=card.entries(), text=card.text)
        if card.movement:
            events.append(_grant(state, e, card))
    events.insert(0, NewEvent(type="triptycho.strategy_used", data=data, audience=audience(state, e)))
    if cmd.choice == "draw" and e.uses_deck:
        events += decks.draw_events(state, e, 1, ctx.roller, "Strategy Phase")
    return events


def hand_card(e: Entity, ref: str) -> tuple[str | None, Card]:
    """(the copy's instance id or None, the card) for a card the entity may play now."""
    if not e.uses_deck:
        return None, e.card(ref)
    if ref in e.hand:
        return ref, e.card(ref)
    card = e.card(ref)
    for inst in e.hand:
        if inst.split("#", 1)[0] == card.id:
            return inst, card
    raise RuleError(f"{card.name} is not in your hand.", rule="TP-T-1")


def _grant(state: CampaignState, e: Entity, card: Card) -> NewEvent:
    movement = card.movement
    assert movement is not None  # only a card that grants a movement is granted one
    kind, n = movement
    move = GrantedMove(
        id=f"mv{state.seq + 1}", entity=e.id, kind=kind, n=n, height=card.height or 0, source=card.name
    )
    return NewEvent(
        type="triptycho.move_granted",
        data={"move": move.model_dump(), "name": name_of(state, e.id)},
        audience=audience(state, e),
    )


class RaiseBlock(Command):
    type: Literal["triptycho.block"] = "triptycho.block"
    participant: str | None = None
    toward: str


def raise_block(state: CampaignState, cmd: RaiseBlock, ctx: Ctx) -> list[NewEvent]:
    e = acting(state, cmd.participant, ctx.actor)
    flow.on_turn(state, e, "strategy")
    board = board_of(ext_of(state))
    if not e.placed:
        raise RuleError("Place the character on the map first.")
    if index(board).edge(e.section, cmd.toward) is None:  # type: ignore[arg-type]  # placed: it has a section
        raise RuleError("Block a border between your section and a neighbouring one.", rule="TP-BL-1")
    for cond in ("immobilized", "defenseless"):
        if e.has(cond):
            raise RuleError(f"A {cond} entity cannot hold a Block.", rule="TP-BL-2")
    return [
        NewEvent(
            type="triptycho.block_raised",
            data={
                "participant": e.id,
                "name": name_of(state, e.id),
                "section": e.section,
                "toward": cmd.toward,
            },
            audience=audience(state, e),
        )
    ]


class LowerBlock(Command):
    type: Literal["triptycho.lower_block"] = "triptycho.lower_block"
    participant: str | None = None


def lower_block(state: CampaignState, cmd: LowerBlock, ctx: Ctx) -> list[NewEvent]:
    e = acting(state, cmd.participant, ctx.actor)
    if e.block is None:
        raise RuleError(f"{name_of(state, e.id)} is not blocking.")
    return [
        NewEvent(
            type="triptycho.block_lowered",
            data={"participant": e.id, "name": name_of(state, e.id), "why": "lowered"},
            audience=audience(state, e),
        )
    ]


class Pass(Command):
    """Skip the rest of the Strategy Phase or the Action Phase."""

    type: Literal["triptycho.pass"] = "triptycho.pass"
    participant: str | None = None


def pass_phase(state: CampaignState, cmd: Pass, ctx: Ctx) -> list[NewEvent]:
    e = acting(state, cmd.participant, ctx.actor)
    flow.on_turn(state, e, "strategy", "action")
    phase = ext_of(state).turn.phase
    return [
        NewEvent(
            type="triptycho.phase_passed",
            data={"participant": e.id, "name": name_of(state, e.id), "phase": phase},
            audience=audience(state, e),
        )
    ]


class Incant(Command):
    """Spend the Action Phase to begin incanting (TP-N-1)."""

    type: Literal["triptycho.incant"] = "triptycho.incant"
    participant: str | None = None


def incant(state: CampaignState, cmd: Incant, ctx: Ctx) -> list[NewEvent]:
    e = acting(state, cmd.participant, ctx.actor)
    flow.on_turn(state, e, "action")
    if e.climbing is not None:
        raise RuleError("A climbing entity cannot incant.", rule="TP-CL-2")
    clear = enemy_in_section(ext_of(state), e) is None  # TP-D-4 is checked now, when it begins
    return [
        NewEvent(
            type="triptycho.incant_began",
            data={"participant": e.id, "name": name_of(state, e.id), "clear": clear, "charges": e.charges},
            audience=audience(state, e),
        )
    ]


class Discard(Command):
    """End the turn: discard down to your hand size (TP-T-1)."""

    type: Literal["triptycho.discard"] = "triptycho.discard"
    participant: str | None = None
    cards: tuple[str, ...] = Field(default=(), max_length=30)


def discard(state: CampaignState, cmd: Discard, ctx: Ctx) -> list[NewEvent]:
    e = acting(state, cmd.participant, ctx.actor)
    flow.on_turn(state, e, "strategy", "action", "discard")
    ext = ext_of(state)
    if ext.attacks:
        raise RuleError("An attack is waiting on a Reaction: finish it first.", rule="TP-T-2")
    size = settings_of(state).hand_size
    over = max(0, len(e.hand) - size)
    chosen = []
    hand = list(e.hand)
    for ref in cmd.cards:
        inst, _ = hand_card(e.model_copy(update={"hand": tuple(hand)}), ref)
        if inst is None:  # its cards are a repertoire, never in hand
            raise RuleError(f"{name_of(state, e.id)} has no hand to discard from.", rule="TP-T-1")
        hand.remove(inst)
        chosen.append(inst)
    if len(chosen) != over:
        raise RuleError(
            f"Discard {over} card{'s' if over != 1 else ''} to come down to {size}."
            if over
            else f"Your hand is within {size} cards: keep them all.",
            rule="TP-T-1",
        )
    events: list[NewEvent] = []
    if chosen:
        events.append(
            NewEvent(
                type="triptycho.discarded",
                data={"participant": e.id, "name": name_of(state, e.id), "cards": chosen},
                audience=audience(state, e),
            )
        )
    lost = e.charges if not e.incanting and e.charges else 0  # TP-N-3
    events.append(
        NewEvent(
            type="triptycho.turn_ended",
            data={"participant": e.id, "name": name_of(state, e.id), "charges_lost": lost},
            audience=audience(state, e),
        )
    )
    if state.initiative.entries and state.initiative.current == e.id:
        events += advance(state, ctx)
    return events


class Next(Command):
    """Move the turn order on (the GM, or the player whose turn it is)."""

    type: Literal["triptycho.next_turn"] = "triptycho.next_turn"


def advance(state: CampaignState, ctx: Ctx) -> list[NewEvent]:
    """The generic turn advance, told only to the players whose characters see who acts next: the
    others read "the GM's turn" (TP-I-6)."""
    events = next_turn(state, NextTurn(), ctx)
    first = events[0]
    pid = state.initiative.entries[first.data["turn"]].participant
    e = ext_of(state).entity(pid)
    if e is None or first.data.get("participant") is None:
        return events
    told = audience(state, e)
    if told == "all":
        return events
    masked = first.model_copy(update={"data": {**first.data, "participant": None, "name": None}})
    noted = NewEvent(
        type="generic.turn_noted", data={"participant": pid, "name": name_of(state, pid)}, audience=told
    )
    return [masked, noted, *events[1:]]


def next_turn_cmd(state: CampaignState, cmd: Next, ctx: Ctx) -> list[NewEvent]:
    return advance(state, ctx)


class Order(SetInitiative):
    """Set the turn order by hand (the GM): highest first."""

    type: Literal["triptycho.order"] = "triptycho.order"  # type: ignore[assignment]  # its own command type


def order(state: CampaignState, cmd: Order, ctx: Ctx) -> list[NewEvent]:
    events = set_initiative(state, cmd, ctx)
    ext = ext_of(state)
    who = [e for item in cmd.entries if (e := ext.entity(state.participant(item.participant).id))]
    if any(audience(state, e) != "all" for e in who):
        events = [e.model_copy(update={"audience": "gm"}) for e in events]
    return events


# --- moving ---------------------------------------------------------------------------------------


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
