"""The JSON command route's quick way in: `POST /api/campaigns/{id}/commands` answered without the
framework's routing, dependency solving and body validation.

Every tap of every phone is a command, and the framework's way to the route cost a GM's command more
than running it: about 1.3 ms of the 4 ms from the request reaching the app to the first phone holding the
change (bench/fanout.py's first viewer, docs/performance.md). Here it is a path split and `json.loads`.

It takes only what it can answer exactly as the route in app/web/api/campaigns.py would: a body read
whole, sent as `application/json`, that is a JSON object. Anything else (another content type, a body that
is not JSON or not an object, a client gone mid-body) goes on to that route with the body it sent, so each
of those refusals is the route's own sentence. What the command itself refuses (the seat, the rate, the
rules) is answered by the app's own exception handlers, as it is on the route. The route stays what the
OpenAPI describes; both run `campaigns.command_reply`.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.api.campaigns import command_reply
from app.web.deps import get_fray, required_seat


def campaign_of(path: str) -> str | None:
    """The campaign id of `/api/campaigns/{id}/commands`, or None for any other path."""
    parts = path.split("/")
    if len(parts) != 5 or parts[:3] != ["", "api", "campaigns"] or parts[4] != "commands" or not parts[3]:
        return None
    return parts[3]


def _json_body(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name == b"content-type":  # the first one, as the route reads it
            kind: bytes = value.split(b";", 1)[0].strip().lower()
            return kind == b"application/json"
    return False


class QuickCommands:
    """ASGI middleware, innermost of the app's own: inside the body limit, the browser guard and gzip."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        campaign_id = campaign_of(scope["path"]) if scope["type"] == "http" else None
        if campaign_id is None or scope["method"] != "POST" or not _json_body(scope):
            await self.app(scope, receive, send)
            return
        read: list[Message] = []
        payload = await _object_sent(receive, read)

        async def replay() -> Message:
            return read.pop(0) if read else await receive()

        if payload is None:
            await self.app(scope, replay, send)
            return
        request = Request(scope, replay)
        try:
            response = await command_reply(
                get_fray(request), await required_seat(request, campaign_id), payload
            )
        except Exception as error:
            handler = _handler(scope, error)
            if handler is None:
                raise  # a bug: the server's own 500 (app/web/errors.py), as on the route
            response = await handler(request, error)
        await response(scope, replay, send)


async def _object_sent(receive: Receive, read: list[Message]) -> dict[str, Any] | None:
    """The body as a JSON object, or None when it is not one (or did not arrive whole). Every message
    received is kept in `read`, for the route to read again."""
    chunks = []
    while True:
        message = await receive()
        read.append(message)
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    try:
        payload = json.loads(b"".join(chunks))
    except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested thousands deep
        return None
    if not isinstance(payload, dict):
        return None
    read.clear()  # taken here: the route will not read it again
    return payload


def _handler(scope: Scope, error: Exception) -> Any:
    """The app's handler for this error, found as the framework finds it (the most specific class first);
    None for an error only the catch-all would answer (a bug)."""
    handlers = scope["app"].exception_handlers
    for kind in type(error).__mro__:
        if kind is Exception:
            return None
        if kind in handlers:
            return handlers[kind]
    return None
