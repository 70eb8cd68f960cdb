"""Issue 29 over HTTP, what runs before the vision rules are merged: a bad UVTT file is a 422 with its
reason and writes nothing, the export of a scene, and a scene's tiles decided from the seat."""

from __future__ import annotations

import base64
import io
import json

import numpy as np
import shapely
from PIL import Image
from sqlalchemy import select

from app.services import uvtt
from app.store.models import AssetBlob, CampaignAsset
from tests import uvtt_maker
from tests.helpers import Table
from tests.mapping import RED_ROOM, scene_with_image


def _post(table: Table, raw: bytes, name: str = "crypt.dd2vtt", seat=None):
    return table.http.post(
        f"/api/campaigns/{table.id}/scenes/uvtt",
        files={"file": (name, raw, "application/octet-stream")},
        headers=(seat or table.gm).auth,
    )


def _nothing_written(client, table: Table) -> None:
    gm = table.view(table.gm)["map"]
    assert gm["scenes"] == [] and gm["assets"] == []
    with client.app.state.fray.db.read() as session:
        held = session.scalars(select(CampaignAsset).where(CampaignAsset.campaign_id == table.id)).all()
        assert held == []


def test_a_bad_uvtt_file_is_a_422_with_its_reason_and_nothing_kept(client, table: Table):
    raw = uvtt_maker.dd2vtt()
    doc = uvtt_maker.document()
    doc["image"] = base64.b64encode(b"just some text, not a picture").decode()
    cases = [
        (b"<html></html>", "not JSON"),
        (raw[: len(raw) // 3], "cut short"),
        (json.dumps({**uvtt_maker.document(), "image": None}).encode(), "no image"),
        (json.dumps(doc).encode(), "not a PNG, JPEG or WebP"),
        (b"", "empty"),
    ]
    for body, reason in cases:
        r = _post(table, body)
        assert r.status_code == 422, r.text
        assert reason in r.json()["detail"]
    _nothing_written(client, table)


def test_a_uvtt_image_too_big_for_the_upload_checks_is_refused(client, table: Table):
    huge = Image.new("RGB", (9000, 10), (0, 0, 0))
    out = io.BytesIO()
    huge.save(out, "PNG")
    r = _post(table, uvtt_maker.dd2vtt(image_bytes=out.getvalue()))
    assert r.status_code == 422 and "at most 8192 pixels a side" in r.json()["detail"]
    _nothing_written(client, table)


def test_only_the_gm_imports_or_exports_a_uvtt_file(table: Table):
    ann = table.join("Ann")
    assert _post(table, uvtt_maker.dd2vtt(), seat=ann).status_code == 403
    scene, _ = scene_with_image(table)
    assert (
        table.http.get(f"/api/campaigns/{table.id}/scenes/{scene}/uvtt", headers=ann.auth).status_code == 403
    )


def test_a_scene_is_exported_as_a_format_03_file_with_its_image_and_grid(table: Table):
    scene, asset = scene_with_image(table, offset=[10, 20])
    r = table.http.get(f"/api/campaigns/{table.id}/scenes/{scene}/uvtt", headers=table.gm.auth)
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    doc = json.loads(r.content)
    assert doc["format"] == 0.3 and doc["resolution"]["pixels_per_grid"] == 50
    found = uvtt.parse(r.content)
    assert (found.width, found.height, found.grid, found.offset) == (400, 300, 50, (10, 20))
    stored = table.http.get(asset["url"], headers=table.gm.auth).content
    assert found.image == stored
    missing = table.http.get(f"/api/campaigns/{table.id}/scenes/nope/uvtt", headers=table.gm.auth)
    assert missing.status_code == 404


def test_a_players_tile_holds_only_what_the_fog_leaves_and_is_shared_by_content(client, table: Table):
    ann = table.join("Ann")
    scene, _ = scene_with_image(table)
    table.ok(table.gm, "map.fog.cover", scene=scene)
    table.ok(table.gm, "map.fog.reveal", scene=scene, rect=[20, 20, 100, 100])
    url = f"/api/campaigns/{table.id}/scenes/{scene}/tiles"
    r = table.http.get(f"{url}/0/0", headers=ann.auth)
    assert r.status_code == 200 and r.headers["content-type"] == "image/jpeg"
    got = np.asarray(Image.open(io.BytesIO(r.content)).convert("RGB")).astype(int)
    assert got.shape == (256, 256, 3)
    assert got[30:110, 30:110].min() > 150  # the revealed grey floor
    assert got[140:, :].max() <= 12 and got[:, 140:].max() <= 12  # the rest black, the red room too
    # tiles off the map or wholly under fog are nothing
    assert table.http.get(f"{url}/1/0", headers=ann.auth).status_code == 404
    assert table.http.get(f"{url}/9/9", headers=ann.auth).status_code == 404
    # the same content again: the same key, kept in the database for every process
    etag = r.headers["etag"].strip('"')
    again = table.http.get(f"{url}/0/0?v={etag}", headers=ann.auth)
    assert again.headers["etag"] == r.headers["etag"] and "immutable" in again.headers["cache-control"]
    with client.app.state.fray.db.read() as session:
        rows = session.scalars(select(AssetBlob).where(AssetBlob.id.startswith(etag))).all()
        assert len(rows) == 1 and rows[0].data == r.content
    # the key in the URL decides nothing: a forged one gets the same fogged tile, not cached for good
    forged = table.http.get(f"{url}/0/0?v=0000", headers=ann.auth)
    assert forged.content == r.content and "immutable" not in forged.headers["cache-control"]
    # more revealed: a new key for that tile
    table.ok(table.gm, "map.fog.reveal", scene=scene, rect=list(RED_ROOM))
    assert table.http.get(f"{url}/0/0", headers=ann.auth).headers["etag"] != r.headers["etag"]


def test_tile_urls_list_the_tiles_a_viewer_may_hold(client, table: Table):
    from app.rules.map.sight import Sight
    from app.rules.map.tiles import tile_urls, viewer_tiles

    ann = table.join("Ann")
    scene, _ = scene_with_image(table)
    table.ok(table.gm, "map.fog.cover", scene=scene)
    table.ok(table.gm, "map.fog.reveal", scene=scene, rect=[300, 20, 60, 60])
    state = client.app.state.fray.states.get(table.id)
    viewer = state.viewer_for(ann.seat_id, "player")
    found = state.map.scene(scene)
    listed = tile_urls(state.id, found, viewer_tiles(Sight(state, viewer), found))
    assert [(t["x"], t["y"], t["w"], t["h"]) for t in listed] == [(256, 0, 144, 256)]
    assert listed[0]["url"].startswith(f"/api/campaigns/{table.id}/scenes/{scene}/tiles/1/0?v=")
    tile = table.http.get(listed[0]["url"], headers=ann.auth)
    assert tile.status_code == 200 and "immutable" in tile.headers["cache-control"]


def test_a_refused_command_in_the_import_batch_keeps_nothing_not_even_the_image(client, table, monkeypatch):
    from app.services import uvtt_scenes

    def refused(found, scene):
        return [{"type": "map.token.move", "token": "t-nowhere", "x": 1, "y": 1}]

    monkeypatch.setattr(uvtt_scenes, "commands_for", refused)
    seq = table.events(table.gm)[-1]["seq"]
    r = _post(table, uvtt_maker.dd2vtt())
    assert r.status_code in (404, 409, 422), r.text
    assert table.events(table.gm)[-1]["seq"] == seq  # not the image's record, not the scene
    _nothing_written(client, table)


def test_the_uvtt_import_route_takes_files_up_to_the_upload_limit():
    from app.web.limits import upload_path

    assert upload_path("/api/campaigns/c1/scenes/uvtt")
    assert upload_path("/api/campaigns/c1/assets")
    assert not upload_path("/api/campaigns/c1/scenes/s2/uvtt")
    assert not upload_path("/api/campaigns/c1/commands")


def test_a_players_image_and_tiles_on_a_vision_scene_hold_no_pixel_outside_explored(table, monkeypatch):
    """The routes with a hand-made explored region in place of the vision rules' (`Sight.explored`)."""
    from app.rules.map.sight import Sight

    explored = shapely.union_all(
        [
            shapely.box(10.5, 20.25, 180.75, 280.5),
            shapely.Polygon([(180, 100), (240.5, 40.2), (245.3, 260.7)]),
        ]
    )
    monkeypatch.setattr(Sight, "explored", lambda self, scene: None if self.everything else explored)
    ann = table.join("Ann")
    scene, _ = scene_with_image(table)
    near = shapely.contains_xy(explored.buffer(8), *np.meshgrid(np.arange(400) + 0.5, np.arange(300) + 0.5))
    inside = shapely.contains_xy(
        explored.buffer(-4), *np.meshgrid(np.arange(400) + 0.5, np.arange(300) + 0.5)
    )
    image = table.http.get(table.view(ann)["map"]["image_url"], headers=ann.auth)
    assert image.status_code == 200 and image.headers["content-type"] == "image/jpeg"
    got = np.asarray(Image.open(io.BytesIO(image.content)).convert("RGB")).astype(int)
    assert got.shape == (300, 400, 3)
    assert got[~near].max() <= 12  # black beyond JPEG's blocks from the region
    assert got[inside].min() > 150  # the grey floor inside it
    r, g, b = got[..., 0], got[..., 1], got[..., 2]
    assert not ((r > 150) & (g < 90) & (b < 90)).any()  # nothing of the red room
    url = f"/api/campaigns/{table.id}/scenes/{scene}/tiles"
    tile = table.http.get(f"{url}/0/0", headers=ann.auth)
    assert tile.status_code == 200
    part = np.asarray(Image.open(io.BytesIO(tile.content)).convert("RGB")).astype(int)
    assert (part[~near[:256, :256]] <= 12).all()
    assert table.http.get(f"{url}/1/0", headers=ann.auth).status_code == 404  # x 256 on: nothing explored
    # the GM's own image stays whole
    gm = table.http.get(table.view(table.gm)["map"]["image_url"], headers=table.gm.auth)
    whole = np.asarray(Image.open(io.BytesIO(gm.content)).convert("RGB")).astype(int)
    assert ((whole[..., 0] > 150) & (whole[..., 1] < 90)).any()


def test_a_uvtt_file_nested_too_deep_or_with_sizes_past_any_number_is_a_422(client, table: Table):
    def sized(**resolution) -> bytes:
        doc = uvtt_maker.document()
        return json.dumps({**doc, "resolution": {**doc["resolution"], **resolution}}).encode()

    doc = uvtt_maker.document()
    far_light = {**doc, "lights": [{"position": {"x": 1, "y": 1}, "range": 1e308, "intensity": 1}]}
    far_wall = {**doc, "line_of_sight": [[{"x": 1, "y": 1}, {"x": 1e308, "y": -1e308}]]}
    cases = [
        (b"[" * 200_000 + b"]" * 200_000, "not a Universal VTT file"),
        (b'{"resolution": ' + b"[" * 100_000, "not a Universal VTT file"),
        (sized(map_size={"x": 1e308, "y": 1e308}), "map_size"),
        (sized(pixels_per_grid=1e308), "pixels_per_grid"),
        (json.dumps(far_light).encode(), "lights[0].range"),
        (json.dumps(far_wall).encode(), ""),
    ]
    for body, reason in cases:
        r = _post(table, body)
        assert r.status_code == 422, (reason, r.status_code, r.text[:300])
        assert reason in r.json()["detail"], r.text[:300]
    _nothing_written(client, table)
