"""TOTE on the map's tokens: who is engaged with whom, injuries (a bar of the injury track, and the skill
die faces its filled circles block, TO-J-1/TO-D-2), knocked down or out of the fight (TO-J-2), and whose
action is due in the initiative economy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.contract.marks import Badge, Badges, badge, title


def _injuries(sheet: Mapping[str, Any]) -> list[Badge]:
    track = sheet["track"]
    faces = sheet.get("blocked_faces") or ()
    out = [badge("No " + ", ".join(str(f) for f in faces) + " on skill dice", "condition")] if faces else []
    return [*out, badge("Injuries", "bar", sum(1 for box in track if box.get("filled")), len(track))]


def badges(view: Mapping[str, Any]) -> Badges:
    system = view.get("system") or {}
    fight = system.get("fight") or {}
    out: Badges = {}
    for sheet in [*(system.get("heroes") or ()), *(system.get("enemies") or ())]:
        marks: list[Badge] = []
        if sheet.get("out") and not fight:
            marks.append(badge(title(sheet["out"]), "danger"))
        if "track" in sheet:
            marks.extend(_injuries(sheet))
        out[sheet["id"]] = marks
    names = {c["id"]: c["name"] for c in fight.get("combatants") or ()}
    for c in fight.get("combatants") or ():
        marks = []
        if c.get("status") not in (None, "fighting"):
            marks.append(badge(title(c["status"]), "danger"))
        if c.get("knocked_down"):
            marks.append(badge("Knocked down", "condition"))
        engaged = [names[e] for e in c.get("engaged_with") or () if e in names]
        if engaged:
            marks.append(badge("Engaged with " + ", ".join(engaged), "state"))
        if c["id"] not in out and "track" in c:  # an enemy's injuries, in the GM's view only
            marks.extend(_injuries(c))
        out[c["id"]] = [*marks, *out.get(c["id"], [])]
    return {pid: marks for pid, marks in out.items() if marks}


def turn_of(view: Mapping[str, Any]) -> str | None:
    """The combatant declaring now, else the one whose declared action is resolved next."""
    fight = (view.get("system") or {}).get("fight") or {}
    if fight.get("winner"):
        return None
    if fight.get("declaring"):
        return str(fight["declaring"])
    due = fight.get("resolving")
    actor = next((d.get("actor") for d in fight.get("declarations") or () if d.get("id") == due), None)
    return str(actor) if due and actor else None
