"""With a Redis broker the rate limits live in Redis: two processes share one budget per address, and a
Redis that stops answering lets requests through rather than turn a table away."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from redis import Redis

from app.main import create_app
from app.services.rate_limits import LIMITS
from app.settings import Settings
from app.store.migrate import upgrade

NEW = {"name": "Flood", "system": "generic"}


def app_on(tmp_path: Path, name: str, broker_url: str) -> TestClient:
    url = f"sqlite:///{tmp_path / name}.db"
    upgrade(url)
    return TestClient(
        create_app(Settings(database_url=url, broker_url=broker_url)), base_url="http://testserver"
    )


def create(client: TestClient):
    return client.post("/api/campaigns", json=NEW)


def test_two_processes_share_one_budget_through_redis(tmp_path, redis_url):
    Redis.from_url(redis_url).delete("fray:limit:create:testclient")
    with app_on(tmp_path, "a", redis_url) as one, app_on(tmp_path, "b", redis_url) as other:
        burst = int(LIMITS["create"].burst)
        for i in range(burst):
            assert create(one if i % 2 else other).status_code == 201
        for client in (one, other):  # the budget is spent, whichever process is asked
            r = create(client)
            assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
            assert "try again in" in r.json()["detail"]


def test_a_redis_that_does_not_answer_lets_the_table_play(tmp_path):
    with app_on(tmp_path, "c", "redis://127.0.0.1:1/0") as client:  # nothing listens on port 1
        for _ in range(int(LIMITS["create"].burst) + 3):
            assert create(client).status_code == 201
