"""Issue 29, Universal VTT files read and written: every outcome of `uvtt.parse` and a round trip."""

from __future__ import annotations

import base64
import json

import pytest

from app.services import uvtt
from app.services.uvtt import Door, Light, UvttError, UvttMap, Wall
from tests import uvtt_maker
from tests.uvtt_maker import PPG


def test_a_format_03_file_reads_in_image_pixels():
    found = uvtt.parse(uvtt_maker.dd2vtt())
    assert (found.width, found.height, found.grid) == (12 * PPG, 8 * PPG, PPG)
    assert found.walls[0] == Wall(((200, 200), (200, 100), (50, 100), (50, 350), (200, 350), (200, 250)))
    # objects_line_of_sight block sight too: read as walls
    assert len(found.walls) == len(uvtt_maker.walls_cells()) + 1
    assert found.walls[-1].points[0] == (475, 175)
    assert found.doors == (Door(((350, 200), (350, 250)), open=False),)
    # range 4 cells is the dim radius; intensity 1 lights its inner half brightly; ARGB to #rrggbb
    assert found.lights[0] == Light(450, 225, bright=100, dim=200, color="#ffaa00")
    assert found.lights[1] == Light(125, 225, bright=100, dim=100, color="#8080ff")
    assert found.ambient == "dark"  # ff202020 is near black
    assert found.image == uvtt_maker.image()


def test_a_format_02_file_without_objects_or_environment_reads_lit():
    found = uvtt.parse(uvtt_maker.dd2vtt(fmt=0.2, door_closed=False))
    assert len(found.walls) == len(uvtt_maker.walls_cells())
    assert found.doors[0].open is True
    assert found.ambient == "lit"


def test_map_origin_is_taken_off_every_coordinate():
    doc = uvtt_maker.document()
    doc["resolution"]["map_origin"] = {"x": -2, "y": 1}
    found = uvtt.parse(json.dumps(doc).encode())
    assert found.walls[0].points[0] == ((4 + 2) * PPG, (4 - 1) * PPG)
    assert found.doors[0].points[0] == ((7 + 2) * PPG, (4 - 1) * PPG)
    assert found.offset == (0, 0)  # whole cells: the grid's lines on the cells' edges
    doc["resolution"]["map_origin"] = {"x": 0.5, "y": -0.25}
    assert uvtt.parse(json.dumps(doc).encode()).offset == (PPG / 2, PPG / 4)


@pytest.mark.parametrize(
    ("ambient", "expected"),
    [("ffffffff", "lit"), ("ff808080", "dim"), ("80ffffff", "dim"), ("ff000000", "dark")],
)
def test_ambient_light_maps_to_lit_dim_or_dark_by_brightness(ambient, expected):
    doc = uvtt_maker.document()
    doc["environment"]["ambient_light"] = ambient
    assert uvtt.parse(json.dumps(doc).encode()).ambient == expected


def test_a_round_trip_keeps_every_wall_window_door_with_its_state_and_light():
    found = uvtt.parse(uvtt_maker.dd2vtt())
    found = UvttMap(
        width=found.width,
        height=found.height,
        grid=found.grid,
        offset=(12.5, 40),
        walls=(*found.walls, Wall(((250, 200), (300, 200)), kind="window")),
        doors=(*found.doors, Door(((10.5, 20.25), (60, 20.25)), open=True)),
        lights=(*found.lights, Light(33.33, 66.67, bright=0, dim=75, color="#102030")),
        ambient="dim",
        image=found.image,
    )
    again = uvtt.parse(uvtt.write(found))
    assert again == found
    assert uvtt.parse(uvtt.write(again)) == found


