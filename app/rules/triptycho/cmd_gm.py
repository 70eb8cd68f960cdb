"""The GM's hand during play: placing and pushing entities, conditions, damage, far blocks, decks,
Incantation charges, granted Moves, Acrobatics checks and initiative."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.rules.campaign.state import CampaignState, InitiativeEntry
from app.rules.contract.commands import Command, Ctx
from app.rules.contract.envelope import NewEvent
from app.rules.errors import InputError, RuleError, quoted
from app.rules.triptycho import decks, flow, odds
from app.rules.triptycho.board import index
from app.rules.triptycho.cards import parse_dice
from app.rules.triptycho.cmd_maps import dice_ok
from app.rules.triptycho.state import (
    Condition,
    MoveKind,
    ext_of,
    settings_of,
)
from app.rules.triptycho.world import audience, board_of, entity_ref, name_of


class Place(Command):
    type: Literal["triptycho.place"] = "triptycho.place"
    participant: str
    sections: tuple[str, ...] = Field(default=(), max_length=12)  # none: take it off the map


def place(state: CampaignState, cmd: Place, ctx: Ctx) -> list[NewEvent]:
    ext = ext_of(state)
    e = entity_ref(state, cmd.participant)
    if cmd.sections:
        board = board_of(ext)
        idx = index(board)
        for sid in cmd.sections:
            if sid not in idx.sections:
                raise RuleError(f"There is no section {quoted(sid)} on the map.")
        if len(set(cmd.sections)) != len(cmd.sections):
            raise RuleError("Name each section once.")
    after = e.model_copy(update={"sections": tuple(cmd.sections)})
    return [
        NewEvent(
            type="triptycho.placed",
            data={"participant": e.id, "name": name_of(state, e.id), "sections": list(cmd.sections)},
            audience=flow.moved_audience(state, e, after),
        )
    ]


class Push(Command):
    """The GM moves an entity by force (a shove, a gust): no Move spent, blocks ignored, falls hurt."""

    type: Literal["triptycho.push"] = "triptycho.push"
    participant: str
    to: str


def push(state: CampaignState, cmd: Push, ctx: Ctx) -> list[NewEvent]:
    ext = ext_of(state)
    settings = settings_of(state)
    e = entity_ref(state, cmd.participant)
    board = board_of(ext)
    if not e.placed:
        raise RuleError("Place the character on the map first.")
    edge = index(board).edge(e.section, cmd.to)  # type: ignore[arg-type]  # placed: it has a section
    if edge is None:
        raise RuleError("A push moves an entity into a neighbouring section.", rule="TP-M-1")
    if edge.kind == "hard":
        raise RuleError("Nobody is pushed through a wall.", rule="TP-M-3")
    if edge.rise > 0:
        raise RuleError("A push cannot lift an entity up a height border.", rule="TP-M-4")
    after = e.model_copy(update={"sections": (cmd.to,), "climbing": None})
    events = [
        NewEvent(
            type="triptycho.moved",
            data={
                "participant": e.id,
                "name": name_of(state, e.id),
                "path": [e.section, cmd.to],
                "kind": "push",
                "move": None,
                "falls": [-edge.rise] if edge.rise else [],
            },
            audience=flow.moved_audience(state, e, after),
        )
    ]
    return events + flow.fall(state, settings, after, -edge.rise, "pushed over the edge", ctx.roller)


class SetCondition(Command):
    type: Literal["triptycho.condition"] = "triptycho.condition"
    participant: str
    condition: Condition
    on: bool = True


def set_condition(state: CampaignState, cmd: SetCondition, ctx: Ctx) -> list[NewEvent]:
    e = entity_ref(state, cmd.participant)
    if (cmd.condition in e.conditions) == cmd.on:
        raise RuleError(f"{name_of(state, e.id)} is {'already' if cmd.on else 'not'} {cmd.condition}.")
    # TP-BL-2: a block falls when its entity becomes Immobilized or Defenseless.
    drops = cmd.on and cmd.condition in ("immobilized", "defenseless") and e.block is not None
    return [
        NewEvent(
            type="triptycho.condition_changed",
            data={
                "participant": e.id,
                "name": name_of(state, e.id),
                "condition": cmd.condition,
                "on": cmd.on,
                "lowers_block": drops,
            },
            audience=audience(state, e),
        )
    ]


class Damage(Command):
    type: Literal["triptycho.damage"] = "triptycho.damage"
    participant: str
    amount: int = Field(ge=-10_000, le=10_000)  # below 0 heals
    cause: str = Field(default="the GM", max_length=60)


def damage(state: CampaignState, cmd: Damage, ctx: Ctx) -> list[NewEvent]:
    e = entity_ref(state, cmd.participant)
    if cmd.amount == 0:
        raise RuleError("Give an amount of damage (or below 0 to heal).")
    if cmd.amount < 0 and e.damage == 0:
        raise RuleError(f"{name_of(state, e.id)} has no damage to heal.")
    amount = max(cmd.amount, -e.damage)
    return flow.harm(state, settings_of(state), e, amount, cmd.cause, ctx.roller)


class FarBlock(Command):
    """A block at a distance from an ability (TP-BL-4): both sides of a border, until lowered."""

    type: Literal["triptycho.far_block"] = "triptycho.far_block"
    a: str
    b: str
    by: str | None = None
    note: str = Field(default="", max_length=120)


class FarUnblock(Command):
    type: Literal["triptycho.far_unblock"] = "triptycho.far_unblock"
    block: str


def far_block(state: CampaignState, cmd: FarBlock, ctx: Ctx) -> list[NewEvent]:
    ext = ext_of(state)
    board = board_of(ext)
    if index(board).edge(cmd.a, cmd.b) is None:
        raise RuleError(f"{quoted(cmd.a)} and {quoted(cmd.b)} do not share a border.", rule="TP-M-1")
    by = entity_ref(state, cmd.by).id if cmd.by else None
    if any({f.a, f.b} == {cmd.a, cmd.b} for f in ext.far_blocks):
        raise RuleError("That border is already blocked from a distance.", rule="TP-BL-4")
    block = {"id": f"fb{state.seq + 1}", "a": cmd.a, "b": cmd.b, "by": by, "note": cmd.note}
    return [NewEvent(type="triptycho.far_block_raised", data={"block": block})]


def far_unblock(state: CampaignState, cmd: FarUnblock, ctx: Ctx) -> list[NewEvent]:
    ext = ext_of(state)
    if not any(f.id == cmd.block for f in ext.far_blocks):
        raise RuleError(f"There is no block {quoted(cmd.block)}.")
    return [NewEvent(type="triptycho.far_block_lowered", data={"block": cmd.block})]


class Deal(Command):
    """Shuffle each deck and deal the starting hands (TP-T-1)."""

    type: Literal["triptycho.deal"] = "triptycho.deal"
    participants: tuple[str, ...] | None = None


def deal(state: CampaignState, cmd: Deal, ctx: Ctx) -> list[NewEvent]:
    ext = ext_of(state)
    settings = settings_of(state)
    who = [entity_ref(state, r) for r in cmd.participants] if cmd.participants else list(ext.entities)
    who = [e for e in who if e.uses_deck and e.deck_list]
    if not who:
        raise RuleError("Nobody has a deck to deal from: give a character cards and a deck first.")
    events: list[NewEvent] = []
    for e in who:
        shuffled = decks.shuffle_event(state, e, decks.instances(e), ctx.roller, "deal")
        events.append(shuffled)
        fresh = e.model_copy(update={"deck": tuple(shuffled.data["order"]), "hand": (), "discard": ()})
        events += decks.draw_events(state, fresh, settings.starting_hand, ctx.roller, "starting hand")
        events.append(
            NewEvent(
                type="triptycho.hand_dealt",
                data={"participant": e.id, "name": name_of(state, e.id), "count": settings.starting_hand},
                audience=audience(state, e),
            )
        )
    return events


class Charge(Command):
    """Incantation charges from an effect (TP-N-4)."""

    type: Literal["triptycho.charge"] = "triptycho.charge"
    participant: str
    charges: int = Field(default=1, ge=1, le=20)


def charge(state: CampaignState, cmd: Charge, ctx: Ctx) -> list[NewEvent]:
    e = entity_ref(state, cmd.participant)
    ext = ext_of(state)
    before_action = ext.turn.entity == e.id and ext.turn.phase in ("strategy", "action")
    return [
        NewEvent(
            type="triptycho.charged",
            data={
                "participant": e.id,
                "name": name_of(state, e.id),
                "charges": cmd.charges,
                "before_action": before_action,
            },
            audience=audience(state, e),
        )
    ]


class GrantMove(Command):
    """A Move, Phase, Fly or Teleport another entity's card grants (TP-M-2: it does not count against
    the innate Move)."""

    type: Literal["triptycho.grant_move"] = "triptycho.grant_move"
    participant: str
    kind: MoveKind = "move"
    n: int = Field(default=1, ge=1, le=20)
    height: int = Field(default=0, ge=0, le=50)
    source: str = Field(default="", max_length=60)


def grant_move(state: CampaignState, cmd: GrantMove, ctx: Ctx) -> list[NewEvent]:
    e = entity_ref(state, cmd.participant)
    move = {
        "id": f"mv{state.seq + 1}",
        "entity": e.id,
        "kind": cmd.kind,
        "n": cmd.n,
        "height": cmd.height,
        "source": cmd.source,
    }
    return [
        NewEvent(
            type="triptycho.move_granted",
            data={"move": move, "name": name_of(state, e.id)},
            audience=audience(state, e),
        )
    ]


class Acrobatics(Command):
    """An opposed Acrobatics roll the GM calls for (TP-A-1); the GM rules on a failure."""

    type: Literal["triptycho.acrobatics"] = "triptycho.acrobatics"
    participant: str
    gm_dice: str | None = Field(default=None, max_length=20)
    label: str = Field(default="", max_length=60)


def acrobatics(state: CampaignState, cmd: Acrobatics, ctx: Ctx) -> list[NewEvent]:
    e = entity_ref(state, cmd.participant)
    gm_dice = cmd.gm_dice or settings_of(state).gm_acrobatics
    if not dice_ok(gm_dice):
        raise InputError(f"{quoted(gm_dice)} is not a dice entry: write it like 1d6.")
    check = flow.acrobatics(e, gm_dice, ctx.roller)
    return [
        NewEvent(
            type="triptycho.acrobatics_rolled",
            data={"participant": e.id, "name": name_of(state, e.id), "label": cmd.label, **check},
            audience=audience(state, e),
        )
    ]


class RollInitiative(Command):
    """Roll each character's Initiative dice; highest first, PCs winning ties (TP-T-1)."""

    type: Literal["triptycho.initiative"] = "triptycho.initiative"
    participants: tuple[str, ...] | None = None


