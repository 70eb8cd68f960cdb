"""Rate limits: a budget per address for creating campaigns, joining and the admin password, and per seat
for commands and socket messages. Over it: a 429 with a sentence and Retry-After, and nothing changed."""

from __future__ import annotations

import json
import time

from fastapi.testclient import TestClient

from app.main import create_app
from app.services.rate_limits import LIMITS
from app.settings import Settings
from tests.helpers import Table

NEW = {"name": "Flood", "system": "generic", "dice": "server"}


def refused(r) -> str:
    assert r.status_code == 429, r.text
    assert int(r.headers["retry-after"]) >= 1
    detail = r.json()["detail"]
    assert "try again in" in detail and detail.endswith(".")
    return detail


def test_an_address_creating_campaigns_without_end_is_refused_and_nothing_is_made(client):
    burst = int(LIMITS["create"].burst)
    for i in range(burst):
        assert client.post("/api/campaigns", json={**NEW, "name": f"Table {i}"}).status_code == 201
    r = client.post("/api/campaigns", json={**NEW, "name": "One too many"})
    assert "campaigns were created from your address" in refused(r)
    assert client.post("/import", data={}, files={"file": ("x.json", b"{}")}).status_code == 429


def test_guessing_the_admin_password_is_cut_short(settings: Settings, database_url):
    guarded = Settings(database_url=database_url, admin_password="correct horse")
    with TestClient(create_app(guarded), base_url="http://testserver") as client:
        for _ in range(int(LIMITS["admin"].burst)):
            wrong = client.post("/api/campaigns", json={**NEW, "admin_password": "guess"})
            assert wrong.status_code == 403
        right = client.post("/api/campaigns", json={**NEW, "admin_password": "correct horse"})
        assert "admin password" in refused(right)


def test_joins_from_one_address_have_a_budget_a_table_never_meets(client):
    table = Table.create(client)
    for i in range(8):  # a whole table joins from one house
        table.join(f"Player {i}")
    url = f"/api/campaigns/{table.id}/join"
    joined = 8
    while True:  # a script taking seat after seat
        r = client.post(url, json={"invite": table.invite, "name": f"Bot {joined}"})
        if r.status_code != 201:
            break
        joined += 1
        assert joined < 2000, "never refused"
    assert joined >= LIMITS["join"].burst
    assert "joins came from your address" in refused(r)
    seats = client.get(f"/api/campaigns/{table.id}/seats", headers=table.gm.auth).json()
    assert not any(s["name"] == f"Bot {joined}" for s in seats["seats"])


def test_a_seat_sending_commands_without_end_is_refused_but_the_table_plays_on(client):
    table = Table.create(client, dice="server")
    ann, ben = table.join("Ann"), table.join("Ben")
    url = f"/api/campaigns/{table.id}/commands"
    roll = {"type": "generic.roll", "expression": "1d20"}
    made, seq = 0, 0
    while (r := client.post(url, json=roll, headers=ann.auth)).status_code == 200:  # a script hammering
        made, seq = made + 1, r.json()["seq"]
        assert made < 2000, "never refused"
    assert made >= LIMITS["commands"].burst  # a burst of rolls went through first
    assert "commands came from your seat" in refused(r)
    assert table.view(table.gm)["campaign"]["seq"] == seq  # the refused roll was not made
    assert (
        client.post(url, json={"type": "generic.roll", "expression": "1d6"}, headers=ben.auth).status_code
        == 200
    )
    time.sleep(2 / LIMITS["commands"].per_second)  # the bucket refills: Ann rolls again
    assert (
        client.post(url, json={"type": "generic.roll", "expression": "1d20"}, headers=ann.auth).status_code
        == 200
    )


def test_a_socket_flooding_messages_is_told_to_slow_down(client):
    table = Table.create(client)
    ann = table.join("Ann")
    with client.websocket_connect(
        f"/ws/campaigns/{table.id}?format=json", headers={"Authorization": f"Bearer {ann.token}"}
    ) as ws:
        ws.receive_text()  # the first state
        flood = int(LIMITS["socket"].burst) + 60
        for _ in range(flood):
            ws.send_text(json.dumps({"type": "nothing.at.all"}))
        errors = [json.loads(ws.receive_text())["error"] for _ in range(flood)]
        slowed = [e for e in errors if e["status"] == 429]
        assert slowed and "messages came from your seat" in slowed[0]["detail"]
        assert all(
            e["status"] == 422 for e in errors[: int(LIMITS["socket"].burst)]
        )  # the burst went through