def test_the_written_file_has_the_keys_of_format_03():
    doc = json.loads(uvtt.write(uvtt.parse(uvtt_maker.dd2vtt())))
    assert doc["format"] == 0.3
    assert set(doc["resolution"]) == {"map_origin", "map_size", "pixels_per_grid"}
    assert doc["resolution"]["map_size"] == {"x": 12, "y": 8}
    for key in ("line_of_sight", "objects_line_of_sight", "portals", "lights", "environment", "image"):
        assert key in doc
    portal = doc["portals"][0]
    assert set(portal) == {"position", "bounds", "rotation", "closed", "freestanding"}
    assert portal["closed"] is True and portal["bounds"] == [{"x": 7, "y": 4}, {"x": 7, "y": 5}]
    assert set(doc["environment"]) == {"baked_lighting", "ambient_light"}
    assert doc["lights"][0]["color"] == "ffffaa00" and doc["lights"][0]["range"] == 4
    assert base64.b64decode(doc["image"]) == uvtt_maker.image()


def test_windows_are_left_out_of_line_of_sight_and_portals():
    found = UvttMap(
        width=100, height=100, grid=10, walls=(Wall(((0, 0), (10, 0)), kind="window"),), image=b"x"
    )
    doc = json.loads(uvtt.write(found))
    assert doc["line_of_sight"] == [] and doc["portals"] == []
    assert doc["fray_windows"] == [[{"x": 0, "y": 0}, {"x": 1, "y": 0}]]


def test_a_map_whose_image_is_another_size_is_fitted_to_it():
    found = uvtt.fitted(uvtt.parse(uvtt_maker.dd2vtt()), 1200, 800)
    assert found.grid == 2 * PPG
    assert found.walls[0].points[0] == (400, 400)
    assert found.lights[0].dim == 400


def _broken(**changes) -> bytes:
    doc = uvtt_maker.document()
    for path, value in changes.items():
        *parents, last = path.split("__")
        at = doc
        for key in parents:
            at = at[int(key)] if isinstance(at, list) else at[key]
        if value is _DROP:
            del at[last]
        elif isinstance(at, list):
            at[int(last)] = value
        else:
            at[last] = value
    return json.dumps(doc).encode()


_DROP = object()


def _refused(raw: bytes) -> str:
    with pytest.raises(UvttError) as error:
        uvtt.parse(raw)
    return str(error.value)


def test_a_file_that_is_not_json_is_refused_with_a_reason():
    assert "not JSON" in _refused(b"<html>not a map</html>")
    assert "not text" in _refused(uvtt_maker.image())  # a PNG sent by mistake


def test_json_that_is_not_a_uvtt_file_is_refused():
    assert "no resolution" in _refused(b'{"name": "a character sheet"}')
    assert "no resolution" in _refused(b"[1, 2, 3]")


def test_a_truncated_file_is_refused_as_cut_short():
    raw = uvtt_maker.dd2vtt()
    assert "cut short" in _refused(raw[: len(raw) // 2])
    assert "cut short" in _refused(raw[:-1])


def test_a_file_without_an_image_is_refused():
    assert "no image" in _refused(_broken(image=_DROP))
    assert "no image" in _refused(_broken(image=""))
    assert "damaged" in _refused(_broken(image="not base64 at all!"))


@pytest.mark.parametrize(
    ("path", "value", "named"),
    [
        ("resolution__pixels_per_grid", "50", "pixels_per_grid"),
        ("resolution__pixels_per_grid", 0, "more than 0"),
        ("resolution__map_size", {"x": "12", "y": 8}, "map_size.x"),
        ("resolution__map_origin", {"x": 0, "y": None}, "map_origin.y"),
        ("line_of_sight__0__1", {"x": True, "y": 2}, "line_of_sight[0].x"),
        ("line_of_sight__2", "a wall", "line_of_sight[2]"),
        ("portals__0__bounds", [{"x": 1, "y": 1}], "two points"),
        ("portals__0__closed", "yes", "closed"),
        ("lights__0__range", "far", "lights[0].range"),
        ("lights__1__position", {"x": 1e999, "y": 1}, "lights[1].position.x"),
        ("lights__0__color", "orange", "colour"),
    ],
)
def test_a_coordinate_or_field_that_is_not_a_number_is_refused_naming_it(path, value, named):
    assert named in _refused(_broken(**{path: value}))
