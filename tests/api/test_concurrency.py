"""Two writers at once: exactly one takes the last point; the same command_id acts once."""

from __future__ import annotations

import threading
import uuid

import httpx

from tests.helpers import Table, pool


def test_two_players_take_the_last_point_at_the_same_moment(live_server, live_http):
    table = Table.create(live_http)
    ann, ben = table.join("Ann"), table.join("Ben")
    table.ok(table.gm, "generic.pool.create", name="Good Karma", value=1, min=0)
    barrier = threading.Barrier(2)
    results: dict[str, httpx.Response] = {}

    def take(seat) -> None:
        with httpx.Client(base_url=live_server.url, timeout=10) as http:
            barrier.wait()
            results[seat.name] = http.post(
                f"/api/campaigns/{table.id}/commands",
                headers=seat.auth,
                json={
                    "command_id": uuid.uuid4().hex,
                    "type": "generic.pool.adjust",
                    "pool": "Good Karma",
                    "delta": -1,
                },
            )

    for _ in range(5):  # several rounds, to give the race a real chance
        threads = [threading.Thread(target=take, args=(s,)) for s in (ann, ben)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        statuses = sorted(r.status_code for r in results.values())
        assert statuses == [200, 409], {k: v.text for k, v in results.items()}
        loser = next(r for r in results.values() if r.status_code == 409)
        assert "nothing left to take" in loser.json()["detail"]
        assert pool(table.view(table.gm), "Good Karma")["value"] == 0
        table.ok(table.gm, "generic.pool.set", pool="Good Karma", value=1)


def test_the_same_command_id_twice_makes_one_event(table: Table):
    ann = table.join("Ann")
    table.ok(table.gm, "generic.pool.create", name="Good Karma", value=3)
    command_id = uuid.uuid4().hex
    first = table.ok(ann, "generic.pool.adjust", pool="Good Karma", delta=-1, command_id=command_id)
    again = table.ok(ann, "generic.pool.adjust", pool="Good Karma", delta=-1, command_id=command_id)
    assert again["seq"] == first["seq"]
    assert again["events"] == first["events"]
    assert pool(table.view(ann), "Good Karma")["value"] == 2
    changes = [e for e in table.events(table.gm) if e["type"] == "generic.pool_changed"]
    assert len(changes) == 1
    # Another seat cannot reuse someone else's command id.
    stolen = table.send(table.gm, "generic.pool.adjust", pool="Good Karma", delta=1, command_id=command_id)
    assert stolen.status_code == 409
    assert "already used" in stolen.json()["detail"]


def test_eight_players_writing_at_once_all_get_through(live_server, live_http):
    """Issue 16, item 10: on PostgreSQL (the second pass) writers of one campaign take turns rather than
    race for the seq and run out of retries; every command is applied exactly once."""
    table = Table.create(live_http)
    seats = [table.join(f"P{i}") for i in range(8)]
    table.ok(table.gm, "generic.pool.create", name="Gold", value=0, min=None)
    barrier = threading.Barrier(len(seats))
    statuses: list[int] = []

    def spend(seat) -> None:
        with httpx.Client(base_url=live_server.url, timeout=30) as http:
            barrier.wait()
            for _ in range(6):
                r = http.post(
                    f"/api/campaigns/{table.id}/commands",
                    headers=seat.auth,
                    json={
                        "command_id": uuid.uuid4().hex,
                        "type": "generic.pool.adjust",
                        "pool": "Gold",
                        "delta": 1,
                    },
                )
                statuses.append(r.status_code)

    threads = [threading.Thread(target=spend, args=(s,)) for s in seats]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == [200] * 48
    assert pool(table.view(table.gm), "Gold")["value"] == 48


def test_a_database_that_does_not_answer_is_a_503_with_retry_after():
    """Issue 16, item 10: while PostgreSQL restarts (here: nothing listens), requests get a 503, not a 500."""
    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.settings import Settings
    from tests.conftest import free_port

    url = f"postgresql+psycopg://fray@127.0.0.1:{free_port()}/fray"  # a port nothing listens on
    with TestClient(create_app(Settings(database_url=url))) as http:
        r = http.get("/api/campaigns/abc", headers={"Authorization": "Bearer some-token"})
        assert r.status_code == 503 and "try again" in r.json()["detail"]
        assert r.headers["retry-after"] == "2"
