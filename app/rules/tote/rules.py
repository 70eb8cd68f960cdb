"""Reading TOTE state: sheets, who is still fighting, engagement, the Initiative order, legality.

Everything here is a pure query; the checks raise RuleError with the rule's ID.
"""

from __future__ import annotations

from app.rules.campaign.state import CampaignState
from app.rules.errors import RuleError
from app.rules.tote.model import (
    ACTION_NAMES,
    ACTION_RULES,
    ARMOUR,
    ATTACKS,
    BAND_NAMES,
    BANDS,
    COSTS,
    DISTANCE_ACTIONS,
    MELEE_ACTIONS,
    UNARMED,
    Combatant,
    Declaration,
    Enemy,
    Fight,
    Hero,
    Settings,
    ToteState,
    Unit,
    Weapon,
)

Sheet = Hero | Enemy


def ext(state: CampaignState) -> ToteState:
    return state.ext if isinstance(state.ext, ToteState) else ToteState()


def settings(state: CampaignState) -> Settings:
    known = set(Settings.model_fields)
    return Settings.model_validate({k: v for k, v in (state.settings or {}).items() if k in known})


def sheet(state: CampaignState, pid: str) -> Sheet | None:
    x = ext(state)
    return next((h for h in x.heroes if h.id == pid), None) or next(
        (e for e in x.enemies if e.id == pid), None
    )


def name(state: CampaignState, pid: str | None) -> str:
    p = state.find_participant(pid) if pid else None
    return p.name if p else "someone"


def fight(state: CampaignState) -> Fight | None:
    return ext(state).fight


def the_fight(state: CampaignState) -> Fight:
    f = fight(state)
    if f is None:
        raise RuleError("No TOTE fight is under way: start an encounter first.")
    return f


def combatant(f: Fight, pid: str | None) -> Combatant | None:
    return next((c for c in f.combatants if c.id == pid), None)


def unit(f: Fight, unit_id: str) -> Unit:
    return next(u for u in f.units if u.id == unit_id)


def unit_of(f: Fight, pid: str) -> Unit:
    c = combatant(f, pid)
    assert c is not None
    return unit(f, c.unit)


def initiative(f: Fight, pid: str) -> int:
    return unit_of(f, pid).value or 0


# --- the sheet's numbers ------------------------------------------------------------------------


def is_hero(s: Sheet | None) -> bool:
    return isinstance(s, Hero)


def armour_rating(s: Sheet) -> int:
    return sum(ARMOUR[a][0] for a in s.armour) if isinstance(s, Hero) else 0


def block_of(state: CampaignState, pid: str) -> int:
    s = sheet(state, pid)
    assert s is not None
    extra = armour_rating(s) if settings(state).armour_adds_to == "block" else 0
    return s.block + extra


def resist_of(state: CampaignState, pid: str) -> int:
    s = sheet(state, pid)
    assert s is not None
    extra = armour_rating(s) if settings(state).armour_adds_to == "resist" else 0
    return s.resist + extra


def filled(s: Sheet) -> tuple[str, ...]:
    return s.track[: s.injuries]


def knocked_out(s: Sheet) -> bool:
    """TO-J-2: the last circle (U) is filled."""
    return s.injuries >= len(s.track)


def blocked_faces(state: CampaignState, pid: str) -> frozenset[int]:
    """TO-D-2 / TO-J-1: numbers filled on the track cannot be used on skill dice."""
    s = sheet(state, pid)
    if s is None or (isinstance(s, Enemy) and not settings(state).enemy_injuries_block_faces):
        return frozenset()
    return frozenset(int(label) for label in filled(s) if label.isdigit())


def out_reason(state: CampaignState, pid: str) -> str | None:
    """Why a combatant has left the order: fled, unconscious (hero) or defeated (enemy)."""
    f = fight(state)
    c = combatant(f, pid) if f else None
    if c is not None and c.fled:
        return "fled"
    s = sheet(state, pid)
    if s is None:
        return "gone"
    if knocked_out(s):
        return "unconscious" if isinstance(s, Hero) else "defeated"
    p = state.find_participant(pid)
    return "gone" if p is None else None


def fighting(state: CampaignState, f: Fight) -> list[Combatant]:
    return [c for c in f.combatants if out_reason(state, c.id) is None]


