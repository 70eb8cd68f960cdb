"""Issue 28, the images: who may read an image, what an upload or import may cost, and image URLs that
never serve stale content."""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image
from sqlalchemy import select

from app.rules.map.state import FogOp, Scene
from app.services import map_images
from app.store.models import AssetBlob, CampaignAsset
from tests.helpers import Seat, Table
from tests.mapping import dungeon_png, png, scene_with_image, texture_png, upload

HX = {"HX-Request": "true", "Origin": "http://testserver"}


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# --- 1: an image is read only by the campaigns that uploaded or imported its bytes ---------------


def test_another_campaign_cannot_record_an_asset_id_on_any_route_and_read_it(client, table: Table):
    _, asset = scene_with_image(table)
    other = Table.create(client, name="The thief's own table")  # a player's own campaign
    forged = {"type": "map.asset.add", "asset": asset["id"], "width": 400, "height": 300}
    r = other.http.post(f"/api/campaigns/{other.id}/commands", json=forged, headers=other.gm.auth)
    assert r.status_code == 422 and "POST" in r.json()["detail"]
    with client.websocket_connect(f"/ws/campaigns/{other.id}?format=json", headers=other.gm.auth) as ws:
        ws.receive_text()
        ws.send_text(json.dumps(forged))
        error = json.loads(ws.receive_text())["error"]
        assert error["status"] == 422 and "POST" in error["detail"]
    client.cookies.set(f"fray_{other.id}", other.gm.token)
    r = client.post(f"/c/{other.id}/commands", data={k: str(v) for k, v in forged.items()}, headers=HX)
    client.cookies.clear()
    assert r.status_code == 422
    assert other.view(other.gm)["map"]["assets"] == []
    stolen = client.get(f"/api/campaigns/{other.id}/assets/{asset['id']}", headers=other.gm.auth)
    assert stolen.status_code == 404


def _exported(table: Table) -> dict:
    r = table.http.get(f"/api/campaigns/{table.id}/export", headers=table.gm.auth)
    assert r.status_code == 200
    return json.loads(gzip.decompress(r.content))


def _import(table: Table, document: dict):
    data = gzip.compress(json.dumps(document).encode())
    return table.http.post("/api/campaigns/import", files={"file": ("t.fray.json.gz", data)})


def test_a_forged_asset_event_in_an_import_file_reads_nothing(client, table: Table):
    _, asset = scene_with_image(table)
    thief = Table.create(client, name="Forger")
    document = _exported(thief)
    seq = len(document["events"]) + 1
    forged = {**document["events"][-1], "seq": seq, "type": "map.asset_added", "version": 1}
    forged["data"] = {"asset": {"id": asset["id"], "name": "", "width": 400, "height": 300}}
    document["events"].append(forged)
    r = _import(thief, document)
    assert r.status_code == 201, r.text
    copy = r.json()
    got = client.get(
        f"/api/campaigns/{copy['id']}/assets/{asset['id']}",
        headers=_bearer(copy["gm_token"]),
    )
    assert got.status_code == 404
    # Nor does its export carry the bytes, to be imported again as its own.
    again = _exported(Table(thief.http, copy["id"], Seat(copy["gm_token"], "", "GM"), "", ""))
    assert again["assets"] == []


def test_an_upload_records_the_campaign_that_holds_the_image(client, table: Table):
    asset = upload(table, dungeon_png()).json()
    with client.app.state.fray.db.read() as session:
        rows = session.scalars(select(CampaignAsset).where(CampaignAsset.asset_id == asset["id"])).all()
    assert [r.campaign_id for r in rows] == [table.id]


# --- 8: an imported image passes the same checks as an upload -------------------------------------


