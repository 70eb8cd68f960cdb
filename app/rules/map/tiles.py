"""A viewer's image of a scene named tile by tile: the region they may hold, the 256-pixel tiles it
reaches, each tile's content key, and the whole image's key made of them. Pure (shapely and hashlib):
the view lists the tiles' URLs from here and the image routes (app/services/map_tiles.py, which fill
the pixels) name what they serve from here, so a URL's `v` is the route's ETag.

What a viewer may hold is the map's `Sight.explored(scene)` (vision on) or the whole scene, less the GM's
fog (`kept_region`). Each tile makes that region safe for its pixels from the tile's surroundings alone
(`clip_tiles`): eroded by `ERODE` pixels, clipped, its coordinates kept to 1/16 of a pixel, so that Pillow,
which fills the pixels a polygon's edges pass through, never keeps a pixel any part of which lies outside
the region. A tile is named by a hash of the asset, the tile and that clipped region; the whole image by
its tiles' names. The same region gives the same names in every process.

Remembered on the state, not in a module: a viewer's tiles with their explored area (kept on the map
state for the explored areas it is made of, `sight.explored_entry`), so a push rebuilding the view of a
viewer whose explored area did not change finds them made; and each tile's clipped region by the content
of its surroundings, carried from a viewer's last tiles to their next, so after a step only the tiles
around what changed are eroded again. A fog-blanked scene's tiles are kept on the scene.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np
import shapely

from app.rules.contract.frozen import kept_whole
from app.rules.map.sight import Sight, explored_entry
from app.rules.map.state import FogOp, Scene

TILE = 256
# Pixels the region is shrunk by. A kept pixel's centre may lie up to ~0.71 outside the filled polygon
# (Pillow fills the pixels its edges pass through), its corners 0.71 from its centre, coordinates are
# rounded to 1/16 of a pixel, and a 2-segment quarter arc reaches 92% of its radius:
# 3 * 0.92 = 2.77 > 0.71 + 0.71 + 0.04.
ERODE = 3.0
ROUND = 16  # coordinates kept to 1/16 of a pixel in what is drawn and named
MARGIN = 8  # pixels around a tile that its erosion reads (more than ERODE)

Clips = dict[str, shapely.Geometry | None]  # a tile's clipped region by its surroundings' digest
Placed = tuple[int, int, shapely.Geometry]  # a tile (tx, ty) and what it may show
# A block of tiles (tx0, ty0, tx1, ty1) of the halving: the region around it, the tiles it gave and
# their clipped regions by their surroundings' digest
Nodes = dict[tuple[int, int, int, int], tuple[shapely.Geometry, list[Placed], Clips]]


class Tile(NamedTuple):
    tx: int
    ty: int
    x: int
    y: int
    w: int
    h: int
    clipped: shapely.Geometry  # what the tile may show, safe for its pixels
    key: str  # its name by content (64 hex digits); its URL's `v` and ETag are the first 20


class Tiles:
    """A viewer's image of a scene: the region they may hold, its tiles (row by row) and the whole
    image's key (`version`, of its tiles' keys)."""

    __slots__ = ("_by_place", "_urls", "asset", "height", "region", "tiles", "version", "width")

    def __init__(self, asset: str, width: int, height: int, region: shapely.Geometry, tiles: list[Tile]):
        self.asset, self.width, self.height, self.region = asset, width, height, region
        self.tiles = tuple(tiles)
        self.version = image_version(asset, [t.key for t in tiles], width, height)
        self._by_place = {(t.tx, t.ty): t for t in tiles}
        self._urls: tuple[str, list[dict[str, Any]]] | None = None  # `tile_urls`, kept for its base

    def tile(self, tx: int, ty: int) -> Tile | None:
        return self._by_place.get((tx, ty))


# --- the region a viewer may hold -----------------------------------------------------------------


def covered(fog: tuple[FogOp, ...], width: int, height: int) -> shapely.Geometry:
    """The part of the image the GM's fog covers (the last stroke holding a point decides)."""
    whole = shapely.box(0, 0, width, height)
    out: shapely.Geometry = shapely.Polygon()
    for op in fog:
        if op.rect is not None:
            x, y, w, h = op.rect
            shape: shapely.Geometry = shapely.box(x, y, x + w, y + h)
        elif op.polygon is not None:
            shape = shapely.make_valid(shapely.polygons(np.asarray(op.polygon, dtype=float)))
        else:
            shape = whole
        out = out.union(shape) if op.op == "cover" else out.difference(shape)
    return out


