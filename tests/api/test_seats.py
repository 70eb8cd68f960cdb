"""Seats: the admin password, spectators, invite rotation, revocation, handing characters over."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.helpers import Table


def test_the_admin_password_gates_campaign_creation(settings: Settings):
    gated = settings.model_copy(update={"admin_password": "open sesame"})
    with TestClient(create_app(gated)) as client:
        refused = client.post("/api/campaigns", json={"name": "X"})
        assert refused.status_code == 403 and "admin password" in refused.json()["detail"]
        wrong = client.post("/api/campaigns", json={"name": "X", "admin_password": "nope"})
        assert wrong.status_code == 403
        assert (
            client.post("/api/campaigns", json={"name": "X", "admin_password": "open sesame"}).status_code
            == 201
        )


def test_spectators_watch_but_cannot_act(table: Table):
    r = table.http.post(f"/api/campaigns/{table.id}/watch", json={"code": table.spectator})
    assert r.status_code == 201 and r.json()["role"] == "spectator"
    watcher = {"Authorization": f"Bearer {r.json()['token']}"}
    assert table.http.get(f"/api/campaigns/{table.id}", headers=watcher).status_code == 200
    act = table.http.post(
        f"/api/campaigns/{table.id}/commands",
        headers=watcher,
        json={"type": "generic.roll", "expression": "1d6", "dice": [2]},
    )
    assert act.status_code == 403 and "Spectators watch" in act.json()["detail"]


def test_rotating_the_invite_retires_the_old_link(table: Table):
    old = table.invite
    fresh = table.http.post(f"/api/campaigns/{table.id}/invite/rotate", headers=table.gm.auth).json()
    table.invite = fresh["invite_url"].rsplit("/", 1)[1]
    assert table.invite != old
    refused = table.http.post(f"/api/campaigns/{table.id}/join", json={"invite": old, "name": "Late"})
    assert refused.status_code == 403
    assert table.join("Late").name == "Late"
    ann = table.join("Ann")
    assert table.http.post(f"/api/campaigns/{table.id}/invite/rotate", headers=ann.auth).status_code == 403


def test_handing_a_character_over_and_revoking_a_seat(table: Table):
    ann, ben = table.join("Ann"), table.join("Ben")
    aria = table.character("Aria", owner=ann)
    table.ok(table.gm, "campaign.assign_participant", participant=aria, seat=ben.seat_id)
    assert table.view(ben)["me"]["participants"] == [aria]
    assert table.view(ann)["me"]["participants"] == []
    r = table.http.post(f"/api/campaigns/{table.id}/seats/{ben.seat_id}/revoke", headers=table.gm.auth)
    assert r.status_code == 204
    # Ben's character comes back to the GM; Ben's token no longer opens the table.
    aria_view = next(p for p in table.view(table.gm)["participants"] if p["id"] == aria)
    assert aria_view["owner"] is None
    assert table.http.get(f"/api/campaigns/{table.id}", headers=ben.auth).status_code == 401
    own = table.http.post(f"/api/campaigns/{table.id}/seats/{table.gm.seat_id}/revoke", headers=table.gm.auth)
    assert own.status_code == 409 and "your own GM seat" in own.json()["detail"]
    same_name = table.http.post(
        f"/api/campaigns/{table.id}/join", json={"invite": table.invite, "name": "ann"}
    )
    assert same_name.status_code == 409 and "already called" in same_name.json()["detail"]


def test_an_api_client_that_keeps_cookies_is_judged_by_its_bearer_token(live_http):
    """The JSON API answers with tokens, not cookies (pages set those): a client that keeps cookies, as
    httpx and requests sessions do, goes on posting without an Origin header (issue 28, item 13)."""
    http = live_http
    created = http.post("/api/campaigns", json={"name": "Bots", "dice": "manual"})
    assert created.status_code == 201, created.text
    table = created.json()
    code = table["invite_url"].rsplit("/", 1)[1]
    joined = http.post(f"/api/campaigns/{table['id']}/join", json={"invite": code, "name": "Ann"})
    assert joined.status_code == 201, joined.text
    watched = http.post(
        f"/api/campaigns/{table['id']}/watch", json={"code": table["spectator_url"].rsplit("/", 1)[1]}
    )
    assert watched.status_code == 201, watched.text
    for reply in (created, joined, watched):
        assert "set-cookie" not in reply.headers
    assert not http.cookies
    gm = {"Authorization": f"Bearer {table['gm_token']}"}
    roll = {"type": "generic.roll", "expression": "1d6", "dice": [4]}
    assert http.post(f"/api/campaigns/{table['id']}/commands", json=roll, headers=gm).status_code == 200
    assert http.post("/api/campaigns", json={"name": "Second"}).status_code == 201
    # A bearer token decides, even beside a browser's cookie for another seat and without an Origin.
    http.cookies.set(f"fray_{table['id']}", joined.json()["token"])
    reply = http.post(f"/api/campaigns/{table['id']}/commands", json=roll, headers=gm)
    assert reply.status_code == 200, reply.text
    assert reply.json()["events"][0]["actor"] == table["seat_id"]