def _with_asset(document: dict, data: bytes, width: int = 400, height: int = 300) -> tuple[dict, str]:
    blob_id = hashlib.sha256(data).hexdigest()
    asset = {"id": blob_id, "mime": "image/webp", "width": width, "height": height}
    asset["data"] = base64.b64encode(data).decode()
    event = {**document["events"][-1], "seq": len(document["events"]) + 1, "type": "map.asset_added"}
    event["data"] = {"asset": {"id": blob_id, "name": "x", "width": width, "height": height}}
    event["version"] = 1
    return {**document, "events": [*document["events"], event], "assets": [asset]}, blob_id


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"<html><script>alert(1)</script></html>", "not a PNG, JPEG or WebP"),
        (png(Image.new("1", (9000, 9000))), "at most 8192 pixels a side"),
    ],
    ids=["html", "too-wide"],
)
def test_an_imported_image_is_checked_like_an_upload_and_a_bad_one_refuses_the_import(
    client, table: Table, data: bytes, words: str
):
    document, blob_id = _with_asset(_exported(table), data)
    r = _import(table, document)
    assert r.status_code == 422, r.text
    assert words in r.json()["detail"]
    with client.app.state.fray.db.read() as session:
        assert session.get(AssetBlob, blob_id) is None


def test_an_imported_image_is_re_encoded_and_renamed_in_the_log(client, table: Table):
    scene_with_image(table)
    document = _exported(table)
    original = Image.open(io.BytesIO(dungeon_png()))
    raw = png(original)  # a PNG stored under its own hash: an import must re-encode it, not keep it
    old = document["assets"][0]["id"]
    new_raw_id = hashlib.sha256(raw).hexdigest()
    text = json.dumps(document["events"]).replace(old, new_raw_id)
    document = {**document, "events": json.loads(text)}
    document["assets"] = [{**document["assets"][0], "id": new_raw_id, "data": base64.b64encode(raw).decode()}]
    r = _import(table, document)
    assert r.status_code == 201, r.text
    copy = r.json()
    auth = _bearer(copy["gm_token"])
    view = client.get(f"/api/campaigns/{copy['id']}", headers=auth).json()
    kept = view["map"]["assets"][0]["id"]
    assert kept != new_raw_id and view["map"]["asset"] == kept
    got = client.get(f"/api/campaigns/{copy['id']}/assets/{kept}", headers=auth)
    assert got.status_code == 200 and Image.open(io.BytesIO(got.content)).format == "WEBP"


def test_an_import_past_the_storage_quota_is_a_413_that_creates_nothing(client, table: Table):
    scene_with_image(table)
    document = _exported(table)
    client.app.state.fray.settings.campaign_storage_bytes = 100
    with client.app.state.fray.db.read() as session:
        before = len(session.scalars(select(CampaignAsset)).all())
    r = _import(table, document)
    assert r.status_code == 413 and "what a campaign may keep" in r.json()["detail"]
    with client.app.state.fray.db.read() as session:
        assert len(session.scalars(select(CampaignAsset)).all()) == before


# --- 6: pixels are budgeted, decodes are bounded, memory stays small ------------------------------


def test_an_image_over_the_pixel_budget_is_refused_from_its_header(client, table: Table):
    limit = client.app.state.fray.settings.max_image_pixels
    side = int(limit**0.5) + 100
    r = upload(table, png(Image.new("1", (side, side))))
    assert r.status_code == 422
    assert f"{limit / 1_000_000:g} megapixels" in r.json()["detail"]


def test_a_busy_server_says_so_with_retry_after(client, table: Table, monkeypatch):
    monkeypatch.setattr(map_images, "WAIT_FOR_DECODE", 0.05)
    held = [map_images.IMAGE_WORK.acquire() for _ in range(map_images.DECODES_AT_ONCE)]
    try:
        r = upload(table, dungeon_png())
    finally:
        for _ in held:
            map_images.IMAGE_WORK.release()
    assert r.status_code == 503 and int(r.headers["retry-after"]) >= 1
    assert "busy" in r.json()["detail"]
    assert upload(table, dungeon_png()).status_code == 201


