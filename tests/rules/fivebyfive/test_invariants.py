"""Hypothesis: random fights never let a move exceed its allowance (FX-M-1), never take an Ability
below -1 (FX-H-3), and never let a dead (or unconscious) character act."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.errors import RuleError
from app.rules.fivebyfive.state import ABILITIES, ACTIONS, allowance, ext
from app.rules.system import Ctx
from tests.rules.fivebyfive.harness import SEATS, Table


class DrawnRoller:
    """Dice drawn by Hypothesis, one face at a time, as a physical die would give them."""

    def __init__(self, data):
        self.data = data

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        return tuple(self.data.draw(st.integers(1, sides), label="face") for _ in range(count))


abilities = st.integers(1, 4)
ranks = st.integers(0, 4)


@st.composite
def sheets(draw):
    sheet = {a: draw(abilities) for a in ABILITIES}
    sheet |= {r: draw(ranks) for r in ("strike", "aim", "focus", "parry", "dodge", "resist")}
    return sheet


def spot(draw) -> list[float]:
    return [draw(st.floats(0, 12, allow_nan=False)), draw(st.floats(0, 8, allow_nan=False))]


def run(t: Table, who: str, type_: str, roller, **fields):
    _, command = t.game.parse({"type": type_, **fields})
    new = t.game.decide(t.state, command, Ctx(roller, t.viewer(who)))
    return t._append([(e.type, e.data, e.audience, e.encounter) for e in new], SEATS[who][0])


def seat_for(t: Table, pid: str) -> str:
    owner = t.state.participant(pid).owner
    return {"seat-ann": "ann", "seat-ben": "ben"}.get(owner, "gm")


def check(t: Table) -> None:
    five = ext(t.state)
    for c in five.characters:
        assert min(c.current.values()) >= -1, c
        values = c.current.values()
        if min(values) < 0 or values.count(0) >= 2:
            assert c.status == "dead"
        elif 0 in values:
            assert c.status != "ok"
    fight = five.fight
    if fight and fight.current:
        assert fight.moved <= allowance(fight.initiative_of(fight.current)) + 1e-9
        assert five.character(fight.current).able
    if fight:
        for entry in fight.order:
            c = five.character(entry.participant)
            assert c is not None


@pytest.mark.rule("FX-M-1")
@pytest.mark.rule("FX-H-3")
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_fights_keep_moves_abilities_and_the_dead_in_check(data):
    fallen = data.draw(st.booleans(), label="fallen targets")
    t = Table(settings={"fallen_can_be_targeted": fallen})
    t.cast(aria=data.draw(sheets()), brick=data.draw(sheets()), goblin=data.draw(sheets()))
    t.start(tokens={"Aria": spot(data.draw), "Goblin": spot(data.draw), "Brick": spot(data.draw)})
    roller = DrawnRoller(data)
    walked: dict[tuple[int, str], float] = {}
    for _ in range(data.draw(st.integers(5, 60), label="steps")):
        state = t.state
        fight = ext(state).fight
        if fight is None or fight.winner is not None:
            break
        try:
            if state.prompts:
                prompt = data.draw(st.sampled_from(state.prompts), label="prompt")
                choice = data.draw(st.sampled_from([c.key for c in prompt.choices]), label="choice")
                events = run(t, "gm", prompt.answer, roller, prompt=prompt.id, choice=choice)
            elif fight.current is None:
                events = run(t, "gm", "fivebyfive.roll_initiative", roller)
            else:
                pid = fight.current
                who = seat_for(t, pid)
                what = data.draw(st.sampled_from(["move", "move", "attack", "attack", "end"]), label="what")
                if what == "move":
                    x, y = spot(data.draw)
                    events = run(t, who, "fivebyfive.move", roller, x=x, y=y)
                elif what == "attack":
                    action = data.draw(st.sampled_from(ACTIONS), label="action")
                    target = data.draw(st.sampled_from(["Aria", "Brick", "Goblin"]), label="target")
                    events = run(t, who, f"fivebyfive.{action}", roller, target=target)
                else:
                    events = run(t, who, "fivebyfive.end_turn", roller)
        except RuleError:
            assert t.state is state  # a refusal changes nothing
            continue
        for event in events:
            d = event.data
            actor = d.get("attacker") or (d.get("participant") if event.type == "fivebyfive.moved" else None)
            if event.type in ("fivebyfive.moved", "fivebyfive.attacked"):
                c = ext(state).character(actor)
                assert c.able, f"{c.status} {c.participant} acted"
            if event.type == "fivebyfive.moved":
                key = (ext(state).fight.round, ext(state).fight.turn)
                walked[key] = walked.get(key, 0.0) + math.dist(d["from"], d["to"])
                assert walked[key] <= d["allowance"] + 1e-6
                assert d["moved"] <= d["allowance"]
            if event.type == "fivebyfive.round_started":
                for entry in d["order"]:
                    assert ext(state).character(entry["participant"]).able
        check(t)
