"""A lean HTTP/1.1 client for the benchmark's commands: each request goes out in one write, as a browser
sends a small POST, and the reply is read straight off the stream.

httpx writes a request's head and its body apart (the server then waits for the second segment) and
spends a few hundred microseconds of Python on each request and reply, in the same loop that reads the
benchmark's sockets. A first viewer's latency is a couple of milliseconds, so that cost was most of
what was measured, for our server and the bare one alike. Both servers meet this client.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import urlsplit


class HttpError(Exception):
    pass


class RawHttp:
    """Keep-alive connections to one server, a request at a time each; a new one opens when all are busy
    (the benchmark never waits for a reply before the next command)."""

    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self.open: list[asyncio.StreamWriter] = []

    async def __aenter__(self) -> RawHttp:
        return self

    async def __aexit__(self, *exc: object) -> None:
        for writer in self.open:
            writer.close()
        self.open.clear()
        self.idle.clear()

    async def post_json(self, path: str, payload: Any, headers: dict[str, str] | None = None) -> Any:
        body = json.dumps(payload, separators=(",", ":")).encode()
        head = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        request = (
            f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n{head}"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode() + body
        if self.idle:
            reader, writer = self.idle.pop()
        else:
            reader, writer = await asyncio.open_connection(self.host, self.port)
            self.open.append(writer)
        writer.write(request)
        status, reply = await self._reply(reader)
        self.idle.append((reader, writer))
        if status >= 400:
            raise HttpError(f"{status} on {path}: {reply[:200]!r}")
        return json.loads(reply)

    @staticmethod
    async def _reply(reader: asyncio.StreamReader) -> tuple[int, bytes]:
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.lower() == "content-length":
                length = int(value)
            elif name.lower() == "transfer-encoding" and "chunked" in value.lower():
                raise HttpError("a chunked reply: the commands' replies carry their length")
        return status, await reader.readexactly(length)