# An upload through the whole app, in a process of its own: its peak resident memory is what a server's
# process reaches for the largest image the settings allow. With "mask", a player then asks for the
# scene's image under fog, made from the stored image: the peak covers both, as a server's would.
MEASURE = """
import sys, uuid
from fastapi.testclient import TestClient
from app.main import create_app
from app.settings import Settings
from app.store.migrate import upgrade
url = "sqlite:///" + sys.argv[2]
upgrade(url)
with TestClient(create_app(Settings(database_url=url))) as http:
    made = http.post("/api/campaigns", json={"name": "Big", "system": "generic"}).json()
    cid, auth = made["id"], {"Authorization": "Bearer " + made["gm_token"]}
    with open(sys.argv[1], "rb") as f:
        r = http.post(f"/api/campaigns/{cid}/assets", files={"file": ("big.png", f)}, headers=auth)
    assert r.status_code == 201, r.text
    if sys.argv[3] == "mask":
        def ok(type, **fields):
            payload = {"type": type, "command_id": uuid.uuid4().hex, **fields}
            done = http.post(f"/api/campaigns/{cid}/commands", json=payload, headers=auth)
            assert done.status_code == 200, done.text
            return done.json()
        grid = {"type": "square", "size": 100}
        scene = ok("map.scene.create", name="Big", asset=r.json()["id"], grid=grid, show=True)
        scene = scene["view"]["map"]["scene"]
        ok("map.fog.cover", scene=scene)
        ok("map.fog.reveal", scene=scene, rect=[100, 100, 1200, 900])
        ok("map.fog.reveal", scene=scene, polygon=[[1300, 200], [2400, 300], [2100, 1400], [1250, 1100]])
        invite = made["invite_url"].rsplit("/", 1)[1]
        ann = http.post(f"/api/campaigns/{cid}/join", json={"invite": invite, "name": "Ann"}).json()
        ann = {"Authorization": "Bearer " + ann["token"]}
        got = http.get(http.get(f"/api/campaigns/{cid}", headers=ann).json()["map"]["image_url"], headers=ann)
        assert got.status_code == 200 and got.headers["content-type"] == "image/jpeg", got.text
# VmHWM is this process's own peak: ru_maxrss would carry over the forking test process's (Linux keeps
# the larger across exec), which after a long test run is a gigabyte of pytest, not of the upload.
print(next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:")) // 1024)
"""


@pytest.fixture(scope="module")
def textures(tmp_path_factory) -> Callable[[str, int], Path]:
    """Map textures of the pixels asked for, 8192 wide (as wide as allowed), made once per module."""
    made: dict[tuple[str, int], Path] = {}

    def texture(mode: str, pixels: int) -> Path:
        if (mode, pixels) not in made:
            width = min(8192, int(pixels**0.5 * 4 / 3))
            path = tmp_path_factory.mktemp("textures") / f"{mode}-{pixels}.png"
            made[mode, pixels] = texture_png(path, width, pixels // width, mode)
        return made[mode, pixels]

    return texture


def _peak_mb(path: Path, db: Path, what: str) -> int:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path), str(db), what], cwd=root, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return int(done.stdout.strip().splitlines()[-1])


# The budget's two ends: the most pixels allowed (kept as JPEG, or PNG when see-through) and the most
# kept as WebP, which libwebp encodes and decodes whole.
SIZES = [("RGB", "budget"), ("RGBA", "budget"), ("RGB", "webp"), ("RGBA", "webp")]


def _pixels(which: str, mode: str) -> int:
    from app.settings import Settings

    if which == "budget":
        return Settings().max_image_pixels
    return map_images.WEBP_PIXELS if mode == "RGB" else map_images.WEBP_ALPHA_PIXELS


