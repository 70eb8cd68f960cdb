"""What a recorded log must still mean: the hash of its final state and of every seat's view."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from app.rules import registry
from app.rules.campaign.state import CampaignState
from app.rules.game import Game
from app.rules.system import Viewer
from app.services import transfer


def digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def fingerprint(game: Game, state: CampaignState) -> dict[str, Any]:
    """The state's hash and each seat's view's hash (and the table view's), as this code reads the log."""
    views = {
        seat.id: digest(_read(game.view(state, state.viewer_for(seat.id, seat.role)))) for seat in state.seats
    }
    views["table"] = digest(_read(game.view(state, Viewer(role="spectator"))))
    return {"state": digest(game.dump(state)), "views": views}


def _read(view: dict[str, Any]) -> dict[str, Any]:
    """A view as the recordings read it. A player's map image URL names the scene's image under its fog:
    recorded as `?fog=<fog_version>`, keyed by content since (`?v=<hash of image and strokes>`, issue 28,
    item 10). The key is a function of the image and the strokes, which the state's hash holds already, so
    the URL is read as what it names, the scene and its fog version, in the form it was recorded in."""
    m = view.get("map") or {}
    url = m.get("image_url")
    if isinstance(url, str) and "/image?v=" in url:
        view = {**view, "map": {**m, "image_url": f"{url.split('?v=')[0]}?fog={m['fog_version']}"}}
    return view


def replay_file(raw: bytes) -> tuple[Game, CampaignState]:
    """A recorded export, replayed by today's rules (upcasters included) without any database."""
    document = transfer.read_file(raw)
    game = registry.game(document["campaign"]["system"])
    events = transfer.events_of(document["events"])
    return game, game.replay(None, events)
