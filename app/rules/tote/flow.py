"""The round's machinery: fold events as a decider makes them, and step the fight on.

A decider builds its events in a `Sim`, which applies TOTE's own reducers as it goes, so the
decider can see what its events did (the last declaration made, the round over) and add the
automatic events that follow: the round begins, resolution begins, actions that roll no dice
resolve, actions that lost their foe are lost, the round ends, the fight is over.
"""

from __future__ import annotations

from typing import Any

from app.rules.campaign.state import CampaignState
from app.rules.system import Event, NewEvent
from app.rules.tote import combat
from app.rules.tote.model import ROLLING, Fight
from app.rules.tote.reducers import REDUCERS
from app.rules.tote.rules import (
    declaration_order,
    declared,
    fight,
    fighting,
    name,
    next_declarer,
    next_pending,
)

BLOCKING = frozenset({"tote.respond"})


class Sim:
    """Events as they are made, and the state they lead to."""

    def __init__(self, state: CampaignState):
        self.state = state
        self.events: list[NewEvent] = []

    def add(self, type_: str, data: dict[str, Any], audience: str = "all") -> None:
        """Fold one event; an enemy's exact Resolve change (`secret`) follows it as a GM-only event."""
        secret = data.pop("secret", None)
        self._add(type_, data, audience)
        if secret is not None:
            self._add("tote.enemy_resolve", secret, "gm")

    def _add(self, type_: str, data: dict[str, Any], audience: str) -> None:
        seq = self.state.seq + 1
        for key, suffix in (("ask", ""), ("notice", "-n")):
            if data.get(key) is not None:
                data[key] = {**data[key], "id": f"q{seq}{suffix}"}
        event = NewEvent(type=type_, data=data, audience=audience)
        self.events.append(event)
        folded = Event(seq=seq, type=type_, data=data, audience=audience)
        self.state = REDUCERS[type_](self.state, folded).model_copy(update={"seq": seq})


def waiting_for(state: CampaignState) -> str | None:
    """The participant (or "gm") whose answer the round waits for."""
    for p in state.prompts:
        if p.kind in BLOCKING:
            return p.to
    return None


def winner(state: CampaignState, f: Fight) -> str | None:
    sides = {c.side for c in fighting(state, f)}
    if "hero" in sides and "enemy" in sides:
        return None
    return "heroes" if "hero" in sides else "enemies" if "enemy" in sides else "nobody"


def round_data(state: CampaignState, f: Fight, number: int) -> dict[str, Any]:
    upcoming = f.model_copy(update={"round": number})
    order = declaration_order(state, upcoming)
    down = [c.id for c in f.combatants if c.down_round == number and c.id not in order]
    return {
        "round": number,
        "order": list(order),
        "names": [name(state, pid) for pid in order],
        "knocked_down": down,
    }


def end_data(state: CampaignState, f: Fight) -> dict[str, Any]:
    """TO-DF-1: a Defender nobody attacked gains 2; TO-E-2: Disengagers leave their engagements."""
    gains = []
    for c in fighting(state, f):
        d = declared(f, c.id)
        if d is not None and d.action == "defend" and d.state == "done" and not c.attacked:
            gains.append({"unit": c.unit, "participant": c.id, "name": name(state, c.id), "gain": 2})
    leaving = [c.id for c in f.combatants if c.disengaging]
    return {"round": f.round, "gains": gains, "disengaged": leaving}


def advance(sim: Sim) -> None:
    """Add every event that follows by itself, until someone has to act."""
    for _ in range(200):
        if not _step(sim):
            return


def _step(sim: Sim) -> bool:
    state = sim.state
    f = fight(state)
    if f is None or f.phase == "over":
        return False
    if f.round > 0 and (won := winner(state, f)) is not None:
        sim.add("tote.fight_over", {"winner": won, "round": f.round})
        return True
    if f.phase == "initiative":
        if f.units and all(u.value is not None for u in f.units):
            sim.add("tote.round_started", round_data(state, f, 1))
            return True
        return False
    if f.phase == "declare":
        if next_declarer(state, f) is None:
            sim.add("tote.resolution_started", {"round": f.round})
            return True
        return False
    if waiting_for(state) is not None:
        return False
    d = next_pending(state, f)
    if d is None:
        sim.add("tote.round_ended", end_data(state, f))
        sim.add("tote.round_started", round_data(sim.state, fight(sim.state), f.round + 1))  # type: ignore[arg-type]  # still on
        return True
    problem = combat.resolution_problem(state, d)
    if problem is not None:
        sim.add(*combat.lost(state, d, problem))
        return True
    if d.action in ROLLING:
        return False
    sim.add(*combat.resolve_action(state, None, d))
    return True
