"""The yardstick: a bare Starlette WebSocket broadcast server, no rules, no database, no rendering."""

from __future__ import annotations

import asyncio
from collections import defaultdict

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

rooms: dict[str, set[WebSocket]] = defaultdict(set)
seqs: dict[str, int] = defaultdict(int)


async def socket(ws: WebSocket) -> None:
    room = ws.path_params["room"]
    await ws.accept()
    rooms[room].add(ws)
    try:
        while True:
            await ws.receive_text()
    except WebSocketDisconnect:
        rooms[room].discard(ws)


async def send(request: Request) -> JSONResponse:
    room = request.path_params["room"]
    body = await request.json()
    seqs[room] += 1
    seq = seqs[room]
    # A real fragment Fray pushed in the same run (its seq markers taken out), so that both servers
    # compress the same kind of text; repeated or cut to the size Fray's messages had on average.
    sample = body.get("sample") or "x"
    size = int(body["size"])
    body_text = (sample * (size // len(sample) + 1))[: max(0, size - 40)]
    message = f'<div id="live-seq" data-seq="{seq}"></div>' + body_text
    await asyncio.gather(*(ws.send_text(message) for ws in list(rooms[room])), return_exceptions=True)
    return JSONResponse({"seq": seq})


async def health(request: Request) -> JSONResponse:
    return JSONResponse({"status": "ok"})


app = Starlette(
    routes=[
        WebSocketRoute("/ws/{room}", socket),
        Route("/send/{room}", send, methods=["POST"]),
        Route("/healthz", health),
    ]
)
