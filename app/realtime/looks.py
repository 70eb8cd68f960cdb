"""How a token looks without a picture, read from what its viewer's view already holds (the character's
kind and player, the seats): a player character ringed in its player's colour, an NPC a red rounded
square, a marker grey. Nothing of it is in the view itself, so the views of recorded logs stay as they
were (tests/golden), and every screen draws the same from the same view."""

from __future__ import annotations

from typing import Any

DEFAULT_COLOR = "#3d7dd8"  # every token's colour until the GM picks one: "by its side"
# Player seats' colours, by the order the seats joined: bright, told apart on a dark map and on a TV.
PALETTE = ("#f2c14e", "#e07be0", "#7bd389", "#f08a4b", "#b39dff", "#d4e157", "#ff6b8b", "#4ecdc4")
GM_RING = "#ffffff"  # a player character the GM plays
FILLS = {"pc": DEFAULT_COLOR, "npc": "#b8343a", "marker": "#6b7280"}


def seat_colours(view: dict[str, Any]) -> dict[str, str]:
    """Each player seat's colour (revoked seats left out, as the players' list of seats leaves them)."""
    players = [s["id"] for s in view.get("seats", ()) if s.get("role") == "player" and not s.get("revoked")]
    return {seat: PALETTE[i % len(PALETTE)] for i, seat in enumerate(players)}


def token_looks(view: dict[str, Any]) -> dict[str, dict[str, str]]:
    """By token id: its `side` (pc, npc, marker), `fill` (its colour, or its side's while it has the
    default one) and `ring` (a player character's player's colour; none for the others)."""
    m = view.get("map") or {}
    tokens = m.get("tokens") or ()
    if not tokens:
        return {}
    people = {p["id"]: p for p in view.get("participants", ())}
    colours = seat_colours(view)
    out: dict[str, dict[str, str]] = {}
    for t in tokens:
        p = people.get(t.get("participant") or "")
        side = "marker" if not t.get("participant") else ("npc" if p and p.get("kind") == "npc" else "pc")
        colour = t.get("color") or DEFAULT_COLOR
        fill = FILLS[side] if colour == DEFAULT_COLOR else colour
        ring = colours.get((p.get("owner") if p else None) or "", GM_RING) if side == "pc" else ""
        out[t["id"]] = _look(side, fill, ring)
    return out


_LOOKS: dict[tuple[str, str, str], dict[str, str]] = {}
LOOKS_KEPT = 4096


def _look(side: str, fill: str, ring: str) -> dict[str, str]:
    """One dict for each look, shared by every token and push that has it (looks are never changed once
    made): a token's piece of the board is found by the identity of what it is drawn of (drawn.py)."""
    key = (side, fill, ring)
    hit = _LOOKS.get(key)
    if hit is None:
        if len(_LOOKS) >= LOOKS_KEPT:
            _LOOKS.clear()
        hit = _LOOKS[key] = {"side": side, "fill": fill, "ring": ring}
    return hit