@pytest.mark.parametrize(("mode", "which"), SIZES)
def test_the_largest_image_allowed_is_uploaded_within_300_mb(tmp_path: Path, textures, mode: str, which: str):
    pixels = _pixels(which, mode)
    peak_mb = _peak_mb(textures(mode, pixels), tmp_path / "fray.db", "upload")
    assert peak_mb < 300, f"an upload of {pixels / 1e6:g} megapixels {mode} peaked at {peak_mb} MB"


@pytest.mark.parametrize(("mode", "which"), SIZES[:3])
def test_the_players_image_of_the_largest_scene_is_made_within_300_mb(
    tmp_path: Path, textures, mode: str, which: str
):
    pixels = _pixels(which, mode)
    peak_mb = _peak_mb(textures(mode, pixels), tmp_path / "fray.db", "mask")
    assert peak_mb < 300, f"a masked image of {pixels / 1e6:g} megapixels {mode} peaked at {peak_mb} MB"


def test_big_images_are_kept_in_formats_written_a_strip_at_a_time(textures):
    budget = _pixels("budget", "RGB")
    opaque, clear = textures("RGB", budget).read_bytes(), textures("RGBA", budget).read_bytes()
    assert map_images.prepare(opaque, 64 << 20, 8192, budget).mime == "image/jpeg"
    assert map_images.prepare(clear, 64 << 20, 8192, budget).mime == "image/png"
    small = png(Image.new("RGBA", (300, 200), (10, 120, 40, 255)))
    assert map_images.prepare(small, 64 << 20, 8192, budget).mime == "image/webp"


def test_a_big_image_with_an_alpha_channel_that_hides_nothing_is_kept_as_jpeg():
    side = int(map_images.WEBP_PIXELS**0.5) + 8
    raw = png(Image.new("RGBA", (side, side), (10, 120, 40, 255)))
    prepared = map_images.prepare(raw, 64 << 20, 8192, side * side)
    assert prepared.mime == "image/jpeg" and Image.open(io.BytesIO(prepared.data)).mode == "RGB"


# --- 7: a quota, an upload rate, and deleting an image ----------------------------------------------


def test_a_campaign_over_its_storage_quota_is_told_how_much_it_uses(client, table: Table):
    first = upload(table, dungeon_png()).json()
    with client.app.state.fray.db.read() as session:
        size = session.get(AssetBlob, first["id"]).size
    client.app.state.fray.settings.campaign_storage_bytes = size + 10
    r = upload(table, dungeon_png(401, 300))
    assert r.status_code == 413
    assert "storage" in r.json()["detail"] and "used" in r.json()["detail"]
    assert len(table.view(table.gm)["map"]["assets"]) == 1


def test_uploads_are_limited_per_seat(client, table: Table):
    from app.services.rate_limits import LIMITS

    small = png(Image.new("RGB", (64, 64), (1, 2, 3)))
    codes = [upload(table, small).status_code for _ in range(int(LIMITS["uploads"].burst) + 1)]
    assert codes[:-1] == [201] * (len(codes) - 1) and codes[-1] == 429


def test_the_gm_deletes_an_image_no_scene_uses(client, table: Table):
    _, used = scene_with_image(table)
    spare = upload(table, dungeon_png(300, 200)).json()
    other = Table.create(client, name="Same picture elsewhere")
    upload(other, dungeon_png(300, 200))
    ann = table.join("Ann")
    url = f"/api/campaigns/{table.id}/assets/{spare['id']}"
    assert table.http.delete(url, headers=ann.auth).status_code == 403
    r = table.http.delete(f"/api/campaigns/{table.id}/assets/{used['id']}", headers=table.gm.auth)
    assert r.status_code == 409 and "Crypt" in r.json()["detail"]
    assert table.http.delete(url, headers=table.gm.auth).status_code == 204
    assert table.http.get(url, headers=table.gm.auth).status_code == 404
    assert [a["id"] for a in table.view(table.gm)["map"]["assets"]] == [used["id"]]
    # The other campaign still holds the same bytes; once it deletes them too, the blob goes.
    assert (
        other.http.get(f"/api/campaigns/{other.id}/assets/{spare['id']}", headers=other.gm.auth).status_code
        == 200
    )
    assert (
        other.http.delete(
            f"/api/campaigns/{other.id}/assets/{spare['id']}", headers=other.gm.auth
        ).status_code
        == 204
    )
    with client.app.state.fray.db.read() as session:
        assert session.get(AssetBlob, spare["id"]) is None
        assert session.get(AssetBlob, used["id"]) is not None


