"""`fray serve`'s WebSocket layer: compression negotiated with no context kept between messages."""

from __future__ import annotations

import asyncio
import threading
import time

import httpx
import uvicorn
import websockets

from app.cli import WS_PROTOCOL
from app.main import create_app
from tests.conftest import free_port
from tests.helpers import Table
from tests.live.test_websocket import run


def test_sockets_compress_each_message_alone_and_still_get_the_table(settings):
    port = free_port()
    config = uvicorn.Config(
        create_app(settings), port=port, log_level="warning", ws=WS_PROTOCOL, ws_per_message_deflate=True
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
            table = Table.create(http)
            ann = table.join("Ann")

            async def scenario():
                url = f"ws://127.0.0.1:{port}/ws/campaigns/{table.id}?page=player&after=0"
                async with websockets.connect(url, additional_headers=ann.auth, compression="deflate") as ws:
                    offered = ws.response.headers["Sec-WebSocket-Extensions"]
                    assert "permessage-deflate" in offered
                    assert "server_no_context_takeover" in offered and "client_no_context_takeover" in offered
                    first = await asyncio.wait_for(ws.recv(), 5)
                    assert 'id="live-seq"' in first
                    await asyncio.to_thread(table.ok, table.gm, "generic.pool.create", name="Gold", value=3)
                    pushed = await asyncio.wait_for(ws.recv(), 5)
                    assert "Gold" in pushed

            run(scenario)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
