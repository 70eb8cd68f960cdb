"""The Trinity Code on the map's tokens: harm and stress conditions (TC-H), harm and stress as bars."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.contract.marks import Badges, badge

# The conditions a character's harm and stress bring (state.py `Character.conditions`), as drawn.
CONDITIONS = {
    "wounded": ("Wounded", "condition"),
    "traumatised": ("Traumatised", "condition"),
    "unconscious": ("Unconscious", "danger"),
    "dying": ("Dying", "danger"),
    "dead": ("Dead", "danger"),
    "on-the-brink": ("On the brink", "condition"),
    "lost": ("Lost", "danger"),
    "out-of-luck": ("Out of Luck", "state"),
}


def badges(view: Mapping[str, Any]) -> Badges:
    system = view.get("system") or {}
    out: Badges = {}
    for c in system.get("characters") or ():
        marks = [badge(*CONDITIONS[name]) for name in c.get("conditions") or () if name in CONDITIONS]
        marks.append(badge("Harm", "bar", c["harm"], c["harm_limit"]))
        marks.append(badge("Stress", "bar", c["stress"], c["stress_limit"]))
        out[c["id"]] = marks
    for o in system.get("opponents") or ():
        marks = [badge("Out of the fight", "danger")] if o.get("out") else []
        if "taken" in o:  # the GM's view: the opponent's harm limit is theirs alone
            marks.append(badge("Harm taken", "bar", o["taken"], o["harm_limit"]))
        if marks:
            out[o["id"]] = marks
    return out
