"""The generic tabletop on the map's tokens: each character's tracks as bars, the initiative's turn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.contract.marks import Badges, badge


def badges(view: Mapping[str, Any]) -> Badges:
    out: Badges = {}
    for t in view.get("tracks") or ():
        if t.get("owner"):
            out.setdefault(t["owner"], []).append(badge(t["name"], "bar", t["filled"], t["total"]))
    return out


def turn_of(view: Mapping[str, Any]) -> str | None:
    init = view.get("initiative") or {}
    return init.get("current") if init.get("round") else None
