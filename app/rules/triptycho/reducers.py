"""Reducers for `triptycho.*` events (and the campaign events Triptycho follows): no checks, no dice.

The section maps' reducers are in `map_reducers`, the campaign events' in `follows`; the table here
names them all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.rules.campaign.state import CampaignState, close_prompt, open_prompt
from app.rules.system import Event
from app.rules.triptycho import events as _payloads  # noqa: F401  (registers this part's payload models)
from app.rules.triptycho.follows import encounter_ended, encounter_started, participant_removed
from app.rules.triptycho.map_reducers import (
    border_changed,
    map_deleted,
    map_loaded,
    map_saved,
    section_changed,
)
from app.rules.triptycho.state import (
    Attack,
    Block,
    Climb,
    Entity,
    TriptychoState,
    Turn,
    ext_of,
    put_entity,
    with_ext,
)

Reducer = Callable[[CampaignState, Event], CampaignState]


def _ext(fn: Callable[[TriptychoState, Any], TriptychoState]) -> Reducer:
    """A reducer that only changes Triptycho's own state."""

    def reducer(state: CampaignState, event: Event) -> CampaignState:
        return with_ext(state, fn(ext_of(state), event.payload))

    return reducer


def _entity(fn: Callable[[Entity, Any], dict[str, Any]]) -> Reducer:
    """A reducer that changes one entity (named by its payload's participant)."""

    def reducer(state: CampaignState, event: Event) -> CampaignState:
        ext = ext_of(state)
        e = ext.entity(event.payload.participant)
        if e is None:
            return state
        return with_ext(state, put_entity(ext, e.model_copy(update=fn(e, event.payload))))

    return reducer


def _turn(ext: TriptychoState, **changes: Any) -> TriptychoState:
    return ext.model_copy(update={"turn": ext.turn.model_copy(update=changes)})


# --- characters ---------------------------------------------------------------------------------------


def sheet_set(ext: TriptychoState, d: Any) -> TriptychoState:
    sheet = dict(d.sheet)
    old = ext.entity(sheet["id"])
    kept = old.model_dump(exclude=set(sheet)) if old else {}
    # Copies of cards the new sheet no longer has leave the deck, hand and discard pile.
    ids = {c["id"] for c in sheet["cards"]}
    for pile in ("deck", "hand", "discard"):
        if pile in kept:
            kept[pile] = [i for i in kept[pile] if i.split("#", 1)[0] in ids]
    return put_entity(ext, Entity.model_validate({**kept, **sheet}))


def placed(e: Entity, d: Any) -> dict[str, Any]:
    sections = tuple(d.sections)
    block = e.block if e.block and e.block.section in sections else None
    return {"sections": sections, "climbing": None, "block": block, "underwater": False}


def moved(e: Entity, d: Any) -> dict[str, Any]:
    to = d.path[-1]
    changes: dict[str, Any] = {"sections": (to,), "climbing": None, "underwater": False}
    if e.block is not None and e.block.section != to:
        changes["block"] = None  # TP-BL-2: leaving the section lowers the block
    return changes


def moved_turn(state: CampaignState, event: Event) -> CampaignState:
    return _spend_move(state, event.payload.move, event.payload.participant)


def _spend_move(state: CampaignState, move: str | None, pid: str) -> CampaignState:
    ext = ext_of(state)
    if move == "innate":
        return with_ext(state, _turn(ext, moved=True))
    if move:
        return with_ext(state, _turn(ext, moves=tuple(m for m in ext.turn.moves if m.id != move)))
    return state


def climbed(e: Entity, d: Any) -> dict[str, Any]:
    if d.done:
        return {"sections": (d.to,), "climbing": None, "block": None}
    if d.progress == 0:
        return {}
    return {"climbing": Climb(frm=d.frm, to=d.to, progress=d.progress)}


def damaged(e: Entity, d: Any) -> dict[str, Any]:
    changes: dict[str, Any] = {"damage": max(0, e.damage + d.amount)}
    if d.stops_incanting:
        changes.update(incanting=False, charges=0)  # TP-N-5
    return changes


def condition_changed(e: Entity, d: Any) -> dict[str, Any]:
    conds = set(e.conditions)
    (conds.add if d.on else conds.discard)(d.condition)
    changes: dict[str, Any] = {"conditions": tuple(sorted(conds))}
    if d.lowers_block:
        changes["block"] = None  # TP-BL-2
    return changes


def far_block_raised(ext: TriptychoState, d: Any) -> TriptychoState:
    return ext.model_copy(update={"far_blocks": (*ext.far_blocks, d.block)})


def far_block_lowered(ext: TriptychoState, d: Any) -> TriptychoState:
    return ext.model_copy(update={"far_blocks": tuple(f for f in ext.far_blocks if f.id != d.block)})


