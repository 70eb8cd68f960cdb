"""Hypothesis invariants over whole fights played by picking random offered options and dice.

- Initiative is never negative (TO-I-3).
- Resolve stays within 0 and its starting total (TO-H-4, TO-RC-1).
- Declarations follow the Initiative values from the lowest, resolutions from the highest (TO-I-2).
- The screens draw the Resolution order still due from the highest Initiative, what is done in the
  order it happened (TO-I-2).
- Injuries never pass the track's end; engagements only join two foes still fighting (TO-E-1, TO-J-2).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.system import Ctx
from app.rules.tote.rules import ext, fighting, next_pending, unit_of
from tests.rules.tote.table import AXE, BOW, CLUB, FANGS, SPEAR, Table

RESOLVING = {
    "tote.attacked",
    "tote.intimidated",
    "tote.moved",
    "tote.recovered",
    "tote.defending",
    "tote.disengaging",
}


class DrawnRoller:
    """Dice drawn by Hypothesis, one face at a time."""

    def __init__(self, data: st.DataObject):
        self.data = data

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        return tuple(self.data.draw(st.integers(1, sides), label="die") for _ in range(count))


def new_table(data: st.DataObject) -> Table:
    t = Table(
        keep_die=data.draw(st.sampled_from(["highest", "critical"])),
        double_six=data.draw(st.sampled_from(["critical", "bonuses"])),
        short_initiative=data.draw(st.sampled_from(["spend_to_zero", "lost"])),
        defend_responses=data.draw(st.sampled_from(["one", "every"])),
    )
    resolve = st.integers(0, 8)
    t.hero("Aiyana", weapons=[SPEAR, BOW], current_resolve=data.draw(resolve), armour=["Hide Cuirass"])
    t.hero("Tahoma", owner="ben", weapons=[AXE, CLUB], current_resolve=data.draw(resolve))
    for name, group in (("Grey Wolf", "Wolves"), ("Black Wolf", "Wolves"), ("Leader", None)):
        t.enemy(
            name,
            rating=data.draw(st.integers(1, 4)),
            resolve=4,
            current_resolve=data.draw(st.integers(0, 4)),
            track=["N", "3", "U"],
            weapons=[FANGS, BOW],
            group=group,
            encumbrance=data.draw(st.integers(0, 3)),
        )
    t.start(distance=data.draw(st.sampled_from(["far", "close"])))
    return t


def check_state(t: Table) -> None:
    x = ext(t.state)
    for s in (*x.heroes, *x.enemies):
        assert 0 <= s.resolve <= s.resolve_max, s
        assert 0 <= s.injuries <= len(s.track), s
    f = x.fight
    if f is None:
        return
    for u in f.units:
        assert u.value is None or u.value >= 0, u
    still = {c.id for c in fighting(t.state, f)}
    sides = {c.id: c.side for c in f.combatants}
    for a, b in f.engaged:
        assert a in still and b in still and sides[a] != sides[b]
    # What the screens draw follows the Initiative values too: the Declaration chips lowest first (as the
    # round began) and the Resolution chips still due highest first now.
    fv = t.view("gm")["system"]["fight"]
    value = {u["id"]: u["value"] or 0 for u in fv["units"]}
    unit_of_pid = {c["id"]: c["unit"] for c in fv["combatants"]}
    due = [d for d in fv["declarations"] if d["state"] == "pending"]
    due_order = [i for i in fv["resolution_order"] if i in {d["id"] for d in due}]
    by_id = {d["id"]: d for d in fv["declarations"]}
    values = [value[unit_of_pid[by_id[i]["actor"]]] for i in due_order]
    assert values == sorted(values, reverse=True), "resolution drawn out of order"
    # What happened, in the order it did; then what is due; then, as lost, the actions whose character
    # fell or fled before their turn (they never had a moment in the order: TO-J-2, ruling).
    happened = sorted(
        (d for d in fv["declarations"] if d["finished"] is not None), key=lambda d: d["finished"]
    )
    fell = [d["id"] for d in fv["declarations"] if d["state"] != "pending" and d["finished"] is None]
    assert fv["resolution_order"][: len(happened)] == [d["id"] for d in happened]
    assert fv["resolution_order"][len(happened) : len(happened) + len(due)] == due_order
    assert sorted(fv["resolution_order"][len(happened) + len(due) :]) == sorted(fell)
    assert all(by_id[i]["state"] == "lost" and by_id[i]["why"] for i in fell)


def check_order(t: Table, before, event) -> None:
    """Fold one event, checking it came in Initiative order against the state before it."""
    f = ext(before).fight
    if event.type == "tote.declared":
        actor = event.data["declaration"]["actor"]
        mine = unit_of(f, actor).value
        undeclared = [
            c.id
            for c in fighting(before, f)
            if c.id != actor
            and c.id in f.order
            and not any(d.actor == c.id and d.round == f.round for d in f.declarations)
        ]
        assert all(unit_of(f, other).value >= mine for other in undeclared), "declared out of order"
    if (
        event.type in RESOLVING
        and event.data.get("declaration")
        and event.data.get("kind", "action") == "action"
    ):
        decl = next(d for d in f.declarations if d.id == event.data["declaration"])
        mine = unit_of(f, decl.actor).value
        others = [
            d for d in f.declarations if d.round == f.round and d.state == "pending" and d.id != decl.id
        ]
        assert all(unit_of(f, d.actor).value <= mine for d in others), "resolved out of order"
        assert next_pending(before, f).id == decl.id


def play(t: Table, data: st.DataObject, steps: int) -> None:
    gm = t.viewer("gm")
    for _ in range(steps):
        offered = [
            o
            for o in t.game.options(t.state, gm)
            if o.enabled and o.group in ("initiative", "declare", "resolve", "answer")
        ]
        if not offered:
            return
        option = data.draw(st.sampled_from(offered), label="option")
        _, command = t.game.parse(option.command)
        events = t.game.decide(t.state, command, Ctx(DrawnRoller(data), gm))
        count = len(t.events)
        t._append([(e.type, e.data, e.audience, e.encounter) for e in events], "seat-gm")
        # Re-fold the new events one by one to check each against the state before it.
        state = t.game.replay(None, t.events[:count])
        for event in t.events[count:]:
            check_order(t, state, event)
            state = t.game.evolve(state, event)
        check_state(t)


@pytest.mark.rule("TO-I-3")
@pytest.mark.rule("TO-I-2")
@pytest.mark.rule("TO-RC-1")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_fights_keep_initiative_resolve_and_order_invariants(data: st.DataObject):
    t = new_table(data)
    check_state(t)
    play(t, data, steps=60)
