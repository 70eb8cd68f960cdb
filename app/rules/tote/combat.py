"""Resolving TOTE actions: to-hit, damage, Effect tests, criticals, injuries (TO-H-*, TO-C-*).

Each function reads the state, rolls through the roller and returns event specs
`(type, data)`; the reducers apply them. Numbers the players may not see (an enemy's Block,
Resist or Rating) are left out of the event unless the GM's setting shows them.
"""

from __future__ import annotations

from typing import Any

from app.rules.campaign.state import CampaignState
from app.rules.dice import Roller
from app.rules.tote import rolls
from app.rules.tote.model import ACTION_NAMES, BAND_NAMES, COSTS, Declaration, Enemy, Hero, Weapon
from app.rules.tote.rules import (
    SKILL_OF,
    block_of,
    blocked_faces,
    combatant,
    declared,
    fight,
    intimidate_target,
    is_engaged,
    name,
    out_reason,
    resist_of,
    settings,
    sheet,
    shoot_modifier,
    step,
    test_numbers,
    unit_of,
    weapon,
    weapons_for,
)

Spec = tuple[str, dict[str, Any]]


def show_numbers(state: CampaignState, pid: str) -> bool:
    """A hero's numbers are the table's; an enemy's stay with the GM unless the setting shows them."""
    return isinstance(sheet(state, pid), Hero) or settings(state).show_enemy_numbers


def roll_test(
    state: CampaignState, roller: Roller, pid: str, label: str, dice: int, modifier: int, target: int
) -> rolls.TestRoll:
    st = settings(state)
    blocked = blocked_faces(state, pid)
    if isinstance(sheet(state, pid), Hero):
        return rolls.hero_test(roller, label, dice, blocked, modifier, target, st.keep_die, st.double_six)
    return rolls.enemy_test(roller, label, dice, blocked, modifier, target, st.double_six)


def damage_marks(resolve: int, encumbrance: int, damage: int) -> tuple[int, int]:
    """TO-H-4: (Resolve lost, injury marks) for `damage` points of Resolve damage.

    Resolve absorbs what it can. Points it cannot absorb (Resolve exhausted) are each marked;
    otherwise one mark if the hit leaves Resolve under Encumbrance.
    """
    if damage <= 0:
        return 0, 0
    absorbed = min(resolve, damage)
    excess = damage - absorbed
    if excess > 0:
        return absorbed, excess
    return absorbed, 1 if resolve - absorbed < encumbrance else 0


def _effects(
    roller: Roller, w: Weapon, count: int, resist: int, label: str, show: bool
) -> tuple[list[dict[str, Any]], int]:
    tests = [rolls.effect_test(roller, f"{label} {i + 1}", w.effect, resist) for i in range(count)]
    return [t.as_dict(show) for t in tests], sum(1 for t in tests if t.passed)


def critical_effect(
    roller: Roller, w: Weapon, successes: int, resist: int, show: bool
) -> tuple[int, int, bool, list[dict[str, Any]]]:
    """TO-C-1..3: (extra damage, injury marks, knocked down, Effect tests) of a weapon's Critical type."""
    if w.critical == "slash":
        return w.base * successes, 0, False, []
    tests, passed = _effects(roller, w, successes, resist, "Effect test", show)
    if w.critical == "bash":
        return 0, 0, passed > 0, tests
    return 0, passed, False, tests


