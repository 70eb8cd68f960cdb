"""A player's image of a scene with vision: only what they may see kept, whole or in 256-pixel tiles.

What a viewer may hold is the map's `Sight.explored(scene)` (None: no vision, the whole scene) less the
GM's fog (`kept_region`). Each tile makes that region safe for its pixels from the tile's surroundings
alone (`clip_tile`): eroded by `ERODE` pixels, clipped, its coordinates kept to 1/16 of a pixel, so
that Pillow, which fills the pixels a polygon's edges pass through, never keeps a pixel any part of which
lies outside the region. A tile is named by a hash of the asset, the tile and that clipped region; the
whole image is its tiles put together, named by their names. The same region gives the same bytes, so
tiles are kept in the database's blob table by name (`vision_images`), shared by every player and
process: after a one-cell move a phone fetches only the tiles whose clipped region changed.

Images and tiles are JPEG (what the players' masked image always was), the blanked pixels black.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any

import numpy as np
import pyvips
import shapely
from PIL import Image as PILImage
from PIL import ImageDraw

from app.rules.campaign.state import CampaignState
from app.rules.map.fog import fog_key
from app.rules.map.sight import Sight
from app.rules.map.state import FogOp, Scene
from app.services import map_images

TILE = 256
# Pixels the region is shrunk by. A kept pixel's centre may lie up to ~0.71 outside the filled polygon
# (Pillow fills the pixels its edges pass through), its corners 0.71 from its centre, coordinates are
# rounded to 1/16 of a pixel, and a 2-segment quarter arc reaches 92% of its radius:
# 3 * 0.92 = 2.77 > 0.71 + 0.71 + 0.04.
ERODE = 3.0
ROUND = 16  # coordinates kept to 1/16 of a pixel in what is drawn and named
MARGIN = 8  # pixels around a tile that its erosion reads (more than ERODE)
MIME = map_images.MASKED_MIME
BLANK = (0, 0, 0)
REGIONS_KEPT = 512


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


_REGIONS: OrderedDict[str, shapely.Geometry] = OrderedDict()
_TILES: OrderedDict[str, list[tuple[int, int, shapely.Geometry]]] = OrderedDict()
# A tile's safe region by its surroundings' content: after a step, only the tiles around what changed
# are eroded again.
_CLIPS: OrderedDict[str, shapely.Geometry | None] = OrderedDict()
CLIPS_KEPT = 8192
_LOCK = threading.Lock()


def _remember(cache: OrderedDict[str, Any], key: str, value: Any, kept: int = REGIONS_KEPT) -> None:
    with _LOCK:
        cache[key] = value
        while len(cache) > kept:
            cache.popitem(last=False)


def kept_region(
    explored: shapely.Geometry | None, fog: tuple[FogOp, ...], width: int, height: int
) -> shapely.Geometry:
    """What a viewer's image may show: (explored, or the whole image) less the fog, clipped to the image.
    Prepared, and remembered by its inputs' content (the explored region's WKB, the fog's strokes), so
    every push of every viewer whose explored region did not change finds it made. Each tile makes it safe
    for its pixels itself (`clip_tile`)."""
    key = _digest(
        "region", b"-" if explored is None else shapely.to_wkb(explored), fog_key(fog), f"{width}x{height}"
    )
    with _LOCK:
        hit = _REGIONS.get(key)
        if hit is not None:
            _REGIONS.move_to_end(key)
            return hit
    region: shapely.Geometry = shapely.box(0, 0, width, height)
    if explored is not None:
        region = region.intersection(explored)
    if any(op.op == "cover" for op in fog):
        region = region.difference(covered(fog, width, height))
    shapely.prepare(region)  # before it is shared: its tiles are tested against it
    _remember(_REGIONS, key, region)
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


def region_of(state: CampaignState, scene: Scene, sight: Sight) -> shapely.Geometry | None:
    """What this sight may hold of the scene's image, or None when it gets no image of the scene."""
    masked = masking(sight, scene)
    if masked is None or scene.asset is None:
        return None
    return kept_region(masked[0], masked[1], scene.width, scene.height)


