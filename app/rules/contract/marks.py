"""What a game draws on the map's tokens: its state as badges, and whose turn it is.

Each part may give `badges` and `turn_of`, pure functions of one viewer's own view (the dict `Game.view`
made for them), never of the state: a badge can only say what that viewer's view already says, so a
hidden NPC's condition or a track only the GM sees never reaches a player's page. They are not part of
the view itself (the view's hash is a recorded log's meaning): the page layer asks for them while it
draws the map.

A badge is `{"label", "kind", "value"?, "max"?, "short"?}`. `kind` says how it is drawn: "bar" (a track,
`value` of `max`), "count" (a number, `value`), "danger" (out of the fight: unconscious, dying), "condition"
(a harm to the character) or "state" (a situation: engaged, incanting).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

Badge = dict[str, Any]
Badges = dict[str, list[Badge]]
BadgeHook = Callable[[Mapping[str, Any]], Badges]
TurnHook = Callable[[Mapping[str, Any]], str | None]

KINDS = ("bar", "count", "danger", "condition", "state")


def badge(label: str, kind: str, value: int | float | None = None, top: int | float | None = None) -> Badge:
    out: Badge = {"label": label, "kind": kind}
    if value is not None:
        out["value"] = value
    if top is not None:
        out["max"] = top
    return out


def words(b: Badge) -> str:
    """A badge as a person reads it: "Wounded", "Harm 4/6", "Incantation charges 2"."""
    if b["kind"] == "bar" and "max" in b:
        return f"{b['label']} {b.get('value', 0)}/{b['max']}"
    if "value" in b:
        return f"{b['label']} {b['value']}"
    return str(b["label"])


def title(text: str) -> str:
    """A state's word as a label: "on-the-brink" reads "On the brink"."""
    text = text.replace("-", " ").replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def token_marks(parts: Iterable[Any], view: Mapping[str, Any]) -> dict[str, Any]:
    """Every part's badges for this view, by participant, and the participant whose turn it is (the
    game's own notion of it wins over the generic initiative: the last part that names one)."""
    badges: Badges = {}
    turn: str | None = None
    for part in parts:
        if part.badges is not None:
            for pid, items in part.badges(view).items():
                badges.setdefault(pid, []).extend(items)
        if part.turn_of is not None:
            turn = part.turn_of(view) or turn
    return {
        "badges": badges,
        "words": {pid: [words(b) for b in items] for pid, items in badges.items()},
        "turn": turn,
    }
