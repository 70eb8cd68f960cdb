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
    views = {seat.id: digest(game.view(state, state.viewer_for(seat.id, seat.role))) for seat in state.seats}
    views["table"] = digest(game.view(state, Viewer(role="spectator")))
    return {"state": digest(game.dump(state)), "views": views}


def replay_file(raw: bytes) -> tuple[Game, CampaignState]:
    """A recorded export, replayed by today's rules (upcasters included) without any database."""
    document = transfer.read_file(raw)
    game = registry.game(document["campaign"]["system"])
    events = transfer.events_of(document["events"])
    return game, game.replay(None, events)
