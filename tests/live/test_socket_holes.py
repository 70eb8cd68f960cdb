"""Holes a fuzzer found on the live socket and the HTTP edges (issue 13, item 7; issue 16, item 7)."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.helpers import Table
from tests.live.test_websocket import _connect, _recv, run


@pytest.fixture
def live_table(live_server, live_http) -> Table:
    table = Table.create(live_http)
    table.join("Ben")
    table.ok(table.gm, "generic.pool.create", name="Good Karma", value=1)
    return table


def test_a_page_from_the_future_gets_a_full_refresh_and_then_every_change(live_server, live_table):
    table = live_table

    async def scenario():
        async with _connect(live_server, table, table.gm, after=10_000) as page:
            first = await _recv(page)
            assert 'id="live-seq"' in first and 'id="pools"' in first  # the whole page's blocks
            reply = await asyncio.to_thread(
                table.ok, table.gm, "generic.pool.adjust", pool="Good Karma", delta=1
            )
            seq = reply["seq"]
            while f'data-seq="{seq}"' not in first:
                first = await _recv(page)

    run(scenario)


def test_a_binary_frame_is_answered_and_the_socket_lives_on(live_server, live_table):
    table = live_table

    async def scenario():
        async with _connect(live_server, table, table.gm, format="json") as ws:
            await ws.send(b"\x00\x01binary")
            while True:
                message = json.loads(await _recv(ws))
                if "error" in message:
                    break
            assert message["error"]["status"] == 422 and "text" in message["error"]["detail"]
            await ws.send("ping")
            while "pong" not in json.loads(await _recv(ws)):
                pass

    run(scenario)


def test_a_revoked_seat_stops_acting_on_its_open_socket_at_once(live_server, live_table):
    table = live_table
    ben = table.players["Ben"]

    async def scenario():
        async with _connect(live_server, table, ben, format="json") as ws:
            await asyncio.to_thread(
                table.http.post,
                f"/api/campaigns/{table.id}/seats/{ben.seat_id}/revoke",
                headers=table.gm.auth,
            )
            before = table.view(table.gm)["campaign"]["seq"]
            try:
                await ws.send(json.dumps({"type": "generic.pool.adjust", "pool": "Good Karma", "delta": -1}))
                while True:
                    await _recv(ws)
            except Exception:  # closed by the server
                pass
            assert ws.close_code in (4401, 4403)
            assert table.view(table.gm)["campaign"]["seq"] == before

    run(scenario)


def test_out_of_range_numbers_control_characters_and_bodies_that_are_not_utf8(live_http, live_server):
    table = Table.create(live_http)
    r = live_http.get(f"/api/campaigns/{table.id}/events?after=9223372036854775808", headers=table.gm.auth)
    assert r.status_code == 422
    nul = table.send(table.gm, "campaign.add_participant", name="Bad\u0000Name")
    assert nul.status_code == 422 and "control character" in nul.json()["detail"]
    join = live_http.post(f"/api/campaigns/{table.id}/join", json={"invite": table.invite, "name": "A\u0000"})
    assert join.status_code == 422
    path = live_http.get(f"/api/campaigns/{table.id}%00/events", headers=table.gm.auth)
    assert path.status_code == 422
    body = live_http.post(
        f"/api/campaigns/{table.id}/commands",
        content=b'{"type": "generic.roll", "expression": "\xff\xfe"}',
        headers={**table.gm.auth, "content-type": "application/json"},
    )
    assert body.status_code == 422 and "detail" in body.json()


HUGE = "1" + "0" * 400  # a whole number no float can hold


def test_junk_numbers_and_nesting_are_answered_and_the_socket_lives_on(live_server, live_table):
    table = live_table
    table.ok(table.gm, "map.scene.create", name="Crypt", width=400, height=300, show=True)
    junk = [
        f'{{"map.ping": {{"x": {HUGE}, "y": 30}}}}',
        f'{{"map.ruler": {{"from": [{HUGE}, 1], "to": [1, 1]}}}}',
        f'{{"map.ghost": {{"token": "t1", "x": {HUGE}, "y": 1}}}}',
        '{"map.ping": {"x": NaN, "y": 30}}',
        '{"map.ping": {"x": 1e999, "y": 30}}',
        f'{{"type": "generic.pool.adjust", "pool": "Good Karma", "delta": {HUGE}}}',
        '{"map.ping": ' + "[" * 5000 + "]" * 5000 + "}",
        "[" * 5000,
    ]

    async def scenario():
        async with _connect(live_server, table, table.gm, format="json") as ws:
            for text in junk:
                await ws.send(text)
                while True:
                    message = json.loads(await _recv(ws))
                    if "error" in message:
                        break
                assert message["error"]["status"] in (409, 422), (text[:40], message)
                assert message["error"]["detail"].endswith("."), message
            await ws.send("ping")
            while "pong" not in json.loads(await _recv(ws)):
                pass

    run(scenario)
