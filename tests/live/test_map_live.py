"""The map on real sockets: token moves reach every screen, pings are relayed but never into fog."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.helpers import Table
from tests.live.test_websocket import _connect, _recv, run
from tests.mapping import RED_ROOM, scene_with_image


@pytest.fixture
def map_table(live_server, live_http) -> tuple[Table, str, str]:
    table = Table.create(live_http)
    ann, ben = table.join("Ann"), table.join("Ben")
    rook = table.character("Rook", owner=ann)
    table.character("Bell", owner=ben)
    scene, _ = scene_with_image(table)
    placed = table.ok(table.gm, "map.token.place", scene=scene, x=60, y=60, participant=rook)
    return table, scene, placed["events"][0]["data"]["token"]["id"]


async def _until(ws, wanted, timeout: float = 5.0) -> list[str]:
    """Messages read until one satisfies `wanted` (a predicate on the text)."""
    seen: list[str] = []
    deadline = asyncio.get_running_loop().time() + timeout
    while not seen or not wanted(seen[-1]):
        left = deadline - asyncio.get_running_loop().time()
        assert left > 0, f"never got the message; got {[m[:80] for m in seen]}"
        seen.append(await _recv(ws, left))
    return seen


async def _silent(ws, wanted, wait: float = 0.6) -> None:
    """Nothing satisfying `wanted` arrives within `wait` seconds."""
    try:
        while True:
            message = await asyncio.wait_for(ws.recv(), wait)
            assert not wanted(message), f"should not have arrived: {message[:200]}"
    except TimeoutError:
        return


async def _joined(*sockets) -> None:
    """Each socket is in its room: its handler answers a ping only after joining (no race with a relay)."""
    for ws in sockets:
        await ws.send("ping")
        await _until(ws, lambda m: '"pong"' in m or 'id="live-seq"' in m, timeout=15)


def _seq(table: Table) -> int:
    return table.view(table.gm)["campaign"]["seq"]


def test_a_players_token_move_reaches_the_gm_and_the_other_player(live_server, map_table):
    table, _, token = map_table
    ann, ben = table.players["Ann"], table.players["Ben"]
    start = _seq(table)

    async def scenario():
        async with (
            _connect(live_server, table, table.gm, format="json", after=start) as gm_ws,
            _connect(live_server, table, ben, format="json", after=start) as ben_json,
            _connect(live_server, table, ben, after=start) as ben_page,
        ):
            await asyncio.to_thread(table.ok, ann, "map.token.move", token=token, x=180, y=130)
            for ws in (gm_ws, ben_json):
                seen = await _until(ws, lambda m: '"map.token_moved"' in m)
                moved = json.loads(seen[-1])["events"][-1]["data"]
                assert (moved["token"], moved["x"], moved["y"]) == (token, 175.0, 125.0)
            await _until(ben_page, lambda m: 'id="live-seq"' in m)

    run(scenario)


def test_pings_reach_the_room_but_never_a_player_for_a_spot_under_fog(live_server, map_table):
    table, scene, _ = map_table
    ann, ben = table.players["Ann"], table.players["Ben"]
    table.ok(table.gm, "map.fog.cover", scene=scene, rect=list(RED_ROOM))
    start = _seq(table)
    is_ping = lambda m: '"map.ping"' in m  # noqa: E731

    async def scenario():
        async with (
            _connect(live_server, table, table.gm, format="json", after=start) as gm_ws,
            _connect(live_server, table, ann, format="json", after=start) as ann_ws,
            _connect(live_server, table, ben, after=start) as ben_page,
        ):
            await _joined(gm_ws, ann_ws, ben_page)
            await ann_ws.send(json.dumps({"map.ping": {"x": 40, "y": 50}}))
            for ws in (gm_ws, ben_page):
                ping = json.loads((await _until(ws, is_ping))[-1])["map.ping"]
                assert ping == {"scene": scene, "x": 40.0, "y": 50.0, "by": "Ann"}
            # The GM pings inside the fogged room: it is relayed (the GM's own screen draws it), and no
            # player's socket hears of it.
            await gm_ws.send(json.dumps({"map.ping": {"x": 300, "y": 100}}))
            await _silent(ben_page, is_ping)
            await _silent(ann_ws, is_ping)
            # A player cannot ping into fog, and is told so.
            await ann_ws.send(json.dumps({"map.ping": {"x": 300, "y": 100}}))
            error = json.loads((await _until(ann_ws, lambda m: '"error"' in m))[-1])["error"]
            assert error["status"] == 409 and "cannot see" in error["detail"]
            await _silent(gm_ws, is_ping)
            # Nothing of it was logged.
            assert _seq(table) == start

    run(scenario)


def test_only_the_gm_shares_the_ruler_and_pings_are_rate_limited(live_server, map_table):
    table, _, _ = map_table
    ann = table.players["Ann"]
    start = _seq(table)

    async def scenario():
        async with (
            _connect(live_server, table, table.gm, format="json", after=start) as gm_ws,
            _connect(live_server, table, ann, format="json", after=start) as ann_ws,
        ):
            await _joined(gm_ws, ann_ws)
            await gm_ws.send(json.dumps({"map.ruler": {"from": [10, 10], "to": [110, 10]}}))
            ruler = json.loads((await _until(ann_ws, lambda m: '"map.ruler"' in m))[-1])["map.ruler"]
            assert ruler["from"] == [10.0, 10.0] and ruler["to"] == [110.0, 10.0]
            await ann_ws.send(json.dumps({"map.ruler": {"from": [10, 10], "to": [20, 10]}}))
            error = json.loads((await _until(ann_ws, lambda m: '"error"' in m))[-1])["error"]
            assert error["status"] == 403
            for _ in range(60):  # past the burst of 20, faster than it refills at 5 a second
                await ann_ws.send(json.dumps({"map.ping": {"x": 20, "y": 20}}))
            seen = await _until(ann_ws, lambda m: '"status": 429' in m, timeout=30)
            assert "Too many pings" in seen[-1]

    run(scenario)


def test_a_token_under_fog_never_reaches_a_players_sockets_until_revealed(live_server, map_table):
    """Both socket formats: the chest placed under fog is not named; after the reveal it arrives."""
    table, scene, _ = map_table
    ann = table.players["Ann"]
    table.ok(table.gm, "map.fog.cover", scene=scene, rect=list(RED_ROOM))
    start = _seq(table)

    async def scenario():
        async with (
            _connect(live_server, table, ann, format="json", after=start) as ann_json,
            _connect(live_server, table, ann, after=start) as ann_page,
            _connect(live_server, table, table.gm, format="json", after=start) as gm_ws,
        ):
            placed = await asyncio.to_thread(
                table.ok, table.gm, "map.token.place", scene=scene, x=300, y=100, label="Golden chest"
            )
            seq = placed["seq"]
            await _until(gm_ws, lambda m: "Golden chest" in m)
            for ws in (ann_json, ann_page):  # each hears the seq move on, and nothing of the chest
                seen = await _until(ws, lambda m: f'"seq": {seq}' in m or f'data-seq="{seq}"' in m)
                assert not any("Golden chest" in m for m in seen)
            x, y, w, h = RED_ROOM
            await asyncio.to_thread(table.ok, table.gm, "map.fog.reveal", scene=scene, rect=[x, y, w, h])
            await _until(ann_page, lambda m: "Golden chest" in m)

    run(scenario)


def test_a_ruler_only_measured_reaches_no_socket_and_the_shared_one_carries_the_servers_distance(
    live_server, map_table
):
    table, _, _ = map_table
    ann = table.players["Ann"]
    start = _seq(table)
    is_ruler = lambda m: '"map.ruler"' in m  # noqa: E731

    async def scenario():
        async with (
            _connect(live_server, table, table.gm, format="json", after=start) as gm_ws,
            _connect(live_server, table, ann, format="json", after=start) as ann_ws,
        ):
            await _joined(gm_ws, ann_ws)
            mine = {"map.ruler": {"from": [10, 10], "to": [110, 10], "share": False}}
            reply = await asyncio.to_thread(
                table.http.post, f"/api/campaigns/{table.id}/signals", json=mine, headers=ann.auth
            )
            assert reply.status_code == 202 and reply.json()["map.ruler"]["distance"].endswith("ft")
            await _silent(gm_ws, is_ruler)
            await gm_ws.send(json.dumps({"map.ruler": {"from": [10, 10], "to": [110, 10]}}))
            ruler = json.loads((await _until(ann_ws, is_ruler))[-1])["map.ruler"]
            assert ruler["distance"] == reply.json()["map.ruler"]["distance"]

    run(scenario)
