"""Hypothesis: random play through the offered options keeps the invariants.

TC-K-6 karma is conserved (only the GM's additions and Luck's +1 change the total); harm, stress, ammo,
Luck and pools never go negative; a dead character never acts; every enabled option is accepted (with dice
exactly when it says it rolls); replaying the log gives the same state.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.errors import RuleError
from tests.rules.trinity.conftest import Table

GM_TOOLS = [
    {"type": "trinity.inflict", "character": "Aria", "harm": 2},
    {"type": "trinity.inflict", "character": "Brick", "harm": 3, "armour": False},
    {"type": "trinity.inflict", "character": "Brick", "harm": 8, "armour": False},
    {"type": "trinity.inflict", "character": "Aria", "stress": 5},
    {"type": "trinity.inflict", "character": "Brick", "stress": 2},
    {"type": "trinity.inflict", "character": "Aria", "stress": 3},
    {"type": "trinity.add_karma", "pool": "good", "amount": 2},
    {"type": "trinity.add_karma", "pool": "bad", "amount": 2},
    {"type": "trinity.time_passes", "hours": 30},
    {"type": "trinity.set_advantage", "advantage": "team"},
    {"type": "trinity.set_advantage", "advantage": "enemy"},
]


def check_state(t: Table) -> None:
    s = t.t
    assert min(s.good, s.bad, s.aside_good, s.aside_bad) >= 0
    for c in s.characters:
        assert 0 <= c.harm <= c.harm_limit + 2
        assert 0 <= c.stress <= c.stress_limit
        assert c.luck >= 0
        for w in c.weapons:
            assert w.ammo >= 0 and w.spares >= 0
        assert c.armour is None or c.armour.threshold is None or c.armour.threshold >= 0
    for o in s.opponents:
        assert o.taken >= 0
    if s.move is None:
        assert s.aside_good == 0 and s.aside_bad == 0


ACTS = {"trinity.move_declared", "trinity.reloaded", "trinity.item_used", "trinity.good_spent"}


@pytest.mark.rule("TC-K-6")
@given(data=st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_play_keeps_the_invariants(data: st.DataObject):
    play(data)


def play(data: st.DataObject) -> None:
    """One random table: settings, karma, then steps through enabled options and GM tools."""
    settings_ = {
        "luck_per_move": data.draw(st.integers(1, 2)),
        "karma_window": data.draw(st.sampled_from(["when_points", "always"])),
        "doubles": data.draw(st.booleans()),
    }
    t = Table(settings=settings_).cast()
    t.fight(advantage=data.draw(st.sampled_from(["none", "team", "enemy"])))
    for pool in ("good", "bad"):
        if amount := data.draw(st.integers(0, 3)):
            t.do("gm", "trinity.add_karma", pool=pool, amount=amount)
    for _ in range(data.draw(st.integers(5, 30))):
        choices = [
            (who, o)
            for who in ("ann", "ben", "gm")
            for o in t.options(who)
            if o.enabled and o.command["type"].startswith("trinity.")
        ]
        use_tool = data.draw(st.integers(0, 9)) == 0 or not choices
        before_total = t.t.karma_total
        dead = {c.id for c in t.t.characters if c.dead}
        if use_tool:
            command = dict(data.draw(st.sampled_from(GM_TOOLS)))
            try:
                events = t.do("gm", command.pop("type"), **command)
            except RuleError:
                continue
        else:
            who, option = data.draw(st.sampled_from(choices))
            faces = data.draw(st.tuples(st.integers(1, 6), st.integers(1, 6))) if option.rolls else ()
            command = dict(option.command)
            events = t.do(who, command.pop("type"), faces, **command)  # an enabled option is always accepted
        check_state(t)
        delta = sum(e.data["to"] - e.data["from"] for e in events if e.type == "trinity.karma_added")
        delta += sum(1 for e in events if e.type == "trinity.luck_spent")
        assert t.t.karma_total == before_total + delta  # TC-K-6
        for e in events:
            if e.type in ACTS:
                actor = e.data.get("character") or (e.data.get("move") or {}).get("character")
                assert actor not in dead, f"a dead character acted: {e.type}"
        for c in t.t.characters:
            if c.dead:
                assert not any(
                    o.enabled
                    and o.participant == c.id
                    and o.command["type"] in ("trinity.move", "trinity.reload")
                    for who in ("ann", "ben")
                    for o in t.options(who)
                )
    assert t.game.replay(None, t.events) == t.state
    assert t.game.load(t.game.dump(t.state)) == t.state  # snapshots round-trip


@given(
    harm=st.lists(st.integers(0, 12), min_size=1, max_size=8),
    armour=st.integers(0, 3),
    threshold=st.one_of(st.none(), st.integers(0, 4)),
)
@settings(max_examples=80, deadline=None)
def test_harm_through_armour_never_negative_and_threshold_wears_down(harm, armour, threshold):
    from app.rules.trinity.state import Armour, through_armour

    a: Armour | None = Armour(value=armour, threshold=threshold)
    for amount in harm:
        before = a
        taken, absorbed, a = through_armour(amount, a)
        assert taken >= 0 and absorbed >= 0 and taken + absorbed == amount
        if absorbed:
            assert before.threshold is None or a.threshold == before.threshold - 1
        else:
            assert a == before
