"""Reducers for `fivebyfive.*` events (and the encounter's start and end): pure, no checks, no dice.

Every decision was made by the decider and written into the event; these only apply it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.rules.campaign.state import CampaignState, Initiative, InitiativeEntry, close_prompt, open_prompt
from app.rules.fivebyfive import events as _payloads  # noqa: F401  (registers this part's payload models)
from app.rules.fivebyfive.state import (
    Attack,
    Board,
    Character,
    Fight,
    FiveState,
    Ranks,
    Terrain,
    Token,
    ext,
    with_ext,
)
from app.rules.system import Event, Prompt

Reducer = Callable[[CampaignState, Event], CampaignState]


# --- helpers ---------------------------------------------------------------------------------------


def _update(state: CampaignState, **changes: Any) -> CampaignState:
    return with_ext(state, ext(state).model_copy(update=changes))


def _fight(state: CampaignState, **changes: Any) -> CampaignState:
    fight = ext(state).fight or Fight()
    return _update(state, fight=fight.model_copy(update=changes))


def _character(state: CampaignState, pid: str, **changes: Any) -> CampaignState:
    five = ext(state)
    characters = tuple(c.model_copy(update=changes) if c.participant == pid else c for c in five.characters)
    return _update(state, characters=characters)


def _board(state: CampaignState, **changes: Any) -> CampaignState:
    return _update(state, board=ext(state).board.model_copy(update=changes))


def _mirror(state: CampaignState) -> CampaignState:
    """Show the 5x5 order in the campaign's initiative list (the generic tabletop shows it)."""
    fight = ext(state).fight
    if fight is None:
        return state.model_copy(update={"initiative": Initiative()})
    entries = tuple(InitiativeEntry(participant=e.participant, value=e.initiative) for e in fight.order)
    turn = fight.turn if fight.turn >= 0 else 0
    round_ = fight.round if fight.turn >= 0 else 0
    return state.model_copy(update={"initiative": Initiative(entries=entries, turn=turn, round=round_)})


def _prompt(p: Any, kind: str, answer: str) -> Prompt:
    """The question an event puts: its payload names the prompt, who answers, the text and choices."""
    return Prompt(
        id=p.prompt,
        to=p.to,
        kind=kind,
        text=p.text,
        answer=answer,
        choices=p.choices,
        data={k: v for k in ("hit", "of", "defender", "action") if (v := getattr(p, k, None)) is not None},
        # Control the Hit is drawn by the 5x5 pages, with the exact odds of the defence roll.
        drawn_by_system=kind == "fivebyfive.control",
    )


# --- characters and the tabletop -------------------------------------------------------------------


def sheet_set(state: CampaignState, event: Event) -> CampaignState:
    d = event.payload
    five = ext(state)
    old = five.character(d.participant)
    new = Character(
        participant=d.participant,
        scores=d.scores,
        current=d.current,
        ranks=d.ranks,
        shifts=old.shifts if old else Ranks(),
        status=d.status,
    )
    others = tuple(c for c in five.characters if c.participant != new.participant)
    return _update(state, characters=(*others, new))


def shift_set(state: CampaignState, event: Event) -> CampaignState:
    c = ext(state).character(event.payload.participant)
    if c is None:
        return state
    shifts = c.shifts.model_copy(update={event.payload.rank: event.payload.shift})
    return _character(state, c.participant, shifts=shifts)


def board_set(state: CampaignState, event: Event) -> CampaignState:
    return _board(state, width=event.payload.width, height=event.payload.height)


def terrain_added(state: CampaignState, event: Event) -> CampaignState:
    terrain = event.payload.terrain
    board = ext(state).board
    return _board(state, terrain=(*(t for t in board.terrain if t.id != terrain.id), terrain))


def terrain_removed(state: CampaignState, event: Event) -> CampaignState:
    board = ext(state).board
    return _board(state, terrain=tuple(t for t in board.terrain if t.id != event.payload.terrain))


