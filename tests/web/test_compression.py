"""app/web/compression.py: the same gzip bytes as Starlette's middleware, from a window sized to the body."""

from __future__ import annotations

import asyncio
import gzip
import random
import zlib
from typing import Any

import pytest
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import Response, StreamingResponse
from starlette.types import ASGIApp, Message

from app.web import compression
from app.web.compression import GZip, window_bits


def text(size: int, seed: int) -> bytes:
    """JSON-like text that compresses as a reply does: repeats near and far."""
    rng = random.Random(seed)
    words = [f'"{rng.choice(["name", "pool", "odds", "label"])}":{rng.randint(0, 999)}' for _ in range(60)]
    out = b""
    while len(out) < size:
        out += ",".join(rng.choice(words) for _ in range(8)).encode() + b"\n"
    return out[:size]


def app_sending(body: bytes, stream: bool = False) -> ASGIApp:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        if stream:

            async def chunks() -> Any:
                for i in range(0, len(body), 1000):
                    yield body[i : i + 1000]

            response: Response = StreamingResponse(chunks(), media_type="application/json")
        else:
            response = Response(body, media_type="application/json")
        await response(scope, receive, send)

    return app


def call(app: ASGIApp, encoding: str = "gzip, deflate") -> tuple[dict[str, str], bytes]:
    return asyncio.run(_call(app, encoding))


async def _call(app: ASGIApp, encoding: str) -> tuple[dict[str, str], bytes]:
    sent: list[Message] = []

    requested = False

    async def receive() -> Message:
        nonlocal requested
        if requested:  # a streaming response listens for a disconnect until it is done
            await asyncio.Event().wait()
        requested = True
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "GET",
        "path": "/",
        "headers": [(b"accept-encoding", encoding.encode())],
        "query_string": b"",
    }
    await app(scope, receive, send)
    headers = {k.decode(): v.decode() for k, v in sent[0]["headers"]}
    return headers, b"".join(m.get("body", b"") for m in sent[1:])


@pytest.mark.parametrize("size", [0, 499, 500, 501, 1000, 3839, 3840, 4600, 8000, 16000, 40000, 200_000])
@pytest.mark.parametrize("stream", [False, True])
def test_the_bytes_sent_are_starlettes_own(size: int, stream: bool) -> None:
    body = text(size, seed=size)
    ours = call(GZip(app_sending(body, stream), minimum_size=500))
    theirs = call(GZipMiddleware(app_sending(body, stream), minimum_size=500))
    assert ours == theirs
    if size >= 500:
        assert ours[0]["content-encoding"] == "gzip"
        assert gzip.decompress(ours[1]) == body


def test_no_gzip_asked_none_given() -> None:
    body = text(4000, seed=1)
    assert call(GZip(app_sending(body)), encoding="br") == (
        call(GZipMiddleware(app_sending(body)), encoding="br")
    )


def test_a_whole_body_gets_a_window_its_size_and_a_stream_the_largest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    windows: list[int] = []
    make = zlib.compressobj

    def recording(level: int, method: int, wbits: int) -> Any:
        windows.append(wbits - 16)
        return make(level, method, wbits)

    monkeypatch.setattr(compression.zlib, "compressobj", recording)
    call(GZip(app_sending(text(4600, seed=2)), minimum_size=500))
    call(GZip(app_sending(text(600, seed=3)), minimum_size=500))
    call(GZip(app_sending(text(4600, seed=4), stream=True), minimum_size=500))
    assert windows == [13, 10, zlib.MAX_WBITS]  # a stream: Starlette's own compressor


def test_window_bits() -> None:
    assert window_bits(0) == 9
    assert window_bits(250) == 9
    assert window_bits(8192 - 262) == 13
    assert window_bits(8192 - 261) == 14
    assert window_bits(10**6) == 15