def strike(
    state: CampaignState,
    roller: Roller,
    attacker: str,
    defender: str,
    action: str,
    weapon_index: int | None,
    kind: str = "action",
    declaration: Declaration | None = None,
    spend: int = 0,
) -> dict[str, Any]:
    """A to-hit test and its damage (TO-H-1..4), or an Assault's critical effect (TO-AS-1)."""
    f = fight(state)
    assert f is not None
    a, d = sheet(state, attacker), sheet(state, defender)
    assert a is not None and d is not None
    w = weapon(a, weapon_index)
    dice, modifier = test_numbers(state, attacker, SKILL_OF[action])
    if action == "shoot":
        modifier += shoot_modifier(f, defender)
    show = show_numbers(state, defender)
    test = roll_test(
        state, roller, attacker, f"{ACTION_NAMES[action]} to-hit", dice, modifier, block_of(state, defender)
    )
    resist = resist_of(state, defender)
    damage = pierce = 0
    knocked = False
    effects: list[dict[str, Any]] = []
    how = "miss"
    if test.passed:
        bonuses = test.score.bonuses
        if action == "assault" and kind == "action":
            how = "assault"
            damage, pierce, knocked, effects = critical_effect(roller, w, test.successes, resist, show)
        elif test.score.critical:
            how = "critical"
            extra, pierce, knocked, effects = critical_effect(roller, w, test.successes, resist, show)
            damage = w.base + extra
        else:
            how = "hit"
            damage = w.base
            if bonuses:
                effects, passed = _effects(roller, w, 1, resist, "Bonus Effect test", show)
                damage += w.base * bonuses * passed
    absorbed, marks = damage_marks(d.resolve, d.encumbrance, damage)
    marks = min(marks + pierce, len(d.track) - d.injuries)
    marked = list(d.track[d.injuries : d.injuries + marks])
    out = None
    if d.injuries + marks >= len(d.track):
        out = "unconscious" if isinstance(d, Hero) else "defeated"
    melee = action != "shoot"
    engage = (
        melee
        and not knocked
        and out is None
        and (damage > 0 or marks > 0 or (action == "grapple" and test.passed))
    )
    data: dict[str, Any] = {
        "declaration": declaration.id if declaration else None,
        "kind": kind,
        "action": action,
        "actor": attacker,
        "actor_name": name(state, attacker),
        "target": defender,
        "target_name": name(state, defender),
        "weapon": w.model_dump(),
        "spend": spend,
        "test": test.as_dict(show),
        "roll": test.as_roll(),
        "how": how,
        "effects": effects,
        "rolls": [e["roll"] for e in effects],  # the Effect dice, for the log beside the to-hit `roll`
        "damage": damage,
        "absorbed": absorbed,
        "marks": marks,
        "marked": marked,
        "out": out,
        "engage": engage,
        "knocked_down": knocked,
        "down_round": f.round + 1 if knocked else None,
    }
    if not show and isinstance(d, Enemy):
        # An enemy's Resolve and track are the GM's: the table hears that it is hurt or wounded, and a
        # GM-only event carries the exact numbers (and applies them).
        data["harm"] = "wounded" if marks else "hurt" if absorbed else None
        data["secret"] = enemy_resolve(state, defender, -absorbed, marks, marked, "attacked")
        for key in ("absorbed", "marks", "marked"):
            del data[key]
    prompt = response_prompt(state, attacker, defender, action, kind, out)
    if prompt:
        data["ask"] = prompt
    if knocked and isinstance(d, Hero) and out is None:
        data["notice"] = {
            "to": defender,
            "kind": "tote.knocked_down",
            "text": f"{name(state, defender)} is knocked down: no action next round.",
            "answer": "tote.answer",
            "choices": [("ok", "Understood")],
            "data": {"down_round": f.round + 1},
        }
    return data


def enemy_resolve(
    state: CampaignState, pid: str, change: int, marks: int, marked: list[str], why: str
) -> dict[str, Any]:
    """The GM-only `tote.enemy_resolve` event: an enemy's exact Resolve change and injuries marked."""
    s = sheet(state, pid)
    assert s is not None
    return {
        "participant": pid,
        "name": name(state, pid),
        "why": why,
        "change": change,
        "resolve": max(0, min(s.resolve_max, s.resolve + change)),
        "resolve_max": s.resolve_max,
        "marks": marks,
        "marked": marked,
    }


def response_prompt(
    state: CampaignState, attacker: str, defender: str, action: str, kind: str, out: str | None
) -> dict[str, Any] | None:
    """Assault's return attack (TO-AS-1) and Defend's answer (TO-DF-1), as one choice for the defender."""
    f = fight(state)
    assert f is not None
    if kind != "action" or action == "shoot" or out is not None:
        return None
    c = combatant(f, defender)
    d = declared(f, defender)
    if c is None or d is None:
        return None
    choices = []
    if action == "assault" and d.state == "pending":
        choices.append(("return", "Return an attack (Strike): your action this round"))
    answers_left = settings(state).defend_responses == "every" or c.responses == 0
    if d.action == "defend" and d.state in ("pending", "done") and answers_left:
        choices += [("strike", "Defend: answer with a Strike"), ("grapple", "Defend: answer with a Grapple")]
    if not choices:
        return None
    who, by = name(state, defender), name(state, attacker)
    return {
        "to": defender,
        "kind": "tote.respond",
        "text": f"{by} {ACTION_NAMES[action].lower()}s {who}: answer?",
        "answer": "tote.answer",
        "choices": [*choices, ("pass", "Let it go")],
        "data": {"attacker": attacker, "defender": defender, "declaration": d.id},
    }


# --- the other actions ----------------------------------------------------------------------------


def intimidate(state: CampaignState, roller: Roller, d: Declaration, spend: int) -> Spec:
    """TO-IM-1: Impress against 7 + Rating (or Stag); each success takes 1 from the foe's Initiative."""
    f = fight(state)
    assert f is not None and d.target is not None
    dice, modifier = test_numbers(state, d.actor, "impress")
    test = roll_test(state, roller, d.actor, "Intimidate", dice, modifier, intimidate_target(state, d.target))
    foe_unit = unit_of(f, d.target)
    lost = min(test.successes, foe_unit.value or 0)
    return "tote.intimidated", {
        "declaration": d.id,
        "actor": d.actor,
        "actor_name": name(state, d.actor),
        "target": d.target,
        "target_name": name(state, d.target),
        "spend": spend,
        "test": test.as_dict(show_numbers(state, d.target)),
        "roll": test.as_roll(),
        "unit": foe_unit.id,
        "lost": lost,
    }


