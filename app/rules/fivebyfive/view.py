"""What each viewer sees of the 5x5 fight, and what they may do now with its exact odds.

Players and spectators never see an NPC's sheet (its Abilities, Ranks or the numbers its rolls
need), a hidden character, or (with fog of war) an NPC no conscious PC has in sight.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from app.rules.campaign.state import CampaignState, Participant
from app.rules.dice import fraction_text
from app.rules.fivebyfive import odds, tactics
from app.rules.fivebyfive.state import ACTIONS, DEFENCE_OF, Character, allowance, ext, settings, side_of
from app.rules.system import Option, Prompt, Viewer


def _may_see(state: CampaignState, p: Participant, viewer: Viewer) -> bool:
    if viewer.is_gm or p.id in viewer.participants:
        return True
    return not p.hidden and not tactics.out_of_sight(state, p.id)


def conceals(state: CampaignState, viewer: Viewer) -> frozenset[str]:
    """Fog of war: the NPCs on the tabletop no conscious PC can see are hidden from players and spectators."""
    if viewer.is_gm:
        return frozenset()
    return frozenset(p.id for p in state.participants if tactics.out_of_sight(state, p.id))


def _sheet_visible(p: Participant, viewer: Viewer) -> bool:
    return viewer.is_gm or side_of(p) == "pc" or p.id in viewer.participants


def _character_view(state: CampaignState, p: Participant, c: Character, viewer: Viewer) -> dict[str, Any]:
    out: dict[str, Any] = {
        "participant": p.id,
        "name": p.name,
        "kind": p.kind,
        "status": c.status,
        "mine": p.id in viewer.participants,
    }
    if _sheet_visible(p, viewer):
        out.update(
            scores=c.scores.model_dump(),
            current=c.current.model_dump(),
            ranks=c.ranks.model_dump(),
            shifts=c.shifts.model_dump(),
            damaged=list(c.damaged()),
        )
    return out


def view(state: CampaignState, viewer: Viewer) -> dict[str, Any]:
    five = ext(state)
    fight = five.fight
    current = fight.current if fight else None
    characters = []
    for c in five.characters:
        p = state.find_participant(c.participant)
        if p is not None and _may_see(state, p, viewer):
            characters.append(_character_view(state, p, c, viewer))
    tokens = []
    for t in five.board.tokens:
        p = state.find_participant(t.participant)
        if p is None or not (viewer.is_gm or tactics.shown(state, p.id)):
            continue
        sheet = five.character(p.id)
        tokens.append(
            {
                "participant": p.id,
                "name": p.name,
                "kind": p.kind,
                "x": t.x,
                "y": t.y,
                "status": sheet.status if sheet else None,
                "mine": p.id in viewer.participants,
                "current": p.id == current,
            }
        )
    board = five.board
    out: dict[str, Any] = {
        "settings": settings(state).model_dump(),
        "board": {
            "width": board.width,
            "height": board.height,
            "terrain": [t.model_dump() for t in board.terrain],
            "tokens": tokens,
        },
        "characters": characters,
        "fight": _fight_view(state, viewer) if fight else None,
    }
    return out


def _fight_view(state: CampaignState, viewer: Viewer) -> dict[str, Any]:
    fight = ext(state).fight
    assert fight is not None
    order = []
    for i, e in enumerate(fight.order):
        p = state.find_participant(e.participant)
        if p is None or not _may_see(state, p, viewer):
            continue
        c = ext(state).character(p.id)
        order.append(
            {
                "participant": p.id,
                "name": p.name,
                "kind": p.kind,
                "initiative": e.initiative,
                "tiebreak": list(e.tiebreak),
                "current": i == fight.turn,
                "done": i < fight.turn or fight.turn < 0,
                "status": c.status if c else None,
                "mine": p.id in viewer.participants,
            }
        )
    out: dict[str, Any] = {"round": fight.round, "order": order, "winner": fight.winner, "turn": None}
    pid = fight.current
    p = state.find_participant(pid) if pid else None
    if p is not None and _may_see(state, p, viewer):
        limit = allowance(fight.initiative_of(p.id) or 0)
        turn: dict[str, Any] = {
            "participant": p.id,
            "name": p.name,
            "mine": p.id in viewer.participants,
            "allowance": limit,
            "moved": round(fight.moved, 2),
            "left": round(max(0.0, limit - fight.moved), 2),
            "acted": fight.acted,
            "circle": None,
        }
        token = ext(state).board.token(p.id)
        if token is not None and (viewer.is_gm or tactics.shown(state, p.id)) and not fight.acted:
            turn["circle"] = {"x": token.x, "y": token.y, "r": turn["left"]}
        turn["targets"] = _targets(state, viewer, p.id) if turn["mine"] or viewer.is_gm else {}
        out["turn"] = turn
    if fight.attack is not None:
        a = fight.attack
        out["attack"] = {
            "attacker": a.attacker,
            "attacker_name": state.participant(a.attacker).name,
            "defender": a.defender,
            "defender_name": state.participant(a.defender).name,
            "action": a.action,
            "hits": a.hits,
            "outcomes": list(a.outcomes),
        }
    return out


def _targets(state: CampaignState, viewer: Viewer, pid: str) -> dict[str, dict[str, Any]]:
    """For the map: each enemy the acting character may attack now, per action its chance to hit."""
    fight = ext(state).fight
    c = ext(state).character(pid)
    if fight is None or fight.acted or fight.attack is not None or c is None or not c.able:
        return {}
    if not viewer.controls(pid):
        return {}
    out: dict[str, dict[str, Any]] = {}
    for o in _attack_options(state, viewer, pid, c):
        target = o.command["target"]
        action = o.command["type"].removeprefix("fivebyfive.")
        entry = out.setdefault(target, {"legal": False, "actions": {}})
        hit = sum((b.chance for b in o.odds), Fraction(0)) - (o.odds[-1].chance if o.odds else 0)
        entry["actions"][action] = {
            "enabled": o.enabled,
            "hit": fraction_text(hit) if o.enabled else None,
            "reason": o.reason,
            "option": o.id,
        }
        entry["legal"] = entry["legal"] or o.enabled
    return out


# --- options -------------------------------------------------------------------------------------


def options(state: CampaignState, viewer: Viewer) -> list[Option]:
    if viewer.role == "spectator":
        return []
    out: list[Option] = []
    for prompt in state.prompts:
        if prompt.kind.startswith("fivebyfive.") and (viewer.is_gm or prompt.to in viewer.participants):
            out.extend(_prompt_options(state, prompt))
    fight = ext(state).fight
    if state.active is None or fight is None or fight.winner is not None:
        return out
    if fight.current is None:
        if viewer.is_gm:
            out.append(
                Option(
                    id="roll-initiative",
                    label=f"Roll Initiative for round {fight.round + 1}",
                    command={"type": "fivebyfive.roll_initiative"},
                    group="round",
                    hint="1d5 each (a d6, 6 counts as 0); ties: PCs first",
                    rolls=True,
                )
            )
        return out
    if fight.attack is None and viewer.controls(fight.current):
        out.extend(_turn_options(state, viewer))
    return out


def _prompt_options(state: CampaignState, prompt: Prompt) -> list[Option]:
    if prompt.kind == "fivebyfive.control":
        fight = ext(state).fight
        c = ext(state).character(prompt.to)
        if fight is None or fight.attack is None or c is None:
            return []
        need = tactics.defence_need(state, c, fight.attack.action)
        twice = " (each of the two rolls)" if fight.attack.hits == 2 else ""
        return [
            Option(
                id=f"{prompt.id}-roll",
                label=prompt.choices[0].label if prompt.choices else "Control the Hit",
                command={"type": prompt.answer, "prompt": prompt.id, "choice": "roll"},
                participant=prompt.to,
                odds=odds.defence_bands(need.needed),
                hint=need.text + twice,
                group="prompt",
                rolls=True,
            )
        ]
    return [
        Option(
            id=f"{prompt.id}-{choice.key}",
            label=choice.label,
            command={"type": prompt.answer, "prompt": prompt.id, "choice": choice.key},
            participant=prompt.to,
            hint=choice.hint,
            group="prompt",
        )
        for choice in prompt.choices
    ]


def _turn_options(state: CampaignState, viewer: Viewer) -> list[Option]:
    fight = ext(state).fight
    assert fight is not None and fight.current is not None
    pid = fight.current
    c = ext(state).character(pid)
    end = Option(
        id="end-turn",
        label="End turn",
        command={"type": "fivebyfive.end_turn", "participant": pid},
        participant=pid,
        group="turn",
    )
    if c is None or not c.able:
        return [end]
    limit = allowance(fight.initiative_of(pid) or 0)
    left = max(0.0, limit - fight.moved)
    out = [
        Option(
            id="move",
            label="Move",
            command={"type": "fivebyfive.move", "participant": pid},
            participant=pid,
            enabled=not fight.acted and left > 0 and ext(state).board.token(pid) is not None,
            reason=None if not fight.acted else "Movement comes before the Offensive Action.",
            hint=f"up to {left:.2f} of {limit} inches: tap or drag on the table",
            group="move",
        )
    ]
    if not fight.acted:
        out.extend(_attack_options(state, viewer, pid, c))
    out.append(end)
    return out


def _attack_options(state: CampaignState, viewer: Viewer, pid: str, c: Character) -> list[Option]:
    me = state.participant(pid)
    rules = settings(state)
    out = []
    for enemy in tactics.roster(state):
        if side_of(enemy) == side_of(me) or not (viewer.is_gm or tactics.shown(state, enemy.id)):
            continue
        target = ext(state).character(enemy.id)
        if target is None or target.status == "dead":
            continue
        if target.status == "unconscious" and not rules.fallen_can_be_targeted:
            continue
        for action in ACTIONS:
            refusal = tactics.reach_refusal(state, pid, enemy.id, action)
            need = tactics.need(state, c, action)
            defence = DEFENCE_OF[action].capitalize()
            out.append(
                Option(
                    id=f"{action}-{enemy.id}",
                    label=f"{action.capitalize()} {enemy.name}",
                    command={"type": f"fivebyfive.{action}", "participant": pid, "target": enemy.id},
                    participant=pid,
                    odds=odds.attack_bands(need.needed) if refusal is None else (),
                    enabled=refusal is None,
                    reason=f"{refusal.text} ({refusal.rule})" if refusal else None,
                    hint=f"{need.text}; {enemy.name} rolls {defence} to Control the Hit",
                    group="attack",
                    rolls=True,
                )
            )
    return out
