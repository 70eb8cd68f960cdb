"""Map pings cross processes through Redis: a ping sent to one `fray serve` reaches sockets on the other."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import httpx

from tests.helpers import Table
from tests.mapping import scene_with_image
from tests.scale.test_processes import connect, run, seq_now


async def _ping_on(ws, timeout: float = 10.0) -> dict:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        assert left > 0, "the ping never arrived"
        message = await asyncio.wait_for(ws.recv(), left)
        if '"map.ping"' in message:
            return json.loads(message)["map.ping"]


def test_a_ping_on_one_process_reaches_the_room_on_the_other(shared_apps):
    a, b = shared_apps
    with httpx.Client(base_url=a.url, timeout=10) as on_a, httpx.Client(base_url=b.url, timeout=10) as on_b:
        table = Table.create(on_a)
        ann, ben = table.join("Ann"), table.join("Ben")
        scene, _ = scene_with_image(table)
        start = seq_now(table)
        replace(table, http=on_b).view(ann)  # process B knows the campaign too

        async def scenario():
            async with (
                connect(a, table, ann, format="json", after=start) as ann_on_a,
                connect(b, table, table.gm, format="json", after=start) as gm_on_b,
                connect(b, table, ben, after=start) as ben_page_on_b,
            ):
                for ws in (ann_on_a, gm_on_b, ben_page_on_b):  # a socket answers a ping once in its room
                    await ws.send("ping")
                    while True:
                        message = await asyncio.wait_for(ws.recv(), 15)
                        if '"pong"' in message or 'id="live-seq"' in message:
                            break
                await ann_on_a.send(json.dumps({"map.ping": {"x": 50, "y": 60}}))
                for ws in (gm_on_b, ben_page_on_b):
                    assert await _ping_on(ws) == {"scene": scene, "x": 50.0, "y": 60.0, "by": "Ann"}

        run(scenario)
