"""Bad input gets a 4xx with a sentence in `detail`, never a 500, and changes nothing."""

from __future__ import annotations

import pytest

from tests.helpers import Table


def _seq(table: Table) -> int:
    return table.view(table.gm)["campaign"]["seq"]


def _refused(table: Table, response, status: int, words: str) -> None:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail.endswith((".", "!")), detail
    assert words.lower() in detail.lower(), detail


@pytest.mark.parametrize(
    ("payload", "status", "words"),
    [
        ({"type": "generic.roll", "expression": "2x6", "dice": [1]}, 422, "not a dice expression"),
        ({"type": "generic.roll", "expression": "2d6", "dice": [7, 1]}, 422, "not a face of a d6"),
        ({"type": "generic.roll", "expression": "2d6", "dice": [3]}, 422, "not enough dice"),
        ({"type": "generic.roll", "expression": "2d6", "dice": [3, 4, 5]}, 422, "you entered 3 dice"),
        ({"type": "generic.roll", "expression": "2d6"}, 422, "not enough dice"),
        (
            {"type": "generic.pool.adjust", "pool": "Good Karma", "delta": 1, "dice": [4]},
            422,
            "rolls no dice",
        ),
        ({"type": "generic.nonsense"}, 422, "is not a command"),
        ({"expression": "2d6"}, 422, "needs a type"),
        ({"type": "generic.pool.adjust", "pool": "Good Karma", "delta": "lots"}, 422, "whole number"),
        ({"type": "generic.pool.adjust", "pool": "Good Karma", "delta": 1, "extra": 1}, 422, "not something"),
        ({"type": "generic.pool.adjust", "pool": "Good Karma", "delta": -2}, 409, "cannot go below 0"),
        ({"type": "generic.pool.adjust", "pool": "Nope", "delta": 1}, 409, "no pool"),
        ({"type": "generic.track.create", "name": "Harm", "total": 0}, 422, "at least 1"),
        ({"type": "generic.roll", "dice": [1]}, 422, "say what to roll"),
        (
            {"type": "generic.preset.create", "label": "Huge", "expression": "100d100kh50"},
            422,
            "too many dice",
        ),
        ({"type": "generic.preset.create", "label": "Slow", "expression": "100d1000"}, 422, "too many dice"),
    ],
)
def test_bad_commands_are_refused_with_a_sentence_and_change_nothing(table: Table, payload, status, words):
    table.ok(table.gm, "generic.pool.create", name="Good Karma", value=1)
    before = _seq(table)
    response = table.http.post(f"/api/campaigns/{table.id}/commands", json=payload, headers=table.gm.auth)
    _refused(table, response, status, words)
    assert _seq(table) == before


def test_a_player_doing_the_gms_command_is_forbidden(table: Table):
    ann = table.join("Ann")
    before = _seq(table)
    _refused(table, table.send(ann, "generic.pool.create", name="Gold", value=5), 403, "only the gm")
    _refused(table, table.send(ann, "campaign.undo"), 403, "only the gm")
    _refused(table, table.send(ann, "generic.roll", expression="1d6", dice=[2], hidden=True), 403, "secret")
    assert _seq(table) == before


def test_a_player_cannot_act_for_another_players_character(table: Table):
    ann, ben = table.join("Ann"), table.join("Ben")
    table.character("Brick", owner=ben)
    _refused(
        table,
        table.send(ann, "generic.roll", expression="1d6", dice=[2], participant="Brick"),
        403,
        "not your character",
    )


def test_missing_or_wrong_tokens_are_refused(table: Table, client):
    payload = {"type": "generic.roll", "expression": "1d6", "dice": [1]}
    url = f"/api/campaigns/{table.id}/commands"
    _refused(table, client.post(url, json=payload), 401, "join this table first")
    _refused(
        table,
        client.post(url, json=payload, headers={"Authorization": "Bearer nope"}),
        401,
        "not at this table",
    )
    other = Table.create(client)
    _refused(table, client.post(url, json=payload, headers=other.gm.auth), 401, "not at this table")
    _refused(table, client.get(f"/api/campaigns/{table.id}"), 401, "join")
    join = client.post(f"/api/campaigns/{table.id}/join", json={"invite": "wrong", "name": "Eve"})
    _refused(table, join, 403, "invite link is not valid")
    _refused(
        table, client.post("/api/campaigns/nope/join", json={"invite": "x", "name": "Eve"}), 404, "no such"
    )


def test_malformed_bodies_and_huge_bodies(table: Table, client):
    url = f"/api/campaigns/{table.id}/commands"
    bad_json = client.post(
        url, content=b"{not json", headers={**table.gm.auth, "content-type": "application/json"}
    )
    _refused(table, bad_json, 422, "not valid json")
    huge = client.post(
        url, content=b"x" * 100_000, headers={**table.gm.auth, "content-type": "application/json"}
    )
    _refused(table, huge, 413, "too large")
    _refused(table, client.post("/api/campaigns", json={"name": "", "system": "generic"}), 422, "name")
    _refused(
        table, client.post("/api/campaigns", json={"name": "X", "system": "chess"}), 422, "no game system"
    )
    _refused(table, client.get("/api/nowhere"), 404, "nothing at this address")


def test_cookie_posts_from_another_site_are_refused(client):
    # A GM who made the table on the home page: the page's reply set the seat cookie.
    made = client.post(
        "/campaigns",
        data={"name": "Cookie table", "dice": "manual"},
        headers={"Origin": "http://testserver"},
        follow_redirects=False,
    )
    assert made.status_code == 303 and client.cookies, made.text
    url = f"/api/campaigns/{made.headers['location'].split('/')[2]}/commands"
    payload = {"type": "generic.roll", "expression": "1d6", "dice": [3]}
    assert client.post(url, json=payload, headers={"Origin": "http://testserver"}).status_code == 200
    evil = client.post(url, json=payload, headers={"Origin": "http://evil.example"})
    assert evil.status_code == 403
    assert "another site" in evil.json()["detail"]


def test_server_dice_campaigns_refuse_typed_dice(client):
    server = Table.create(client, dice="server")
    r = server.send(server.gm, "generic.roll", expression="1d6", dice=[3])
    assert r.status_code == 422
    assert "rolls its dice on the server" in r.json()["detail"]
    rolled = server.ok(server.gm, "generic.roll", expression="3d6")["events"][0]["data"]
    assert 3 <= rolled["total"] <= 18
    assert all(1 <= f <= 6 for f in rolled["roll"]["terms"][0]["faces"])


HUGE = "1" + "0" * 400  # a whole number no float can hold


@pytest.mark.parametrize(
    "body",
    [
        f'{{"map.ping": {{"x": {HUGE}, "y": 30}}}}',
        f'{{"map.ping": [20, -{HUGE}]}}',
        f'{{"map.ruler": {{"from": [{HUGE}, 1], "to": [1, 1]}}}}',
        f'{{"map.ping": {{"board": "generic", "x": {HUGE}, "y": 1}}}}',
        '{"map.ping": {"x": NaN, "y": 30}}',
        '{"map.ping": {"x": 1e999, "y": 30}}',
    ],
)
def test_a_ping_at_a_number_too_big_for_a_float_is_a_422(table: Table, body: str):
    table.ok(table.gm, "map.scene.create", name="Crypt", width=400, height=300, show=True)
    url = f"/api/campaigns/{table.id}/signals"
    headers = {**table.gm.auth, "content-type": "application/json"}
    _refused(table, table.http.post(url, content=body, headers=headers), 422, "numbers")
