"""Reducers for `tote.*` events (and the encounter's start and end): pure, no checks, no dice."""

from __future__ import annotations

from app.rules.campaign.state import CampaignState, close_prompt, open_prompt
from app.rules.system import Event, Prompt, PromptChoice
from app.rules.tote.events import PromptSpec
from app.rules.tote.model import Combatant, Enemy, Fight, Hero, Unit
from app.rules.tote.rules import ext, pair
from app.rules.tote.updates import (
    add_to_unit,
    fight_of,
    put_tote,
    settle,
    spent,
    unit_of,
    update_combatant,
    update_declaration,
    update_sheet,
    with_fight,
)

# Answers that roll a to-hit test (a manual-dice table types its faces in).
ROLLING_CHOICES = frozenset({"return", "strike", "grapple"})
# Questions the round waits for; the TOTE templates draw them with their odds (the notices are the page's).
BLOCKING_KINDS = frozenset({"tote.respond"})

# --- sheets ---------------------------------------------------------------------------------------


def hero_set(state: CampaignState, event: Event) -> CampaignState:
    hero = event.payload.hero
    x = ext(state)
    heroes = (*(h for h in x.heroes if h.id != hero.id), hero)
    enemies = tuple(e for e in x.enemies if e.id != hero.id)
    return put_tote(state, x.model_copy(update={"heroes": heroes, "enemies": enemies}))


def enemy_set(state: CampaignState, event: Event) -> CampaignState:
    enemy = event.payload.enemy
    x = ext(state)
    enemies = (*(e for e in x.enemies if e.id != enemy.id), enemy)
    heroes = tuple(h for h in x.heroes if h.id != enemy.id)
    return put_tote(state, x.model_copy(update={"heroes": heroes, "enemies": enemies}))


def adjusted(state: CampaignState, event: Event) -> CampaignState:
    d = event.payload
    changes = {k: v for k, v in (("resolve", d.resolve), ("injuries", d.injuries)) if v is not None}
    if changes:
        state = update_sheet(state, d.participant, **changes)
    f = ext(state).fight
    if f is not None and d.initiative is not None:
        unit_id = unit_of(f, d.participant)
        units = tuple(u.model_copy(update={"value": d.initiative}) if u.id == unit_id else u for u in f.units)
        state = with_fight(state, f.model_copy(update={"units": units}))
    return settle(state)


def participant_removed(state: CampaignState, event: Event) -> CampaignState:
    pid = event.payload.participant
    x = ext(state)
    x = x.model_copy(
        update={
            "heroes": tuple(h for h in x.heroes if h.id != pid),
            "enemies": tuple(e for e in x.enemies if e.id != pid),
        }
    )
    f = x.fight
    if f is not None and any(c.id == pid for c in f.combatants):
        units = tuple(
            u.model_copy(update={"members": tuple(m for m in u.members if m != pid)}) for u in f.units
        )
        f = f.model_copy(
            update={
                "combatants": tuple(c for c in f.combatants if c.id != pid),
                "units": tuple(u for u in units if u.members),
                "engaged": tuple(p for p in f.engaged if pid not in p),
                "order": tuple(o for o in f.order if o != pid),
                "declarations": tuple(
                    d.model_copy(update={"state": "lost"}) if d.state == "pending" and d.actor == pid else d
                    for d in f.declarations
                ),
            }
        )
        x = x.model_copy(update={"fight": f})
    return put_tote(state, x)


# --- the fight's frame ----------------------------------------------------------------------------


def _new_combatant(state: CampaignState, pid: str, band: str) -> tuple[Combatant, str] | None:
    x = ext(state)
    hero = next((h for h in x.heroes if h.id == pid), None)
    enemy = next((e for e in x.enemies if e.id == pid), None)
    if hero is None and enemy is None:
        return None
    unit_id = f"g:{enemy.group}" if enemy is not None and enemy.group else pid
    side = "hero" if hero is not None else "enemy"
    return Combatant(id=pid, side=side, unit=unit_id, band=band), unit_id  # type: ignore[arg-type]  # Combatant checks it


def _add_combatant(f: Fight, c: Combatant) -> Fight:
    units = list(f.units)
    existing = next((u for u in units if u.id == c.unit), None)
    if existing is None:
        units.append(Unit(id=c.unit, members=(c.id,)))
    else:
        units = [u.model_copy(update={"members": (*u.members, c.id)}) if u.id == c.unit else u for u in units]
    return f.model_copy(update={"combatants": (*f.combatants, c), "units": tuple(units)})


