"""Pieces of the map's SVG written in Python, where a template's loop cost a push more than the rest of
its block: a player's image tiles on a vision scene (every view of every push lists a dozen or more)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from markupsafe import Markup, escape

from app.realtime.digests import ByIdentity

_TILE_LAYERS = ByIdentity(256)  # by the tiles' list: a viewer's tiles kept with them (app/rules/map/tiles.py)


def tile_layer(tiles: Iterable[dict[str, Any]], page: Any, width: Any, height: Any) -> Markup:
    """`tile_svg`, written once for each list of tiles (and page and size): a viewer whose tiles did not
    change has the same list, push after push, however often its board is drawn again."""
    drawn: dict[tuple[Any, ...], Markup] = _TILE_LAYERS.get(tiles, lambda _: {})
    key = (page, width, height)
    hit = drawn.get(key)
    if hit is None:
        hit = drawn[key] = tile_svg(tiles, page, width, height)
    return hit


def tile_svg(tiles: Iterable[dict[str, Any]], page: Any, width: Any, height: Any) -> Markup:
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
