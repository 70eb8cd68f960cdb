"""What the map templates draw on tokens beside the view: each game's badges and whose turn it is.

A Jinja filter (`v | token_marks`), so a page asks for them while it draws the map, from the view it
already has: they are no part of the view itself (a recorded log's view hashes stay as recorded), and the
block memo sees which view keys the hooks read (`Tracked`), so a block is redrawn when they change.
"""

from __future__ import annotations

from typing import Any

from app.rules import registry
from app.rules.contract import marks


def token_marks(view: dict[str, Any]) -> dict[str, Any]:
    """What the game draws on this view's tokens (badges, whose turn), from the view alone."""
    system = (view.get("campaign") or {}).get("system")
    return marks.token_marks(registry.game(system).parts if system else (), view)
