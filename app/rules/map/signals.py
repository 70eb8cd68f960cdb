"""Ephemeral map messages: pings, a shared ruler, the ghost of a token being dragged.

They go through the broker to every process's sockets of the campaign, never into the log. Here, pure:
each is checked against the sender's seat (a ruler is shared by the GM, and carries its distance as
`geometry.ruler_text` reads it: the pages show that, never a distance of their own; a ruler sent with
`"share": false` is only measured, for its holder, and relayed to no one; a ghost only by who may move the
token) and the map's `Sight`, and sent only to viewers whose sight holds every spot it names (never a spot
under fog, never a scene the players are not shown). A ping may name a spot of the game's own board
instead of the scene (Triptycho's sections, 5x5's tabletop): then the game says who sees that spot. The
budget per seat is the app's one rate limiter (app/services/rate_limits.py, "signals").
"""

from __future__ import annotations

import math
from typing import Any

from app.rules import registry
from app.rules.campaign.state import CampaignState
from app.rules.errors import Forbidden, InputError, RuleError
from app.rules.map.geometry import ruler_text
from app.rules.map.sight import Sight
from app.rules.system import Viewer

KINDS = ("map.ping", "map.ruler", "map.ghost")


def _point(value: Any, what: str) -> tuple[float, float]:
    if isinstance(value, dict):
        value = (value.get("x"), value.get("y"))
    ok = isinstance(value, list | tuple) and len(value) == 2
    if ok and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        try:
            x, y = float(value[0]), float(value[1])
        except OverflowError:  # a whole number of hundreds of digits: no float holds it
            x = y = math.inf
        if math.isfinite(x) and math.isfinite(y):
            return (x, y)
    raise InputError(f"The {what} needs x and y as numbers.")


def _board_spot(state: CampaignState, viewer: Viewer, x: float, y: float) -> bool | None:
    """Whether a viewer sees this spot of the game's own board; None when the game has no board now."""
    spot = registry.game(state.system).system.board_spot
    return None if spot is None else spot(state, viewer, x, y)


def _board_ping(state: CampaignState, viewer: Viewer, name: str, body: dict[str, Any]) -> dict[str, Any]:
    board = state.system
    if body.get("board") != board:
        raise InputError("That board is not this game's: ping the board on your screen.")
    x, y = _point(body, "ping")
    seen = _board_spot(state, viewer, x, y)
    if seen is None:
        raise RuleError("There is no board on the table to point at.")
    if not seen:
        raise RuleError("You cannot ping a spot you cannot see.")
    return {"map.ping": {"board": board, "x": x, "y": y, "by": name}}


def build(state: CampaignState, viewer: Viewer, name: str, payload: dict[str, Any]) -> dict[str, Any]:
    """The message to relay for what a socket sent, or a RuleError saying why not."""
    kind = next(k for k in KINDS if k in payload)
    body = payload[kind]
    if kind == "map.ping" and isinstance(body, dict) and "board" in body:
        return _board_ping(state, viewer, name, body)
    scene = state.map.scene(state.map.shown) if not viewer.is_gm else None
    if viewer.is_gm and isinstance(body, dict) and body.get("scene"):
        scene = state.map.scene(str(body["scene"]))
    scene = scene or state.map.scene(state.map.shown)
    if scene is None:
        raise RuleError("There is no map on the table to point at.")
    if kind == "map.ping":
        x, y = _point(body, "ping")
        if not Sight(state, viewer).point(x, y):
            raise RuleError("You cannot ping a spot you cannot see.")
        return {kind: {"scene": scene.id, "x": x, "y": y, "by": name}}
    if kind == "map.ruler":
        if not isinstance(body, dict):
            raise InputError("A ruler goes from a point to a point.")
        private = body.get("share") is False  # a ruler only its holder sees: measured, relayed to no one
        if not viewer.is_gm and not private:
            raise Forbidden("Only the GM shares the ruler.")
        start, end = _point(body.get("from"), "ruler"), _point(body.get("to"), "ruler")
        ruler: dict[str, Any] = {"scene": scene.id, "from": start, "to": end, "by": name}
        ruler["distance"] = ruler_text(scene.grid, start, end)  # the one rule of distance: pages show it
        if private:
            ruler["private"] = True
        return {kind: ruler}
    token = state.map.token(str(body.get("token"))) if isinstance(body, dict) else None
    if token is None or not _seeing(state, viewer).token(token):
        raise RuleError("There is no such token on the map.")
    if not (viewer.is_gm or token.participant in viewer.participants):
        raise Forbidden("You can move only your own characters' tokens.")
    x, y = _point(body, "ghost")
    return {kind: {"scene": token.scene, "token": token.id, "x": x, "y": y, "by": name}}


def _seeing(state: CampaignState, viewer: Viewer) -> Sight:
    """The viewer's sight with the characters as the game lets them see them (a token whose character
    the game conceals, as 5x5's fog of war does, is no token to them: its ghost neither)."""
    return Sight(state, viewer, registry.game(state.system).as_seen_by(state, viewer))


def visible_to(state: CampaignState, viewer: Viewer, message: dict[str, Any]) -> bool:
    """Whether a relayed message may go to this viewer: its scene shown to them, every spot in sight."""
    kind = next((k for k in KINDS if k in message), None)
    if kind is None:
        return False
    body = message[kind]
    if viewer.is_gm:
        return True
    if "board" in body:
        return bool(_board_spot(state, viewer, body["x"], body["y"]))
    if body.get("scene") != state.map.shown:
        return False
    sight = _seeing(state, viewer)
    if kind == "map.ghost":
        token = state.map.token(body.get("token"))
        if token is None or not sight.token(token):
            return False
    spots = [body["from"], body["to"]] if kind == "map.ruler" else [(body["x"], body["y"])]
    return all(sight.point(x, y) for x, y in spots)
