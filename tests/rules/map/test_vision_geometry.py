"""The sight polygon itself (app/rules/map/vision.py): cast among segments, clipped by range and light."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from app.rules.map.state import Scene, Token
from app.rules.map.vision import blocking_segments, cast, fog_area, token_sight, visible_from
from app.rules.map.walls import Light, TokenSight, Wall


def _scene(*walls: Wall, **fields) -> Scene:
    return Scene(id="s", name="s", width=1000, height=1000, walls=walls, **fields)


def _wall(*points, kind="wall", open=False) -> Wall:
    return Wall(id=f"w{len(points)}{kind}{points[0]}", scene="s", kind=kind, points=points, open=open)


def test_with_no_walls_a_point_sees_the_whole_scene():
    seen = visible_from(_scene(), 300, 700)
    assert seen.area == pytest.approx(1000 * 1000, rel=1e-6)


def test_a_closed_box_is_all_a_point_inside_it_sees():
    box = _wall((100, 100), (400, 100), (400, 300), (100, 300), (100, 100))
    seen = visible_from(_scene(box), 250, 200)
    # Its corners cut by no more than the rays a hair either side of them (a tenth of a pixel).
    assert seen.area == pytest.approx(300 * 200, abs=2)
    assert shapely.box(100, 100, 400, 300).buffer(1e-6).contains(seen)
    assert seen.buffer(0.2).contains(shapely.box(100, 100, 400, 300))


def test_a_pillar_casts_a_shadow_of_the_right_shape():
    # A wall from (400, 400) to (600, 400) seen from (500, 200): the shadow is the trapezoid behind it,
    # widening to the scene's bottom edge (x from 500 - 100 * 4 to 500 + 100 * 4 at y = 1000).
    pillar = _wall((400, 400), (600, 400))
    seen = visible_from(_scene(pillar), 500, 200)
    shadow = shapely.Polygon([(400, 400), (600, 400), (900, 1000), (100, 1000)])
    assert seen.area == pytest.approx(1_000_000 - shadow.area, rel=1e-4)
    assert not seen.contains(shapely.Point(500, 700)) and seen.contains(shapely.Point(950, 700))


def test_windows_and_open_doors_do_not_block_sight_closed_doors_do():
    scene = _scene(
        _wall((0, 500), (300, 500)),
        _wall((300, 500), (600, 500), kind="window"),
        _wall((600, 500), (800, 500), kind="door", open=True),
        _wall((800, 500), (1000, 500), kind="door"),
    )
    assert blocking_segments(scene).tolist() == [[0, 500, 300, 500], [800, 500, 1000, 500]]


def test_range_is_a_circle_inside_the_true_one():
    seen = visible_from(_scene(), 500, 500, 200)
    assert math.pi * 200**2 * 0.99 < seen.area <= math.pi * 200**2
    assert shapely.Point(500, 500).buffer(200 + 1e-6).contains(seen)


def test_in_the_dark_a_light_behind_a_wall_lights_nothing_on_this_side():
    wall = _wall((500, 0), (500, 1000))
    light = Light(id="l1", scene="s", x=700, y=500, dim=300)
    scene = _scene(wall, ambient="dark", lights=(light,))
    token = Token(id="t", scene="s", x=200, y=500, sight=TokenSight(darkvision=100))
    seen = token_sight(scene, token)
    assert seen.area == pytest.approx(math.pi * 100**2, rel=0.01)  # its darkvision alone
    window = _scene(_wall((500, 0), (500, 1000), kind="window"), ambient="dark", lights=(light,))
    assert token_sight(window, token).contains(shapely.Point(650, 500))  # seen lit through the window


def test_the_polygon_always_holds_its_viewpoint_and_stays_on_the_scene():
    walls = np.array([[100 + 80 * i, 150, 140 + 80 * i, 900 - 30 * i] for i in range(10)], dtype=float)
    scene = shapely.box(0, 0, 1000, 1000)
    for x in range(5, 1000, 97):
        for y in range(7, 1000, 89):
            seen = cast(walls, 1000.0, 1000.0, float(x), float(y))
            assert seen.is_valid and scene.buffer(1e-6).contains(seen)
            assert seen.buffer(1e-6).contains(shapely.Point(x, y)), (x, y)


def test_the_fog_area_folds_covers_and_reveals():
    from app.rules.map.state import FogOp

    scene = _scene(fog=(FogOp(op="cover"), FogOp(op="reveal", rect=(0, 0, 100, 100))))
    assert fog_area(scene).area == pytest.approx(1_000_000 - 10_000)
