"""Issue 29, Universal VTT import and export and a vision scene's image, through the routes.

NEEDS THE `vision` BRANCH MERGED: these use `map.wall.add`, `map.light.add`, `map.door.set`, the GM view's
`walls` and `lights` and `Sight.explored`, which branch `uvtt` does not have (it runs tests/uvtt/ alone).
"""

from __future__ import annotations

import io

import numpy as np
import shapely
from PIL import Image

from app.rules.map.sight import Sight
from app.services import uvtt
from tests import uvtt_maker
from tests.helpers import Table
from tests.uvtt_maker import FLOORS, PPG


def _import(table: Table, raw: bytes | None = None, name: str = "Crypt.dd2vtt"):
    return table.http.post(
        f"/api/campaigns/{table.id}/scenes/uvtt",
        files={"file": (name, raw or uvtt_maker.dd2vtt(), "application/octet-stream")},
        headers=table.gm.auth,
    )


def _gm_map(table: Table, scene: str) -> dict:
    r = table.http.get(f"/api/campaigns/{table.id}", params={"scene": scene}, headers=table.gm.auth)
    assert r.status_code == 200, r.text
    return r.json()["map"]


def test_a_uvtt_file_becomes_an_unshown_scene_with_its_grid_walls_doors_and_lights(table: Table):
    r = _import(table)
    assert r.status_code == 201, r.text
    made = r.json()
    assert made == {"scene": made["scene"], "walls": 7, "doors": 1, "lights": 2, "width": 600, "height": 400}
    seen = _gm_map(table, made["scene"])
    assert seen["name"] == "Crypt" and seen["shown"] is None  # not shown to the players
    assert seen["grid"]["size"] == PPG and seen["grid"]["type"] == "square"
    assert seen["fog"] == []  # vision, not fog, decides what the players see
    kinds = sorted(w["kind"] for w in seen["walls"])
    assert kinds == ["door"] + ["wall"] * 7
    door = next(w for w in seen["walls"] if w["kind"] == "door")
    assert door["points"] == [[350, 200], [350, 250]] and door["open"] is False
    assert sorted((li["x"], li["y"], li["bright"], li["dim"]) for li in seen["lights"]) == [
        (125, 225, 100, 100),
        (450, 225, 100, 200),
    ]


def test_a_uvtt_round_trip_keeps_every_wall_door_and_light(table: Table):
    scene = _import(table).json()["scene"]
    door = next(w for w in _gm_map(table, scene)["walls"] if w["kind"] == "door")
    table.ok(table.gm, "map.door.set", wall=door["id"], open=True)
    r = table.http.get(f"/api/campaigns/{table.id}/scenes/{scene}/uvtt", headers=table.gm.auth)
    assert r.status_code == 200, r.text
    back, first = uvtt.parse(r.content), uvtt.parse(uvtt_maker.dd2vtt())
    assert sorted(back.walls, key=repr) == sorted(first.walls, key=repr)
    assert back.doors == (uvtt.Door(first.doors[0].points, open=True),)
    assert sorted(back.lights, key=repr) == sorted(first.lights, key=repr)
    assert back.ambient == first.ambient and back.grid == first.grid
    again = _import(table, r.content, "again.dd2vtt")
    assert again.status_code == 201 and again.json()["walls"] == 7 and again.json()["doors"] == 1


def _player_in_the_west_room(table: Table):
    ann = table.join("Ann")
    rook = table.character("Rook", owner=ann)
    scene = _import(table).json()["scene"]
    table.ok(table.gm, "map.token.place", scene=scene, participant=rook, x=125, y=225)
    table.ok(table.gm, "map.scene.show", scene=scene)
    return ann, scene


