"""The battle map through the JSON API: uploads, scenes, tokens, permissions, undo, fog."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from tests.helpers import Table
from tests.mapping import RED_ROOM, dungeon_png, png, red_pixels, scene_with_image, upload


def test_upload_keeps_a_checked_webp_and_serves_it_with_a_strong_etag(table: Table):
    r = upload(table, dungeon_png())
    assert r.status_code == 201, r.text
    asset = r.json()
    assert asset["width"] == 400 and asset["height"] == 300 and len(asset["id"]) == 64
    got = table.http.get(asset["url"], headers=table.gm.auth)
    assert got.status_code == 200 and got.headers["content-type"] == "image/webp"
    assert got.headers["etag"] == f'"{asset["id"]}"' and "immutable" in got.headers["cache-control"]
    assert Image.open(io.BytesIO(got.content)).format == "WEBP"
    again = table.http.get(asset["url"], headers={**table.gm.auth, "If-None-Match": got.headers["etag"]})
    assert again.status_code == 304
    # The same image twice is kept once, and the campaign lists it once.
    assert upload(table, dungeon_png()).json()["id"] == asset["id"]
    assert [a["id"] for a in table.view(table.gm)["map"]["assets"]] == [asset["id"]]


def _bomb() -> bytes:
    # A tiny PNG whose header claims 30000 x 30000 pixels: refused before it is decoded.
    image = Image.new("1", (30000, 30000))
    return png(image)


@pytest.mark.parametrize(
    ("data", "status", "words"),
    [
        (b"<html>not an image</html>", 422, "not a PNG, JPEG or WebP"),
        (b"", 422, "empty"),
        (dungeon_png()[:300], 422, "damaged or cut short"),
        (png(Image.new("RGB", (40, 40)), "GIF"), 422, "not a PNG, JPEG or WebP"),
        (png(Image.new("RGB", (9000, 10))), 422, "at most 8192 pixels a side"),
    ],
    ids=["not-an-image", "empty", "truncated", "gif", "too-wide"],
)
def test_bad_files_are_refused_with_a_sentence_and_nothing_is_stored(table: Table, data, status, words):
    r = upload(table, data)
    assert r.status_code == status, r.text
    assert words in r.json()["detail"]
    assert table.view(table.gm)["map"]["assets"] == []


def test_an_image_bomb_is_refused_before_it_unpacks(table: Table):
    r = upload(table, _bomb())
    assert r.status_code == 422
    assert "pixels" in r.json()["detail"]
    assert table.view(table.gm)["map"]["assets"] == []


def test_a_file_over_the_byte_limit_is_a_413_that_names_the_limit(client, table: Table):
    assert client.app.state.fray.settings.max_upload_bytes == 20 * 1024 * 1024  # a setting; the default
    big = b"\x89PNG" + b"0" * (21 * 1024 * 1024)
    r = upload(table, big)
    assert r.status_code == 413
    assert "20 MB" in r.json()["detail"]
    assert table.view(table.gm)["map"]["assets"] == []


def test_only_the_gm_uploads_and_players_never_get_the_whole_image(table: Table):
    player = table.join("Ann")
    assert upload(table, dungeon_png(), seat=player).status_code == 403
    asset = upload(table, dungeon_png()).json()
    assert table.http.get(asset["url"], headers=player.auth).status_code == 403
    r = table.send(table.gm, "map.asset.add", asset=asset["id"], width=1, height=1)
    assert r.status_code == 422 and "POST" in r.json()["detail"]


def test_scene_grid_and_shown_scene_in_every_seat_view(table: Table):
    player = table.join("Ann")
    scene, asset = scene_with_image(table, unit="ft", per_cell=5, offset=[10, 20])
    for seat in (table.gm, player):
        m = table.view(seat)["map"]
        assert m["scene"] == scene and m["width"] == 400 and m["height"] == 300
        assert m["grid"] == {
            "type": "square",
            "size": 50.0,
            "offset": [10.0, 20.0],
            "unit": "ft",
            "per_cell": 5.0,
            "diagonals": "5-5-5",
        }
        assert m["tokens"] == []
    assert table.view(table.gm)["map"]["image_url"] == asset["url"]
    assert "/scenes/" in table.view(player)["map"]["image_url"]


def test_a_prepared_scene_is_the_gms_secret_until_shown(table: Table):
    player = table.join("Ann")
    reply = table.ok(table.gm, "map.scene.create", name="Dragon's lair", grid={"type": "hex", "size": 60})
    scene = reply["view"]["map"]["scene"]
    assert table.view(player)["map"]["scene"] is None
    assert "Dragon" not in json.dumps(table.view(player)) + json.dumps(table.events(player))
    r = table.send(player, "map.token.move", token="t1", x=1, y=1)
    assert r.status_code == 409 and "no such token" in r.json()["detail"]
    table.ok(table.gm, "map.scene.show", scene=scene)
    assert table.view(player)["map"]["name"] == "Dragon's lair"


def test_tokens_snap_move_and_undo(table: Table):
    ann = table.join("Ann")
    rook = table.character("Rook", owner=ann)
    scene, _ = scene_with_image(table)
    reply = table.ok(table.gm, "map.token.place", scene=scene, x=60, y=60, participant=rook)
    token = reply["events"][0]["data"]["token"]["id"]
    mine = table.view(ann)["map"]["tokens"]
    assert mine == [
        {
            "id": token,
            "x": 75.0,
            "y": 75.0,
            "size": 1.0,
            "color": "#3d7dd8",
            "participant": rook,
            "name": "Rook",
            "initials": "RO",
            "mine": True,
            "locked": False,
            "movable": True,
        }
    ]
    table.ok(ann, "map.token.move", token=token, x=130, y=80)
    assert table.view(table.gm)["map"]["tokens"][0]["x"] == 125.0
    table.ok(ann, "map.token.move", token=token, x=133.3, y=80, free=True)
    assert table.view(table.gm)["map"]["tokens"][0]["x"] == 133.3
    table.ok(table.gm, "campaign.undo")
    assert table.view(ann)["map"]["tokens"][0]["x"] == 125.0


def test_players_move_only_their_own_unlocked_tokens(table: Table):
    ann, bob = table.join("Ann"), table.join("Bob")
    rook = table.character("Rook", owner=ann)
    scene, _ = scene_with_image(table)
    token = table.ok(table.gm, "map.token.place", scene=scene, x=60, y=60, participant=rook)["events"][0]
    token_id = token["data"]["token"]["id"]
    r = table.send(bob, "map.token.move", token=token_id, x=160, y=60)
    assert r.status_code == 403 and "your own" in r.json()["detail"]
    table.ok(table.gm, "map.token.set", token=token_id, locked=True)
    r = table.send(ann, "map.token.move", token=token_id, x=160, y=60)
    assert r.status_code == 403 and "locked" in r.json()["detail"]
    table.ok(table.gm, "map.token.set", token=token_id, locked=False)
    table.ok(table.gm, "map.scene.update", scene=scene, player_moves=False)
    r = table.send(ann, "map.token.move", token=token_id, x=160, y=60)
    assert r.status_code == 403 and "GM moves" in r.json()["detail"]
    assert table.view(table.gm)["map"]["tokens"][0]["x"] == 75.0
    r = table.send(ann, "map.token.place", scene=scene, x=10, y=10, label="Me")
    assert r.status_code == 403


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ('"x": 900, "y": 10, "label": "Trap"', "off the scene"),
        ('"x": "left", "y": 10, "label": "Trap"', "must be a number"),
        ('"x": NaN, "y": 10, "label": "Trap"', "number"),
        ('"x": 10, "y": 10', "give one"),  # neither a character nor a label
    ],
    ids=["off-scene", "text", "nan", "no-subject"],
)
def test_bad_token_input_changes_nothing(table: Table, body: str, words: str):
    scene, _ = scene_with_image(table)
    r = table.http.post(
        f"/api/campaigns/{table.id}/commands",
        content=f'{{"type": "map.token.place", "scene": "{scene}", {body}}}',
        headers={**table.gm.auth, "content-type": "application/json"},
    )
    assert r.status_code == 422, r.text
    assert words in r.json()["detail"]
    assert table.view(table.gm)["map"]["tokens"] == []


def test_a_scene_of_another_campaign_is_not_there(client, table: Table):
    other = Table.create(client, name="Other")
    scene, _ = scene_with_image(other)
    r = table.send(table.gm, "map.scene.show", scene=scene)
    assert r.status_code == 409 and "no such scene" in r.json()["detail"]
    got = table.http.get(f"/api/campaigns/{table.id}/scenes/{scene}/image", headers=table.gm.auth)
    assert got.status_code == 404


def test_players_cannot_touch_the_fog(table: Table):
    ann = table.join("Ann")
    scene, _ = scene_with_image(table)
    for kind in ("map.fog.cover", "map.fog.reveal"):
        r = table.send(ann, kind, scene=scene)
        assert r.status_code == 403 and "Only the GM" in r.json()["detail"]
    bad = table.send(table.gm, "map.fog.cover", scene=scene, rect=[0, 0, -5, 10])
    assert bad.status_code == 422
    assert table.view(table.gm)["map"]["fog"] == []


def test_fog_hides_the_room_and_its_token_until_revealed(table: Table):
    """A red room under fog: no red pixel and no token reach the player; after the reveal both do."""
    ann = table.join("Ann")
    scene, _ = scene_with_image(table)
    ghoul = table.character("Cave Ghoul", kind="npc")
    table.ok(table.gm, "map.fog.cover", scene=scene)
    table.ok(table.gm, "map.fog.reveal", scene=scene, rect=[0, 0, 200, 300])
    after = table.view(ann)["campaign"]["seq"]
    table.ok(table.gm, "map.token.place", scene=scene, x=300, y=100, participant=ghoul)
    table.ok(table.gm, "map.token.place", scene=scene, x=320, y=120, label="Pit trap")

    player_view = table.view(ann)
    seen = json.dumps(player_view["map"]) + json.dumps(table.events(ann, after=after))
    assert "Ghoul" not in seen and "Pit trap" not in seen
    assert player_view["map"]["tokens"] == [] and "fog" not in player_view["map"]
    image = table.http.get(player_view["map"]["image_url"], headers=ann.auth)
    assert image.status_code == 200
    assert red_pixels(image.content, RED_ROOM) == 0
    gm_image = table.http.get(table.view(table.gm)["map"]["image_url"], headers=table.gm.auth)
    assert red_pixels(gm_image.content, RED_ROOM) > 5000

    x, y, w, h = RED_ROOM
    table.ok(
        table.gm, "map.fog.reveal", scene=scene, polygon=[[x, y], [x + w, y], [x + w, y + h], [x, y + h]]
    )
    player_view = table.view(ann)
    assert sorted(t["name"] for t in player_view["map"]["tokens"]) == ["Cave Ghoul", "Pit trap"]
    image = table.http.get(player_view["map"]["image_url"], headers=ann.auth)
    assert red_pixels(image.content, RED_ROOM) > 5000


def test_a_hidden_token_is_the_gms_alone(table: Table):
    ann = table.join("Ann")
    scene, _ = scene_with_image(table)
    after = table.view(ann)["campaign"]["seq"]
    table.ok(table.gm, "map.token.place", scene=scene, x=100, y=100, label="Assassin", hidden=True)
    assert table.view(ann)["map"]["tokens"] == []
    assert "Assassin" not in json.dumps(table.events(ann, after=after))
    assert table.view(table.gm)["map"]["tokens"][0]["hidden"] is True


def test_drawings_reach_the_players_unless_under_fog(table: Table):
    ann = table.join("Ann")
    scene, _ = scene_with_image(table)
    table.ok(table.gm, "map.draw", scene=scene, points=[[10, 10], [100, 100]])
    table.ok(table.gm, "map.fog.cover", scene=scene, rect=list(RED_ROOM))
    table.ok(table.gm, "map.draw", scene=scene, points=[[260, 60], [300, 100]], closed=True)
    assert len(table.view(ann)["map"]["drawings"]) == 1
    assert len(table.view(table.gm)["map"]["drawings"]) == 2
    table.ok(table.gm, "map.erase", scene=scene)
    assert table.view(table.gm)["map"]["drawings"] == []


def test_pings_over_http_are_checked_and_never_logged(table: Table):
    ann = table.join("Ann")
    scene, _ = scene_with_image(table)
    table.ok(table.gm, "map.fog.cover", scene=scene, rect=list(RED_ROOM))
    seq = table.view(table.gm)["campaign"]["seq"]
    url = f"/api/campaigns/{table.id}/signals"
    r = table.http.post(url, json={"map.ping": {"x": 20, "y": 30}}, headers=ann.auth)
    assert r.status_code == 202 and r.json() == {
        "map.ping": {"scene": scene, "x": 20.0, "y": 30.0, "by": "Ann"}
    }
    into_fog = table.http.post(url, json={"map.ping": {"x": 300, "y": 100}}, headers=ann.auth)
    assert into_fog.status_code == 409 and "cannot see" in into_fog.json()["detail"]
    junk = table.http.post(url, json={"map.ping": {"x": "here"}}, headers=ann.auth)
    assert junk.status_code == 422 and "numbers" in junk.json()["detail"]
    assert table.http.post(url, json={"wave": 1}, headers=ann.auth).status_code == 422
    assert table.view(table.gm)["campaign"]["seq"] == seq