def move_granted(ext: TriptychoState, d: Any) -> TriptychoState:
    return _turn(ext, moves=(*ext.turn.moves, d.move))


# --- decks ---------------------------------------------------------------------------------------------


def deck_shuffled(e: Entity, d: Any) -> dict[str, Any]:
    changes: dict[str, Any] = {"deck": tuple(d.order)}
    if d.why == "deal":
        changes.update(hand=(), discard=())
    elif d.why == "reshuffle":
        changes["discard"] = ()
    return changes


def cards_drawn(e: Entity, d: Any) -> dict[str, Any]:
    drawn = tuple(d.cards)
    return {"hand": (*e.hand, *drawn), "deck": tuple(c for c in e.deck if c not in drawn)}


def discarded(e: Entity, d: Any) -> dict[str, Any]:
    gone = list(d.cards)
    return {"hand": tuple(c for c in e.hand if c not in gone), "discard": (*e.discard, *gone)}


def _play(e: Entity, instance: str | None) -> dict[str, Any]:
    if instance is None or instance not in e.hand:
        return {}
    return {"hand": tuple(c for c in e.hand if c != instance), "discard": (*e.discard, instance)}


# --- the turn --------------------------------------------------------------------------------------------


def turn_advanced(state: CampaignState, event: Event) -> CampaignState:
    """A new turn (the generic initiative moved on): it starts at the draw."""
    ext = ext_of(state)
    current = state.initiative.current
    return with_ext(
        state, ext.model_copy(update={"turn": Turn(entity=current if ext.entity(current or "") else None)})
    )


def turn_began(state: CampaignState, event: Event) -> CampaignState:
    d = event.payload
    ext = ext_of(state)
    e = ext.entity(d.participant)
    assert e is not None
    if d.charge_gained:  # TP-N-1: the incantation yields its charge and must be begun again
        e = e.model_copy(update={"charges": d.charges, "incanting": False})
    ext = put_entity(ext, e)
    return with_ext(state, _turn(ext, phase="strategy", incant_window=e.charges > 0))


def strategy_used(state: CampaignState, event: Event) -> CampaignState:
    ext = ext_of(state)
    e = ext.entity(event.payload.participant)
    assert e is not None
    ext = put_entity(ext, e.model_copy(update=_play(e, event.payload.instance)))
    return with_ext(state, _turn(ext, phase="action", incant_window=False))


def block_raised(state: CampaignState, event: Event) -> CampaignState:
    d = event.payload
    ext = ext_of(state)
    e = ext.entity(d.participant)
    assert e is not None
    ext = put_entity(ext, e.model_copy(update={"block": Block(section=d.section, toward=d.toward)}))
    return with_ext(state, _turn(ext, phase="action", incant_window=False))


def phase_passed(state: CampaignState, event: Event) -> CampaignState:
    ext = ext_of(state)
    nxt = "action" if event.payload.phase == "strategy" else "discard"
    return with_ext(state, _turn(ext, phase=nxt, incant_window=False))


def card_played(state: CampaignState, event: Event) -> CampaignState:
    d = event.payload
    ext = ext_of(state)
    e = ext.entity(d.participant)
    assert e is not None
    changes = _play(e, d.instance)
    if d.charges_spent:
        changes["charges"] = 0  # TP-N-2: every charge is spent
    ext = put_entity(ext, e.model_copy(update=changes))
    if d.free:
        return with_ext(state, _turn(ext, incant_window=False))
    return with_ext(state, _turn(ext, phase="discard", incant_window=False))


def incant_began(state: CampaignState, event: Event) -> CampaignState:
    d = event.payload
    ext = ext_of(state)
    e = ext.entity(d.participant)
    assert e is not None
    ext = put_entity(ext, e.model_copy(update={"incanting": True, "incant_clear": d.clear}))
    return with_ext(state, _turn(ext, phase="discard", incant_window=False))


def charged(e: Entity, d: Any) -> dict[str, Any]:
    return {"charges": e.charges + d.charges}


def turn_ended(state: CampaignState, event: Event) -> CampaignState:
    d = event.payload
    ext = ext_of(state)
    e = ext.entity(d.participant)
    assert e is not None
    if d.charges_lost:
        ext = put_entity(ext, e.model_copy(update={"charges": 0}))  # TP-N-3
    return with_ext(state, ext.model_copy(update={"turn": Turn(entity=e.id, phase="over")}))


# --- attacks -----------------------------------------------------------------------------------------------


def _put_attack(ext: TriptychoState, attack: Attack) -> TriptychoState:
    return ext.model_copy(update={"attacks": (*(a for a in ext.attacks if a.id != attack.id), attack)})


def attack_declared(ext: TriptychoState, d: Any) -> TriptychoState:
    return _put_attack(ext, d.attack)


