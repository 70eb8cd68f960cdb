"""What each viewer sees of a TOTE fight (what they may do is in options.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.rules.campaign.state import CampaignState
from app.rules.system import Viewer
from app.rules.tote.flow import waiting_for
from app.rules.tote.model import ACTION_NAMES, ARMOUR, BAND_NAMES, Enemy, Fight, Hero
from app.rules.tote.options import may_answer
from app.rules.tote.rules import (
    block_of,
    blocked_faces,
    engaged_with,
    ext,
    fight,
    name,
    next_declarer,
    next_pending,
    out_reason,
    resist_of,
    settings,
    sheet,
    unit,
    unit_key,
    unit_of,
)

# --- view -----------------------------------------------------------------------------------------


def _seen(state: CampaignState, pid: str, viewer: Viewer) -> bool:
    p = state.find_participant(pid)
    return p is not None and (viewer.is_gm or not p.hidden)


def _sheet_view(state: CampaignState, s: Hero | Enemy, viewer: Viewer) -> dict[str, Any]:
    full = viewer.is_gm or s.id in viewer.participants
    out: dict[str, Any] = {"id": s.id, "name": name(state, s.id), "mine": s.id in viewer.participants}
    if isinstance(s, Enemy) and not viewer.is_gm:
        return out
    out.update(
        resolve=s.resolve,
        resolve_max=s.resolve_max,
        track=[{"label": label, "filled": i < s.injuries} for i, label in enumerate(s.track)],
        blocked_faces=sorted(blocked_faces(state, s.id)),
        out=out_reason(state, s.id)
        if fight(state)
        else ("unconscious" if s.injuries >= len(s.track) else None),
    )
    if full:
        out.update(
            block=block_of(state, s.id),
            resist=resist_of(state, s.id),
            encumbrance=s.encumbrance,
            weapons=[w.model_dump() for w in s.weapons],
        )
        if isinstance(s, Hero):
            out.update(
                skills=s.skills, specialisations=s.specialisations, totems=s.totems, armour=list(s.armour)
            )
        else:
            out.update(rating=s.rating, group=s.group)
    return out


def secret_initiative(state: CampaignState, f: Fight, unit_id: str, viewer: Viewer) -> bool:
    """An enemy's Initiative less its successes is its Rating, which is the GM's (TO-I-1, ruling):
    players and the shared screen see where it stands in the order, never its number."""
    if viewer.is_gm or settings(state).show_enemy_numbers:
        return False
    return any(c.unit == unit_id and c.side == "enemy" for c in f.combatants)


def _units_view(state: CampaignState, f: Fight, viewer: Viewer) -> list[dict[str, Any]]:
    secret = {u.id for u in f.units if secret_initiative(state, f, u.id, viewer)}
    # The bars' scale comes from the numbers this viewer may see (a hidden top value would show).
    shown = [u for u in f.units if u.id not in secret]
    top = max([u.value or 0 for u in shown] + [u.start for u in shown] + [1])
    units = []
    for u in sorted(f.units, key=lambda u: -(u.value or 0)):
        members = [m for m in u.members if _seen(state, m, viewer)]
        if not members:
            continue
        hidden = u.id in secret
        units.append(
            {
                "id": u.id,
                "name": ", ".join(name(state, m) for m in members),
                "members": members,
                "value": None if hidden else u.value,
                "start": None if hidden else u.start,
                "bar": None if hidden else round(100 * (u.value or 0) / top),
                "start_bar": None if hidden else round(100 * u.start / top),
                "rolled": u.value is not None,
                "hidden": hidden,
            }
        )
    return units


def _questions(state: CampaignState, viewer: Viewer) -> list[dict[str, Any]]:
    """The questions the TOTE screens draw (with their odds) that this viewer may answer now.

    The GM may answer every one for a player who stepped away (`on_behalf`): the player keeps the
    same buttons on their phone, and whoever answers first closes it.
    """
    out = []
    for p in state.prompts:
        if not p.drawn_by_system or not may_answer(state, p, viewer):
            continue
        who = state.find_participant(p.to)
        on_behalf = viewer.is_gm and who is not None and who.owner is not None
        out.append(
            {
                "id": p.id,
                "text": p.text,
                "to": p.to,
                "to_name": name(state, p.to),
                "on_behalf": on_behalf,
                "player": state.seat_name(who.owner) if on_behalf and who else None,
            }
        )
    return out


def _fight_view(state: CampaignState, f: Fight, viewer: Viewer) -> dict[str, Any]:
    shown = [c for c in f.combatants if _seen(state, c.id, viewer)]
    units = _units_view(state, f, viewer)
    combatants = []
    for c in shown:
        s = sheet(state, c.id)
        item: dict[str, Any] = {
            "id": c.id,
            "name": name(state, c.id),
            "side": c.side,
            "band": c.band,
            "band_name": BAND_NAMES[c.band],
            "status": out_reason(state, c.id) or "fighting",
            "knocked_down": c.down_round is not None and c.down_round >= f.round,
            "engaged_with": [e for e in engaged_with(f, c.id) if _seen(state, e, viewer)],
            "initiative": None if secret_initiative(state, f, c.unit, viewer) else unit(f, c.unit).value,
            "initiative_hidden": secret_initiative(state, f, c.unit, viewer)
            and unit(f, c.unit).value is not None,
            "unit": c.unit,
            "mine": c.id in viewer.participants,
        }
        if s is not None and (isinstance(s, Hero) or viewer.is_gm):
            item.update(
                resolve=s.resolve,
                resolve_max=s.resolve_max,
                track=[{"label": label, "filled": i < s.injuries} for i, label in enumerate(s.track)],
            )
        combatants.append(item)
    declarations = [
        {
            **d.model_dump(),
            "actor_name": name(state, d.actor),
            "target_name": name(state, d.target) if d.target else None,
            "label": ACTION_NAMES[d.action],
        }
        for d in f.declarations
        if d.round == f.round and _seen(state, d.actor, viewer)
    ]
    declarer = next_declarer(state, f)
    nxt = next_pending(state, f)
    waiting = waiting_for(state)
    by_unit = {u.id: unit_key(state, f, u) for u in f.units}
    position = {d.id: i for i, d in enumerate(f.declarations)}

    # TO-I-2: what already happened, in the order it did, then what is still due, highest first.
    # An action lost because its character fell or fled before its turn never came up: it has no
    # moment in the order, so it is listed at the end, as lost (TO-J-2, ruling).
    def highest_first(ds: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        return sorted(
            ds, key=lambda d: (by_unit.get(unit_of(f, d["actor"]).id, ()), -position[d["id"]]), reverse=True
        )

    finished = sorted(
        (d for d in declarations if d["state"] != "pending" and d["finished"] is not None),
        key=lambda d: d["finished"],
    )
    due = highest_first(d for d in declarations if d["state"] == "pending")
    fell = highest_first(d for d in declarations if d["state"] != "pending" and d["finished"] is None)
    for d in fell:
        d["why"] = out_reason(state, d["actor"]) or "out of the fight"
    resolution = finished + due + fell
    mine_now = {
        "declare": declarer is not None and declarer in viewer.participants,
        "resolve": nxt is not None and nxt.actor in viewer.participants and waiting is None,
        "answer": waiting is not None and waiting in viewer.participants,
    }
    return {
        "round": f.round,
        "phase": f.phase,
        "distance": f.distance,
        "distance_name": BAND_NAMES[f.distance],
        "winner": f.winner,
        "units": units,
        "combatants": combatants,
        "engagements": [list(p) for p in f.engaged if all(_seen(state, x, viewer) for x in p)],
        "order": [pid for pid in f.order if _seen(state, pid, viewer)],
        "declaring": declarer if declarer and _seen(state, declarer, viewer) else None,
        "resolving": nxt.id if nxt and _seen(state, nxt.actor, viewer) else None,
        "waiting_for": waiting if waiting and (waiting == "gm" or _seen(state, waiting, viewer)) else None,
        "declarations": declarations,
        "resolution_order": [d["id"] for d in resolution],
        "declaring_name": name(state, declarer) if declarer and _seen(state, declarer, viewer) else None,
        "resolving_name": name(state, nxt.actor) if nxt and _seen(state, nxt.actor, viewer) else None,
        "waiting_name": (
            "the GM"
            if waiting == "gm"
            else name(state, waiting)
            if waiting and _seen(state, waiting, viewer)
            else None
        ),
        "my_turn": mine_now,
        "questions": _questions(state, viewer) if viewer.role != "spectator" else [],
        "layout": layout(combatants),
        "last": _last(state, f, viewer),
    }


def _last(state: CampaignState, f: Fight, viewer: Viewer) -> dict[str, Any] | None:
    """The last test rolled, if everyone it names is seen by this viewer."""
    last = f.last
    if last is None:
        return None
    named = [last.get("actor"), last.get("target"), *last.get("members", ())]
    if not all(_seen(state, pid, viewer) for pid in named if pid):
        return None
    if viewer.is_gm:
        return {**last, **last.get("gm", {})}
    if last["type"] == "initiative_rolled" and last.get("hidden"):
        # The GM keeps an enemy's Initiative roll: its dice count and value give its Rating away.
        return {"seq": last["seq"], "type": last["type"], "name": last["name"], "hidden": True}
    return {k: v for k, v in last.items() if k != "gm"}


# The Distance band, left to right: the heroes' Far and Close, Melee in the middle, the enemies' Close
# and Far. Coordinates in the SVG's viewBox (1000 wide).
COLUMNS = {
    ("hero", "far"): 78,
    ("hero", "close"): 232,
    ("hero", "melee"): 400,
    ("enemy", "melee"): 600,
    ("enemy", "close"): 768,
    ("enemy", "far"): 922,
}
ROW = 96
TOP = 84


def layout(combatants: list[dict[str, Any]]) -> dict[str, Any]:
    """Where each combatant's token sits on the Distance band, and the band's height."""
    rows: dict[tuple[str, str], int] = {}
    where: dict[str, dict[str, int]] = {}
    for c in combatants:
        if c["status"] == "fled":
            continue
        column = (c["side"], c["band"])
        index = rows.get(column, 0)
        rows[column] = index + 1
        where[c["id"]] = {"x": COLUMNS[column], "y": TOP + index * ROW}
    height = TOP + max(rows.values(), default=1) * ROW - 10
    return {"at": where, "height": height}


def view(state: CampaignState, viewer: Viewer) -> dict[str, Any]:
    x = ext(state)
    f = x.fight
    return {
        "settings": settings(state).model_dump(),
        "armour_table": [{"name": n, "rating": r, "encumbrance": e} for n, (r, e) in ARMOUR.items()],
        "heroes": [_sheet_view(state, h, viewer) for h in x.heroes if _seen(state, h.id, viewer)],
        "enemies": [_sheet_view(state, e, viewer) for e in x.enemies if viewer.is_gm],
        "fight": _fight_view(state, f, viewer) if f else None,
    }
