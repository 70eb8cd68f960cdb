"""Cross-site writes are refused (CSRF), and every reply carries the safe headers (issue 16: 8, 12)."""

from __future__ import annotations

import pytest

from tests.helpers import Table

EVIL = {"Origin": "https://evil.example"}


def _player_cookie(client, table: Table):
    seat = table.join("Ann")
    client.cookies.set(f"fray_{table.id}", seat.token)
    return seat


def test_a_cross_site_leave_does_not_log_a_player_out(client, table: Table):
    _player_cookie(client, table)
    r = client.post(f"/c/{table.id}/leave", headers=EVIL, follow_redirects=False)
    assert r.status_code == 403 and "another site" in r.json()["detail"]
    assert client.get(f"/c/{table.id}/play", headers={"Accept": "text/html"}).status_code == 200


@pytest.mark.parametrize(
    ("path", "data"),
    [("/campaigns", {"name": "Trap", "system": "generic"}), ("/join", {"link": "http://x/c/a/join/b"})],
    ids=["create", "join"],
)
def test_cross_site_create_and_join_are_refused(client, path: str, data: dict):
    r = client.post(path, data=data, headers=EVIL, follow_redirects=False)
    assert r.status_code == 403
    r = client.post(path, data=data, headers={"Sec-Fetch-Site": "cross-site"}, follow_redirects=False)
    assert r.status_code == 403


def test_a_cookie_write_must_say_where_it_comes_from(client, table: Table):
    _player_cookie(client, table)
    payload = {"type": "generic.roll", "expression": "1d6", "dice": "3"}
    assert client.post(f"/c/{table.id}/commands", data=payload).status_code == 403
    same = client.post(f"/c/{table.id}/commands", data=payload, headers={"Sec-Fetch-Site": "same-origin"})
    assert same.status_code in (200, 303)
    # A script with a bearer token needs none of this: the token decides, even beside the cookie.
    bot = table.send(table.gm, "generic.roll", expression="1d6", dice=[3])
    assert bot.status_code == 200


def test_every_reply_carries_the_safe_headers(client, table: Table):
    for r in (client.get("/"), client.get(f"/api/campaigns/{table.id}", headers=table.gm.auth)):
        assert r.headers["x-content-type-options"] == "nosniff"
        assert "frame-ancestors 'self'" in r.headers["content-security-policy"]
        assert r.headers["referrer-policy"] == "same-origin"