def test_undo_after_a_deletion_never_brings_back_a_deleted_image(client, table: Table):
    scene, first = scene_with_image(table)
    second = upload(table, dungeon_png(400, 300 - 1)).json()
    table.ok(table.gm, "map.scene.update", scene=scene, asset=second["id"])
    assert (
        table.http.delete(
            f"/api/campaigns/{table.id}/assets/{first['id']}", headers=table.gm.auth
        ).status_code
        == 204
    )
    table.ok(table.gm, "campaign.undo")  # takes back the swap, not the deletion
    view = table.view(table.gm)["map"]
    assert first["id"] not in [a["id"] for a in view["assets"]]
    assert view["asset"] in (None, second["id"])


# --- 10: image URLs are keyed by content ------------------------------------------------------------


def _player_image(table: Table, seat) -> tuple[str, bytes]:
    url = table.view(seat)["map"]["image_url"]
    r = table.http.get(url, headers=seat.auth)
    assert r.status_code == 200
    return url, r.content


def test_a_player_image_url_never_names_other_content(client, table: Table):
    scene, asset = scene_with_image(table)
    ann = table.join("Ann")
    table.ok(table.gm, "map.fog.cover", scene=scene)
    table.ok(table.gm, "map.fog.reveal", scene=scene, rect=[0, 0, 100, 100])
    seen = dict([_player_image(table, ann)])
    table.ok(table.gm, "campaign.undo")
    table.ok(table.gm, "map.fog.reveal", scene=scene, rect=[200, 100, 100, 100])
    url, data = _player_image(table, ann)
    assert url not in seen or seen[url] == data
    assert asset["id"] not in url and asset["id"][:16] not in url
    second = upload(table, dungeon_png(400, 300 - 1)).json()
    table.ok(table.gm, "map.scene.update", scene=scene, asset=second["id"])
    assert table.view(ann)["map"]["image_url"] != url


def test_only_the_current_key_is_served_immutable(client, table: Table):
    scene, _ = scene_with_image(table)
    ann = table.join("Ann")
    table.ok(table.gm, "map.fog.cover", scene=scene, rect=[0, 0, 50, 50])
    url = table.view(ann)["map"]["image_url"]
    r = table.http.get(url, headers=ann.auth)
    assert "immutable" in r.headers["cache-control"]
    key = url.rsplit("v=", 1)[1]
    assert r.headers["etag"] == f'"{key}"'
    stale = table.http.get(url.replace(key, uuid.uuid4().hex[:16]), headers=ann.auth)
    assert "immutable" not in stale.headers["cache-control"]


def test_decoded_images_are_kept_within_a_byte_budget(client, table: Table):
    fray = client.app.state.fray
    first = upload(table, dungeon_png(400, 300)).json()["id"]
    second = upload(table, dungeon_png(300, 200)).json()["id"]
    cache = map_images.MaskCache(decoded=2, decoded_bytes=400 * 300 * 4)  # room for the first alone
    cover = (FogOp(op="cover", rect=(0, 0, 10, 10)),)
    for asset, (w, h) in ((first, (400, 300)), (second, (300, 200))):
        scene = Scene(id="s", name="S", asset=asset, width=w, height=h, fog=cover)
        assert cache.get(fray, table.id, scene, scene.fog) is not None
    assert list(cache._decoded) == [second]
