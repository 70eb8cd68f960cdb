"""What a viewer may do now, step by step through the turn, with exact odds for every roll offered.

draw → Strategy Phase (draw, Strategy card, Gear, Block, pass) → Action Phase (each Action at each
legal target, incant, pass) → discard; the innate Move and granted Moves as reachable sections.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from app.rules.campaign.state import CampaignState
from app.rules.errors import RuleError
from app.rules.system import Band, Option, Viewer
from app.rules.triptycho import combat, flow, odds
from app.rules.triptycho.board import index
from app.rules.triptycho.cards import Card, base_reaction, parse_dice
from app.rules.triptycho.cmd_move import mover_of
from app.rules.triptycho.movement import blocked, reachable
from app.rules.triptycho.paths import routes_within
from app.rules.triptycho.state import Entity, Settings, TriptychoState, ext_of, settings_of
from app.rules.triptycho.world import name_of, visible_ids


def options(state: CampaignState, viewer: Viewer) -> list[Option]:
    if viewer.role == "spectator":
        return []
    ext = ext_of(state)
    out: list[Option] = []
    current = ext.entity(ext.turn.entity or "")
    if current is not None and viewer.controls(current.id) and not ext.attacks:
        out += _turn_options(state, viewer, current)
    for m in ext.turn.moves:
        e = ext.entity(m.entity)
        if e is not None and viewer.controls(e.id) and e.id != ext.turn.entity:
            out += _move_options(state, e, m.id)
    return out


def _opt(e: Entity, oid: str, label: str, command: dict[str, Any], group: str, **kw: Any) -> Option:
    return Option(
        id=f"{e.id}-{oid}",
        label=label,
        command={**command, "participant": e.id},
        participant=e.id,
        group=group,
        **kw,
    )


def _turn_options(state: CampaignState, viewer: Viewer, e: Entity) -> list[Option]:
    ext = ext_of(state)
    settings = settings_of(state)
    phase = ext.turn.phase
    out: list[Option] = []
    if phase == "draw":
        gain = " and gain an Incantation charge" if e.incanting else ""
        return [_opt(e, "draw", f"Draw a card{gain}", {"type": "triptycho.draw"}, "draw", rolls=e.uses_deck)]
    if phase == "over":
        return []
    if phase == "strategy":
        out.append(
            _opt(
                e, "s-draw", "Draw another card", {"type": "triptycho.strategy", "choice": "draw"}, "strategy"
            )
        )
        for inst in e.hand if e.uses_deck else [c.id for c in e.cards]:
            card = e.card(inst)
            if card.kind == "strategy":
                out.append(
                    _opt(
                        e,
                        f"s-{inst}",
                        f"Play {card.name}",
                        {"type": "triptycho.strategy", "choice": "card", "card": inst},
                        "strategy",
                        hint=" · ".join(card.entries()),
                    )
                )
        out.append(
            _opt(
                e,
                "s-gear",
                "Swap a piece of Gear",
                {"type": "triptycho.strategy", "choice": "gear"},
                "strategy",
            )
        )
        if e.placed and ext.board is not None and not (e.has("immobilized") or e.has("defenseless")):
            for edge in index(ext.board).edges[e.section]:  # type: ignore[index]  # placed: it has a section
                label = index(ext.board).sections[edge.to].label
                out.append(
                    _opt(
                        e,
                        f"block-{edge.to}",
                        f"Block the way to {label}",
                        {"type": "triptycho.block", "toward": edge.to},
                        "strategy",
                    )
                )
        out.append(_opt(e, "s-pass", "Skip the Strategy Phase", {"type": "triptycho.pass"}, "strategy"))
        if ext.turn.incant_window:
            out += _action_options(state, viewer, e, settings, only_incantations=True)
    if phase == "action":
        out += _action_options(state, viewer, e, settings)
        incant = _opt(e, "incant", "Begin incanting", {"type": "triptycho.incant"}, "action")
        if e.climbing is not None:
            incant = incant.model_copy(
                update={"enabled": False, "reason": "Climbing: cannot incant (TP-CL-2)."}
            )
        out.append(incant)
        out.append(_opt(e, "a-pass", "Skip the Action Phase", {"type": "triptycho.pass"}, "action"))
    over = max(0, len(e.hand) - settings.hand_size)
    out.append(
        _opt(
            e,
            "discard",
            f"Discard {over} and end the turn" if over else "End the turn",
            {"type": "triptycho.discard", "cards": []},
            "end",
            hint=f"choose {over} card(s) to discard" if over else "",
        )
    )
    if flow.innate_refusal(state, e) is None:
        out += _move_options(state, e, "innate")
    for m in ext.turn.moves:
        if m.entity == e.id:
            out += _move_options(state, e, m.id)
    return out


def _move_options(state: CampaignState, e: Entity, move_id: str) -> list[Option]:
    ext = ext_of(state)
    if ext.board is None or not e.placed or e.has("immobilized"):
        return []
    granted = None if move_id == "innate" else next((m for m in ext.turn.moves if m.id == move_id), None)
    mover = mover_of(granted)
    label = f"{mover.kind.capitalize()} {mover.n}" + (f" (Height {mover.height})" if mover.height else "")
    idx = index(ext.board)
    out: list[Option] = []
    if e.climbing is None or mover.kind in ("fly", "teleport"):
        ways = reachable(ext, e, mover, settings_of(state))
        for sid, way in sorted(ways.items(), key=lambda kv: (kv[1].cost, kv[0])):
            if sid == e.section:
                continue
            hint = f"falls {way.fall}: {way.fall}d{settings_of(state).fall_die} damage" if way.fall else ""
            out.append(
                _opt(
                    e,
                    f"move-{move_id}-{sid}",
                    f"{label}: to {idx.sections[sid].label}",
                    {"type": "triptycho.move", "to": sid, "move": move_id},
                    "move",
                    hint=hint,
                    rolls=bool(way.fall),
                )
            )
    if mover.kind == "move":
        out += _climb_options(state, e, move_id)
    return out


def _climb_options(state: CampaignState, e: Entity, move_id: str) -> list[Option]:
    ext = ext_of(state)
    settings = settings_of(state)
    idx = index(ext.board)  # type: ignore[arg-type]  # the Move options checked the board
    out = []
    targets = []
    if e.climbing is not None:
        targets = [(e.climbing.frm, e.climbing.to)]
        out.append(
            _opt(
                e,
                f"letgo-{move_id}",
                "Let go and fall",
                {"type": "triptycho.let_go", "move": move_id},
                "move",
                rolls=True,
            )
        )
    else:
        here = e.section or ""
        targets = [
            (here, edge.to)
            for edge in idx.edges[here]
            if edge.rise > 0 and edge.kind == "soft" and not blocked(ext, e, "move", here, edge.to)
        ]
    for frm, to in targets:
        gm = parse_dice(flow.climb_dice(ext, settings, frm, to))
        p = odds.opposed_chance(parse_dice(e.acrobatics), gm)
        out.append(
            _opt(
                e,
                f"climb-{move_id}-{to}",
                f"Climb toward {idx.sections[to].label}",
                {"type": "triptycho.climb", "toward": to, "move": move_id},
                "move",
                odds=(Band.of("climb 1", p), Band.of("no progress", 1 - p)),
                rolls=True,
            )
        )
    return out


def _action_options(
    state: CampaignState, viewer: Viewer, e: Entity, settings: Settings, only_incantations: bool = False
) -> list[Option]:
    ext = ext_of(state)
    out: list[Option] = []
    seen = visible_ids(state, viewer)
    cards = [(i, e.card(i)) for i in e.hand] if e.uses_deck else [(c.id, c) for c in e.cards]
    for inst, card in cards:
        if card.kind != "action" or (only_incantations and not card.incantation):
            continue
        reason = _card_refusal(ext, e, card)
        if reason:
            out.append(
                _opt(
                    e,
                    f"act-{inst}",
                    f"Play {card.name}",
                    {"type": "triptycho.act", "card": inst},
                    "action",
                    enabled=False,
                    reason=reason,
                )
            )
            continue
        if not card.attacks:
            out.append(
                _opt(
                    e,
                    f"act-{inst}",
                    f"Play {card.name}",
                    {"type": "triptycho.act", "card": inst},
                    "action",
                    hint=" · ".join(card.entries()),
                )
            )
            continue
        offered = _attack_options(state, e, inst, card, settings, seen)
        if not offered:
            offered = [
                _opt(
                    e,
                    f"act-{inst}",
                    f"Play {card.name}",
                    {"type": "triptycho.act", "card": inst},
                    "action",
                    enabled=False,
                    reason="No target you can see is in reach (TP-D-2).",
                )
            ]
        out += offered
    return out


def _card_refusal(ext: TriptychoState, e: Entity, card: Card) -> str | None:
    if card.incantation:
        if e.climbing is not None:
            return "Climbing: cannot incant (TP-CL-2)."
        if e.charges < card.incantation:
            return f"Needs {card.incantation} Incantation charge(s); you have {e.charges} (TP-N-1)."
    if card.attacks:
        why = combat.range_refusal(ext, e, card)
        if why:
            return f"{why} (TP-D-4)"
    return None


def _attack_options(
    state: CampaignState, e: Entity, inst: str, card: Card, settings: Settings, seen: set[str]
) -> list[Option]:
    ext = ext_of(state)
    if ext.board is None or not e.placed:
        return []
    idx = index(ext.board)
    routes = routes_within(idx, e.section, card.reach_of)  # type: ignore[arg-type]  # placed: it has a section
    out: list[Option] = []
    if card.area:
        for sid in sorted(routes):
            if card.reach_of == 0 and sid != e.section:
                continue
            hit = [t for t in combat.area_targets(ext, e, card, sid) if t.id in seen]
            if not hit and sid != e.section:
                continue
            names = ", ".join(name_of(state, t.id) for t in hit) or "nobody you can see"
            out.append(
                _opt(
                    e,
                    f"act-{inst}-{sid}",
                    f"{card.name} on {idx.sections[sid].label}",
                    {"type": "triptycho.act", "card": inst, "section": sid},
                    "action",
                    hint=f"strikes {names}",
                    rolls=True,
                )
            )
        return out
    for t in ext.entities:
        if t.id == e.id or t.id not in seen or not t.placed:
            continue
        at = next((s for s in t.sections if s in routes), None)
        if at is None:
            continue
        try:
            combat.check_target(ext, e, card, t)
        except RuleError:
            continue
        bands, hint = _odds(state, settings, e, t, card, at)
        out.append(
            _opt(
                e,
                f"act-{inst}-{t.id}",
                f"{card.name} at {name_of(state, t.id)}",
                {"type": "triptycho.act", "card": inst, "target": t.id},
                "action",
                odds=bands,
                hint=hint,
                rolls=True,
            )
        )
    return out


def _odds(
    state: CampaignState, settings: Settings, e: Entity, t: Entity, card: Card, at: str
) -> tuple[tuple[Band, ...], str]:
    """Exact chance to hit against the target's base Reaction (Miss 1d4), levels applied."""
    ext = ext_of(state)
    reaction = (
        base_reaction(settings.base_reaction_miss) if card.hostile and not t.has("defenseless") else None
    )
    d = combat.attack_dice(ext, settings, e, t, card, reaction, at)
    p = combat.hit_odds(d, reaction is not None)
    bands = (Band.of("hit", p), Band.of("miss", Fraction(1) - p))
    dice = d.text()
    vs = f" vs Miss {dice['miss']}" if reaction is not None else " (no Reaction)"
    hint = f"Hit {dice['hit'] or 'none'}{vs}"
    if d.damage:
        mean = odds.dice.mean(odds.damage_distribution(d.damage, d.defense))
        hint += f" · Damage {dice['damage']} (avg {float(mean):.1f} on a hit)"
    if d.notes:
        hint += " · " + "; ".join(d.notes)
    return bands, hint
