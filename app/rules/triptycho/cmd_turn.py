"""A turn (TP-T-1): draw, Strategy Phase (draw, Strategy card, Gear, Block), Action Phase, discard, and
incanting (TP-N-*). Moving in between (TP-M-2..5, TP-CL-*) is in `cmd_move`."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.rules.campaign.state import CampaignState
from app.rules.errors import RuleError
from app.rules.generic.initiative import NextTurn, SetInitiative, next_turn, set_initiative
from app.rules.system import Command, Ctx, NewEvent
from app.rules.triptycho import decks, flow
from app.rules.triptycho.board import index
from app.rules.triptycho.cards import Card
from app.rules.triptycho.state import Entity, GrantedMove, ext_of, settings_of
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
