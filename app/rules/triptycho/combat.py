"""Attacks: whether an Action reaches a target (TP-D-*, TP-M-6, TP-M-7, TP-W-4), its dice after levels
(TP-T-3, TP-T-5, TP-I-2, TP-W-1, TP-W-3), and the roll (TP-T-4)."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from app.rules.dice import Roller
from app.rules.errors import RuleError, quoted
from app.rules.triptycho import odds
from app.rules.triptycho.board import index
from app.rules.triptycho.cards import Card, dice_text, shift
from app.rules.triptycho.paths import Route, best_route, check_route
from app.rules.triptycho.state import Entity, Settings, TriptychoState
from app.rules.triptycho.world import board_of, can_see, conditions_of, enemies, enemy_in_section, occupants

SPEAR_AND_DAGGER = ("dagger", "spear")


def _label(ext: TriptychoState, sid: str) -> str:
    return index(board_of(ext)).sections[sid].label


def range_refusal(ext: TriptychoState, attacker: Entity, card: Card) -> str | None:
    """TP-D-4: a Range Action is not made with an enemy in your section (Thrown and Reach are exempt;
    an Incantation checks only when the incantation began)."""
    if card.range is None or card.thrown is not None or card.reach is not None:
        return None
    if card.incantation:
        if not attacker.incant_clear:
            return "An enemy shared your section when you began incanting, so this Range Action cannot fire."
        return None
    foe = enemy_in_section(ext, attacker)
    if foe is not None:
        return "A Range Action cannot be made while an enemy is in your section."
    return None


def aim(
    ext: TriptychoState, attacker: Entity, card: Card, section: str, path: tuple[str, ...] | None = None
) -> Route:
    """The route an Action takes from the attacker to `section`, or a RuleError naming the rule."""
    board = board_of(ext)
    idx = index(board)
    if not attacker.placed:
        raise RuleError("Place the character on the map first.")
    if section not in idx.sections:
        raise RuleError(f"There is no section {quoted(section)} on the map.")
    here = attacker.section
    assert here is not None
    if section in attacker.sections and not path:
        return Route((section,), ())
    reach = card.reach_of
    if path:
        route, why, rule = check_route(idx, path)
        if route is None:
            raise RuleError(why, rule=rule)
        if route.path[0] not in attacker.sections or route.path[-1] != section:
            raise RuleError("A route runs from your section to the target's section.", rule="TP-D-3")
        _check_route(ext, card, route, reach)
        return route
    if reach == 0:
        edge = idx.edge(here, section)
        if edge is not None and edge.rise:
            raise RuleError("A melee Action cannot cross a height border without Reach.", rule="TP-M-6")
        raise RuleError(
            f"{card.name} has no Range, Thrown or Reach: it reaches only your own section.", rule="TP-D-2"
        )
    best, shortest = best_route(idx, here, section, reach)
    if best is not None and best.needs <= reach:
        return best
    distance = idx.distance(here, section)
    if shortest is None:
        if distance is None or distance > reach:
            away = "cannot be reached across soft borders" if distance is None else f"is {distance} away"
            raise RuleError(f"{_label(ext, section)} {away}; {card.name} reaches {reach}.", rule="TP-D-2")
        raise RuleError(
            f"No straight line from your section reaches {_label(ext, section)}: attacks do not curve.",
            rule="TP-D-3",
        )
    if best is None:
        raise RuleError(
            f"Higher ground between you and {_label(ext, section)} blocks the line.", rule="TP-M-7"
        )
    raise RuleError(
        f"{_label(ext, section)} is {abs(best.net)} {'up' if best.net > 0 else 'down'}: "
        f"{card.name} needs range {best.needs} and reaches {reach}.",
        rule="TP-M-7",
    )


def _check_route(ext: TriptychoState, card: Card, route: Route, reach: int) -> None:
    if route.borders and reach == 0:
        raise RuleError(f"{card.name} reaches only your own section.", rule="TP-D-2")
    if route.blocked:
        raise RuleError("Higher ground on that route blocks the line.", rule="TP-M-7")
    if abs(route.net) > reach:
        raise RuleError(
            f"That route changes height by {abs(route.net)}: {card.name} needs range {route.needs} "
            f"and reaches {reach}.",
            rule="TP-M-7",
        )
    if route.borders > reach:
        raise RuleError(
            f"That route crosses {route.borders} borders; {card.name} reaches {reach}.", rule="TP-D-2"
        )


def check_target(ext: TriptychoState, attacker: Entity, card: Card, target: Entity) -> None:
    if target.underwater and card.ranged and not card.underwater:
        raise RuleError("Ranged attacks cannot reach a target underwater.", rule="TP-W-4")


def area_targets(ext: TriptychoState, attacker: Entity, card: Card, section: str) -> list[Entity]:
    """Everyone an Area Attack on `section` affects (TP-D-5, TP-CL-2, TP-W-4)."""
    out = []
    own = section in attacker.sections
    for e in occupants(ext, section):
        if e.id == attacker.id and (card.exclude_self or not own):
            continue
        if card.area == "enemies" and not enemies(attacker, e):
            continue
        if card.area == "allies" and (enemies(attacker, e) or e.id == attacker.id):
            continue
        if e.climbing is not None and card.reach_of < e.climbing.progress:
            continue  # TP-CL-2: the Action's range must reach the climber's height
        if e.underwater and card.ranged and not card.underwater:
            continue  # TP-W-4
        out.append(e)
    return out


def far_blocked_on(ext: TriptychoState, route: Route) -> bool:
    """TP-D-7: a border on the route blocked from a distance."""
    pairs = {frozenset(p) for p in pairwise(route.path)}
    return any(frozenset((fb.a, fb.b)) in pairs for fb in ext.far_blocks)


def interceptors(ext: TriptychoState, attacker: Entity, target: Entity, route: Route) -> list[Entity]:
    """Blockers of a border the attack crosses, in their own section, who may jump in front (TP-D-6)."""
    pairs = {frozenset(p) for p in pairwise(route.path)}
    out = []
    for e in ext.entities:
        b = e.block
        if b is None or e.id in (attacker.id, target.id) or b.section not in e.sections:
            continue
        if frozenset((b.section, b.toward)) in pairs and not e.has("defenseless"):
            out.append(e)
    return out


# --- dice after levels ---------------------------------------------------------------------------


@dataclass
class AttackDice:
    hit: tuple[int, ...]
    miss: tuple[int, ...]
    damage: tuple[int, ...]
    defense: tuple[int, ...]
    notes: list[str] = field(default_factory=list)
    rolls_hit: bool = True  # the card has Hit dice at all

    def text(self) -> dict[str, str]:
        return {k: dice_text(getattr(self, k)) for k in ("hit", "miss", "damage", "defense")}


def _swimming(ext: TriptychoState, e: Entity, section: str | None = None) -> bool:
    board = ext.board
    here = section or e.section
    return bool(board and here and not e.aquatic and index(board).sections[here].water)


def attack_dice(
    ext: TriptychoState,
    settings: Settings,
    attacker: Entity,
    target: Entity,
    card: Card,
    reaction: Card | None,
    section: str,
) -> AttackDice:
    """Every die of this attack after conditions, sight, swimming and Piercing (TP-T-3, TP-T-5)."""
    levels = settings.condition_levels
    notes: list[str] = []
    mine = conditions_of(ext, attacker)
    if not can_see(ext, attacker, target, section):
        mine["debilitated"] = "cannot see the target (TP-I-2)"
    theirs = conditions_of(ext, target)
    if not can_see(ext, target, attacker):
        theirs["vulnerable"] = "cannot see the attacker (TP-I-2)"
    hit = dmg = miss = dfn = 0
    for cond, why in sorted(mine.items()):
        eff = levels.get(cond)
        if eff and (eff.hit or eff.damage):
            hit, dmg = hit + eff.hit, dmg + eff.damage
            notes.append(f"Attacker {cond} ({why}): Hit {eff.hit:+d}, Damage {eff.damage:+d}")
    for cond, why in sorted(theirs.items()):
        eff = levels.get(cond)
        if eff and (eff.miss or eff.defense) and reaction is not None:
            miss, dfn = miss + eff.miss, dfn + eff.defense
            notes.append(f"Target {cond} ({why}): Miss {eff.miss:+d}, Defense {eff.defense:+d}")
    if card.gear and _swimming(ext, attacker):
        if card.weapon_type.lower() in SPEAR_AND_DAGGER:
            notes.append(
                f"Swimming: a {card.weapon_type.lower()} ignores the Hit and Damage penalty (TP-W-3)"
            )
        else:
            hit, dmg = hit - 1, dmg - 1
            notes.append("Attacker swimming (TP-W-1): Hit -1, Damage -1")
    if reaction is not None and reaction.gear and _swimming(ext, target, section):
        miss -= 1
        notes.append("Target swimming (TP-W-1): Miss -1")
    if card.piercing:
        dfn -= card.piercing
        notes.append(f"Piercing {card.piercing} (TP-T-3): Defense -{card.piercing}")
    return AttackDice(
        hit=shift(card.dice("hit"), hit),
        miss=shift(reaction.dice("miss"), miss) if reaction else (),
        damage=shift(card.dice("damage"), dmg),
        defense=shift(reaction.dice("defense"), dfn) if reaction else (),
        notes=notes,
        rolls_hit=bool(card.hit),
    )


def hit_odds(d: AttackDice, reacts: bool) -> Any:
    """The exact chance to hit: automatic without a Reaction (TP-T-2) or without Hit dice on the card."""
    if not d.rolls_hit:
        return odds.hit_chance((2,), (), auto_hit=True)
    return odds.hit_chance(d.hit, d.miss, auto_hit=not reacts)


def roll_attack(d: AttackDice, reacts: bool, roller: Roller) -> dict[str, Any]:
    """Roll Hit against Miss, then Damage against Defense on a hit (TP-T-4). Faces go into the event."""
    rolls: dict[str, Any] = {}
    if not d.rolls_hit:
        hit, why = True, "the card has no Hit dice"
    elif not d.hit:
        hit, why = False, "every Hit die was lowered away (TP-T-3)"
    elif not reacts:
        hit, why = True, "no Reaction was played (TP-T-2)"
    else:
        h = odds.roll_sizes(d.hit, roller)
        rolls["hit"] = h.as_dict() if h else None
        if not d.miss:
            hit, why = True, "every Miss die was lowered away (TP-T-3)"
        else:
            m = odds.roll_sizes(d.miss, roller)
            rolls["miss"] = m.as_dict() if m else None
            hit = odds.total(h) > odds.total(m)
            why = f"Hit {odds.total(h)} against Miss {odds.total(m)}" + ("" if hit else " (ties miss)")
    damage = 0
    if hit and d.damage:
        dm = odds.roll_sizes(d.damage, roller)
        df = odds.roll_sizes(d.defense, roller)
        rolls["damage"] = dm.as_dict() if dm else None
        if df is not None:
            rolls["defense"] = df.as_dict()
        damage = max(0, odds.total(dm) - odds.total(df))
    return {"hit": hit, "why": why, "damage": damage, "rolls": rolls}