def foes(state: CampaignState, f: Fight, pid: str) -> list[Combatant]:
    me = combatant(f, pid)
    return [c for c in fighting(state, f) if me is not None and c.side != me.side]


def engaged_with(f: Fight, pid: str) -> tuple[str, ...]:
    return tuple(b if a == pid else a for a, b in f.engaged if pid in (a, b))


def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def is_engaged(f: Fight, pid: str) -> bool:
    return bool(engaged_with(f, pid))


def down_now(f: Fight, c: Combatant) -> bool:
    return c.down_round is not None and c.down_round == f.round


# --- order --------------------------------------------------------------------------------------


def unit_key(state: CampaignState, f: Fight, u: Unit) -> tuple:
    """Higher wins ties: heroes beat enemies, then the higher Hawk (heroes) or Rating (enemies),
    then whoever is listed first in the fight."""
    first = min(i for i, c in enumerate(f.combatants) if c.unit == u.id)
    members = [sheet(state, m) for m in u.members]
    hero = all(isinstance(m, Hero) for m in members)
    stat = max(
        (m.totems.get("hawk", 0) if isinstance(m, Hero) else m.rating) for m in members if m is not None
    )
    return (u.value or 0, hero, stat, -first)


def may_declare(state: CampaignState, f: Fight, c: Combatant) -> bool:
    return out_reason(state, c.id) is None and not down_now(f, c) and unit(f, c.unit).value is not None


def declaration_order(state: CampaignState, f: Fight) -> tuple[str, ...]:
    """TO-I-2: lowest Initiative first; a group's members one after another."""
    units = sorted((u for u in f.units if u.value is not None), key=lambda u: unit_key(state, f, u))
    return tuple(c.id for u in units for c in f.combatants if c.unit == u.id and may_declare(state, f, c))


def declared(f: Fight, pid: str) -> Declaration | None:
    return next((d for d in f.declarations if d.actor == pid and d.round == f.round), None)


def next_declarer(state: CampaignState, f: Fight) -> str | None:
    if f.phase != "declare":
        return None
    for pid in declaration_order(state, f):
        c = combatant(f, pid)
        if c is not None and may_declare(state, f, c) and declared(f, pid) is None:
            return pid
    return None


def pending(f: Fight) -> list[Declaration]:
    return [d for d in f.declarations if d.round == f.round and d.state == "pending"]


def next_pending(state: CampaignState, f: Fight) -> Declaration | None:
    """TO-I-2: the pending action whose actor has the highest Initiative now resolves next."""
    if f.phase != "resolve":
        return None
    waiting = pending(f)
    if not waiting:
        return None
    position = {d.id: i for i, d in enumerate(f.declarations)}
    return max(waiting, key=lambda d: (unit_key(state, f, unit_of(f, d.actor)), -position[d.id]))


def committed(f: Fight, unit_id: str) -> int:
    """Initiative a unit's members have already declared this round (a group shares one value)."""
    return sum(
        d.cost
        for d in f.declarations
        if d.round == f.round and d.state == "pending" and unit_of(f, d.actor).id == unit_id
    )


# --- weapons and tests --------------------------------------------------------------------------

SKILL_OF = {
    "attack": "strike",
    "assault": "strike",
    "grapple": "brawl",
    "shoot": "shoot",
    "intimidate": "impress",
}


def weapon(s: Sheet, index: int | None) -> Weapon:
    if index is None or index < 0 or index >= len(s.weapons):
        return Weapon.model_validate(UNARMED)
    return s.weapons[index]


def weapons_for(s: Sheet, action: str) -> list[int]:
    """The weapons that suit an action: ranged ones to Shoot, brawl ones (or bare hands) to Grapple."""
    if action == "shoot":
        return [i for i, w in enumerate(s.weapons) if w.ranged]
    if action == "grapple":
        return [i for i, w in enumerate(s.weapons) if w.brawl] or [-1]
    if action in ("attack", "assault"):
        return [i for i, w in enumerate(s.weapons) if not w.ranged] or [-1]
    return []