def encounter_started(state: CampaignState, event: Event) -> CampaignState:
    encounter = state.encounter(event.payload.encounter)
    distance = encounter.setup.get("distance", "close")
    f = Fight(encounter=encounter.id, distance=distance)
    for pid in event.payload.participants:
        made = _new_combatant(state, pid, distance)
        if made is not None:
            f = _add_combatant(f, made[0])
    return with_fight(state, f)


def encounter_ended(state: CampaignState, event: Event) -> CampaignState:
    return with_fight(state, None)


def joined(state: CampaignState, event: Event) -> CampaignState:
    made = _new_combatant(state, event.payload.participant, event.payload.band)
    if made is None:
        return state
    return with_fight(state, _add_combatant(fight_of(state), made[0]))


def placed(state: CampaignState, event: Event) -> CampaignState:
    f = fight_of(state)
    pid, to = event.payload.participant, event.payload.to
    f = update_combatant(f, pid, band=to)
    if to != "melee":
        f = f.model_copy(update={"engaged": tuple(p for p in f.engaged if pid not in p)})
    return with_fight(state, f)


def _shown(state: CampaignState, event: Event) -> CampaignState:
    """The last roll, kept for the screens to draw (dice, crossed-out faces, Paragon die apart)."""
    written = event.payload.model_dump(mode="json", by_alias=True, exclude_unset=True)
    keep = {k: v for k, v in written.items() if k not in ("ask", "notice", "roll", "rolls")}
    last = {"seq": event.seq, "type": event.type.removeprefix("tote."), **keep}
    return with_fight(state, fight_of(state).model_copy(update={"last": last}))


def initiative_rolled(state: CampaignState, event: Event) -> CampaignState:
    state = _shown(state, event)
    f = fight_of(state)
    value = event.payload.value
    units = tuple(
        u.model_copy(update={"value": value, "start": value}) if u.id == event.payload.unit else u
        for u in f.units
    )
    return with_fight(state, f.model_copy(update={"units": units}))


def round_started(state: CampaignState, event: Event) -> CampaignState:
    f = fight_of(state)
    f = f.model_copy(
        update={"round": event.payload.round, "phase": "declare", "order": tuple(event.payload.order)}
    )
    return with_fight(state, f)


def declared(state: CampaignState, event: Event) -> CampaignState:
    f = fight_of(state)
    d = event.payload.declaration
    return with_fight(state, f.model_copy(update={"declarations": (*f.declarations, d)}))


def resolution_started(state: CampaignState, event: Event) -> CampaignState:
    return with_fight(state, fight_of(state).model_copy(update={"phase": "resolve"}))


def round_ended(state: CampaignState, event: Event) -> CampaignState:
    """TO-DF-1's +2 for Defenders left alone; TO-E-2's disengagement; a fresh round's flags."""
    f = fight_of(state)
    for gain in event.payload.gains:
        f = add_to_unit(f, gain.unit, gain.gain)
    leaving = set(event.payload.disengaged)
    f = f.model_copy(
        update={
            "engaged": tuple(p for p in f.engaged if not leaving.intersection(p)),
            "combatants": tuple(
                c.model_copy(update={"attacked": False, "responses": 0, "disengaging": False})
                for c in f.combatants
            ),
        }
    )
    state = with_fight(state, f)
    for p in state.prompts:
        if p.kind == "tote.knocked_down" and p.data.get("down_round", 0) <= event.payload.round:
            state = close_prompt(state, p.id)
    return state


def fight_over(state: CampaignState, event: Event) -> CampaignState:
    f = fight_of(state).model_copy(update={"phase": "over", "winner": event.payload.winner})
    state = with_fight(state, f)
    for p in state.prompts:
        if p.kind.startswith("tote."):
            state = close_prompt(state, p.id)
    return state


# --- actions --------------------------------------------------------------------------------------


def _open(state: CampaignState, spec: PromptSpec | None) -> CampaignState:
    if not spec:
        return state
    prompt = Prompt(
        id=spec.id,
        to=spec.to,
        kind=spec.kind,
        text=spec.text,
        answer=spec.answer,
        choices=tuple(
            PromptChoice(key=k, label=label, rolls=k in ROLLING_CHOICES) for k, label in spec.choices
        ),
        data=spec.data,
        blocking=spec.kind in BLOCKING_KINDS,
        drawn_by_system=spec.kind in BLOCKING_KINDS,
    )
    return open_prompt(state, prompt)


