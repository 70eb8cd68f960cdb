"""Issue 29: the image a player gets on a vision scene holds no pixel outside what they may see, checked
pixel by pixel on the generated dungeon (a hand-made explored region: the masking code alone)."""

from __future__ import annotations

import io

import numpy as np
import pyvips
import shapely
from PIL import Image

from app.rules.map import tiles as tiles_of_rules
from app.rules.map.state import FogOp
from app.services import map_tiles
from tests import uvtt_maker
from tests.uvtt_maker import FLOORS

WIDTH, HEIGHT = 12 * uvtt_maker.PPG, 8 * uvtt_maker.PPG


def _explored() -> shapely.Geometry:
    """The west room and the corridor, with ragged edges: a slanted cut, fractional corners, a room with a
    hole and an island in the hole."""
    west = shapely.box(50, 100, 200, 175).difference(shapely.Polygon([(50, 100), (120.3, 100), (50, 170.7)]))
    corridor = shapely.box(199.5, 200.25, 350.75, 249.6)
    ring = shapely.box(60.2, 180.4, 190.6, 340.3).difference(shapely.box(90.5, 210.5, 160.5, 320.5))
    island = shapely.box(110.3, 250.7, 130.1, 290.9)
    return shapely.union_all([west, corridor, ring, island])


FOG = (FogOp(op="cover", rect=(140.5, 110.5, 40.0, 40.0)),)
FOGGED = shapely.box(140.5, 110.5, 180.5, 150.5)


def _allowed() -> shapely.Geometry:
    return _explored().difference(FOGGED)


def _squares_outside(kept: np.ndarray, allowed: shapely.Geometry, x0: int = 0, y0: int = 0) -> int:
    """How many kept pixels have any part of their square outside the allowed region."""
    js, is_ = np.nonzero(kept)
    squares = shapely.box(is_ + x0, js + y0, is_ + x0 + 1, js + y0 + 1)
    return int((~shapely.contains(allowed, squares)).sum())


def _source() -> pyvips.Image:
    return pyvips.Image.new_from_buffer(uvtt_maker.image(), "")


def test_every_pixel_the_raster_keeps_lies_wholly_inside_the_explored_region_less_fog():
    region = map_tiles.kept_region(_explored(), FOG, WIDTH, HEIGHT)
    kept = np.frombuffer(map_tiles.raster_whole(region, WIDTH, HEIGHT), dtype=np.uint8).reshape(HEIGHT, WIDTH)
    assert set(np.unique(kept)) <= {0, 255}
    assert _squares_outside(kept, _allowed()) == 0
    # and it keeps the region, less a thin edge: the island in the hole too
    assert int(kept.sum()) / 255 > 0.75 * _allowed().area
    assert kept[270, 120] == 255 and kept[230, 100] == 0 and kept[130, 160] == 0


def test_the_blanked_image_is_black_at_every_pixel_outside_and_the_map_inside():
    region = map_tiles.kept_region(_explored(), FOG, WIDTH, HEIGHT)
    source = np.ndarray(buffer=_source().write_to_memory(), dtype=np.uint8, shape=(HEIGHT, WIDTH, 3))
    out = map_tiles.blanked(_source(), region)
    got = np.ndarray(buffer=out.write_to_memory(), dtype=np.uint8, shape=(HEIGHT, WIDTH, 3))
    kept = np.frombuffer(map_tiles.raster_whole(region, WIDTH, HEIGHT), dtype=np.uint8).reshape(HEIGHT, WIDTH)
    inside = kept == 255
    assert (got[~inside] == 0).all()
    assert (got[inside] == source[inside]).all()
    # nothing of the rooms not explored: no blue (east) and no yellow (north) pixel at all
    for name in ("east", "north"):
        assert not (got == np.array(FLOORS[name], dtype=np.uint8)).all(axis=2).any()


def test_the_jpeg_a_player_gets_shows_no_colour_of_a_room_not_explored():
    region = map_tiles.kept_region(_explored(), FOG, WIDTH, HEIGHT)
    data = map_tiles.blank_outside(_source(), region)
    got = np.asarray(Image.open(io.BytesIO(data)).convert("RGB")).astype(int)
    r, g, b = got[..., 0], got[..., 1], got[..., 2]
    assert not ((b > 120) & (r < 100) & (g < 130)).any()  # blue of the east room
    assert not ((r > 150) & (g > 150) & (b < 100)).any()  # yellow of the north room
    # far from the region, plain black (JPEG smears an edge within its 8-pixel blocks, never further)
    far = shapely.contains_xy(
        _allowed().buffer(8), *np.meshgrid(np.arange(WIDTH) + 0.5, np.arange(HEIGHT) + 0.5)
    )
    assert got[~far].max() <= 12