def kept_region(
    explored: shapely.Geometry | None, fog: tuple[FogOp, ...], width: int, height: int
) -> shapely.Geometry:
    """What a viewer's image may show: (explored, or the whole image) less the fog, clipped to the image.
    Each tile makes it safe for its pixels itself (`clip_tiles`)."""
    region: shapely.Geometry = shapely.box(0, 0, width, height)
    if explored is not None:
        region = region.intersection(explored)
    if any(op.op == "cover" for op in fog):
        region = region.difference(covered(fog, width, height))
    return region


def masking(sight: Sight, scene: Scene | None) -> tuple[shapely.Geometry | None, tuple[FogOp, ...]] | None:
    """What a viewer's image of a scene is masked by: (what they explored, the fog's strokes), the first
    None where no vision applies (the fog-blanked image); None when they get no image of the scene."""
    if scene is None or not sight.scene(scene):
        return None
    explored = sight.explored(scene)
    if explored is not None:
        return explored, scene.fog
    blanked = sight.blanked(scene)
    return None if blanked is None else (None, blanked)


def viewer_tiles(sight: Sight, scene: Scene | None) -> Tiles | None:
    """This viewer's image of the scene, named tile by tile; None when they get no image of it.
    Remembered with their explored area (vision), or on the scene (fog-blanked)."""
    masked = masking(sight, scene)
    if scene is None or masked is None or scene.asset is None:
        return None
    explored, fog = masked
    asset, width, height = scene.asset, scene.width, scene.height
    if explored is None:
        if fog is not scene.fog:  # not the players' fog-blanked image (the GM's whole one): not remembered
            return _made(asset, width, height, None, fog, None)
        return kept_whole(scene, "_fog_tiles", lambda: _made(asset, width, height, None, fog, None))
    entry = explored_entry(sight.state.map, scene, sight.explorers)
    if entry.area is not explored:  # an area from elsewhere (a test's): made, not remembered
        return _made(asset, width, height, explored, fog, None)
    hit = entry.kept.get("tiles")
    if hit is None or hit.asset != asset or (hit.width, hit.height) != (width, height):
        hit = entry.kept["tiles"] = _made(asset, width, height, explored, fog, entry.kept)
    return hit


def _made(
    asset: str,
    width: int,
    height: int,
    explored: shapely.Geometry | None,
    fog: tuple[FogOp, ...],
    kept: dict[str, Any] | None,
) -> Tiles:
    """The tiles, reusing the clipped regions of `kept["clips"]` (a viewer's last tiles) whose
    surroundings are the same, and leaving this call's there for the next."""
    region = kept_region(explored, fog, width, height)
    made: Clips = {}
    nodes: Nodes = {}
    known = kept or {}
    clipped = clipped_tiles(region, width, height, known.get("clips"), made, known.get("nodes"), nodes)
    # A tile's key by its clipped region (found again by identity: a half found unchanged gives the very
    # regions it gave before), held with it so its id stays its own; of the same asset only
    named: dict[int, tuple[shapely.Geometry, str]] = {}
    last_asset, last_keys = known.get("keys") or (None, None)
    keys: dict[int, tuple[shapely.Geometry, str]] = last_keys if last_asset == asset and last_keys else {}
    tiles = []
    for tx, ty, c in clipped:
        x, y, w, h = tile_box(tx, ty, width, height) or (0, 0, 0, 0)
        hit = keys.get(id(c))
        key = hit[1] if hit is not None and hit[0] is c else tile_key(asset, tx, ty, c)
        named[id(c)] = (c, key)
        tiles.append(Tile(tx, ty, x, y, w, h, c, key))
    if kept is not None:
        kept["clips"], kept["nodes"], kept["keys"] = made, nodes, (asset, named)
    return Tiles(asset, width, height, region, tiles)


def tile_urls(campaign_id: str, scene: Scene, tiles: Tiles | None) -> list[dict[str, Any]]:
    """The tiles for a view: `[{x, y, w, h, url}]` in image pixels; each URL's `v` names the tile's
    content (the route's ETag), so a tile whose clipped region did not change keeps its URL."""
    if tiles is None:
        return []
    base = f"/api/campaigns/{campaign_id}/scenes/{scene.id}/tiles"
    # Kept with the tiles: a viewer whose tiles did not change gets the same list (views are never
    # changed once built), and a board finds its tile layer drawn by that list's identity.
    if tiles._urls is None or tiles._urls[0] != base:
        urls = [
            {"x": t.x, "y": t.y, "w": t.w, "h": t.h, "url": f"{base}/{t.tx}/{t.ty}?v={t.key[:20]}"}
            for t in tiles.tiles
        ]
        tiles._urls = (base, urls)
    return tiles._urls[1]


# --- names ----------------------------------------------------------------------------------------