def roll_initiative(state: CampaignState, cmd: RollInitiative, ctx: Ctx) -> list[NewEvent]:
    ext = ext_of(state)
    if cmd.participants:
        who = [entity_ref(state, r) for r in cmd.participants]
    elif state.active and state.active.participants:
        who = [e for e in ext.entities if e.id in state.active.participants]
    else:
        who = [e for e in ext.entities if e.placed]
    if not who:
        raise RuleError("Set up and place the characters before rolling initiative.")
    rolls: list[dict[str, Any]] = []
    for e in who:
        result = odds.roll_sizes(parse_dice(e.initiative), ctx.roller)
        assert result is not None
        rolls.append(
            {
                "participant": e.id,
                "name": name_of(state, e.id),
                "roll": result.as_dict(),
                "value": result.total,
            }
        )
    pcs = {e.id for e in who if (p := state.find_participant(e.id)) and p.kind == "pc"}
    ordered = sorted(rolls, key=lambda r: (-r["value"], r["participant"] not in pcs))
    by_id = {e.id: e for e in who}
    events = [
        NewEvent(
            type="triptycho.initiative_rolled", data=r, audience=audience(state, by_id[r["participant"]])
        )
        for r in rolls
    ]
    entries = [InitiativeEntry(participant=r["participant"], value=r["value"]).model_dump() for r in ordered]
    # The order names everyone in it: it is public only when every player sees every one (TP-I-6).
    public = all(audience(state, e) == "all" for e in who)
    events.append(
        NewEvent(type="generic.initiative_set", data={"entries": entries}, audience="all" if public else "gm")
    )
    return events
