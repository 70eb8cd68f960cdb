"""A ping on Triptycho's section map over real sockets: it reaches a player whose characters see the
spot, and never one whose characters do not (the dark cave floor), though the GM pinged it."""

from __future__ import annotations

import json

from tests.boards import aria_table, centre_of, in_the_cave
from tests.live.test_map_live import _joined, _seq, _silent, _until
from tests.live.test_websocket import _connect, run


def test_a_board_ping_reaches_only_the_players_who_see_that_section(live_server, live_http):
    table = in_the_cave(aria_table(live_http))
    ann = table.players["Ann"]
    seen, dark = centre_of(table, ann, seen=True), centre_of(table, ann, seen=False)
    start = _seq(table)
    is_ping = lambda m: '"map.ping"' in m  # noqa: E731

    async def scenario():
        async with (
            _connect(live_server, table, table.gm, format="json", after=start) as gm_ws,
            _connect(live_server, table, ann, after=start) as ann_page,
        ):
            await _joined(gm_ws, ann_page)
            await gm_ws.send(json.dumps({"map.ping": {"board": "triptycho", "x": dark[0], "y": dark[1]}}))
            await _silent(ann_page, is_ping)
            await gm_ws.send(json.dumps({"map.ping": {"board": "triptycho", "x": seen[0], "y": seen[1]}}))
            ping = json.loads((await _until(ann_page, is_ping))[-1])["map.ping"]
            assert ping == {"board": "triptycho", "x": seen[0], "y": seen[1], "by": "GM"}
            await ann_page.send(json.dumps({"map.ping": {"board": "triptycho", "x": seen[0], "y": seen[1]}}))
            ping = json.loads((await _until(gm_ws, is_ping))[-1])["map.ping"]
            assert ping["by"] == "Ann" and ping["board"] == "triptycho"
            assert _seq(table) == start

    run(scenario)
