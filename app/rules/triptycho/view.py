"""What each viewer sees of the battle map (TP-I-6), and how Triptycho's events read in the log.

A player sees the map's shape, the light of each section, their own characters in full, and of every
other entity only what their characters can see right now: an adversary in a dark section is not in
their view at all. The GM sees everything; `player_view` previews any player's view for the GM.
"""

from __future__ import annotations

from typing import Any

from app.rules.campaign.state import CampaignState
from app.rules.map.geometry import in_polygon
from app.rules.system import Event, Viewer
from app.rules.triptycho import sight
from app.rules.triptycho.board import BattleMap, index
from app.rules.triptycho.geometry import centroid
from app.rules.triptycho.state import Entity, ext_of, settings_of
from app.rules.triptycho.world import conditions_of, name_of, visible_ids, watchers


def _seen(board: BattleMap, eyes: list[Entity], section: str) -> bool:
    """Whether any of the viewer's characters sees into this section (its terrain, water, a ping in it)."""
    return any(sight.sees_terrain(board, w, here, section) for w in eyes if w.placed for here in w.sections)


def spot_seen(state: CampaignState, viewer: Viewer, x: float, y: float) -> bool | None:
    """Whether a viewer may see a spot of the section map (a ping there goes only to them); None when no
    map is on the table. Outside every section there is nothing to hide."""
    board = ext_of(state).board
    if board is None:
        return None
    if viewer.is_gm:
        return True
    inside = [s for s in board.sections if in_polygon(s.points, (x, y))]
    eyes = watchers(state, viewer)
    return not inside or any(_seen(board, eyes, s.id) for s in inside)


def _board(board: BattleMap, eyes: list[Entity], gm: bool) -> dict[str, Any]:
    idx = index(board)
    sections = []
    for s in board.sections:
        seen = gm or _seen(board, eyes, s.id)
        cx, cy = centroid(s.points)
        item: dict[str, Any] = {
            "id": s.id,
            "name": s.name,
            "points": [list(p) for p in s.points],
            "centre": [round(cx, 2), round(cy, 2)],
            "light": s.light,
            "seen": seen,
        }
        item["water"] = s.water if seen else None
        sections.append(item)
    borders = []
    for sid in sorted(idx.edges):
        for e in idx.edges[sid]:
            if sid < e.to:
                borders.append(
                    {
                        "a": sid,
                        "b": e.to,
                        "kind": e.kind,
                        "height": e.rise,
                        "pieces": [[list(r), list(left)] for r, left in e.pieces],
                    }
                )
    xs = [x for s in board.sections for x, _ in s.points]
    ys = [y for s in board.sections for _, y in s.points]
    return {
        "id": board.id,
        "name": board.name,
        "grid": board.grid,
        "sections": sections,
        "borders": borders,
        "bounds": [min(xs), min(ys), max(xs), max(ys)],
    }


def _spots(board: dict[str, Any], entities: list[dict[str, Any]]) -> None:
    """Where each token is drawn: around its section's centre, one spot per occupant."""
    centres = {s["id"]: s["centre"] for s in board["sections"]}
    crowd: dict[str, list[dict[str, Any]]] = {}
    for e in entities:
        for sid in e["sections"]:
            crowd.setdefault(sid, []).append(e)
        e["spots"] = []
    offsets = [(-1.2, 0), (1.2, 0), (0, 1.1), (0, -1.1), (-1.2, 1.1), (1.2, 1.1), (-1.2, -1.1), (1.2, -1.1)]
    for sid, group in crowd.items():
        cx, cy = centres.get(sid, (0, 0))
        for i, e in enumerate(group):
            dx, dy = offsets[i % len(offsets)] if len(group) > 1 else (0, 0)
            ring = 1 + i // len(offsets)
            e["spots"].append([round(cx + dx * ring, 2), round(cy + dy * ring, 2)])


def _card_item(e: Entity, ref: str) -> dict[str, Any]:
    card = e.card(ref)
    return {
        "instance": ref,
        "card": card.name,
        "id": card.id,
        "kind": card.kind,
        "entries": card.entries(),
        "text": card.text,
        "incantation": card.incantation,
    }


