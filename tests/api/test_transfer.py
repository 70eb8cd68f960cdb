"""A campaign as one file: export (GM only), import (here or elsewhere), and every file it refuses."""

from __future__ import annotations

import gzip
import json

import pytest
from sqlalchemy import func, select

from app.rules.events import current_version
from app.store.models import Campaign
from tests.helpers import Table
from tests.mapping import scene_with_image


def _played(table: Table):
    ann = table.join("Ann")
    rook = table.character("Rook", owner=ann)
    table.ok(table.gm, "generic.pool.create", name="Fate", value=3)
    table.ok(ann, "generic.pool.adjust", pool="Fate", delta=-1)
    table.ok(table.gm, "generic.roll", expression="2d6", dice=[3, 4], hidden=True, label="ambush")
    scene, _ = scene_with_image(table)
    table.ok(table.gm, "map.token.place", scene=scene, x=60, y=60, participant=rook)
    table.ok(table.gm, "map.fog.cover", scene=scene, rect=[200, 0, 200, 300])
    table.ok(table.gm, "generic.pool.adjust", pool="Fate", delta=1)
    table.ok(table.gm, "campaign.undo")
    return ann


def _export(table: Table, seat=None):
    return table.http.get(f"/api/campaigns/{table.id}/export", headers=(seat or table.gm).auth)


def _import(table: Table, data: bytes, **form):
    return table.http.post("/api/campaigns/import", files={"file": ("t.fray.json.gz", data)}, data=form)


def _count(client) -> int:
    with client.app.state.fray.db.read() as session:
        return session.scalar(select(func.count()).select_from(Campaign))


def _without_ids(view: dict) -> str:
    return json.dumps(view, sort_keys=True)


def test_only_the_gm_downloads_a_backup(table: Table):
    ann = _played(table)
    assert _export(table, ann).status_code == 403
    r = _export(table)
    assert r.status_code == 200 and r.headers["content-type"] == "application/gzip"
    assert "attachment" in r.headers["content-disposition"]
    document = json.loads(gzip.decompress(r.content))
    assert document["format"] == "fray-campaign" and document["version"] == 2
    assert [e["seq"] for e in document["events"]] == list(range(1, len(document["events"]) + 1))
    assert len(document["assets"]) == 1 and all("token_hash" in s for s in document["seats"])
    assert all(e["version"] == current_version(e["type"]) for e in document["events"])  # as written


def test_a_round_trip_on_the_same_server_is_the_same_table_with_new_ids(client, table: Table):
    _played(table)
    before = table.view(table.gm)
    r = _import(table, _export(table).content)
    assert r.status_code == 201, r.text
    copy = r.json()
    assert copy["same_id"] is False and copy["id"] != table.id and copy["gm_token"]
    view = table.http.get(
        f"/api/campaigns/{copy['id']}", headers={"Authorization": f"Bearer {copy['gm_token']}"}
    ).json()
    for key in ("pools", "tracks", "initiative", "encounters", "undo"):
        assert view[key] == before[key], key
    assert [p["name"] for p in view["participants"]] == [p["name"] for p in before["participants"]]
    assert view["map"]["tokens"] == before["map"]["tokens"] and view["map"]["fog"] == before["map"]["fog"]
    assert view["campaign"]["seq"] == before["campaign"]["seq"] and view["campaign"]["id"] == copy["id"]
    image = table.http.get(view["map"]["image_url"], headers={"Authorization": f"Bearer {copy['gm_token']}"})
    assert image.status_code == 200  # the image came along
    # The old seats' tokens do not open the copy.
    assert table.http.get(f"/api/campaigns/{copy['id']}", headers=table.gm.auth).status_code == 401


def _gz(obj) -> bytes:
    return gzip.compress(json.dumps(obj).encode())


def _event_at(document: dict, version) -> dict:
    """The file with its last event's version replaced (null, 0, text: none is a version)."""
    *rest, last = document["events"]
    return {**document, "events": [*rest, {**last, "version": version}]}


def _event_from_the_future(document: dict) -> dict:
    """The file with its last event written at a version of its type that this Fray has not got to."""
    *rest, last = document["events"]
    return {**document, "events": [*rest, {**last, "version": current_version(last["type"]) + 1}]}


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda good: b"PK\x03\x04 a zip, not a backup", "not a Fray campaign export"),
        (lambda good: good[: len(good) // 2], "cut short"),
        (lambda good: gzip.compress(b"{ not json"), "damaged"),
        (lambda good: gzip.compress(b'{"events": ' + b"[" * 5000), "damaged"),
        (lambda good: _gz({"format": "foundry-world", "version": 1}), "not a Fray campaign export"),
        (lambda good: _gz({**json.loads(gzip.decompress(good)), "version": 99}), "newer Fray"),
        (
            lambda good: _gz(
                {
                    **json.loads(gzip.decompress(good)),
                    "events": json.loads(gzip.decompress(good))["events"][1:],
                }
            ),
            "not whole",
        ),
        (lambda good: _gz({**json.loads(gzip.decompress(good)), "seats": [{"id": 1}]}), "damaged"),
        (lambda good: _gz(_event_from_the_future(json.loads(gzip.decompress(good)))), "newer Fray"),
        (lambda good: _gz(_event_at(json.loads(gzip.decompress(good)), None)), "version is not"),
        (lambda good: _gz(_event_at(json.loads(gzip.decompress(good)), 0)), "version is not"),
        (lambda good: _gz(_event_at(json.loads(gzip.decompress(good)), "1")), "version is not"),
    ],
    ids=[
        "foreign-binary",
        "truncated",
        "not-json",
        "nested-thousands-deep",
        "foreign-json",
        "newer-version",
        "gap-in-log",
        "bad-seat",
        "newer-event-version",
        "null-event-version",
        "zero-event-version",
        "text-event-version",
    ],
)
def test_a_file_that_fails_a_check_is_refused_whole(client, table: Table, make, words: str):
    _played(table)
    good = _export(table).content
    before = _count(client)
    r = _import(table, make(good))
    assert r.status_code == 422, r.text
    assert words in r.json()["detail"]
    assert _count(client) == before


def test_an_import_over_the_limit_is_a_413_that_names_it(client, table: Table):
    r = _import(table, b"\x1f\x8b" + b"0" * (21 * 1024 * 1024))
    assert r.status_code == 413 and "20 MB" in r.json()["detail"]