def move(state: CampaignState, d: Declaration, spend: int) -> Spec:
    f = fight(state)
    c = combatant(f, d.actor) if f else None
    assert c is not None and d.direction is not None
    to = step(c.band, d.direction)
    return "tote.moved", {
        "declaration": d.id,
        "actor": d.actor,
        "actor_name": name(state, d.actor),
        "spend": spend,
        "from": c.band,
        "to": to,
        "direction": d.direction,
    }


def recover(state: CampaignState, d: Declaration, spend: int) -> Spec:
    """TO-RC-1: regain 2 Resolve, never above the starting total."""
    s = sheet(state, d.actor)
    assert s is not None
    gained = max(0, min(2, s.resolve_max - s.resolve))
    data: dict[str, Any] = {
        "declaration": d.id,
        "actor": d.actor,
        "actor_name": name(state, d.actor),
        "spend": spend,
        "gained": gained,
    }
    if not show_numbers(state, d.actor):
        # How much an enemy regains tells its Resolve: the exact number is the GM's.
        data["gained"] = None
        data["secret"] = enemy_resolve(state, d.actor, gained, 0, [], "recovered")
    return "tote.recovered", data


def simple(state: CampaignState, d: Declaration, spend: int) -> Spec:
    """Defend (TO-DF-1: ready to answer) and Disengage (TO-E-2: free of engagements next round)."""
    event = {"defend": "tote.defending", "disengage": "tote.disengaging"}[d.action]
    return event, {"declaration": d.id, "actor": d.actor, "actor_name": name(state, d.actor), "spend": spend}


def lost(state: CampaignState, d: Declaration, reason: str) -> Spec:
    return "tote.action_lost", {
        "declaration": d.id,
        "actor": d.actor,
        "actor_name": name(state, d.actor),
        "action": d.action,
        "reason": reason,
    }


def resolution_problem(state: CampaignState, d: Declaration) -> str | None:
    """Why a declared action can no longer happen when its turn comes (it is lost, at no cost)."""
    f = fight(state)
    assert f is not None
    c = combatant(f, d.actor)
    label = ACTION_NAMES[d.action]
    if d.target is not None:
        t = combatant(f, d.target)
        why = out_reason(state, d.target)
        if t is None or why is not None:
            return f"{name(state, d.target)} is {why or 'gone'}: the {label} finds no foe."
        if d.action in ("assault", "attack", "grapple", "intimidate") and t.band != "melee":
            return f"{name(state, d.target)} is now at {BAND_NAMES[t.band]} range: out of reach (TO-R-2)."
    who = name(state, d.actor)
    if c is not None and d.action in ("shoot", "move") and is_engaged(f, d.actor):
        rule = "TO-SH-1" if d.action == "shoot" else "TO-MV-1"
        return f"{who} is now engaged: {label} needs you unengaged ({rule})."
    value = unit_of(f, d.actor).value or 0
    if COSTS[d.action] > value and settings(state).short_initiative == "lost":
        return f"{who} has only {value} Initiative left for a {label} costing {COSTS[d.action]} (TO-I-3)."
    return None


def spend_for(state: CampaignState, d: Declaration) -> int:
    """TO-I-3: the cost, but Initiative never drops below 0."""
    f = fight(state)
    assert f is not None
    return min(COSTS[d.action], unit_of(f, d.actor).value or 0)


def resolve_action(state: CampaignState, roller: Roller | None, d: Declaration) -> Spec:
    """Resolve a declared action (its turn has come and nothing stops it)."""
    spend = spend_for(state, d)
    if d.action in ("assault", "attack", "grapple", "shoot"):
        assert roller is not None and d.target is not None
        return "tote.attacked", strike(
            state, roller, d.actor, d.target, d.action, d.weapon, "action", d, spend
        )
    if d.action == "intimidate":
        assert roller is not None
        return intimidate(state, roller, d, spend)
    if d.action == "move":
        return move(state, d, spend)
    if d.action == "recover":
        return recover(state, d, spend)
    return simple(state, d, spend)


def answer_attack(
    state: CampaignState, roller: Roller, responder: str, attacker: str, choice: str
) -> dict[str, Any]:
    """A return attack (a standard Attack) or a Defend answer (Strike or Grapple), at no cost."""
    s = sheet(state, responder)
    assert isinstance(s, Hero | Enemy)
    action = "grapple" if choice == "grapple" else "attack"
    options = weapons_for(s, action)
    kind = "return" if choice == "return" else "response"
    return strike(state, roller, responder, attacker, action, options[0] if options else -1, kind)