def _digest(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    return h.hexdigest()


def image_version(asset: str, region: shapely.Geometry, width: int, height: int) -> str:
    """The key of the whole image holding this region: of its tiles' keys (names neither the asset nor
    the region)."""
    keys = [tile_key(asset, tx, ty, c) for tx, ty, c in clipped_tiles(region, width, height)]
    return _digest("vision-image", asset, f"{width}x{height}", *keys)[:20]


def image_url_version(state: CampaignState, scene: Scene, sight: Sight) -> str | None:
    """The `v` of a vision scene's `image_url` for this sight (None when it gets no image)."""
    region = region_of(state, scene, sight)
    if region is None or not scene.asset:
        return None
    return image_version(scene.asset, region, scene.width, scene.height)


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
    region: shapely.Geometry, width: int, height: int
) -> list[tuple[int, int, shapely.Geometry]]:
    """Every tile the region reaches, with what it may show (`clip_tile`: what the tile draws and is
    named by). The region is cut in halves down to single tiles, always along the same lines of the
    image's tile grid (so a tile's surroundings are cut the same way whatever else changed): each corner
    is clipped about log2(tiles) times rather than once per tile. Remembered by the region's content."""
    if region.is_empty:
        return []
    key = _digest("tiles", shapely.to_wkb(region), f"{width}x{height}")
    with _LOCK:
        hit = _TILES.get(key)
        if hit is not None:
            _TILES.move_to_end(key)
            return hit
    out: list[tuple[int, int, shapely.Geometry]] = []
    _split(region, 0, 0, -(-width // TILE), -(-height // TILE), width, height, out)
    out.sort(key=lambda t: (t[1], t[0]))
    _remember(_TILES, key, out)
    return out


def _split(
    piece: shapely.Geometry,
    tx0: int,
    ty0: int,
    tx1: int,
    ty1: int,
    width: int,
    height: int,
    out: list[tuple[int, int, shapely.Geometry]],
) -> None:
    around = (tx0 * TILE - MARGIN, ty0 * TILE - MARGIN, tx1 * TILE + MARGIN, ty1 * TILE + MARGIN)
    piece = shapely.clip_by_rect(piece, *around)
    if piece.is_empty:
        return
    if tx1 - tx0 == 1 and ty1 - ty0 == 1:
        made = clip_tile(piece, tx0, ty0, width, height)
        if made is not None:
            out.append((tx0, ty0, made))
        return
    if tx1 - tx0 >= ty1 - ty0:
        mid = (tx0 + tx1) // 2
        _split(piece, tx0, ty0, mid, ty1, width, height, out)
        _split(piece, mid, ty0, tx1, ty1, width, height, out)
    else:
        mid = (ty0 + ty1) // 2
        _split(piece, tx0, ty0, tx1, mid, width, height, out)
        _split(piece, tx0, mid, tx1, ty1, width, height, out)


def tile_of(region: shapely.Geometry, tx: int, ty: int, width: int, height: int) -> shapely.Geometry | None:
    """What one tile may show: the one `clipped_tiles` names it by (made the same way)."""
    return next((c for x, y, c in clipped_tiles(region, width, height) if (x, y) == (tx, ty)), None)


def clip_tile(local: shapely.Geometry, tx: int, ty: int, width: int, height: int) -> shapely.Geometry | None:
    """What one tile may show, safe for its pixels, or None when nothing: the region around the tile
    (`local`, at least `MARGIN` pixels more each way) eroded by `ERODE`, clipped to the tile, rounded and
    normalised. Made from the tile's surroundings alone (and remembered by them), so a change elsewhere
    leaves it, and its key, as they were; a tile well inside the region is its box."""
    box = tile_box(tx, ty, width, height)
    if box is None:
        return None
    x, y, w, h = box
    square = shapely.box(x, y, x + w, y + h)
    around = (x - MARGIN, y - MARGIN, x + w + MARGIN, y + h + MARGIN)
    local = shapely.normalize(shapely.clip_by_rect(local, *around))
    if not local.is_valid:  # clip_by_rect may leave a ring touching itself on the rectangle's edge
        local = shapely.make_valid(local)
    if local.is_empty or not shapely.intersects(local, square):
        return None
    if local.area >= (w + 2 * MARGIN) * (h + 2 * MARGIN) * (1 - 1e-12):  # the whole of its surroundings
        return square
    key = _digest("clip", shapely.to_wkb(local), repr(box))
    with _LOCK:
        if key in _CLIPS:
            _CLIPS.move_to_end(key)
            return _CLIPS[key]
    # The buffer's arcs of two segments a quarter fall short of the radius by 8% (`ERODE` counts it).
    eroded = local.buffer(-ERODE, quad_segs=2)
    clipped = shapely.normalize(_rounded(shapely.clip_by_rect(eroded, x, y, x + w, y + h)))
    made = clipped if clipped.area > 0 else None
    _remember(_CLIPS, key, made, CLIPS_KEPT)
    return made


def tile_key(asset: str, tx: int, ty: int, clipped: shapely.Geometry) -> str:
    """A tile's name by its content: the asset, the tile, the region clipped to it (64 hex digits)."""
    return _digest("vision-tile", asset, f"{tx}/{ty}", shapely.to_wkb(clipped))


def tile_urls(state: CampaignState, scene: Scene, sight: Sight) -> list[dict[str, Any]]:
    """The tiles of the scene's image a viewer may hold, for their view: `[{x, y, w, h, url}]` in image
    pixels; each URL's `v` names the tile's content, so a tile whose clipped region did not change keeps
    its URL (and the phone its copy)."""
    region = region_of(state, scene, sight)
    if region is None or scene.asset is None:
        return []
    out = []
    for tx, ty, clipped in clipped_tiles(region, scene.width, scene.height):
        x, y, w, h = tile_box(tx, ty, scene.width, scene.height) or (0, 0, 0, 0)
        v = tile_key(scene.asset, tx, ty, clipped)[:20]
        url = f"/api/campaigns/{state.id}/scenes/{scene.id}/tiles/{tx}/{ty}?v={v}"
        out.append({"x": x, "y": y, "w": w, "h": h, "url": url})
    return out


# --- pixels ---------------------------------------------------------------------------------------


def raster(region: shapely.Geometry, x: int, y: int, width: int, height: int) -> bytearray:
    """One byte a pixel of the box (x, y, width, height): 255 where the region is, 0 elsewhere. A pixel
    (i, j) is the square [i, i + 1] x [j, j + 1]; Pillow's pixel centres are whole numbers, so the region
    is moved by half a pixel. Polygons are filled biggest first, each then its holes emptied, so an island
    inside a hole is drawn after the hole."""
    shared = bytearray(width * height)
    if region.is_empty or width <= 0 or height <= 0:
        return shared
    canvas = PILImage.frombuffer("L", (width, height), shared, "raw", "L", 0, 1)
    canvas.readonly = False
    draw = ImageDraw.Draw(canvas)
    polygons = sorted(
        (g for g in shapely.get_parts(region) if isinstance(g, shapely.Polygon) and not g.is_empty),
        key=lambda g: -g.area,
    )
    dx, dy = x + 0.5, y + 0.5
    for polygon in polygons:
        draw.polygon([(px - dx, py - dy) for px, py in polygon.exterior.coords], fill=255)
        for hole in polygon.interiors:
            draw.polygon([(px - dx, py - dy) for px, py in hole.coords], fill=0)
    del draw, canvas
    return shared


def raster_whole(region: shapely.Geometry, width: int, height: int) -> bytearray:
    """`raster` of the whole image, tile by tile from the region clipped to each: the whole image holds
    exactly the pixels its tiles hold (a hole cut open by a tile's edge fills its edge pixels alike)."""
    shared = bytearray(width * height)
    whole = np.frombuffer(shared, dtype=np.uint8).reshape(height, width)
    for tx, ty, clipped in clipped_tiles(region, width, height):
        x, y, w, h = tile_box(tx, ty, width, height) or (0, 0, 0, 0)
        whole[y : y + h, x : x + w] = np.frombuffer(raster(clipped, x, y, w, h), dtype=np.uint8).reshape(h, w)
    return shared


def blanked(image: pyvips.Image, region: shapely.Geometry, x: int | None = None, y: int = 0) -> pyvips.Image:
    """The whole image (x None), or the tile of it at x, y with the region clipped to that tile, with
    every pixel outside the region black."""
    if x is None:
        kept = raster_whole(region, image.width, image.height)
    else:
        kept = raster(region, x, y, image.width, image.height)
    keep = pyvips.Image.new_from_memory(kept, image.width, image.height, 1, "uchar")
    return keep.ifthenelse(image, list(BLANK))


def blank_outside(image: pyvips.Image, region: shapely.Geometry, x: int | None = None, y: int = 0) -> bytes:
    """`blanked`, as JPEG: what a player is sent."""
    return bytes(blanked(image, region, x, y).jpegsave_buffer(Q=map_images.JPEG_QUALITY, keep="none"))
