"""The command routes' quick way in: a command answered without the framework's routing, dependency
solving and body validation.

Every tap of every phone is a command, and the framework's way to its route cost more than running it:
the JSON route's about 1.3 ms of the 4 ms from the request reaching the app to the first phone holding
the change (bench/fanout.py's first viewer), and a page's form about 1.5 ms of 2.2, walking every route
before its own twice (docs/performance.md). Here it is a path split, and the seat found as the routes
find it (`deps.command_seat`).

It takes only what it can answer exactly as the routes would, and both routes then run the same function:
- `POST /api/campaigns/{id}/commands` (`campaigns.command_reply`): a body read whole, sent as
  `application/json`, that is a JSON object. Anything else (another content type, a body that is not JSON
  or not an object, a client gone mid-body) goes on to the route with the body it sent, so each of those
  refusals is the route's own sentence, and the route stays what the OpenAPI describes.
- `POST /c/{id}/commands` (`pages.form_command`): a form sent as a browser or HTMX sends one
  (`application/x-www-form-urlencoded`); a multipart form goes on to the route.

What a command itself refuses (the seat, the rate, the rules) is answered by the app's own exception
handlers, as on the routes. It sits outside the app's gzip (a layer a command paid 35 µs to pass) and
compresses its own replies as that layer does.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.services.auth import SeatAuth
from app.web.api.campaigns import command_reply
from app.web.deps import command_seat, get_fray
from app.web.pages import form_command

# Level 5, not Starlette's 9: on a GM's reply listing 300 walls (33 KB of JSON), 9 took 1.8 ms to save
# 3 % of the bytes that 5 makes in 0.5 ms; every command and page pays it.
GZIP_LEVEL = 5
GZIP_MINIMUM = 500  # bytes: a smaller reply is sent as it is

JSON = b"application/json"
FORM = b"application/x-www-form-urlencoded"


def campaign_of(path: str) -> tuple[str, str] | None:
    """("api" or "page", the campaign id) for `/api/campaigns/{id}/commands` and `/c/{id}/commands`."""
    parts = path.split("/")
    if parts[-1] != "commands" or parts[0] != "":
        return None
    if len(parts) == 5 and parts[1:3] == ["api", "campaigns"] and parts[3]:
        return "api", parts[3]
    if len(parts) == 4 and parts[1] == "c" and parts[2]:
        return "page", parts[2]
    return None


def _content_type(scope: Scope) -> bytes:
    for name, value in scope["headers"]:
        if name == b"content-type":  # the first one, as the routes read it
            kind: bytes = value.split(b";", 1)[0].strip().lower()
            return kind
    return b""


class QuickCommands:
    """ASGI middleware, inside the gate (the body limit, the browser guard) and outside the app's gzip."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = campaign_of(scope["path"]) if scope["type"] == "http" and scope["method"] == "POST" else None
        kind = _content_type(scope) if found is not None else b""
        if found is not None and found[0] == "page" and kind == FORM:
            campaign_id = found[1]
            await _answer(
                scope,
                receive,
                send,
                campaign_id,
                lambda r, seat: form_command(r, campaign_id, seat, get_fray(r)),
            )
            return
        if found is None or found[0] != "api" or kind != JSON:
            await self.app(scope, receive, send)
            return
        read: list[Message] = []
        payload = await _object_sent(receive, read)

        async def replay() -> Message:
            return read.pop(0) if read else await receive()

        if payload is None:
            await self.app(scope, replay, send)
            return
        await _answer(
            scope, replay, send, found[1], lambda r, seat: command_reply(get_fray(r), seat, payload)
        )


Answer = Callable[[Request, SeatAuth], Awaitable[Response]]


async def _answer(scope: Scope, receive: Receive, send: Send, campaign_id: str, answer: Answer) -> None:
    """The seat found as the routes find it, the command answered, an error as the app's handlers do."""
    request = Request(scope, receive)
    try:
        response = await answer(request, await command_seat(request, campaign_id))
    except Exception as error:
        handler = _handler(scope, error)
        if handler is None:
            raise  # a bug: the server's own 500 (app/web/errors.py), as on the routes
        response = await handler(request, error)
    await _gzipped(scope, response)(scope, receive, send)


def _gzipped(scope: Scope, response: Response) -> Response:
    """The reply as the app's gzip layer (Starlette's GZipMiddleware) sends it: a body of `GZIP_MINIMUM`
    bytes or more varies by Accept-Encoding and is compressed for a client that accepts gzip."""
    if len(response.body) < GZIP_MINIMUM or "content-encoding" in response.headers:
        return response
    response.headers.add_vary_header("Accept-Encoding")
    accepted = next((value for name, value in scope["headers"] if name == b"accept-encoding"), b"")
    if b"gzip" in accepted:
        response.body = gzip.compress(response.body, GZIP_LEVEL, mtime=0)
        response.headers["content-encoding"] = "gzip"
        response.headers["content-length"] = str(len(response.body))
    return response


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
