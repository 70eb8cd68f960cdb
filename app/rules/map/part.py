"""The map as one more layer of every campaign's rules (after the core, before the game)."""

from typing import Any

from app.rules.contract.deciders import decider, whole_viewer
from app.rules.contract.part import SystemPart, ViewRequest
from app.rules.map import view
from app.rules.map.commands import COMMANDS
from app.rules.map.reducers import REDUCERS
from app.rules.map.view import DESCRIBERS, EVENT_VIEWS


def _view(request: ViewRequest) -> dict[str, Any]:
    """The map as this viewer sees it, under `map` (its characters as the game lets the viewer see them)."""
    return view.view(request.state, request.state, request.viewer, request.scene)


PART = SystemPart(
    key="map",
    title="Map",
    summary="Scenes with an image, a grid, tokens, fog and drawings, shared by every campaign.",
    commands=COMMANDS,
    reducers=REDUCERS,
    describers=DESCRIBERS,
    event_views=EVENT_VIEWS,
    view=_view,
    view_key="map",
    # The map reads the scenes and the characters (and the game's own state, for what it lets a viewer
    # see), never the pools, tracks, turn order or prompts: those are the tokens' marks, from other keys.
    deciders={
        "map": decider(
            ("id", "name", "system", "settings", "seats", "participants", "map", "ext"), whole_viewer
        )
    },
)
