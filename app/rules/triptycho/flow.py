"""Helpers the deciders share: the turn's phases (TP-T-1), harm and its knock-on effects (TP-N-5,
TP-CL-3), falls (TP-M-5), Acrobatics (TP-A-1) and who may read each event."""

from __future__ import annotations

from typing import Any

from app.rules import dice
from app.rules.campaign.state import CampaignState
from app.rules.dice import Roller
from app.rules.errors import RuleError
from app.rules.system import NewEvent, audience_of
from app.rules.triptycho import odds
from app.rules.triptycho.board import index
from app.rules.triptycho.cards import parse_dice
from app.rules.triptycho.state import (
    Entity,
    GrantedMove,
    Settings,
    TriptychoState,
    ext_of,
    put_entity,
    with_ext,
)
from app.rules.triptycho.world import audience, name_of, observers

PHASE_WORDS = {
    "draw": "Draw a card first: a turn starts with the draw.",
    "strategy": "That belongs to the Strategy Phase, which is over.",
    "action": "That takes the Action Phase.",
    "discard": "The turn is at its end: discard down to your hand size.",
    "over": "This turn is over.",
}


def on_turn(state: CampaignState, e: Entity, *phases: str) -> None:
    """Refuse unless it is `e`'s turn and the turn is in one of `phases` (TP-T-1)."""
    turn = ext_of(state).turn
    if turn.entity != e.id:
        raise RuleError(f"It is not {name_of(state, e.id)}'s turn.", rule="TP-T-1")
    if turn.phase not in phases:
        if turn.phase == "draw":
            raise RuleError(PHASE_WORDS["draw"], rule="TP-T-1")
        if "action" in phases and turn.phase in ("discard", "over"):
            raise RuleError("The Action Phase is over: one Action a turn.", rule="TP-T-1")
        if phases == ("strategy",):
            raise RuleError("The Strategy Phase is over.", rule="TP-T-1")
        raise RuleError(PHASE_WORDS.get(turn.phase, "Not now."), rule="TP-T-1")


def innate_refusal(state: CampaignState, e: Entity) -> RuleError | None:
    """Why the innate Move 1 is not available now, or None (TP-M-2)."""
    turn = ext_of(state).turn
    if turn.entity != e.id:
        return RuleError(f"It is not {name_of(state, e.id)}'s turn.", rule="TP-M-2")
    if turn.phase == "draw":
        return RuleError("Move after drawing a card, before discarding.", rule="TP-M-2")
    if turn.phase == "over":
        return RuleError("The turn is over: Move before discarding.", rule="TP-M-2")
    if turn.moved:
        return RuleError("You have used your innate Move this turn.", rule="TP-M-2")
    return None


def take_move(state: CampaignState, e: Entity, ref: str | None, kinds: tuple[str, ...]) -> GrantedMove | None:
    """The Move an entity spends: None for the innate Move 1 (TP-M-2), or a Move a card granted."""
    ext = ext_of(state)
    if ref not in (None, "", "innate"):
        for m in ext.turn.moves:
            if m.id == ref and m.entity == e.id:
                if m.kind not in kinds:
                    raise RuleError(f"That is a {m.kind.capitalize()}, which cannot do this.", rule="TP-M-3")
                return m
        raise RuleError("That Move is not yours to use, or it is spent.", rule="TP-M-2")
    refusal = innate_refusal(state, e)
    if ref == "innate" or (refusal is None and "move" in kinds):
        if refusal is not None:
            raise refusal
        if "move" not in kinds:
            raise RuleError("The innate Move is a plain Move 1.", rule="TP-M-3")
        return None
    granted = [m for m in ext.turn.moves if m.entity == e.id and m.kind in kinds]
    if granted:
        return granted[0]
    raise refusal or RuleError("No Move of that kind is available.", rule="TP-M-2")


def acrobatics(e: Entity, gm_dice: str, roller: Roller) -> dict[str, Any]:
    """An opposed Acrobatics roll: a tie or better succeeds (TP-A-1)."""
    mine = odds.roll_sizes(parse_dice(e.acrobatics), roller)
    theirs = odds.roll_sizes(parse_dice(gm_dice), roller)
    success = odds.total(mine) >= odds.total(theirs)
    return {
        "roll": mine.as_dict() if mine else None,
        "gm_roll": theirs.as_dict() if theirs else None,
        "total": odds.total(mine),
        "gm_total": odds.total(theirs),
        "success": success,
    }


def climb_dice(ext: TriptychoState, settings: Settings, frm: str, to: str) -> str:
    edge = index(ext.board).edge(frm, to) if ext.board else None
    return (edge.border.climb if edge and edge.border.climb else None) or settings.gm_acrobatics


