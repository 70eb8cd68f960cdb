"""Reducers for `trinity.*` events, and the table of all this system reduces (the campaign events it
follows are in `follows`): no checks, no dice.

Each takes the values the decider worked out (`to`, `from`) and writes them; every one ends by
re-deriving the open prompts (prompts.sync).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.rules.campaign.state import CampaignState
from app.rules.system import Event
from app.rules.trinity import events as _payloads  # noqa: F401  (registers this part's payload models)
from app.rules.trinity.follows import cancel_move, encounter_ended, encounter_started, participant_removed
from app.rules.trinity.prompts import sync
from app.rules.trinity.state import (
    Armour,
    Delayed,
    FollowUp,
    TrinityState,
    ext,
    put_character,
    put_link,
    put_opponent,
    with_ext,
)

Data = Any  # the event's payload model (app/rules/trinity/events.py)
ExtReducer = Callable[[TrinityState, Data, CampaignState], TrinityState]


def _reducer(fn: ExtReducer) -> Callable[[CampaignState, Event], CampaignState]:
    def reduce(state: CampaignState, event: Event) -> CampaignState:
        return sync(with_ext(state, fn(ext(state), event.payload, state)))

    reduce.__name__ = fn.__name__
    return reduce


def _char(t: TrinityState, pid: str, **changes: Any) -> TrinityState:
    c = t.character(pid)
    return t if c is None else put_character(t, c.model_copy(update=changes))


def _opp(t: TrinityState, pid: str, **changes: Any) -> TrinityState:
    o = t.opponent(pid)
    return t if o is None else put_opponent(t, o.model_copy(update=changes))


def _move(t: TrinityState, **changes: Any) -> TrinityState:
    return t if t.move is None else t.model_copy(update={"move": t.move.model_copy(update=changes)})


def _armour(armour: Armour | None, d: Data) -> Armour | None:
    if armour is None or not d.given("threshold"):
        return armour
    return armour.model_copy(update={"threshold": d.threshold})


# --- sheets and the board -------------------------------------------------------------------------


def character_set(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return put_character(t, d.character)


def opponent_set(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return put_opponent(t, d.opponent)


def band_set(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return put_link(t, d.character, d.opponent, d.to)


def advantage_set(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return t.model_copy(update={"advantage": d.to})


def shift_set(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return _char(t, d.character, shift=d.value)


def karma_added(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return t.model_copy(update={d.pool: d.to})


def good_spent(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    # TC-K-4: straight into the Bad pool.
    return t.model_copy(update={"good": t.good - 1, "bad": t.bad + 1})


def luck_granted(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return _char(t, d.character, luck=d.to)


def armour_repaired(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    c = t.character(d.character)
    return t if c is None else _char(t, c.id, armour=_armour(c.armour, d))


def condition_set(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    changes = {k: getattr(d, k) for k in ("dead", "lost", "harm", "stress") if d.given(k)}
    return _char(t, d.character, **changes)


def harmed(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    c = t.character(d.character)
    if c is None:
        return t
    return _char(t, c.id, harm=d.to, armour=_armour(c.armour, d), dead=c.dead or bool(d.dead))


def stressed(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return _char(t, d.character, stress=d.to)


def opponent_harmed(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    o = t.opponent(d.opponent)
    return t if o is None else _opp(t, o.id, taken=d.to, armour=_armour(o.armour, d))


def ammo_spent(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return _weapon(t, d, ammo=d.to)


def reloaded(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return _weapon(t, d, ammo=d.ammo, spares=d.spares)


def _weapon(t: TrinityState, d: Data, **changes: Any) -> TrinityState:
    c = t.character(d.character)
    if c is None:
        return t
    weapons = tuple(w.model_copy(update=changes) if w.id == d.weapon else w for w in c.weapons)
    return _char(t, c.id, weapons=weapons)


def item_used(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    c = t.character(d.character)
    if c is None:
        return t
    if d.uses_to is None or d.uses_to > 0:
        items = tuple(i.model_copy(update={"uses": d.uses_to}) if i.id == d.item else i for i in c.items)
    else:
        items = tuple(i for i in c.items if i.id != d.item)  # TC-HE-1: at 0 the item is gone
    t = _char(t, c.id, items=items)
    target = t.character(d.target)
    if target is None:
        return t
    if d.timing == "delayed":
        waiting = Delayed(item=d.name, heal=d.heal, calm=d.calm)
        return _char(t, target.id, delayed=(*target.delayed, waiting))
    return _char(t, target.id, harm=d.harm_to, stress=d.stress_to)


def made_safe(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return _char(t, d.character, harm=d.harm_to, stress=d.stress_to, delayed=())


def time_passed(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    for change in d.changes:
        t = _char(t, change.character, harm=change.harm_to, stress=change.stress_to)
    return t.model_copy(update={"hours": t.hours + d.hours})


def investigation_started(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    # TC-HE-4, TC-K-1: pools emptied, harm and stress removed; dead and lost stay as they are.
    chars = tuple(
        c.model_copy(
            update={"harm": 0, "stress": 0, "delayed": (), "opening": 0, "shift": 0, "follow_up": None}
        )
        for c in t.characters
    )
    opps = tuple(o.model_copy(update={"taken": 0}) for o in t.opponents)
    return TrinityState(
        characters=chars, opponents=opps, investigation=d.number, links=t.links, advantage="none"
    )


# --- the move ------------------------------------------------------------------------------------


def move_declared(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return t.model_copy(update={"move": d.move})


def karma_grabbed(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    n = d.amount
    if d.side == "good":
        t = t.model_copy(update={"good": t.good - n, "aside_good": t.aside_good + n})
        return _move(t, good=n)
    t = t.model_copy(update={"bad": t.bad - n, "aside_bad": t.aside_bad + n})
    return _move(t, bad=n)


def _rolled(d: Data) -> dict[str, Any]:
    return {
        "faces": tuple(d.faces),
        "mods": tuple(d.mods),
        "total": d.total,
        "result": d.result,
    }


def move_rolled(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    # The opening, the GM shift and a doubles follow-up are used up by this move (TC-OP-1, TC-R-4).
    t = _char(t, d.character, opening=0, shift=0, follow_up=None)
    return _move(t, **_rolled(d))


def karma_returned(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    # TC-K-3: the GM's grabbed points to Good, the players' to Bad.
    return t.model_copy(
        update={
            "good": t.good + d.to_good,
            "bad": t.bad + d.to_bad,
            "aside_bad": t.aside_bad - d.to_good,
            "aside_good": t.aside_good - d.to_bad,
        }
    )


_LUCK_FLAGS = {"ignore": "ignore_negatives", "no_harm": "no_harm", "twelve": "twelve"}


def luck_spent(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    t = _char(t, d.character, luck=d.luck_to)
    t = t.model_copy(update={d.pool: getattr(t, d.pool) + 1})
    changes: dict[str, Any] = {"luck_spent": (t.move.luck_spent if t.move else 0) + 1}
    if d.option in _LUCK_FLAGS:
        changes[_LUCK_FLAGS[d.option]] = True
    if d.given("total"):
        changes.update(_rolled(d))
    return _move(t, **changes)


def luck_kept(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return _move(t, luck_done=True)


def effect_chosen(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return _move(t, effect=d.effect)


def move_resolved(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return _move(t, resolved=True, opponent_may_move=d.opponent_may_move)


def opening_given(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    c = t.character(d.to)
    return t if c is None else _char(t, c.id, opening=c.opening + 1)


def opponent_moved(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    if d.to != d.from_:
        t = put_link(t, d.character, d.opponent, d.to)
    return _move(t, band_answered=True)


def move_ended(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    follow = d.follow_up
    if follow:
        t = _char(t, follow.character, follow_up=FollowUp(move=follow.move, value=follow.value))
    tag = d.tag
    if tag:
        t = t.model_copy(update={"pending_tags": (*t.pending_tags, tag)})
    return t.model_copy(update={"move": None, "last": t.move})


def move_cancelled(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return cancel_move(t)


def tag_added(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    pending = tuple(p for p in t.pending_tags if p.id != d.pending)
    return t.model_copy(update={"tags": (*t.tags, d.tag), "pending_tags": pending})


def tag_skipped(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return t.model_copy(update={"pending_tags": tuple(p for p in t.pending_tags if p.id != d.pending)})


def tag_removed(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return t.model_copy(update={"tags": tuple(x for x in t.tags if x.id != d.tag)})


def no_change(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    return t


_TABLE: dict[str, ExtReducer] = {
    "trinity.character_set": character_set,
    "trinity.opponent_set": opponent_set,
    "trinity.band_set": band_set,
    "trinity.advantage_set": advantage_set,
    "trinity.shift_set": shift_set,
    "trinity.karma_added": karma_added,
    "trinity.good_spent": good_spent,
    "trinity.luck_granted": luck_granted,
    "trinity.armour_repaired": armour_repaired,
    "trinity.condition_set": condition_set,
    "trinity.harmed": harmed,
    "trinity.stressed": stressed,
    "trinity.opponent_harmed": opponent_harmed,
    "trinity.opponent_out": no_change,
    "trinity.ammo_spent": ammo_spent,
    "trinity.reloaded": reloaded,
    "trinity.item_used": item_used,
    "trinity.made_safe": made_safe,
    "trinity.time_passed": time_passed,
    "trinity.investigation_started": investigation_started,
    "trinity.move_declared": move_declared,
    "trinity.karma_grabbed": karma_grabbed,
    "trinity.move_rolled": move_rolled,
    "trinity.karma_returned": karma_returned,
    "trinity.luck_spent": luck_spent,
    "trinity.luck_kept": luck_kept,
    "trinity.effect_chosen": effect_chosen,
    "trinity.move_resolved": move_resolved,
    "trinity.opening_given": opening_given,
    "trinity.opponent_moved": opponent_moved,
    "trinity.move_ended": move_ended,
    "trinity.move_cancelled": move_cancelled,
    "trinity.tag_added": tag_added,
    "trinity.tag_skipped": tag_skipped,
    "trinity.tag_removed": tag_removed,
    "campaign.encounter_started": encounter_started,
    "campaign.encounter_ended": encounter_ended,
    "campaign.participant_removed": participant_removed,
    "campaign.settings_changed": no_change,  # Luck per move may change the open prompts
    "campaign.participant_hidden": no_change,
    "campaign.participant_revealed": no_change,
}

REDUCERS = {type_: _reducer(fn) for type_, fn in _TABLE.items()}
