"""ASGI middleware: refuse oversized bodies before reading them; let browsers cache static files."""

from __future__ import annotations

import contextlib
import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyTooLarge(Exception):
    pass


def _upload_path(path: str) -> bool:
    """Files: image uploads (`/api/campaigns/{id}/assets`, `/pictures`), Universal VTT maps
    (`/api/campaigns/{id}/scenes/uvtt`) and campaign imports."""
    parts = path.strip("/").split("/")
    if path in ("/import", "/api/campaigns/import"):
        return True
    if len(parts) < 4 or parts[0] != "api" or parts[1] != "campaigns":
        return False
    return parts[3:] in (["assets"], ["pictures"], ["scenes", "uvtt"])


class BodyLimit:
    """413 with a sentence for any request body over its limit, declared or streamed.

    Image uploads get a limit of their own (`upload_bytes`); every other body stays small.
    """

    def __init__(self, app: ASGIApp, max_bytes: int, upload_bytes: int | None = None):
        self.app = app
        self.max_bytes = max_bytes
        self.upload_bytes = upload_bytes or max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        upload = _upload_path(scope["path"])
        limit = self.upload_bytes if upload else self.max_bytes
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await self._refuse(send, limit, upload)
            return
        received = 0
        started = refused = False

        async def limited_receive() -> Message:
            nonlocal received, refused
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    # Refused here, while the route still reads: the framework takes any error raised
                    # while reading a body for an unreadable one (a 422), and its reply is not sent.
                    if not started and not refused:
                        refused = True
                        await self._refuse(send, limit, upload)
                    raise BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if refused:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        # Refused already, or the route had begun its reply before it read the whole body.
        with contextlib.suppress(BodyTooLarge):
            await self.app(scope, limited_receive, tracking_send)

    async def _refuse(self, send: Send, limit: int, upload: bool) -> None:
        detail = (
            f"That file is too large: at most {limit / 1024 / 1024:g} MB."
            if upload
            else f"That request is too large: at most {limit // 1024} KB."
        )
        body = json.dumps({"detail": detail}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


class StaticCache:
    """Versioned static URLs (?v=hash) are immutable; everything under /static/ else revalidates."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/static/"):
            await self.app(scope, receive, send)
            return
        versioned = b"v=" in scope.get("query_string", b"")
        policy = b"public, max-age=31536000, immutable" if versioned else b"no-cache"

        async def with_cache(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 200:
                message["headers"] = [*message.get("headers", []), (b"cache-control", policy)]
            await send(message)

        await self.app(scope, receive, with_cache)
