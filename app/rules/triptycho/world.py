"""Questions about the fight the rules ask everywhere: who is where, who sees whom, who may hear of it."""

from __future__ import annotations

from app.rules.campaign.state import CampaignState
from app.rules.errors import Forbidden, RuleError, quoted
from app.rules.system import Viewer, audience_of
from app.rules.triptycho import sight
from app.rules.triptycho.board import BattleMap
from app.rules.triptycho.state import Condition, Entity, TriptychoState, ext_of


def board_of(ext: TriptychoState) -> BattleMap:
    if ext.board is None:
        raise RuleError("There is no battle map on the table yet: the GM loads one first.")
    return ext.board


def name_of(state: CampaignState, pid: str) -> str:
    p = state.find_participant(pid)
    return p.name if p else pid


def enemies(a: Entity, b: Entity) -> bool:
    return a.side != b.side


def occupants(ext: TriptychoState, section: str) -> list[Entity]:
    return [e for e in ext.entities if section in e.sections]


def enemy_in_section(ext: TriptychoState, e: Entity) -> Entity | None:
    for other in ext.entities:
        if other.id != e.id and enemies(e, other) and set(other.sections) & set(e.sections):
            return other
    return None


def can_see(ext: TriptychoState, observer: Entity, target: Entity, at: str | None = None) -> bool:
    """Whether `observer` sees `target` (in section `at` when an attack names one: TP-I-5)."""
    if observer.id == target.id:
        return True
    if ext.board is None or not observer.placed or not target.placed:
        return False
    theirs = (at,) if at else target.sections
    return sight.sees_any(ext.board, observer, observer.sections, theirs)


def sees_own_section(ext: TriptychoState, e: Entity) -> bool:
    if ext.board is None or not e.placed:
        return True
    return any(sight.sees_own_section(ext.board, e, s) for s in e.sections)


def conditions_of(ext: TriptychoState, e: Entity) -> dict[Condition, str]:
    """Every condition on the entity and where it comes from (the GM's, climbing, darkness)."""
    out: dict[Condition, str] = {c: "set by the GM" for c in e.conditions}
    if e.climbing is not None:
        out.setdefault("debilitated", "climbing (TP-CL-2)")
        out.setdefault("vulnerable", "climbing (TP-CL-2)")
    if not sees_own_section(ext, e):
        out.setdefault("hindered", "cannot see in its own section (TP-I-3)")
    return out


# --- who may see what ----------------------------------------------------------------------------


def watchers(state: CampaignState, viewer: Viewer) -> list[Entity]:
    """The entities whose eyes this viewer looks through: their own, or the whole party for spectators."""
    ext = ext_of(state)
    if viewer.is_gm:
        return list(ext.entities)
    if viewer.role == "spectator":
        return [e for e in ext.entities if e.side == "party" and _player_run(state, e.id)]
    return [e for e in ext.entities if e.id in viewer.participants]


def _player_run(state: CampaignState, pid: str) -> bool:
    p = state.find_participant(pid)
    return bool(p and p.owner)


def visible_ids(state: CampaignState, viewer: Viewer) -> set[str]:
    """The entities this viewer may know are on the map (TP-I-6)."""
    ext = ext_of(state)
    if viewer.is_gm:
        return {e.id for e in ext.entities}
    eyes = watchers(state, viewer)
    out = {e.id for e in eyes}
    for e in ext.entities:
        if e.id in out or not e.placed:
            continue
        p = state.find_participant(e.id)
        if p is None or p.hidden:
            continue
        if any(can_see(ext, w, e) for w in eyes):
            out.add(e.id)
    return out


def concealed(state: CampaignState, viewer: Viewer) -> frozenset[str]:
    """`SystemPart.conceals`: the entities this viewer's characters cannot see now (TP-I-6). The core and
    generic views then treat them as hidden, so the participant list and the initiative hold no trace.
    A player-run character off the map is not concealed (the party knows its own)."""
    if viewer.is_gm:
        return frozenset()
    ext = ext_of(state)
    seen = visible_ids(state, viewer)
    return frozenset(
        e.id for e in ext.entities if e.id not in seen and (e.placed or not _player_run(state, e.id))
    )


def observers(state: CampaignState, subjects: list[Entity]) -> set[str]:
    """The player-run entities that see any of `subjects` (or are one of them)."""
    ext = ext_of(state)
    ids = {s.id for s in subjects}
    out: set[str] = set()
    for w in ext.entities:
        if not _player_run(state, w.id):
            continue
        if w.id in ids or any(can_see(ext, w, s) for s in subjects if s.placed):
            out.add(w.id)
    return out


def audience(state: CampaignState, *subjects: Entity) -> str:
    """Who may read an event about these entities: everyone, the players whose characters see one, or
    only the GM. A hidden participant's events stay the GM's."""
    for s in subjects:
        p = state.find_participant(s.id)
        if p is not None and p.hidden:
            return "gm"
    seen_by = observers(state, list(subjects))
    player_run = {e.id for e in ext_of(state).entities if _player_run(state, e.id)}
    if seen_by and seen_by >= player_run:
        return "all"
    return audience_of(*seen_by) if seen_by else "gm"


def acting(state: CampaignState, ref: str | None, actor: Viewer) -> Entity:
    """The entity a command acts for, checked against who sent it."""
    ext = ext_of(state)
    if ref is None:
        mine = [e for e in ext.entities if e.id in actor.participants]
        if len(mine) != 1:
            raise RuleError("Say which character acts.")
        return mine[0]
    p = state.find_participant(ref)
    if p is None or (p.hidden and not actor.is_gm):
        raise RuleError(f"There is no character {quoted(ref)}.")
    if not actor.controls(p.id):
        raise Forbidden(f"{p.name} is not your character.")
    e = ext.entity(p.id)
    if e is None:
        raise RuleError(f"{p.name} has no Triptycho sheet yet: the GM sets one up first.")
    return e


def entity_ref(state: CampaignState, ref: str, actor: Viewer | None = None) -> Entity:
    """Any entity by participant id or name. Players may name one their characters cannot see (an attack
    at an unseen foe is allowed, Debilitated: TP-I-2), but hidden participants do not exist for them."""
    ext = ext_of(state)
    p = state.find_participant(ref)
    e = ext.entity(p.id) if p else None
    if e is None or p is None or (p.hidden and actor is not None and not actor.is_gm):
        raise RuleError(f"There is no character {quoted(ref)} on the map.")
    return e
