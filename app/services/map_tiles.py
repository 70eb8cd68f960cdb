"""A player's image of a scene with vision, or under fog, as pixels: whole or in 256-pixel tiles.

What each holds and how each is named is the rules' (app/rules/map/tiles.py: the region a viewer may
hold, the tiles it reaches, each tile's clipped region and content key, the whole image's key), so the
URLs a view lists and the ETags the routes send are one function's. Here the clipped regions are filled
with Pillow and the image's pixels outside them made black. The same region gives the same bytes, so
tiles are kept in the database's blob table by name (`vision_images`), shared by every player and
process: after a one-cell move a phone fetches only the tiles whose clipped region changed.

Images and tiles are JPEG (what the players' masked image always was), the blanked pixels black.
"""

from __future__ import annotations

import numpy as np
import pyvips
import shapely
from PIL import Image as PILImage
from PIL import ImageDraw

from app.rules.map.tiles import (  # noqa: F401  # the names the routes and tests reach through here
    ERODE,
    MARGIN,
    ROUND,
    TILE,
    Tiles,
    clip_tiles,
    clipped_tiles,
    covered,
    kept_region,
    masking,
    tile_box,
    tile_key,
    viewer_tiles,
)
from app.services import map_images

MIME = map_images.MASKED_MIME
BLANK = (0, 0, 0)


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


def raster_whole(region: shapely.Geometry, width: int, height: int, tiles: Tiles | None = None) -> bytearray:
    """`raster` of the whole image, tile by tile from the region clipped to each (`tiles`' where given,
    else made here): the whole image holds exactly the pixels its tiles hold (a hole cut open by a tile's
    edge fills its edge pixels alike)."""
    shared = bytearray(width * height)
    whole = np.frombuffer(shared, dtype=np.uint8).reshape(height, width)
    made = (
        clipped_tiles(region, width, height)
        if tiles is None
        else [(t.tx, t.ty, t.clipped) for t in tiles.tiles]
    )
    for tx, ty, clipped in made:
        x, y, w, h = tile_box(tx, ty, width, height) or (0, 0, 0, 0)
        whole[y : y + h, x : x + w] = np.frombuffer(raster(clipped, x, y, w, h), dtype=np.uint8).reshape(h, w)
    return shared


def blanked(
    image: pyvips.Image,
    region: shapely.Geometry,
    x: int | None = None,
    y: int = 0,
    tiles: Tiles | None = None,
) -> pyvips.Image:
    """The whole image (x None; its tiles' clipped regions `tiles` where given), or the tile of it at x, y
    with the region clipped to that tile, with every pixel outside the region black."""
    if x is None:
        kept = raster_whole(region, image.width, image.height, tiles)
    else:
        kept = raster(region, x, y, image.width, image.height)
    keep = pyvips.Image.new_from_memory(kept, image.width, image.height, 1, "uchar")
    return keep.ifthenelse(image, list(BLANK))


def blank_outside(
    image: pyvips.Image,
    region: shapely.Geometry,
    x: int | None = None,
    y: int = 0,
    tiles: Tiles | None = None,
) -> bytes:
    """`blanked`, as JPEG: what a player is sent."""
    return bytes(blanked(image, region, x, y, tiles).jpegsave_buffer(Q=map_images.JPEG_QUALITY, keep="none"))
