"""Building a command's events one by one, and what follows an action: hits, turns, rounds, victory.

A `Batch` folds each event it adds through the 5x5 reducers onto a scratch copy of the state, so
the next decision (whose turn is next, did a side fall) sees what the earlier events did. The
reducers stay pure; the service folds the same events again for real.
"""

from __future__ import annotations

from typing import Any

from app.rules.campaign.state import CampaignState
from app.rules.fivebyfive import tactics
from app.rules.fivebyfive.reducers import REDUCERS
from app.rules.fivebyfive.state import ABILITIES, ext, side_of
from app.rules.system import Event, NewEvent


class Batch:
    def __init__(self, state: CampaignState):
        self.base = state
        self.state = state
        self.events: list[NewEvent] = []
        self._prompts = 0

    def add(self, type_: str, data: dict[str, Any], audience: str = "all") -> None:
        event = NewEvent(type=type_, data=data, audience=audience)
        self.events.append(event)
        reducer = REDUCERS.get(type_)
        if reducer is not None:
            stored = Event(seq=self.state.seq + 1, type=type_, data=data, audience=audience)
            self.state = reducer(self.state, stored)

    def gm_note(self, text: str, **data: Any) -> None:
        self.add("fivebyfive.gm_note", {"text": text, **data}, audience="gm")

    def prompt_id(self) -> str:
        """A fresh prompt id: from the seq this command's first event will get."""
        self._prompts += 1
        return f"fx{self.base.seq + 1}-{self._prompts}"


def name(state: CampaignState, pid: str) -> str:
    return state.participant(pid).name


def audience_for(state: CampaignState, *pids: str) -> str:
    """Public, unless one of these characters is hidden or out of the party's sight."""
    return "all" if all(tactics.shown(state, pid) for pid in pids) else "gm"


# --- hits ------------------------------------------------------------------------------------------


def resolve_next_hit(batch: Batch) -> None:
    """Ask for the damage of the next hit that was not Blocked, or close the action (FX-H-1, FX-C-2)."""
    state = batch.state
    fight = ext(state).fight
    assert fight is not None and fight.attack is not None
    attack = fight.attack
    defender = ext(state).character(attack.defender)
    landed = [i for i, outcome in enumerate(attack.outcomes) if outcome != "blocked"]
    done = len(attack.damage)
    if defender is None or defender.status == "dead" or done >= len(landed):
        finish_attack(batch)
        return
    index = landed[done]
    controlled = attack.outcomes[index] == "controlled"
    chooser = attack.defender if controlled else attack.attacker
    d_name, c_name = name(state, attack.defender), name(state, chooser)
    of = f" (hit {index + 1} of {attack.hits})" if attack.hits > 1 else ""
    if controlled:
        text = f"{d_name} Controlled the Hit: choose which of your Abilities drops by 1{of}."
    else:
        text = f"{d_name} did not Control the Hit: choose which of {d_name}'s Abilities drops by 1{of}."
    show_values = side_of(state.participant(attack.defender)) == "pc" or controlled
    choices = [
        {
            "key": a,
            "label": a.capitalize(),
            "hint": f"{defender.current.get(a)} → {defender.current.get(a) - 1}" if show_values else "",
        }
        for a in ABILITIES
    ]
    batch.add(
        "fivebyfive.damage_due",
        {
            "prompt": batch.prompt_id(),
            "to": chooser,
            "chooser": chooser,
            "chooser_name": c_name,
            "defender": attack.defender,
            "defender_name": d_name,
            "controlled": controlled,
            "hit": index + 1,
            "of": attack.hits,
            "text": text,
            "choices": choices,
        },
    )


def finish_attack(batch: Batch) -> None:
    """FX-K-1: two hits on one Ability knock the defender out; then the attacker's turn ends."""
    fight = ext(batch.state).fight
    assert fight is not None and fight.attack is not None
    attack = fight.attack
    defender = ext(batch.state).character(attack.defender)
    if (
        defender is not None
        and len(attack.damage) == 2
        and attack.damage[0] == attack.damage[1]
        and defender.status == "ok"
    ):
        batch.add(
            "fivebyfive.knocked_out",
            {
                "participant": attack.defender,
                "name": name(batch.state, attack.defender),
                "ability": attack.damage[0],
                "status": "unconscious",
            },
        )
    end_turn(batch, "attacked")


def end_turn(batch: Batch, reason: str) -> None:
    """The current turn ends; then victory (FX-R-1), the next able character, or the round's end."""
    state = batch.state
    fight = ext(state).fight
    assert fight is not None
    pid = fight.current
    if pid is not None:
        batch.add(
            "fivebyfive.turn_ended",
            {"participant": pid, "name": name(state, pid), "reason": reason},
            audience=audience_for(state, pid) if reason != "attacked" else "all",
        )
    fallen = tactics.eliminated_side(batch.state)
    if fallen is not None:
        win(batch, "pc" if fallen == "npc" else "npc")
        return
    next_turn(batch)


def next_turn(batch: Batch) -> None:
    """FX-I-1 / FX-R-1: the next combatant in the order who can still act; skip the fallen."""
    state = batch.state
    fight = ext(state).fight
    assert fight is not None
    for index in range(fight.turn + 1, len(fight.order)):
        entry = fight.order[index]
        if tactics.able(state, entry.participant):
            p = state.participant(entry.participant)
            batch.add(
                "fivebyfive.turn_started",
                {
                    "round": fight.round,
                    "index": index,
                    "participant": p.id,
                    "name": p.name,
                    "initiative": entry.initiative,
                    "allowance": max(entry.initiative, 1),
                },
                audience=audience_for(state, p.id),
            )
            return
    batch.add("fivebyfive.round_ended", {"round": fight.round})


def win(batch: Batch, winner: str) -> None:
    """FX-R-1 / FX-V-1: the other side is out; each conscious winner regains 1 in a Damaged Ability."""
    state = batch.state
    winners = [p for p in tactics.roster(state) if side_of(p) == winner]
    batch.add(
        "fivebyfive.combat_won",
        {"winner": winner, "names": [p.name for p in winners if not p.hidden]},
    )
    for p in winners:
        c = ext(batch.state).character(p.id)
        if c is None or not c.able or not c.damaged():
            continue
        audience = "gm" if p.hidden or side_of(p) == "npc" else "all"
        damaged = c.damaged()
        if len(damaged) == 1:
            data: dict[str, Any] = {
                "participant": p.id,
                "name": p.name,
                "ability": damaged[0],
                "prompt": None,
            }
            if side_of(p) == "pc":
                data.update({"from": c.current.get(damaged[0]), "to": c.current.get(damaged[0]) + 1})
            batch.add("fivebyfive.rushed", data, audience=audience)
            continue
        batch.add(
            "fivebyfive.rush_due",
            {
                "prompt": batch.prompt_id(),
                "to": p.id,
                "participant": p.id,
                "name": p.name,
                "text": f"Victory Rush! {p.name} regains 1 point in a Damaged Ability.",
                "choices": [
                    {
                        "key": a,
                        "label": a.capitalize(),
                        "hint": f"{c.current.get(a)} → {c.current.get(a) + 1} (of {c.scores.get(a)})",
                    }
                    for a in damaged
                ],
            },
            audience=audience,
        )
