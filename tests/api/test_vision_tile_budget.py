"""Vision tiles kept within `FRAY_VISION_TILE_BYTES`: past it the oldest made go, a tile asked for again is
made again with the same bytes under the same name, and the images campaigns hold are never touched."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from app.services import tile_budget
from app.settings import Settings
from tests.api.test_vision_tiles import PPG, _dungeon
from tests.helpers import Table

BUDGET = 64 * 1024  # the least the setting takes: a handful of this scene's tiles


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(database_url=database_url, vision_tile_bytes=BUDGET)


@pytest.fixture(autouse=True)
def fresh_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tile_budget, "BUDGET", tile_budget.TileBudget())  # what other tests made is theirs


def _sql(client, query: str) -> list[tuple]:
    with client.app.state.fray.db.read() as session:
        return [tuple(row) for row in session.execute(text(query))]


def test_tiles_past_the_budget_go_oldest_first_and_come_back_the_same(client, table: Table):
    ann, _, token = _dungeon(table)
    served: dict[str, tuple[str, bytes]] = {}  # url -> (etag, bytes), in the order first served
    for step in range(6):  # down the corridor: each step into the dark makes new tiles
        if step:
            table.ok(ann, "map.token.move", token=token, x=(2.5 + step) * PPG, y=1.5 * PPG)
        for tile in table.view(ann)["map"]["tiles"]:
            if tile["url"] not in served:
                r = table.http.get(tile["url"], headers=ann.auth)
                assert r.status_code == 200
                served[tile["url"]] = (r.headers["etag"], r.content)
    made = sum(len(body) for _, body in served.values())
    assert made > 2 * BUDGET  # the walk made more than the budget holds

    kept = _sql(client, "SELECT id, size FROM vision_tile")
    assert 0 < sum(size for _, size in kept) <= BUDGET
    assert len(kept) < len(served)
    # Every tile row has its blob, and every blob no campaign holds is a tile row: nothing left over.
    unheld = _sql(client, "SELECT id FROM asset WHERE id NOT IN (SELECT asset_id FROM campaign_asset)")
    assert sorted(i for (i,) in unheld) == sorted(i for i, _ in kept)
    # The scene's image, which the campaign holds, is still there.
    held = _sql(client, "SELECT asset_id FROM campaign_asset")
    assert held and all(_sql(client, f"SELECT 1 FROM asset WHERE id = '{i}'") for (i,) in held)

    # The first tile served went first; asked for again, it is made again, the same bytes and name.
    first_url, (etag, body) = next(iter(served.items()))
    kept_ids = {i for i, _ in kept}
    assert not any(i.startswith(etag.strip('"')) for i in kept_ids)
    again = table.http.get(first_url, headers=ann.auth)
    assert again.status_code == 200 and again.headers["etag"] == etag and again.content == body
    assert "immutable" in again.headers["cache-control"]


def test_within_the_budget_nothing_goes(client, table: Table, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(client.app.state.fray.settings, "vision_tile_bytes", 64 * 1024 * 1024)
    ann, _, _ = _dungeon(table)
    urls = [tile["url"] for tile in table.view(ann)["map"]["tiles"]]
    for url in urls:
        assert table.http.get(url, headers=ann.auth).status_code == 200
    assert len(_sql(client, "SELECT id FROM vision_tile")) == len(urls)
