"""Small updates the TOTE reducers share: the fight, a combatant, a sheet, a declaration, and settling
the round's prompts after a change."""

from __future__ import annotations

from typing import Any

from app.rules.campaign.state import CampaignState, close_prompt
from app.rules.contract.envelope import Event
from app.rules.tote.model import Fight, ToteState
from app.rules.tote.rules import ext, out_reason


def put_tote(state: CampaignState, x: ToteState) -> CampaignState:
    return state.model_copy(update={"ext": x})


def with_fight(state: CampaignState, f: Fight | None) -> CampaignState:
    return put_tote(state, ext(state).model_copy(update={"fight": f}))


def fight_of(state: CampaignState) -> Fight:
    f = ext(state).fight
    assert f is not None
    return f


def update_sheet(state: CampaignState, pid: str, **changes: Any) -> CampaignState:
    x = ext(state)
    heroes = tuple(h.model_copy(update=changes) if h.id == pid else h for h in x.heroes)
    enemies = tuple(e.model_copy(update=changes) if e.id == pid else e for e in x.enemies)
    return put_tote(state, x.model_copy(update={"heroes": heroes, "enemies": enemies}))


def update_combatant(f: Fight, pid: str, **changes: Any) -> Fight:
    return f.model_copy(
        update={"combatants": tuple(c.model_copy(update=changes) if c.id == pid else c for c in f.combatants)}
    )


def add_to_unit(f: Fight, unit_id: str, delta: int) -> Fight:
    units = tuple(
        u.model_copy(update={"value": max(0, (u.value or 0) + delta)}) if u.id == unit_id else u
        for u in f.units
    )
    return f.model_copy(update={"units": units})


def update_declaration(f: Fight, decl_id: str | None, **changes: Any) -> Fight:
    if decl_id is None:
        return f
    return f.model_copy(
        update={
            "declarations": tuple(
                d.model_copy(update=changes) if d.id == decl_id else d for d in f.declarations
            )
        }
    )


def unit_of(f: Fight, pid: str) -> str:
    return next(c.unit for c in f.combatants if c.id == pid)


def spent(state: CampaignState, event: Event) -> CampaignState:
    """An action resolved: its declaration is done and its Initiative spent (TO-I-2)."""
    p = event.payload
    f = fight_of(state)
    f = update_declaration(f, p.declaration, state="done", finished=event.seq)
    if p.spend:
        f = add_to_unit(f, unit_of(f, p.actor), -p.spend)
    return with_fight(state, f)


def settle(state: CampaignState) -> CampaignState:
    """Whoever has fled, fallen or gone leaves the order: engagements, pending actions and questions."""
    f = ext(state).fight
    if f is None:
        return state
    gone = {c.id for c in f.combatants if out_reason(state, c.id) is not None}
    if not gone:
        return state
    f = f.model_copy(
        update={
            "engaged": tuple(p for p in f.engaged if not gone.intersection(p)),
            "declarations": tuple(
                d.model_copy(update={"state": "lost"}) if d.state == "pending" and d.actor in gone else d
                for d in f.declarations
            ),
        }
    )
    state = with_fight(state, f)
    for p in state.prompts:
        involved = {p.to, p.data.get("attacker"), p.data.get("defender")}
        if p.kind.startswith("tote.") and gone.intersection(involved):
            state = close_prompt(state, p.id)
    return state
