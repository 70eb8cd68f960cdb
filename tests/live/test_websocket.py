"""Real WebSockets against a real server: fan-out to every seat, resume, hidden rolls, closes."""

from __future__ import annotations

import asyncio
import json
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from tests.helpers import Table


def run(scenario) -> None:
    """Run an async scenario on a fresh loop in its own thread (the browser tests hold this thread's loop)."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, scenario()).result()


async def _recv(ws, timeout: float = 5.0):
    return await asyncio.wait_for(ws.recv(), timeout)


async def _recv_json(ws, timeout: float = 5.0) -> dict:
    return json.loads(await _recv(ws, timeout))


def _connect(server, table: Table, seat, **params):
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return websockets.connect(
        f"{server.ws_url}/ws/campaigns/{table.id}?{query}", additional_headers=seat.auth, open_timeout=5
    )


@pytest.fixture
def live_table(live_server, live_http) -> Table:
    table = Table.create(live_http)
    ann, ben = table.join("Ann"), table.join("Ben")
    table.character("Aria", owner=ann)
    table.character("Brick", owner=ben)
    table.ok(table.gm, "generic.pool.create", name="Good Karma", value=1)
    return table


def _seq(table: Table) -> int:
    return table.view(table.gm)["campaign"]["seq"]


def test_a_players_roll_reaches_the_gm_and_the_other_player(live_server, live_table):
    table = live_table
    ann, ben = table.players["Ann"], table.players["Ben"]
    start = _seq(table)

    async def scenario():
        async with (
            _connect(live_server, table, table.gm, format="json", after=start) as gm_ws,
            _connect(live_server, table, ben, format="json", after=start) as ben_ws,
        ):
            reply = await asyncio.to_thread(
                table.ok, ann, "generic.roll", expression="2d6", dice=[6, 4], participant="Aria"
            )
            for ws in (gm_ws, ben_ws):
                message = await _recv_json(ws)
                assert message["seq"] == reply["seq"]
                rolled = message["events"][-1]
                assert rolled["type"] == "generic.rolled"
                assert rolled["data"]["total"] == 10
                assert rolled["data"]["who"] == "Aria"

    run(scenario)


def test_the_gms_secret_roll_reaches_only_the_gm(live_server, live_table):
    table = live_table
    ann = table.players["Ann"]
    start = _seq(table)

    async def scenario():
        async with (
            _connect(live_server, table, table.gm, format="json", after=start) as gm_ws,
            _connect(live_server, table, ann, format="json", after=start) as ann_ws,
        ):
            await asyncio.to_thread(
                table.ok, table.gm, "generic.roll", expression="1d20", dice=[17], hidden=True
            )
            gm_message, ann_message = await _recv_json(gm_ws), await _recv_json(ann_ws)
            assert gm_message["events"][0]["data"]["total"] == 17
            assert ann_message["seq"] == gm_message["seq"]  # the player's page knows it is up to date...
            assert ann_message["events"] == []  # ...and learns nothing of the roll
            assert "17" not in json.dumps(ann_message)

    run(scenario)


def test_resume_with_after_sends_what_was_missed(live_server, live_table):
    table = live_table
    ann = table.players["Ann"]
    before = _seq(table)
    table.ok(table.gm, "generic.pool.adjust", pool="Good Karma", delta=2)
    table.ok(ann, "generic.roll", expression="1d6", dice=[3])

    async def scenario():
        async with _connect(live_server, table, ann, format="json", after=before) as ws:
            message = await _recv_json(ws)
            assert [e["type"] for e in message["events"]] == ["generic.pool_changed", "generic.rolled"]
            assert [e["seq"] for e in message["events"]] == [before + 1, before + 2]
            await ws.send("ping")
            assert (await _recv_json(ws)) == {"pong": before + 2}

    run(scenario)


def test_html_sockets_get_only_the_blocks_that_changed_with_the_seq(live_server, live_table):
    table = live_table
    ann, ben = table.players["Ann"], table.players["Ben"]

    async def scenario():
        async with _connect(live_server, table, ben, after=0) as ws:
            first = await _recv(ws)  # behind: the whole page's live blocks
            assert 'id="pools"' in first and 'id="log"' in first and 'id="initiative"' in first
            await asyncio.to_thread(table.ok, ann, "generic.pool.adjust", pool="Good Karma", delta=-1)
            message = await _recv(ws)
            # The changed pool's row alone, morphed in by its id: not the whole pools block (issue 31).
            assert '<li hx-swap-oob="morph" class="pool" id="pool-' in message and 'id="pools"' not in message
            assert "Good Karma" in message
            # The new log line comes alone, added on top of the page's log list.
            assert 'id="log"' not in message and 'hx-swap-oob="afterbegin:#log-list"' in message
            assert message.count('class="entry') == 1
            assert 'id="initiative"' not in message  # unchanged blocks are not sent again
            seq = int(re.search(r'id="live-seq" data-seq="(\d+)"', message).group(1))
            assert seq == _seq(table)

    run(scenario)


def test_commands_over_the_socket_are_answered(live_server, live_table):
    table = live_table
    ann = table.players["Ann"]

    async def scenario():
        async with _connect(live_server, table, ann, format="json", after=_seq(table)) as ws:
            await ws.send(json.dumps({"type": "generic.pool.adjust", "pool": "Good Karma", "delta": -5}))
            error = await _recv_json(ws)
            assert error["error"]["status"] == 409
            assert "cannot go below 0" in error["error"]["detail"]
            await ws.send(json.dumps({"type": "generic.pool.adjust", "pool": "Good Karma", "delta": -1}))
            messages = [await _recv_json(ws), await _recv_json(ws)]
            reply = next(m["reply"] for m in messages if "reply" in m)
            assert reply["events"][0]["data"]["to"] == 0

    run(scenario)


def test_sockets_without_a_seat_or_with_huge_messages_are_closed_with_a_reason(
    live_server, live_table, live_http
):
    table = live_table

    async def scenario():
        async with websockets.connect(f"{live_server.ws_url}/ws/campaigns/{table.id}") as ws:
            with pytest.raises(ConnectionClosed) as closed:
                await _recv(ws)
            assert closed.value.rcvd.code == 4401
            assert "invite link" in closed.value.rcvd.reason
        async with _connect(live_server, table, table.players["Ann"], format="json", after=_seq(table)) as ws:
            await ws.send("x" * 40_000)
            with pytest.raises(ConnectionClosed) as closed:
                await _recv(ws)
            assert closed.value.rcvd.code == 1009
        # A player may not open the GM's page.
        async with _connect(live_server, table, table.players["Ann"], page="gm") as ws:
            with pytest.raises(ConnectionClosed) as closed:
                await _recv(ws)
            assert closed.value.rcvd.code == 4403

    run(scenario)


def test_cookie_sockets_from_another_site_and_bad_previews_are_refused(live_server, live_table):
    table = live_table
    cookie = {"Cookie": f"fray_{table.id}={table.players['Ann'].token}"}

    async def scenario():
        url = f"{live_server.ws_url}/ws/campaigns/{table.id}?format=json&after={_seq(table)}"
        async with websockets.connect(url, additional_headers=cookie, origin="http://evil.example") as ws:
            with pytest.raises(ConnectionClosed) as closed:
                await _recv(ws)
            assert closed.value.rcvd.code == 4403
        async with websockets.connect(url, additional_headers=cookie, origin=live_server.url) as ws:
            await ws.send("ping")
            assert "pong" in await _recv_json(ws)
        async with _connect(live_server, table, table.gm, page="player", **{"as": "nobody"}) as ws:
            with pytest.raises(ConnectionClosed) as closed:
                await _recv(ws)
            assert closed.value.rcvd.code == 4403

    run(scenario)


def test_a_revoked_seats_socket_is_closed(live_server, live_table):
    table = live_table
    ben = table.players["Ben"]

    async def scenario():
        async with _connect(live_server, table, ben, format="json", after=_seq(table)) as ws:
            r = await asyncio.to_thread(
                table.http.post,
                f"/api/campaigns/{table.id}/seats/{ben.seat_id}/revoke",
                headers=table.gm.auth,
            )
            assert r.status_code == 204
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await _recv(ws)
            assert closed.value.rcvd.code == 4403
        assert table.send(ben, "generic.roll", expression="1d6", dice=[1]).status_code == 401

    run(scenario)
