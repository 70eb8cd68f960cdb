"""Triptycho on the map's tokens: conditions, incanting and Incantation charges, damage against health,
and the entity whose turn it is (`turn.entity`, already None when this viewer cannot see it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.contract.marks import Badge, Badges, badge, title

DANGER = frozenset({"unconscious", "dying", "dead"})


def badges(view: Mapping[str, Any]) -> Badges:
    out: Badges = {}
    for e in (view.get("system") or {}).get("entities") or ():
        marks: list[Badge] = [
            badge(title(c), "danger" if c in DANGER else "condition") for c in e.get("conditions") or ()
        ]
        if e.get("incanting"):
            marks.append(badge("Incanting", "state"))
        if e.get("charges"):  # the entity's own sheet: its controller's and the GM's view
            marks.append(badge("Incantation charges", "count", e["charges"]))
        if e.get("health"):
            marks.append(badge("Damage", "bar", e.get("damage") or 0, e["health"]))
        if marks:
            out[e["id"]] = marks
    return out


def turn_of(view: Mapping[str, Any]) -> str | None:
    turn = (view.get("system") or {}).get("turn") or {}
    return turn.get("entity")