def test_tiles_hold_the_same_pixels_as_the_whole_image_and_none_outside():
    region = map_tiles.kept_region(_explored(), FOG, WIDTH, HEIGHT)
    whole = map_tiles.blanked(_source(), region)
    whole_px = np.ndarray(buffer=whole.write_to_memory(), dtype=np.uint8, shape=(HEIGHT, WIDTH, 3))
    tiles = map_tiles.clipped_tiles(region, WIDTH, HEIGHT)
    assert {(tx, ty) for tx, ty, _ in tiles} == {(0, 0), (1, 0), (0, 1)}  # of the 600x400 map's 6
    for tx, ty, clipped in tiles:
        x, y, w, h = map_tiles.tile_box(tx, ty, WIDTH, HEIGHT)
        kept = np.frombuffer(map_tiles.raster(clipped, x, y, w, h), dtype=np.uint8).reshape(h, w)
        assert _squares_outside(kept, _allowed(), x, y) == 0
        tile = map_tiles.blanked(_source().crop(x, y, w, h), clipped, x, y)
        got = np.ndarray(buffer=tile.write_to_memory(), dtype=np.uint8, shape=(h, w, 3))
        assert (got == whole_px[y : y + h, x : x + w]).all()


def test_no_vision_keeps_the_whole_image_but_the_fog():
    region = map_tiles.kept_region(None, FOG, WIDTH, HEIGHT)
    kept = np.frombuffer(map_tiles.raster_whole(region, WIDTH, HEIGHT), dtype=np.uint8).reshape(HEIGHT, WIDTH)
    assert kept[10, 10] == 255 and kept[130, 160] == 0
    assert _squares_outside(kept, shapely.box(0, 0, WIDTH, HEIGHT).difference(FOGGED)) == 0


def test_one_more_cell_explored_renames_only_the_tiles_it_touches():
    before = map_tiles.kept_region(_explored(), (), WIDTH, HEIGHT)
    after = map_tiles.kept_region(_explored().union(shapely.box(350, 200, 400, 250)), (), WIDTH, HEIGHT)
    keys = [
        {
            (tx, ty): map_tiles.tile_key("a" * 64, tx, ty, c)
            for tx, ty, c in map_tiles.clipped_tiles(r, WIDTH, HEIGHT)
        }
        for r in (before, after)
    ]
    changed = {t for t in keys[1] if keys[0].get(t) != keys[1][t]}
    assert changed == {(1, 0)}


def test_ragged_regions_of_every_angle_keep_no_pixel_outside():
    rng = np.random.default_rng(29)
    for _ in range(12):
        cx, cy = rng.uniform(100, 500), rng.uniform(100, 300)
        turns = np.sort(rng.uniform(0, 2 * np.pi, 40))
        reach = rng.uniform(5, 120, 40)
        star = shapely.Polygon(np.c_[cx + reach * np.cos(turns), cy + reach * np.sin(turns)]).buffer(0)
        region = map_tiles.kept_region(star, (), WIDTH, HEIGHT)
        kept = np.frombuffer(map_tiles.raster_whole(region, WIDTH, HEIGHT), dtype=np.uint8).reshape(
            HEIGHT, WIDTH
        )
        assert _squares_outside(kept, star) == 0


def test_halves_found_unchanged_give_the_tiles_cut_afresh_and_are_not_cut_again(monkeypatch):
    """The halving remembers each half's region and its tiles (`known_nodes`): after one more cell is
    explored, the halves it does not reach are taken as they were, and every tile reads as if cut afresh."""
    wide = 24 * uvtt_maker.PPG  # 1,200 pixels: five tiles a row, so most halves miss the new cell
    before = map_tiles.kept_region(_explored(), (), wide, HEIGHT)
    after = map_tiles.kept_region(_explored().union(shapely.box(350, 200, 400, 250)), (), wide, HEIGHT)
    cut: list[tuple[int, int]] = []
    clip = tiles_of_rules.clip_tiles

    def counted(pieces, places, *rest):
        cut.extend(places)
        return clip(pieces, places, *rest)

    monkeypatch.setattr(tiles_of_rules, "clip_tiles", counted)
    nodes: dict = {}
    first = map_tiles.clipped_tiles(before, wide, HEIGHT, made_nodes=nodes)
    assert len(cut) == len(set(cut)) >= len(first) == 3  # each tile cut once, at first
    cut.clear()
    again: dict = {}
    stepped = map_tiles.clipped_tiles(after, wide, HEIGHT, known_nodes=nodes, made_nodes=again)
    assert cut and (0, 1) not in cut and (0, 0) not in cut  # the west room's tiles: found, not cut
    assert set(cut) <= {(1, 0), (1, 1)}  # only around the new cell
    fresh = map_tiles.clipped_tiles(after, wide, HEIGHT)
    assert [(tx, ty) for tx, ty, _ in stepped] == [(tx, ty) for tx, ty, _ in fresh]
    for (_, _, a), (_, _, b) in zip(stepped, fresh, strict=True):
        assert shapely.equals_exact(a, b)
    cut.clear()
    map_tiles.clipped_tiles(after, wide, HEIGHT, known_nodes=again)
    assert cut == []  # nothing changed: the whole image found at once