def harm(
    state: CampaignState,
    settings: Settings,
    e: Entity,
    amount: int,
    cause: str,
    roller: Roller,
    charges_gone: bool = False,
) -> list[NewEvent]:
    """Damage and what follows from it: incantations stop (TP-N-5); a climber checks its grip (TP-CL-3)."""
    ext = ext_of(state)
    stops = amount > 0 and not charges_gone and (e.incanting or e.charges > 0)
    events = [
        NewEvent(
            type="triptycho.damaged",
            data={
                "participant": e.id,
                "name": name_of(state, e.id),
                "amount": amount,
                "cause": cause,
                "stops_incanting": stops,
                "charges_lost": e.charges if stops else 0,
            },
            audience=audience(state, e),
        )
    ]
    if amount > 0 and e.climbing is not None:
        check = acrobatics(e, climb_dice(ext, settings, e.climbing.frm, e.climbing.to), roller)
        events.append(
            NewEvent(
                type="triptycho.grip_checked",
                data={"participant": e.id, "name": name_of(state, e.id), **check},
                audience=audience(state, e),
            )
        )
        if not check["success"]:
            events += fall(state, settings, e, e.climbing.progress, "lost its grip", roller, True)
    return events


def fall(
    state: CampaignState,
    settings: Settings,
    e: Entity,
    height: int,
    why: str,
    roller: Roller,
    charges_gone: bool = False,
) -> list[NewEvent]:
    """Falling down `height`: 1d4 damage per height (TP-M-5)."""
    if height <= 0:
        return []
    result = dice.roll(f"{height}d{settings.fall_die}", roller)
    events = [
        NewEvent(
            type="triptycho.fell",
            data={
                "participant": e.id,
                "name": name_of(state, e.id),
                "height": height,
                "why": why,
                "roll": result.as_dict(),
                "damage": result.total,
            },
            audience=audience(state, e),
        )
    ]
    landed = e.model_copy(update={"climbing": None})
    return events + harm(state, settings, landed, result.total, "a fall", roller, charges_gone)


def moved_audience(state: CampaignState, before: Entity, after: Entity) -> str:
    """Who may read of a move: those who see the entity where it was or where it ends up."""
    seen_before = observers(state, [before])
    later = with_ext(state, put_entity(ext_of(state), after))
    seen_after = observers(later, [after])
    p = state.find_participant(before.id)
    if p is not None and p.hidden:
        return "gm"
    everyone = {x.id for x in ext_of(state).entities if (q := state.find_participant(x.id)) and q.owner}
    seen = seen_before | seen_after
    if seen and seen >= everyone:
        return "all"
    return audience_of(*seen) if seen else "gm"


def _as_audience(state: CampaignState, ids: set[str]) -> str:
    everyone = {x.id for x in ext_of(state).entities if (q := state.find_participant(x.id)) and q.owner}
    if ids and ids >= everyone:
        return "all"
    return audience_of(*ids) if ids else "gm"


def naming(
    state: CampaignState, actor: Entity, named: list[Entity], chose: bool = True
) -> tuple[str, str | None]:
    """(who may read an event naming `actor` and every one of `named`, who sees the actor but not all of
    them and so may read only a version that names the actor). The actor's own player reads the full one
    when they `chose` those named (a single target), not when an Area Attack found them (TP-I-6)."""
    for x in (actor, *named):
        p = state.find_participant(x.id)
        if p is not None and p.hidden:
            return "gm", None
    see_actor = observers(state, [actor])
    full = set(see_actor)
    for x in named:
        full &= observers(state, [x])
    p = state.find_participant(actor.id)
    if chose and p is not None and p.owner:
        full.add(actor.id)
    rest = see_actor - full
    return _as_audience(state, full), (_as_audience(state, rest) if rest else None)


def strike_audiences(
    state: CampaignState, attacker: Entity, target: Entity, chose: bool = True
) -> tuple[str, str | None, str | None]:
    """Who reads a strike in full (sees both, or is the attacker's player who chose the target), who sees
    only the target ("something unseen strikes"), and who sees only the attacker."""
    for x in (attacker, target):
        p = state.find_participant(x.id)
        if p is not None and p.hidden:
            return "gm", None, None
    see_attacker, see_target = observers(state, [attacker]), observers(state, [target])
    full = see_attacker & see_target
    p = state.find_participant(attacker.id)
    if chose and p is not None and p.owner:
        full.add(attacker.id)
    target_side, attacker_side = see_target - full, see_attacker - full - see_target
    return (
        _as_audience(state, full),
        _as_audience(state, target_side) if target_side else None,
        _as_audience(state, attacker_side) if attacker_side else None,
    )


def split_audience(state: CampaignState, actor: Entity, others: list[Entity]) -> tuple[str, str | None]:
    """(who may read an event naming `actor` and `others`, who sees only the others and hears of an
    unseen actor). Players whose characters cannot see the actor never learn who it is (TP-I-6)."""
    see_actor = observers(state, [actor])
    see_others = observers(state, others)
    missing = see_others - see_actor
    full = audience(state, actor) if missing else audience(state, actor, *others)
    return full, (audience_of(*missing) if missing else None)