def attacked(state: CampaignState, event: Event) -> CampaignState:
    d = event.payload
    state = _shown(spent(state, event), event)
    x = ext(state)
    sheets: tuple[Hero | Enemy, ...] = (*x.heroes, *x.enemies)
    target = next((s for s in sheets if s.id == d.target), None)
    if target is not None and (d.absorbed or d.marks):
        state = update_sheet(
            state,
            target.id,
            resolve=target.resolve - d.absorbed,
            injuries=min(len(target.track), target.injuries + d.marks),
        )
    f = fight_of(state)
    f = update_combatant(f, d.target, attacked=True)
    if d.kind == "response":
        responder = next(c for c in f.combatants if c.id == d.actor)
        f = update_combatant(f, d.actor, responses=responder.responses + 1)
    if d.kind == "return":
        f = update_declaration(f, d.replaces, state="returned", finished=event.seq)
    duo = pair(d.actor, d.target)
    if d.engage and duo not in f.engaged:
        f = f.model_copy(update={"engaged": (*f.engaged, duo)})
    if d.knocked_down:
        f = update_combatant(f, d.target, down_round=d.down_round)
        f = f.model_copy(update={"engaged": tuple(p for p in f.engaged if p != duo)})
    state = with_fight(state, f)
    state = _open(state, d.ask)
    state = _open(state, d.notice)
    return settle(state)


def intimidated(state: CampaignState, event: Event) -> CampaignState:
    state = _shown(spent(state, event), event)
    f = add_to_unit(fight_of(state), event.payload.unit, -event.payload.lost)
    return with_fight(state, f)


def moved(state: CampaignState, event: Event) -> CampaignState:
    state = spent(state, event)
    to, actor = event.payload.to, event.payload.actor
    f = fight_of(state)
    f = update_combatant(f, actor, fled=True) if to is None else update_combatant(f, actor, band=to)
    return settle(with_fight(state, f))


def recovered(state: CampaignState, event: Event) -> CampaignState:
    state = spent(state, event)
    pid, gained = event.payload.actor, event.payload.gained
    if gained is None:  # an enemy's: the GM-only tote.enemy_resolve carries it
        return state
    sheets: tuple[Hero | Enemy, ...] = (*ext(state).heroes, *ext(state).enemies)
    s = next(s for s in sheets if s.id == pid)
    return update_sheet(state, pid, resolve=min(s.resolve_max, s.resolve + gained))


def enemy_resolve(state: CampaignState, event: Event) -> CampaignState:
    """An enemy's exact Resolve change and injuries (GM-only); the GM's last roll shows them."""
    d = event.payload
    s = next((s for s in ext(state).enemies if s.id == d.participant), None)
    if s is not None:
        state = update_sheet(
            state,
            s.id,
            resolve=max(0, min(s.resolve_max, s.resolve + d.change)),
            injuries=min(len(s.track), s.injuries + d.marks),
        )
    f = ext(state).fight
    if f is not None and d.why == "attacked" and f.last and f.last.get("target") == d.participant:
        gm = {"absorbed": -d.change, "marks": d.marks, "marked": list(d.marked), "resolve": d.resolve}
        state = with_fight(state, f.model_copy(update={"last": {**f.last, "gm": gm}}))
    return settle(state)


def no_change(state: CampaignState, event: Event) -> CampaignState:
    return state


def defending(state: CampaignState, event: Event) -> CampaignState:
    return spent(state, event)


def disengaging(state: CampaignState, event: Event) -> CampaignState:
    state = spent(state, event)
    return with_fight(state, update_combatant(fight_of(state), event.payload.actor, disengaging=True))


def action_lost(state: CampaignState, event: Event) -> CampaignState:
    return with_fight(
        state,
        update_declaration(fight_of(state), event.payload.declaration, state="lost", finished=event.seq),
    )


def answered(state: CampaignState, event: Event) -> CampaignState:
    return close_prompt(state, event.payload.prompt)


REDUCERS = {
    "tote.hero_set": hero_set,
    "tote.enemy_set": enemy_set,
    "tote.adjusted": adjusted,
    "tote.joined": joined,
    "tote.placed": placed,
    "tote.initiative_rolled": initiative_rolled,
    "tote.round_started": round_started,
    "tote.declared": declared,
    "tote.resolution_started": resolution_started,
    "tote.attacked": attacked,
    "tote.intimidated": intimidated,
    "tote.moved": moved,
    "tote.recovered": recovered,
    "tote.enemy_resolve": enemy_resolve,
    "tote.initiative_secret": no_change,
    "tote.defending": defending,
    "tote.disengaging": disengaging,
    "tote.action_lost": action_lost,
    "tote.answered": answered,
    "tote.round_ended": round_ended,
    "tote.fight_over": fight_over,
    "campaign.encounter_started": encounter_started,
    "campaign.encounter_ended": encounter_ended,
    "campaign.participant_removed": participant_removed,
}