def _change_attack(ext: TriptychoState, attack_id: str, **changes: Any) -> TriptychoState:
    attack = ext.attack(attack_id)
    if attack is None:
        return ext
    new = attack.model_copy(update=changes)
    return ext.model_copy(update={"attacks": tuple(new if a.id == attack_id else a for a in ext.attacks)})


def asked(state: CampaignState, event: Event) -> CampaignState:
    d = event.payload
    ext = ext_of(state)
    attack = ext.attack(d.attack)
    if attack is not None and d.blocker:
        ext = _change_attack(ext, attack.id, stage="intercept", asked=(*attack.asked, d.blocker))
    elif attack is not None:
        ext = _change_attack(ext, attack.id, stage="react")
    return open_prompt(with_ext(state, ext), d.prompt)


def intercepted(state: CampaignState, event: Event) -> CampaignState:
    d = event.payload
    ext = ext_of(state)
    if d.accepted:
        ext = _change_attack(ext, d.attack, targets=(d.participant,), stage="react")
    return close_prompt(with_ext(state, ext), d.prompt)


def answered(state: CampaignState, event: Event) -> CampaignState:
    d = event.payload
    ext = ext_of(state)
    attack = ext.attack(d.attack)
    if attack is not None:
        ext = _change_attack(ext, attack.id, targets=tuple(t for t in attack.targets if t != d.target))
    if d.reaction_instance:
        target = ext.entity(d.target)
        if target is not None:
            ext = put_entity(ext, target.model_copy(update=_play(target, d.reaction_instance)))
    state = with_ext(state, ext)
    return close_prompt(state, d.prompt) if d.prompt else state


def attack_finished(ext: TriptychoState, d: Any) -> TriptychoState:
    return ext.model_copy(update={"attacks": tuple(a for a in ext.attacks if a.id != d.attack)})


def log_only(state: CampaignState, event: Event) -> CampaignState:
    return state


REDUCERS: dict[str, Reducer] = {
    "triptycho.map_saved": _ext(map_saved),
    "triptycho.map_deleted": _ext(map_deleted),
    "triptycho.map_loaded": _ext(map_loaded),
    "triptycho.section_changed": _ext(section_changed),
    "triptycho.border_changed": _ext(border_changed),
    "triptycho.sheet_set": _ext(sheet_set),
    "triptycho.placed": _entity(placed),
    "triptycho.moved": lambda s, e: moved_turn(_entity(moved)(s, e), e),
    "triptycho.climbed": lambda s, e: _spend_move(
        _entity(climbed)(s, e), e.payload.move, e.payload.participant
    ),
    "triptycho.let_go": lambda s, e: _spend_move(s, e.payload.move, e.payload.participant),
    "triptycho.fell": _entity(lambda e, d: {"climbing": None}),
    "triptycho.damaged": _entity(damaged),
    "triptycho.grip_checked": log_only,
    "triptycho.condition_changed": _entity(condition_changed),
    "triptycho.block_raised": block_raised,
    "triptycho.block_lowered": _entity(lambda e, d: {"block": None}),
    "triptycho.far_block_raised": _ext(far_block_raised),
    "triptycho.far_block_lowered": _ext(far_block_lowered),
    "triptycho.move_granted": _ext(move_granted),
    "triptycho.deck_shuffled": _entity(deck_shuffled),
    "triptycho.cards_drawn": _entity(cards_drawn),
    "triptycho.discard_reshuffled": log_only,
    "triptycho.hand_dealt": log_only,
    "triptycho.discarded": _entity(discarded),
    "triptycho.turn_began": turn_began,
    "triptycho.strategy_used": strategy_used,
    "triptycho.phase_passed": phase_passed,
    "triptycho.card_played": card_played,
    "triptycho.incant_began": incant_began,
    "triptycho.charged": _entity(charged),
    "triptycho.turn_ended": turn_ended,
    "triptycho.dived": _entity(lambda e, d: {"underwater": d.underwater}),
    "triptycho.acrobatics_rolled": log_only,
    "triptycho.initiative_rolled": log_only,
    "triptycho.attack_declared": _ext(attack_declared),
    "triptycho.intercept_asked": asked,
    "triptycho.reaction_asked": asked,
    "triptycho.intercepted": intercepted,
    "triptycho.attack_resolved": answered,
    "triptycho.attack_missed": log_only,
    "triptycho.attack_finished": _ext(attack_finished),
    "triptycho.unseen": log_only,
    "generic.turn_advanced": turn_advanced,
    "generic.initiative_cleared": lambda s, e: with_ext(s, ext_of(s).model_copy(update={"turn": Turn()})),
    "campaign.encounter_started": encounter_started,
    "campaign.encounter_ended": encounter_ended,
    "campaign.participant_removed": participant_removed,
}