def _place(state: CampaignState, pid: str, x: float | None, y: float | None) -> CampaignState:
    board = ext(state).board
    tokens = tuple(t for t in board.tokens if t.participant != pid)
    if x is not None and y is not None:
        old = board.token(pid)
        token = Token(participant=pid, x=x, y=y)
        if old is None:
            tokens = (*tokens, token)
        else:
            tokens = tuple(token if t.participant == pid else t for t in board.tokens)
    return _board(state, tokens=tokens)


def placed(state: CampaignState, event: Event) -> CampaignState:
    return _place(state, event.payload.participant, event.payload.x, event.payload.y)


# --- the round ---------------------------------------------------------------------------------------


def round_started(state: CampaignState, event: Event) -> CampaignState:
    order = event.payload.order
    fight = ext(state).fight or Fight()
    new = fight.model_copy(
        update={"round": event.payload.round, "order": order, "turn": -1, "moved": 0.0, "acted": False}
    )
    return _mirror(_update(state, fight=new.model_copy(update={"attack": None})))


def turn_started(state: CampaignState, event: Event) -> CampaignState:
    return _mirror(_fight(state, turn=event.payload.index, moved=0.0, acted=False, attack=None))


def moved(state: CampaignState, event: Event) -> CampaignState:
    x, y = event.payload.to
    state = _place(state, event.payload.participant, x, y)
    return _fight(state, moved=event.payload.moved)


def attacked(state: CampaignState, event: Event) -> CampaignState:
    d = event.payload
    state = _fight(state, acted=True)
    if not d.hits:
        return state
    attack = Attack(attacker=d.attacker, defender=d.defender, action=d.action, hits=d.hits)
    if d.prompt:
        state = open_prompt(state, _prompt(event.payload, "fivebyfive.control", "fivebyfive.control"))
        attack = attack.model_copy(update={"prompt": d.prompt})
    return _fight(state, attack=attack)


def hit_controlled(state: CampaignState, event: Event) -> CampaignState:
    attack = (ext(state).fight or Fight()).attack
    if attack is None:
        return state
    if attack.prompt:
        state = close_prompt(state, attack.prompt)
    attack = attack.model_copy(update={"outcomes": (*attack.outcomes, event.payload.result), "prompt": None})
    return _fight(state, attack=attack)


def damage_due(state: CampaignState, event: Event) -> CampaignState:
    attack = (ext(state).fight or Fight()).attack
    state = open_prompt(state, _prompt(event.payload, "fivebyfive.damage", "fivebyfive.damage"))
    if attack is None:
        return state
    return _fight(state, attack=attack.model_copy(update={"prompt": event.payload.prompt}))


def damaged(state: CampaignState, event: Event) -> CampaignState:
    d = event.payload
    c = ext(state).character(d.defender)
    if d.prompt:
        state = close_prompt(state, d.prompt)
    if c is not None:
        state = _character(state, c.participant, current=c.current.minus(d.ability), status=d.status)
    attack = (ext(state).fight or Fight()).attack
    if attack is not None:
        attack = attack.model_copy(update={"damage": (*attack.damage, d.ability), "prompt": None})
        state = _fight(state, attack=attack)
    return state


def status_changed(state: CampaignState, event: Event) -> CampaignState:
    return _character(state, event.payload.participant, status=event.payload.status)


def turn_ended(state: CampaignState, event: Event) -> CampaignState:
    attack = (ext(state).fight or Fight()).attack
    if attack is not None and attack.prompt:
        state = close_prompt(state, attack.prompt)
    return _fight(state, acted=True, attack=None)


def round_ended(state: CampaignState, event: Event) -> CampaignState:
    return _mirror(_fight(state, turn=-1, attack=None))


def combat_won(state: CampaignState, event: Event) -> CampaignState:
    return _mirror(_fight(state, winner=event.payload.winner, turn=-1, attack=None))


def rush_due(state: CampaignState, event: Event) -> CampaignState:
    return open_prompt(state, _prompt(event.payload, "fivebyfive.victory_rush", "fivebyfive.victory_rush"))


