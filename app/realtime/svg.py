"""Pieces of the map's SVG written in Python, where a template's loop cost a push more than the rest of
its block: a player's image tiles on a vision scene (every view of every push lists a dozen or more)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from markupsafe import Markup, escape

from app.realtime.digests import ByIdentity

_TILE_LAYERS = ByIdentity(256)  # by the tiles' list: a viewer's tiles kept with them (app/rules/map/tiles.py)


def tile_layer(tiles: Iterable[dict[str, Any]], page: Any, width: Any, height: Any) -> Markup:
    """`write_tiles`, once for each list of tiles (and page and size): a viewer whose tiles did not
    change has the same list, push after push, however often its board is drawn again."""
    drawn: dict[tuple[Any, ...], Markup] = _TILE_LAYERS.get(tiles, lambda _: {})
    key = (page, width, height)
    hit = drawn.get(key)
    if hit is None:
        hit = drawn[key] = write_tiles(tiles, page, width, height)
    return hit


def write_tiles(tiles: Iterable[dict[str, Any]], page: Any, width: Any, height: Any) -> Markup:
    """A player's image of a scene with vision, in the tiles their view lists (each named by its content):
    a step that changes a few tiles' URLs downloads those alone, and each tile's id lets the page keep the
    element of a tile whose URL did not change (static/js/fray.js). Nothing explored is black, as the
    whole image's blanked pixels are. Every value escaped, as the templates escape them."""
    p, w, h = _attr(page), _attr(width), _attr(height)
    parts = [f'<g class="map-tiles">\n  <rect class="map-tiles-ground" width="{w}" height="{h}"/>\n']
    for t in tiles:
        x, y = _attr(t["x"]), _attr(t["y"])
        parts.append(
            f'  <image class="map-tile" id="tile-{p}-{x}-{y}" href="{_attr(t["url"])}" x="{x}" y="{y}"'
            f' width="{_attr(t["w"])}" height="{_attr(t["h"])}" preserveAspectRatio="none"/>\n'
        )
    parts.append("</g>")
    return Markup("".join(parts))


def token_items(
    drawn: Callable[..., Markup],
    item: Any,
    tokens: Iterable[dict[str, Any]],
    looks: dict[str, Any],
    marks: dict[str, Any] | None,
    size: float,
    page: str,
) -> Markup:
    """The map's tokens, each drawn once for what it is given (`drawn`, the `token_item` macro): the
    loop here rather than in the template, whose calls cost a board more than its kept tokens did."""
    parts = []
    for t in tokens:
        pid = t["participant"]
        said = marks["words"].get(pid) if marks and pid else None
        badges = marks["badges"][pid] if marks and said else None
        turn = marks and pid and marks["turn"] == pid
        radius = round(t["size"] * size / 2 * 0.9, 1)
        parts.append(f"      {drawn(item, t, looks.get(t['id']) or {}, said, badges, turn, radius, page)}\n")
    return Markup("".join(parts))


def _attr(value: Any) -> str:
    """A value as an attribute's text: a number as Python writes it (as the templates do), anything else
    escaped."""
    if type(value) is int or type(value) is float:
        return str(value)
    return escape(value)


def sight_layer(drawn: Callable[..., Markup], gm_walls: Any, m: dict[str, Any], page: str) -> Markup:
    """What sight from walls puts under the tokens: the GM's walls and lights (a piece drawn once for
    what they are, `gm_walls`) and each token's sight for the token actions' fields; a phone's sight (what
    its tokens see now is clear, what they saw before is dimmed: the image holds nothing else)."""
    parts = []
    if page == "gm":
        walls, lights = m.get("walls"), m.get("lights")
        if walls or lights:
            parts.append(f"{drawn(gm_walls, walls or (), lights or (), m['grid']['size'])}\n")
        parts.append('<g class="map-token-sights">\n')
        for t in m["tokens"]:
            sight = t.get("sight")
            if sight:
                reach, dark = sight.get("range"), _attr(sight.get("darkvision") or 0)
                parts.append(
                    f'  <circle class="token-sight-of" data-token="{_attr(t["id"])}"'
                    f' data-range="{"" if reach is None else _attr(reach)}" data-darkvision="{dark}"\n'
                    f'          cx="{_attr(t["x"])}" cy="{_attr(t["y"])}" r="{dark}"/>\n'
                )
        parts.append("</g>\n")
    elif m.get("vision"):
        p, w, h = _attr(page), _attr(m["width"]), _attr(m["height"])
        seen = m.get("sight")
        parts.append('<g class="map-vision">\n')
        parts.append(
            f'  <mask id="sight-mask-{p}" maskUnits="userSpaceOnUse" x="0" y="0" width="{w}" height="{h}">\n'
        )
        parts.append(f'    <rect width="{w}" height="{h}" fill="white"/>\n')
        if seen:
            parts.append(f'    <path class="sight" d="{_attr(seen)}" fill="black" fill-rule="evenodd"/>\n')
        parts.append("  </mask>\n")
        parts.append(
            f'  <rect class="map-unseen" width="{w}" height="{h}" mask="url(#sight-mask-{p})"/>\n</g>\n'
        )
    return Markup("".join(parts))


def door_layer(
    drawn: Callable[..., Markup], gm_doors: Any, door_icon: Any, m: dict[str, Any], page: str
) -> Markup:
    """The doors' buttons, over the tokens so a token in a doorway never hides a door from a tap: the
    GM's, one piece for the walls they are among; a phone's, the doors it sees now, each its own piece.
    `usable`: the player may try it (reach is the server's to judge); the table's TV and a replay show
    the doors in sight, to look at only. A phone is not told which doors are locked (drawn as unlocked)."""
    size = m["grid"]["size"]
    if page == "gm":
        walls = m.get("walls")
        return Markup(f"{drawn(gm_doors, walls, size)}\n") if walls else Markup("")
    doors = m.get("doors")
    if not (m.get("vision") and doors):
        return Markup("")
    player = page == "player"
    parts = ['<g class="map-doors map-vision-doors">\n']
    for d in doors:
        icon = drawn(
            door_icon,
            d["id"],
            d["x"],
            d["y"],
            d["open"],
            d.get("locked", False),
            size,
            d["usable"] and player,
            player,
        )
        parts.append(f"  {icon}\n")
    parts.append("</g>\n")
    return Markup("".join(parts))
