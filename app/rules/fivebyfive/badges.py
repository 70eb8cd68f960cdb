"""5x5 on the map's tokens: damaged abilities (current of score), Unconscious (or worse), and the
fighter whose turn it is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.contract.marks import Badge, Badges, badge, title


def badges(view: Mapping[str, Any]) -> Badges:
    out: Badges = {}
    for c in (view.get("system") or {}).get("characters") or ():
        marks: list[Badge] = []
        if c.get("status") and c["status"] != "ok":
            marks.append(badge(title(c["status"]), "danger"))
        current, scores = c.get("current") or {}, c.get("scores") or {}
        for ability in c.get("damaged") or ():  # the sheet as this viewer may see it
            marks.append(badge(f"{title(ability)} damaged", "condition", current[ability], scores[ability]))
        if marks:
            out[c["participant"]] = marks
    return out


def turn_of(view: Mapping[str, Any]) -> str | None:
    fight = (view.get("system") or {}).get("fight") or {}
    turn = fight.get("turn") or {}
    return None if fight.get("winner") else turn.get("participant")