def rushed(state: CampaignState, event: Event) -> CampaignState:
    d = event.payload
    if d.prompt:
        state = close_prompt(state, d.prompt)
    c = ext(state).character(d.participant)
    if c is None:
        return state
    return _character(state, c.participant, current=c.current.minus(d.ability, by=-1))


# --- the encounter -----------------------------------------------------------------------------------


def encounter_started(state: CampaignState, event: Event) -> CampaignState:
    """A new fight: the board from the encounter's set-up (if it has one), no round yet."""
    setup = state.encounter(event.payload.encounter).setup or {}
    five = ext(state)
    board = five.board
    if setup.get("board") or setup.get("terrain") or setup.get("tokens"):
        size = setup.get("board") or {}
        board = Board(
            width=size.get("width", board.width),
            height=size.get("height", board.height),
            terrain=tuple(Terrain.model_validate(t) for t in setup.get("terrain", ())),
            tokens=tuple(
                Token(participant=pid, x=xy[0], y=xy[1]) for pid, xy in (setup.get("tokens") or {}).items()
            ),
        )
    return with_ext(state, five.model_copy(update={"board": board, "fight": Fight()}))


def encounter_ended(state: CampaignState, event: Event) -> CampaignState:
    """The fight is over; what it did to the characters stays on them."""
    return with_ext(state, ext(state).model_copy(update={"fight": None}))


def participant_removed(state: CampaignState, event: Event) -> CampaignState:
    """A character taken out of the campaign leaves the table, the order and any hit being resolved."""
    pid = event.payload.participant
    five = ext(state)
    board = five.board.model_copy(
        update={"tokens": tuple(t for t in five.board.tokens if t.participant != pid)}
    )
    fight = five.fight
    if fight is not None:
        index = next((i for i, e in enumerate(fight.order) if e.participant == pid), None)
        order = tuple(e for e in fight.order if e.participant != pid)
        changes: dict = {"order": order}
        if index is not None and index < fight.turn:
            changes["turn"] = fight.turn - 1
        elif index is not None and index == fight.turn:
            # The next in the order takes the turn, fresh; past the end, the round is over.
            changes.update(turn=fight.turn if fight.turn < len(order) else -1, moved=0.0, acted=False)
        if fight.attack is not None and pid in (fight.attack.attacker, fight.attack.defender):
            changes["attack"] = None
        fight = fight.model_copy(update=changes)
    characters = tuple(c for c in five.characters if c.participant != pid)
    new = five.model_copy(update={"board": board, "fight": fight, "characters": characters})
    return _mirror(with_ext(state, new)) if fight is not None else with_ext(state, new)


def no_change(state: CampaignState, event: Event) -> CampaignState:
    return state


REDUCERS: dict[str, Reducer] = {
    "campaign.encounter_started": encounter_started,
    "campaign.encounter_ended": encounter_ended,
    "campaign.participant_removed": participant_removed,
    "fivebyfive.sheet_set": sheet_set,
    "fivebyfive.shift_set": shift_set,
    "fivebyfive.board_set": board_set,
    "fivebyfive.terrain_added": terrain_added,
    "fivebyfive.terrain_removed": terrain_removed,
    "fivebyfive.placed": placed,
    "fivebyfive.round_started": round_started,
    "fivebyfive.initiative_shown": no_change,
    "fivebyfive.turn_started": turn_started,
    "fivebyfive.moved": moved,
    "fivebyfive.attacked": attacked,
    "fivebyfive.gm_note": no_change,
    "fivebyfive.hit_controlled": hit_controlled,
    "fivebyfive.damage_due": damage_due,
    "fivebyfive.damaged": damaged,
    "fivebyfive.knocked_out": status_changed,
    "fivebyfive.turn_ended": turn_ended,
    "fivebyfive.round_ended": round_ended,
    "fivebyfive.combat_won": combat_won,
    "fivebyfive.rush_due": rush_due,
    "fivebyfive.rushed": rushed,
}

__all__ = ["REDUCERS", "FiveState"]