def _digest(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    return h.hexdigest()


def tile_key(asset: str, tx: int, ty: int, clipped: shapely.Geometry) -> str:
    """A tile's name by its content: the asset, the tile, the region clipped to it (64 hex digits)."""
    return _digest("vision-tile", asset, f"{tx}/{ty}", shapely.to_wkb(clipped))


def image_version(asset: str, keys: Iterable[str], width: int, height: int) -> str:
    """The key of the whole image: of its tiles' keys (names neither the asset nor the region). The
    whole image route's ETag and its `image_url`'s `v`."""
    return _digest("vision-image", asset, f"{width}x{height}", *keys)[:20]


# --- tiles ----------------------------------------------------------------------------------------


def tile_box(tx: int, ty: int, width: int, height: int) -> tuple[int, int, int, int] | None:
    """(x, y, w, h) of a tile inside the image, or None when the tile is off it."""
    x, y = tx * TILE, ty * TILE
    if tx < 0 or ty < 0 or x >= width or y >= height:
        return None
    return x, y, min(TILE, width - x), min(TILE, height - y)


def _rounded(shape: shapely.Geometry) -> shapely.Geometry:
    return shapely.transform(shape, lambda xy: np.round(xy * ROUND) / ROUND)


def clipped_tiles(
    region: shapely.Geometry,
    width: int,
    height: int,
    known: Clips | None = None,
    made: Clips | None = None,
    known_nodes: Nodes | None = None,
    made_nodes: Nodes | None = None,
) -> list[Placed]:
    """Every tile the region reaches, with what it may show (`clip_tiles`: what the tile draws and is
    named by), row by row. The region is cut in halves down to single tiles, always along the same
    lines of the image's tile grid (so a tile's surroundings are cut the same way whatever else changed):
    each corner is clipped about log2(tiles) times rather than once per tile. `known`: clipped regions
    already made, by their surroundings' digest; `made` receives this call's. `known_nodes`: the last
    call's halves, each with the region around it and its tiles: a half whose region is exactly as it was
    gives the same tiles without being cut again (a step grows the area in one place); `made_nodes`
    receives this call's."""
    if region.is_empty:
        return []
    cuts = _Cuts(width, height, known or {}, {} if made is None else made, known_nodes or {})
    cuts.split(region, (0, 0, -(-width // TILE), -(-height // TILE)))
    out = cuts.finish({} if made_nodes is None else made_nodes)
    out.sort(key=lambda t: (t[1], t[0]))
    return out


class _Cuts:
    """One halving of a region: the halves found as they were, and the tiles left to clip, clipped
    together at the end (each shapely step once for all of them, not once a tile)."""

    def __init__(self, width: int, height: int, known: Clips, made: Clips, last: Nodes):
        self.width, self.height, self.known, self.made, self.last = width, height, known, made, last
        self.out: list[Placed | None] = []  # in the halving's order; None where a tile shows nothing
        self.leaves: list[tuple[int, int, int, shapely.Geometry]] = []  # (at in out, tx, ty, surroundings)
        self.keys: dict[int, str] = {}  # each clipped tile's key of its surroundings, by its place in out
        self.halves: list[tuple[tuple[int, int, int, int], shapely.Geometry, int, int]] = []
        self.found: Nodes = {}

    def split(self, piece: shapely.Geometry, tiles: tuple[int, int, int, int], reach: Any = None) -> None:
        """`reach`: the bounds of `piece` (a half wholly apart from them is empty: not clipped to see)."""
        tx0, ty0, tx1, ty1 = tiles
        around = (tx0 * TILE - MARGIN, ty0 * TILE - MARGIN, tx1 * TILE + MARGIN, ty1 * TILE + MARGIN)
        if reach is not None and (
            reach[2] < around[0] or reach[0] > around[2] or reach[3] < around[1] or reach[1] > around[3]
        ):
            return
        piece = shapely.clip_by_rect(piece, *around)
        if piece.is_empty:
            return
        last = self.last.get(tiles)
        if last is not None and shapely.equals_exact(last[0], piece, normalize=True):  # the same, any order
            self.found[tiles] = last
            self.out.extend(last[1])
            self.made.update(last[2])  # its tiles' clipped regions stay known, for when it changes
            return
        start = len(self.out)
        if tx1 - tx0 == 1 and ty1 - ty0 == 1:
            self.leaves.append((start, tx0, ty0, piece))
            self.out.append(None)
        else:
            if tx1 - tx0 >= ty1 - ty0:
                mid = (tx0 + tx1) // 2
                halves = [(tx0, ty0, mid, ty1), (mid, ty0, tx1, ty1)]
            else:
                mid = (ty0 + ty1) // 2
                halves = [(tx0, ty0, tx1, mid), (tx0, mid, tx1, ty1)]
            bounds = shapely.bounds(piece).tolist()
            for half in halves:
                self.split(piece, half, bounds)
        self.halves.append((tiles, piece, start, len(self.out)))

    def finish(self, made_nodes: Nodes) -> list[Placed]:
        """Clip the tiles left, and note every half with its tiles in `made_nodes`."""
        places = [(tx, ty) for _, tx, ty, _ in self.leaves]
        clipped = clip_tiles(
            [p for *_, p in self.leaves], places, self.width, self.height, self.known, self.made
        )
        for (at, tx, ty, _), (c, key) in zip(self.leaves, clipped, strict=True):
            if c is not None:
                self.out[at] = (tx, ty, c)
            if key is not None:
                self.keys[at] = key
        made_nodes.update(self.found)
        for tiles, piece, start, end in self.halves:
            mine = [t for t in self.out[start:end] if t is not None]
            clips = {self.keys[i]: self.made[self.keys[i]] for i in range(start, end) if i in self.keys}
            made_nodes[tiles] = (piece, mine, clips)
        return [t for t in self.out if t is not None]


def clip_tiles(
    pieces: list[shapely.Geometry],
    places: list[tuple[int, int]],
    width: int,
    height: int,
    known: Clips | None = None,
    made: Clips | None = None,
) -> list[tuple[shapely.Geometry | None, str | None]]:
    """What each tile may show, safe for its pixels, or None when nothing, with the key of its
    surroundings (None when none was needed): the region around the tile (its piece, at least `MARGIN`
    pixels more each way) eroded by `ERODE`, clipped to the tile, rounded and normalised. Made from the
    tile's surroundings alone (found in `known` by their digest, and put in `made`), so a change
    elsewhere leaves it, and its key, as they were; a tile well inside the region is its box. The
    tiles' shapely steps run once for all of them."""
    boxes = [tile_box(tx, ty, width, height) for tx, ty in places]
    out: list[tuple[shapely.Geometry | None, str | None]] = [(None, None)] * len(places)
    on = [i for i, b in enumerate(boxes) if b is not None]
    if not on:
        return out
    x, y, w, h = (np.array(v, dtype=float) for v in zip(*[boxes[i] for i in on], strict=True))
    squares = shapely.box(x, y, x + w, y + h)
    local = shapely.normalize(_array([shapely.clip_by_rect(pieces[i], *_around(boxes[i])) for i in on]))
    invalid = ~shapely.is_valid(local)  # clip_by_rect may leave a ring touching itself on the rect's edge
    if invalid.any():
        local[invalid] = shapely.make_valid(local[invalid])
    shown = ~shapely.is_empty(local) & shapely.intersects(local, squares)
    surroundings = (w + 2 * MARGIN) * (h + 2 * MARGIN)
    whole = shapely.area(local) >= surroundings * (1 - 1e-12)  # the whole of its surroundings
    shapes = shapely.to_wkb(local)
    erode: list[int] = []  # positions in `on` of the tiles to erode
    keys: dict[int, str] = {}
    for j, i in enumerate(on):
        if not shown[j]:
            continue
        if whole[j]:
            out[i] = (squares[j], None)
            continue
        key = keys[j] = _digest("clip", shapes[j], repr(boxes[i]))
        if known is not None and key in known:
            out[i] = (known[key], key)
        else:
            erode.append(j)
    if erode:
        # The buffer's arcs of two segments a quarter fall short of the radius by 8% (`ERODE` counts it).
        eroded = shapely.buffer(local[erode], -ERODE, quad_segs=2)
        rects = [_box_bounds(boxes[on[k]]) for k in erode]
        cut = _array([shapely.clip_by_rect(e, *r) for e, r in zip(eroded, rects, strict=True)])
        cut = shapely.normalize(_rounded(cut))
        for j, c, area in zip(erode, cut, shapely.area(cut), strict=True):
            out[on[j]] = (c if area > 0 else None, keys[j])
    if made is not None:
        for j, key in keys.items():
            made[key] = out[on[j]][0]
    return out


def _array(shapes: list[shapely.Geometry]) -> np.ndarray:
    out = np.empty(len(shapes), dtype=object)
    out[:] = shapes
    return out


def _around(box: tuple[int, int, int, int] | None) -> tuple[float, float, float, float]:
    assert box is not None
    x, y, w, h = box
    return (x - MARGIN, y - MARGIN, x + w + MARGIN, y + h + MARGIN)


def _box_bounds(box: tuple[int, int, int, int] | None) -> tuple[int, int, int, int]:
    assert box is not None
    x, y, w, h = box
    return (x, y, x + w, y + h)
