"""What a TOTE viewer may do now, each option with its exact odds."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from app.rules.campaign.state import CampaignState, check_answer
from app.rules.errors import RuleError
from app.rules.system import Band, Option, Prompt, Viewer
from app.rules.tote import odds
from app.rules.tote.commands import GM_MAY_ANSWER
from app.rules.tote.flow import waiting_for
from app.rules.tote.model import ACTION_NAMES, ATTACKS, BAND_NAMES, COSTS, Enemy, Fight, Hero
from app.rules.tote.rules import (
    SKILL_OF,
    action_problem,
    block_of,
    blocked_faces,
    combatant,
    declared,
    fight,
    foes,
    intimidate_target,
    move_problem,
    name,
    next_declarer,
    next_pending,
    settings,
    sheet,
    shoot_modifier,
    target_problem,
    test_numbers,
    weapon,
    weapons_for,
)

# --- odds -----------------------------------------------------------------------------------------


def test_outcomes(
    state: CampaignState, pid: str, skill: str, modifier: int, target: int
) -> dict[odds.Outcome, Fraction]:
    st = settings(state)
    dice, mod = test_numbers(state, pid, skill)
    blocked = blocked_faces(state, pid)
    if isinstance(sheet(state, pid), Hero):
        return odds.hero_outcomes(dice, blocked, mod + modifier, target, st.keep_die, st.double_six)
    return odds.enemy_outcomes(dice, blocked, mod + modifier, target, st.double_six)


def hit_odds(state: CampaignState, attacker: str, defender: str, action: str) -> tuple[Band, ...]:
    """The to-hit test against the foe's Block (TO-H-1), with Shoot's -2 at an engaged foe."""
    f = fight(state)
    assert f is not None
    modifier = shoot_modifier(f, defender) if action == "shoot" else 0
    return odds.hit_bands(
        test_outcomes(state, attacker, SKILL_OF[action], modifier, block_of(state, defender))
    )


def intimidate_odds(state: CampaignState, actor: str, target: str) -> tuple[Band, ...]:
    outcomes = test_outcomes(state, actor, "impress", 0, intimidate_target(state, target))
    by = odds.successes(outcomes)
    return tuple(Band.of(f"-{n} Initiative" if n else "No effect", p) for n, p in by.items())


def _dice_hint(state: CampaignState, pid: str, skill: str) -> str:
    dice, mod = test_numbers(state, pid, skill)
    blocked = sorted(blocked_faces(state, pid))
    if isinstance(sheet(state, pid), Hero):
        text = f"{skill.capitalize()} {dice}d6 + Paragon" + (f" {mod:+d}" if mod else "")
    else:
        text = f"{dice}d6, two highest"
    return text + (f" · {', '.join(map(str, blocked))} unusable" if blocked else "")


# --- options --------------------------------------------------------------------------------------


def _declare_options(state: CampaignState, f: Fight, pid: str) -> list[Option]:
    out: list[Option] = []
    s = sheet(state, pid)
    assert s is not None
    who = name(state, pid)
    for action in COSTS:
        label = f"{ACTION_NAMES[action]} ({COSTS[action]})"
        base = {"type": "tote.declare", "participant": pid, "action": action}
        problem = action_problem(state, f, pid, action)
        if problem is not None:
            out.append(
                Option(
                    id=f"declare-{pid}-{action}",
                    label=label,
                    command=base,
                    participant=pid,
                    enabled=False,
                    reason=f"{problem.message} ({problem.rule})" if problem.rule else problem.message,
                    group="declare",
                )
            )
            continue
        if action in ATTACKS or action == "intimidate":
            out.extend(_aimed(state, f, pid, action, label, base))
        elif action == "move":
            c = combatant(f, pid)
            assert c is not None
            for direction in ("closer", "further"):
                bad = move_problem(f, c, direction)
                fleeing = direction == "further" and c.band == "far"
                out.append(
                    Option(
                        id=f"declare-{pid}-move-{direction}",
                        label=f"Move {direction}" + (" (flee)" if fleeing else ""),
                        command={**base, "direction": direction},
                        participant=pid,
                        enabled=bad is None,
                        reason=bad.message if bad else None,
                        group="declare",
                        hint=f"from {BAND_NAMES[c.band]}",
                    )
                )
        else:
            out.append(
                Option(
                    id=f"declare-{pid}-{action}",
                    label=label,
                    command=base,
                    participant=pid,
                    group="declare",
                    hint=who,
                )
            )
    return out


def _aimed(state: CampaignState, f: Fight, pid: str, action: str, label: str, base: dict) -> list[Option]:
    s = sheet(state, pid)
    assert s is not None
    out = []
    first_problem = None
    for foe in foes(state, f, pid):
        problem = target_problem(state, f, pid, action, foe.id)
        if problem is not None:
            first_problem = first_problem or problem
            continue
        indexes: Sequence[int | None] = weapons_for(s, action) or [None]
        for index in indexes:
            if action == "intimidate":
                bands, hint = intimidate_odds(state, pid, foe.id), _dice_hint(state, pid, "impress")
            else:
                bands = hit_odds(state, pid, foe.id, action)
                hint = f"{weapon(s, index).name} · {_dice_hint(state, pid, SKILL_OF[action])} vs Block"
                if action == "shoot" and shoot_modifier(f, foe.id):
                    hint += " · -2, engaged target"
            command = {**base, "target": foe.id}
            if index is not None:
                command["weapon"] = index
            out.append(
                Option(
                    id=f"declare-{pid}-{action}-{foe.id}-{index}",
                    label=f"{label} {name(state, foe.id)}",
                    command=command,
                    participant=pid,
                    odds=bands,
                    group="declare",
                    hint=hint,
                )
            )
    if not out and first_problem is not None:
        out.append(
            Option(
                id=f"declare-{pid}-{action}",
                label=label,
                command=base,
                participant=pid,
                enabled=False,
                reason=f"{first_problem.message} ({first_problem.rule})",
                group="declare",
            )
        )
    return out


def _resolve_option(state: CampaignState, f: Fight, viewer: Viewer) -> list[Option]:
    d = next_pending(state, f)
    if d is None or not viewer.controls(d.actor) or waiting_for(state) is not None:
        return []
    bands: tuple[Band, ...] = ()
    hint = ""
    if d.target and d.action in ATTACKS:
        bands = hit_odds(state, d.actor, d.target, d.action)
        s = sheet(state, d.actor)
        assert s is not None
        w = weapon(s, d.weapon)
        # Physical dice: say what a pass may ask for next (TO-H-3: one Effect test for a Bonus or a
        # double 6; a Critical, under the setting, one per success).
        per = "success on a Critical" if settings(state).double_six == "critical" else "Bonus or double 6"
        effect = f" · then {w.effect}d6 Effect dice per {per}" if w.effect else ""
        hint = f"{w.name} · {_dice_hint(state, d.actor, SKILL_OF[d.action])}{effect}"
    elif d.target and d.action == "intimidate":
        bands = intimidate_odds(state, d.actor, d.target)
        hint = _dice_hint(state, d.actor, "impress")
    target = f" {name(state, d.target)}" if d.target else ""
    return [
        Option(
            id=f"resolve-{d.id}",
            label=f"{name(state, d.actor)}: {ACTION_NAMES[d.action]}{target}",
            command={"type": "tote.resolve", "declaration": d.id},
            participant=d.actor,
            odds=bands,
            group="resolve",
            hint=hint,
            rolls=True,
        )
    ]


def may_answer(state: CampaignState, p: Prompt, viewer: Viewer) -> bool:
    """Whether `tote.answer` would take this viewer's answer (the GM's for anyone: GM_MAY_ANSWER)."""
    if not p.kind.startswith("tote.") or viewer.role == "spectator":
        return False
    try:
        check_answer(state, p.id, viewer, gm_may_answer=GM_MAY_ANSWER)
    except RuleError:
        return False
    return True


def _answer_options(state: CampaignState, viewer: Viewer) -> list[Option]:
    out = []
    for p in state.prompts:
        if not may_answer(state, p, viewer):
            continue
        for choice in p.choices:
            bands: tuple[Band, ...] = ()
            hint = ""
            if choice.key in ("return", "strike", "grapple"):
                action = "grapple" if choice.key == "grapple" else "attack"
                bands = hit_odds(state, p.data["defender"], p.data["attacker"], action)
                hint = f"{_dice_hint(state, p.data['defender'], SKILL_OF[action])} vs Block · no Initiative"
            out.append(
                Option(
                    id=f"answer-{p.id}-{choice.key}",
                    label=choice.label,
                    command={"type": "tote.answer", "prompt": p.id, "choice": choice.key},
                    participant=p.to,
                    odds=bands,
                    group="answer",
                    hint=hint,
                    rolls=bool(bands),
                )
            )
    return out


def _initiative_options(state: CampaignState, f: Fight, viewer: Viewer) -> list[Option]:
    out = []
    for u in f.units:
        if u.value is not None or not all(viewer.controls(m) for m in u.members):
            continue
        first = sheet(state, u.members[0])
        hint = _dice_hint(state, u.members[0], "plan") + " vs 8"
        if isinstance(first, Hero):
            outcomes = test_outcomes(state, first.id, "plan", 0, 8)
            base = first.totems.get("hawk", 0)
            hint += f" + Hawk {base}"
        else:
            rating = max(m.rating for m in (sheet(state, x) for x in u.members) if isinstance(m, Enemy))
            outcomes = odds.enemy_outcomes(rating, frozenset(), 0, 8, settings(state).double_six)
            base = rating
        bands = tuple(Band.of(f"Initiative {n + base}", p) for n, p in odds.successes(outcomes).items())
        out.append(
            Option(
                id=f"initiative-{u.id}",
                label=f"Roll Initiative: {', '.join(name(state, m) for m in u.members)}",
                command={"type": "tote.roll_initiative", "participant": u.members[0]},
                participant=u.members[0],
                odds=bands,
                group="initiative",
                hint=hint if isinstance(first, Hero) or viewer.is_gm else "",
                rolls=True,
            )
        )
    return out


def options(state: CampaignState, viewer: Viewer) -> list[Option]:
    f = fight(state)
    if f is None or viewer.role == "spectator" or f.phase == "over":
        return []
    out = _initiative_options(state, f, viewer)
    if f.phase == "declare":
        pid = next_declarer(state, f)
        if pid is not None and viewer.controls(pid) and declared(f, pid) is None:
            out.extend(_declare_options(state, f, pid))
    if f.phase == "resolve":
        out.extend(_resolve_option(state, f, viewer))
    out.extend(_answer_options(state, viewer))
    return out