def _entity(state: CampaignState, e: Entity, viewer: Viewer, full: bool) -> dict[str, Any]:
    ext = ext_of(state)
    p = state.find_participant(e.id)
    out: dict[str, Any] = {
        "id": e.id,
        "name": p.name if p else e.id,
        "kind": p.kind if p else "npc",
        "side": e.side,
        "size": e.size,
        "sections": list(e.sections),
        "conditions": sorted(conditions_of(ext, e)),
        "climbing": e.climbing.model_dump() if e.climbing else None,
        "underwater": e.underwater,
        "block": e.block.model_dump() if e.block else None,
        "mine": e.id in viewer.participants,
        "incanting": e.incanting,
    }
    if full:
        out.update(
            senses={
                "low_light": e.low_light,
                "darkvision": e.darkvision,
                "light_sensitive": e.light_sensitive,
                "aquatic": e.aquatic,
            },
            acrobatics=e.acrobatics,
            initiative=e.initiative,
            deck_list=list(e.deck_list),
            health=e.health,
            damage=e.damage,
            charges=e.charges,
            cards=[c.model_dump(mode="json") for c in e.cards],
            hand=[_card_item(e, i) for i in e.hand],
            repertoire=[] if e.uses_deck else [_card_item(e, c.id) for c in e.cards],
            deck_count=len(e.deck),
            discard=list(e.discard),
            uses_deck=e.uses_deck,
        )
        if viewer.is_gm:
            out["deck"] = list(e.deck)  # the order is the GM's secret
    elif e.side == "party":
        out.update(hand_count=len(e.hand), damage=e.damage, health=e.health)
    return out


def view(state: CampaignState, viewer: Viewer) -> dict[str, Any]:
    ext = ext_of(state)
    eyes = watchers(state, viewer)
    seen = visible_ids(state, viewer)
    entities = []
    for e in ext.entities:
        if e.id not in seen:
            continue
        full = viewer.is_gm or e.id in viewer.participants
        entities.append(_entity(state, e, viewer, full))
    board = _board(ext.board, eyes, viewer.is_gm) if ext.board else None
    if board is not None:
        _spots(board, entities)
    turn = ext.turn
    current = turn.entity if turn.entity in seen else None
    out: dict[str, Any] = {
        "board": board,
        "entities": entities,
        "turn": {
            "entity": current,
            "name": name_of(state, current) if current else None,
            "phase": turn.phase if current else None,
            "moved": turn.moved if current else None,
            "mine": bool(current and current in viewer.participants),
            "moves": [m.model_dump() for m in turn.moves if m.entity in seen],
        },
        "far_blocks": [{**f.model_dump(), "by": f.by if f.by in seen else None} for f in ext.far_blocks],
        "hand_size": settings_of(state).hand_size,
    }
    if viewer.is_gm:
        out["maps"] = [{"id": m.id, "name": m.name, "json": m.export()} for m in ext.maps]
        out["attacks"] = [a.model_dump(mode="json") for a in ext.attacks]
    return out


def player_view(state: CampaignState, seat_id: str) -> dict[str, Any]:
    """The GM's preview of one player's view (TP-I-6)."""
    return view(state, state.viewer_for(seat_id, "player"))


# --- the log -----------------------------------------------------------------------------------------


def _moved(e: Event) -> str:
    d = e.data
    kinds = {"move": "moves", "phase": "phases", "fly": "flies", "teleport": "teleports", "push": "is pushed"}
    fall = f", dropping {sum(d['falls'])}" if d.get("falls") else ""
    return f"{d['name']} {kinds.get(d['kind'], 'moves')} to {d['path'][-1]}{fall}."


def _resolved(e: Event) -> str:
    d = e.data
    reaction = f" ({d['reaction']})" if d.get("reaction") else ""
    outcome = f"hit for {d['damage']}" if d["hit"] else "miss"
    return f"{d['attacker_name']}'s {d['card']} on {d['target_name']}{reaction}: {outcome} — {d['why']}."


def _climbed(e: Event) -> str:
    d = e.data
    if d["done"]:
        return f"{d['name']} climbs up into {d['to']}."
    verb = "climbs" if d["success"] else "slips"
    return f"{d['name']} {verb} ({d['total']} vs {d['gm_total']}): {d['progress']} of {d['height']} up."


