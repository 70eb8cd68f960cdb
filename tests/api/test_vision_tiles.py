"""A phone's image on a vision scene in tiles (issue 29): the view lists tiles the routes serve, each URL's
`v` the tile's ETag (so it is cached for good), and after a one-cell step only the tiles whose clipped
region changed have new URLs; the whole image's `v` is its route's ETag too."""

from __future__ import annotations

import io
import json
from urllib.parse import parse_qs, urlparse

import numpy as np
import shapely
from PIL import Image

from app.rules.map.sight import Sight
from app.rules.map.tiles import viewer_tiles
from tests import uvtt_maker
from tests.helpers import Table

CELLS, PPG, ROOM = 20, 64, 5  # 1280 x 1280: 5 x 5 tiles, rooms of 5 cells with gaps between them


def _image() -> bytes:
    grain = np.random.default_rng(7).integers(90, 200, (CELLS * PPG, CELLS * PPG, 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(grain).save(out, "PNG")
    return out.getvalue()


def _dungeon(table: Table):
    ann = table.join("Ann")
    rook = table.character("Rook", owner=ann)
    raw = json.dumps(uvtt_maker.rooms_document(CELLS, PPG, ROOM, _image())).encode()
    r = table.http.post(
        f"/api/campaigns/{table.id}/scenes/uvtt", files={"file": ("d.dd2vtt", raw)}, headers=table.gm.auth
    )
    assert r.status_code == 201, r.text
    scene = r.json()["scene"]
    placed = table.ok(table.gm, "map.token.place", scene=scene, x=2.5 * PPG, y=1.5 * PPG, participant=rook)
    token = placed["events"][0]["data"]["token"]["id"]
    table.ok(table.gm, "map.scene.show", scene=scene)
    return ann, scene, token


def _clipped(client, table: Table, ann, scene: str) -> dict[tuple[int, int], shapely.Geometry]:
    state = client.app.state.fray.states.get(table.id)
    named = viewer_tiles(Sight(state, state.viewer_for(ann.seat_id, "player")), state.map.scene(scene))
    assert named is not None
    return {(t.x, t.y): t.clipped for t in named.tiles}


def _v(url: str) -> str:
    return parse_qs(urlparse(url).query)["v"][0]


def test_the_views_tiles_are_served_cached_for_good_and_the_image_v_is_its_etag(table: Table):
    ann, scene, _ = _dungeon(table)
    view = table.view(ann)["map"]
    assert view["vision"] is True and view["tiles"]
    for tile in view["tiles"]:
        assert tile["url"].startswith(f"/api/campaigns/{table.id}/scenes/{scene}/tiles/")
        r = table.http.get(tile["url"], headers=ann.auth)
        assert r.status_code == 200 and r.headers["content-type"] == "image/jpeg"
        assert r.headers["etag"] == f'"{_v(tile["url"])}"' and "immutable" in r.headers["cache-control"]
        assert Image.open(io.BytesIO(r.content)).size == (tile["w"], tile["h"])
    whole = table.http.get(view["image_url"], headers=ann.auth)
    assert (
        whole.headers["etag"] == f'"{_v(view["image_url"])}"'
        and "immutable" in whole.headers["cache-control"]
    )
    # the GM's console and a non-vision scene list no tiles
    assert "tiles" not in table.view(table.gm)["map"]


def test_after_a_one_cell_step_only_the_tiles_whose_clipped_region_changed_get_new_urls(client, table: Table):
    ann, scene, token = _dungeon(table)
    before = {(t["x"], t["y"]): t["url"] for t in table.view(ann)["map"]["tiles"]}
    clipped_before = _clipped(client, table, ann, scene)
    table.ok(ann, "map.token.move", token=token, x=3.5 * PPG, y=1.5 * PPG)
    after = {(t["x"], t["y"]): t["url"] for t in table.view(ann)["map"]["tiles"]}
    clipped_after = _clipped(client, table, ann, scene)
    assert set(before) <= set(after)  # what was explored stays
    changed = {k for k in after if before.get(k) != after[k]}
    really = {
        k
        for k in after
        if k not in clipped_before or not shapely.equals_exact(clipped_before[k], clipped_after[k])
    }
    assert changed == really
    assert changed and len(changed) < len(after)  # the step showed something new, and not everywhere
    for k in changed:  # the new tiles are served under their new names
        r = table.http.get(after[k], headers=ann.auth)
        assert r.status_code == 200 and "immutable" in r.headers["cache-control"]
