"""The app's gate: one ASGI middleware for what every request passes before the app answers it.

It wakes the loop watch, refuses a cross-site browser write, a path with control characters and a body
over its limit (declared or streamed), adds the safe headers to every reply and a cache policy to static
files, and answers a bug with a 500 and a sentence. These were five middleware layers, each a coroutine
and a wrapped `send` every request paid for: 120 µs of the 200 a command spent on its way to the app, on
an idle server (docs/performance.md, tenth session). The rules themselves live where they did
(`guards.py`, `limits.py`, `errors.py`); only their wiring is here.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.realtime.loop_watch import LoopWatch
from app.web.errors import SERVER_ERROR, respond
from app.web.guards import HEADERS, bad_path, cross_site
from app.web.limits import BodyTooLarge, static_policy, too_large, upload_path

logger = logging.getLogger("fray.web")


class Gate:
    def __init__(
        self, app: ASGIApp, watch: LoopWatch, public_url: str | None, max_bytes: int, upload_bytes: int
    ) -> None:
        self.app = app
        self.watch = watch
        self.public_url = public_url
        self.max_bytes = max_bytes
        self.upload_bytes = upload_bytes

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        self.watch.wake()  # a socket's messages wake it where they are read (app/web/live.py)
        if scope["type"] != "http":
            # The app's own coroutine, not one of ours awaiting it: an open socket keeps no frame of the
            # gate alive (2.6 KB a socket, measured).
            return self.app(scope, receive, send)
        return self._http(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        upload = upload_path(scope["path"])
        limit = self.upload_bytes if upload else self.max_bytes
        refusal = self._refusal(scope, limit, upload)
        if refusal is not None:
            await _refuse(send, *refusal)
            return
        cache = static_policy(scope)
        received = 0
        started = refused = False

        async def gated_receive() -> Message:
            nonlocal received, refused
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    # Refused here, while the route still reads: the framework takes any error raised
                    # while reading a body for an unreadable one (a 422), and its reply is not sent.
                    if not started and not refused:
                        refused = True
                        await _refuse(send, 413, too_large(limit, upload))
                    raise BodyTooLarge
            return message

        async def gated_send(message: Message) -> None:
            nonlocal started
            if refused:
                return
            if message["type"] == "http.response.start":
                started = True
                headers = [*message.get("headers", ()), *HEADERS]
                if cache is not None and message["status"] == 200:
                    headers.append((b"cache-control", cache))
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, gated_receive, gated_send)
        except BodyTooLarge:
            pass  # refused already, or the route had begun its reply before it read the whole body
        except Exception:
            if started:
                raise  # a reply under way cannot be taken back: the server drops the connection
            # A bug answers 500 with a sentence and the connection lives on. Starlette's own outermost
            # handler would send the 500 and raise the error again, and the server would then drop it.
            request = Request(scope)
            logger.exception("unexpected error on %s %s", request.method, request.url.path)
            await respond(request, 500, SERVER_ERROR)(scope, receive, gated_send)

    def _refusal(self, scope: Scope, limit: int, upload: bool) -> tuple[int, str] | None:
        """What is refused before the app reads anything: a path naming nothing, a write from another site,
        a declared body over its limit (in that order of precedence)."""
        if bad_path(scope):
            return 422, "That address holds a control character, so it names nothing here."
        refusal = cross_site(scope, self.public_url)
        if refusal is not None:
            return 403, refusal
        for name, value in scope["headers"]:
            if name == b"content-length":
                if not value.isdigit() or int(value) > limit:
                    return 413, too_large(limit, upload)
                break
        return None


async def _refuse(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": [*headers, *HEADERS]})
    await send({"type": "http.response.body", "body": body})