DESCRIBERS = {
    "triptycho.map_saved": lambda e: f"Map {e.data['map']['name']} saved.",
    "triptycho.map_deleted": lambda e: f"Map {e.data['name']} deleted.",
    "triptycho.map_loaded": lambda e: f"The battle map is now {e.data['map']['name']}.",
    "triptycho.section_changed": lambda e: f"Section {e.data['section']} changed.",
    "triptycho.border_changed": lambda e: f"Border {e.data['border']['a']}-{e.data['border']['b']} changed.",
    "triptycho.sheet_set": lambda e: f"{e.data['name']}'s sheet and cards set.",
    "triptycho.placed": lambda e: (
        f"{e.data['name']} placed in {', '.join(e.data['sections'])}."
        if e.data["sections"]
        else f"{e.data['name']} taken off the map."
    ),
    "triptycho.moved": _moved,
    "triptycho.climbed": _climbed,
    "triptycho.let_go": lambda e: f"{e.data['name']} lets go.",
    "triptycho.fell": lambda e: (
        f"{e.data['name']} falls {e.data['height']} ({e.data['why']}): {e.data['damage']} damage."
    ),
    "triptycho.damaged": lambda e: (
        f"{e.data['name']} takes {e.data['amount']} damage from {e.data['cause']}"
        + (" and loses the incantation." if e.data["stops_incanting"] else ".")
        if e.data["amount"] > 0
        else f"{e.data['name']} heals {-e.data['amount']}."
    ),
    "triptycho.grip_checked": lambda e: (
        f"{e.data['name']} {'holds on' if e.data['success'] else 'loses the grip'} "
        f"({e.data['total']} vs {e.data['gm_total']})."
    ),
    "triptycho.condition_changed": lambda e: (
        f"{e.data['name']} is {'now' if e.data['on'] else 'no longer'} {e.data['condition']}."
    ),
    "triptycho.block_raised": lambda e: f"{e.data['name']} blocks the way to {e.data['toward']}.",
    "triptycho.block_lowered": lambda e: f"{e.data['name']} lowers the block.",
    "triptycho.far_block_raised": lambda e: (
        f"The border {e.data['block']['a']}-{e.data['block']['b']} is blocked."
    ),
    "triptycho.far_block_lowered": lambda e: "A block at a distance ends.",
    "triptycho.move_granted": lambda e: (
        f"{e.data['name']} may {e.data['move']['kind'].capitalize()} {e.data['move']['n']}."
    ),
    "triptycho.deck_shuffled": lambda e: f"Deck shuffled ({e.data['why']}).",
    "triptycho.cards_drawn": lambda e: f"You draw {len(e.data['cards'])} card(s).",
    "triptycho.discard_reshuffled": lambda e: "The discard pile is shuffled into a new deck.",
    "triptycho.hand_dealt": lambda e: f"{e.data['name']} is dealt {e.data['count']} cards.",
    "triptycho.discarded": lambda e: f"{e.data['name']} discards {len(e.data['cards'])}.",
    "triptycho.turn_began": lambda e: (
        f"{e.data['name']} draws"
        + (f" and gains a charge ({e.data['charges']})." if e.data["charge_gained"] else ".")
    ),
    "triptycho.strategy_used": lambda e: (
        f"{e.data['name']}'s Strategy Phase: {e.data.get('card') or e.data['choice']}."
    ),
    "triptycho.phase_passed": lambda e: f"{e.data['name']} passes the {e.data['phase'].capitalize()} Phase.",
    "triptycho.card_played": lambda e: (
        f"{e.data['name']} plays {e.data['card']}"
        + (f" at {', '.join(e.data['target_names'])}." if e.data.get("target_names") else ".")
    ),
    "triptycho.incant_began": lambda e: f"{e.data['name']} begins incanting.",
    "triptycho.charged": lambda e: f"{e.data['name']} gains {e.data['charges']} Incantation charge(s).",
    "triptycho.turn_ended": lambda e: f"{e.data['name']}'s turn ends.",
    "triptycho.dived": lambda e: f"{e.data['name']} {'dives under' if e.data['underwater'] else 'surfaces'}.",
    "triptycho.acrobatics_rolled": lambda e: (
        f"{e.data['name']}'s Acrobatics: {e.data['total']} vs {e.data['gm_total']} — "
        f"{'success' if e.data['success'] else 'failure'}."
    ),
    "triptycho.initiative_rolled": lambda e: f"{e.data['name']} rolls {e.data['value']} for initiative.",
    "triptycho.attack_declared": lambda e: f"{e.data['name']} attacks with {e.data['card']}.",
    "triptycho.intercept_asked": lambda e: "A blocker may intercept.",
    "triptycho.reaction_asked": lambda e: "Waiting on a Reaction.",
    "triptycho.intercepted": lambda e: (
        f"{e.data['name']} {'intercepts' if e.data['accepted'] else 'lets it pass'}."
    ),
    "triptycho.attack_resolved": _resolved,
    "triptycho.attack_missed": lambda e: f"{e.data['name']}'s {e.data['card']} misses: {e.data['why']}.",
    "triptycho.attack_finished": lambda e: f"{e.data['card']} is done.",
    "triptycho.unseen": lambda e: e.data["text"],
}