def test_numbers(state: CampaignState, pid: str, skill: str) -> tuple[int, int]:
    """Dice and modifier of a test: a hero's skill rating and specialisation, or an enemy's Rating."""
    s = sheet(state, pid)
    if isinstance(s, Hero):
        return s.skills.get(skill, 0), s.specialisations.get(skill, 0)
    assert isinstance(s, Enemy)
    return s.rating, 0


def intimidate_target(state: CampaignState, pid: str) -> int:
    """TO-IM-1: 7 + the enemy's Rating, or 7 + the hero's Stag totem."""
    s = sheet(state, pid)
    return 7 + (s.totems.get("stag", 0) if isinstance(s, Hero) else s.rating)  # type: ignore[union-attr]  # a fighter


def shoot_modifier(f: Fight, target: str) -> int:
    """TO-SH-1: -2 if the target is engaged."""
    return -2 if is_engaged(f, target) else 0


# --- legality -----------------------------------------------------------------------------------


def action_problem(state: CampaignState, f: Fight, pid: str, action: str) -> RuleError | None:
    """Why `pid` may not declare `action` now (whatever the target), or None."""
    c = combatant(f, pid)
    s = sheet(state, pid)
    label = ACTION_NAMES[action]
    who = name(state, pid)
    if c is None or s is None:
        return RuleError(f"{who} is not in this fight.")
    cost = COSTS[action]
    have = (unit_of(f, pid).value or 0) - committed(f, c.unit)
    if cost > have:
        return RuleError(f"{label} costs {cost} Initiative and {who} has {have}.", rule="TO-I-3")
    if c.band != "melee" and action not in DISTANCE_ACTIONS:
        return RuleError(
            f"{who} is at {BAND_NAMES[c.band]} range: in a distance round only Move or Shoot.", rule="TO-R-1"
        )
    engaged = is_engaged(f, pid)
    if action == "shoot":
        if engaged:
            return RuleError(f"{who} is engaged: Shoot needs you unengaged.", rule="TO-SH-1")
        if not weapons_for(s, "shoot"):
            return RuleError(f"{who} has no ranged weapon to Shoot with.", rule="TO-SH-1")
    if action == "move" and engaged:
        return RuleError(f"{who} is engaged: Move needs you unengaged (Disengage first).", rule="TO-MV-1")
    if action == "disengage" and not engaged:
        return RuleError(f"{who} is not engaged with anyone.", rule="TO-E-2")
    if (action in ATTACKS or action == "intimidate") and not foes(state, f, pid):
        return RuleError(f"{who} has no foe left to {label.lower()}.", rule=ACTION_RULES[action])
    return None


def target_problem(
    state: CampaignState, f: Fight, pid: str, action: str, target: str | None
) -> RuleError | None:
    """Why `pid` may not aim `action` at `target`, or None."""
    if action not in ATTACKS and action != "intimidate":
        return None
    label = ACTION_NAMES[action]
    if target is None:
        return RuleError(f"Say which foe to {label.lower()}.", rule=ACTION_RULES[action])
    t = combatant(f, target)
    me = combatant(f, pid)
    assert me is not None
    if t is None or out_reason(state, target) is not None or t.side == me.side:
        return RuleError(f"{name(state, target)} is not a foe {name(state, pid)} can reach.", rule="TO-E-1")
    engaged = engaged_with(f, pid)
    if engaged and target not in engaged:
        names = " or ".join(name(state, e) for e in engaged)
        return RuleError(
            f"{name(state, pid)} is engaged with {names}: actions must target that foe.", rule="TO-E-1"
        )
    if action in MELEE_ACTIONS and t.band != "melee":
        return RuleError(
            f"{name(state, target)} is at {BAND_NAMES[t.band]} range, out of reach of a {label}.",
            rule="TO-R-2",
        )
    return None


def move_problem(f: Fight, c: Combatant, direction: str | None) -> RuleError | None:
    if direction not in ("closer", "further"):
        return RuleError("Say whether to move closer or further away.", rule="TO-R-2")
    if direction == "closer" and c.band == "melee":
        return RuleError("Already at Melee: there is no closer range step.", rule="TO-R-2")
    return None


def step(band: str, direction: str) -> str | None:
    """TO-R-2: one range step; None means fled (further from Far)."""
    i = BANDS.index(band) + (1 if direction == "further" else -1)
    return BANDS[i] if i < len(BANDS) else None