def _colours(data: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB")).astype(int)


def _has(got: np.ndarray, name: str) -> bool:
    return bool((np.abs(got - np.array(FLOORS[name])).max(axis=2) < 30).any())


def test_a_players_image_and_tiles_hold_no_pixel_outside_what_they_explored(client, table: Table):
    ann, scene = _player_in_the_west_room(table)
    view = table.view(ann)["map"]
    image = table.http.get(view["image_url"], headers=ann.auth)
    assert image.status_code == 200
    got = _colours(image.content)
    assert got.shape == (400, 600, 3)
    assert _has(got, "west") and not _has(got, "east") and not _has(got, "north")
    # pixel by pixel, against the server's own region: black beyond JPEG's 8-pixel blocks from it
    state = client.app.state.fray.states.get(table.id)
    explored = Sight(state, state.viewer_for(ann.seat_id, "player")).explored(state.map.scene(scene))
    assert explored is not None
    near = shapely.contains_xy(explored.buffer(8), *np.meshgrid(np.arange(600) + 0.5, np.arange(400) + 0.5))
    assert got[~near].max() <= 12
    for tx in range(3):
        for ty in range(2):
            tile = table.http.get(
                f"/api/campaigns/{table.id}/scenes/{scene}/tiles/{tx}/{ty}", headers=ann.auth
            )
            assert tile.status_code in (200, 404)
            if tile.status_code == 200:
                part = _colours(tile.content)
                assert not _has(part, "east") and not _has(part, "north")
                window = near[ty * 256 : ty * 256 + part.shape[0], tx * 256 : tx * 256 + part.shape[1]]
                assert part[~window].max(initial=0) <= 12


def test_opening_the_door_shows_the_next_room_in_the_players_image(table: Table):
    ann, scene = _player_in_the_west_room(table)
    table.ok(table.gm, "map.token.move", token=table.view(ann)["map"]["tokens"][0]["id"], x=325, y=225)
    before = _colours(table.http.get(table.view(ann)["map"]["image_url"], headers=ann.auth).content)
    assert not _has(before, "east")
    door = next(w for w in _gm_map(table, scene)["walls"] if w["kind"] == "door")
    table.ok(table.gm, "map.door.set", wall=door["id"], open=True)
    after = _colours(table.http.get(table.view(ann)["map"]["image_url"], headers=ann.auth).content)
    assert _has(after, "east")  # lit by the east room's light, seen through the open door


def test_a_tile_off_the_image_or_of_a_scene_not_shown_is_a_404_with_a_sentence(table: Table):
    ann, scene = _player_in_the_west_room(table)
    other = _import(table, name="Hidden.dd2vtt").json()["scene"]
    base = f"/api/campaigns/{table.id}/scenes"
    for path in (
        f"{scene}/tiles/-1/0",
        f"{scene}/tiles/0/-7",
        f"{scene}/tiles/3/0",
        f"{scene}/tiles/{10**30}/{10**30}",
        f"{scene}/tiles/2/0",  # the east room: nothing of it explored
        f"{other}/tiles/0/0",
        f"{other}/image",
        "nope/tiles/0/0",
    ):
        r = table.http.get(f"{base}/{path}", headers=ann.auth)
        assert r.status_code == 404, (path, r.status_code, r.text)
        assert r.json()["detail"].endswith(".") and "Hidden" not in r.text
    for path in (f"{scene}/tiles/1.5/0", f"{scene}/tiles/a/0", f"{scene}/tiles/0/1e3"):
        r = table.http.get(f"{base}/{path}", headers=ann.auth)
        assert r.status_code == 422, (path, r.status_code)


def test_bad_walls_doors_and_lights_are_refused_with_a_sentence_and_change_nothing(table: Table):
    scene = _import(table).json()["scene"]
    before = _gm_map(table, scene)
    wall = next(w for w in before["walls"] if w["kind"] == "wall")
    bad = [
        ("map.wall.add", {"scene": scene, "points": [[10, 10]]}),
        ("map.wall.add", {"scene": scene, "points": [[10, 10], [10, 10]]}),
        ("map.wall.add", {"scene": scene, "points": [[10, 10], ["NaN", 20]]}),
        ("map.wall.add", {"scene": scene, "points": [[10, 10], [1e308, 20]]}),
        ("map.wall.add", {"scene": scene, "points": [[i, i % 7] for i in range(600)]}),
        ("map.wall.add", {"scene": scene, "points": "nope"}),
        ("map.wall.add", {"scene": scene, "points": [[10, 10], [20, 20]], "kind": "portal"}),
        ("map.wall.add", {"scene": scene, "points": [[10, 10], [20, 20]], "locked": True}),
        ("map.door.set", {"wall": wall["id"], "open": True}),
        ("map.door.set", {"wall": "w-nope", "open": True}),
        ("map.light.add", {"scene": scene, "x": 10, "y": 10, "bright": -5, "dim": 10}),
        ("map.light.add", {"scene": scene, "x": 10, "y": 10, "bright": 20, "dim": 10}),
        ("map.light.add", {"scene": scene, "x": 10, "y": 10, "dim": 0}),
        ("map.light.add", {"scene": scene, "x": "Infinity", "y": 10, "dim": 10}),
        ("map.light.add", {"scene": scene, "x": 99999, "y": 10, "dim": 10}),
        ("map.light.remove", {"light": "l-nope"}),
        ("map.wall.remove", {"wall": "w-nope"}),
    ]
    for kind, fields in bad:
        r = table.send(table.gm, kind, **fields)
        assert r.status_code in (403, 409, 422), (kind, fields, r.status_code, r.text)
        assert isinstance(r.json()["detail"], str | list), r.text
    assert _gm_map(table, scene) == before
