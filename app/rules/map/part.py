"""The map as one more layer of every campaign's rules (after the core, before the game)."""

from app.rules.map.commands import COMMANDS
from app.rules.map.reducers import REDUCERS
from app.rules.map.view import DESCRIBERS, EVENT_VIEWS
from app.rules.system import SystemPart

PART = SystemPart(
    key="map",
    title="Map",
    summary="Scenes with an image, a grid, tokens, fog and drawings, shared by every campaign.",
    commands=COMMANDS,
    reducers=REDUCERS,
    describers=DESCRIBERS,
    event_views=EVENT_VIEWS,
)
