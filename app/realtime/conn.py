"""One live socket of a room: whose seat, which page, what it has been sent, and its own send queue.

A push writes to a socket at once when nothing waits before it (`fray serve`'s protocol, ws_protocol.py);
otherwise the message queues, and a socket too far behind is closed (it reconnects and catches up).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from starlette.websockets import WebSocket

from app.rules.campaign.state import CampaignState
from app.rules.system import Viewer

QUEUE_LIMIT = 64  # messages a socket may have waiting before we drop it (it reconnects and catches up)


@dataclass
class Close:
    code: int
    reason: str


class Conn:
    """One socket: whose seat, which page, what it has been sent, and its own send queue."""

    def __init__(
        self, ws: WebSocket, seat_id: str, role: str, page: str, fmt: str, preview: str | None = None
    ):
        self.ws = ws
        self.seat_id = seat_id
        self.role = role
        self.page = page
        self.fmt = fmt
        self.preview = preview
        self.seq = 0
        self.synced_key: tuple | None = None  # the view whose last render this socket shows
        self.queue: asyncio.Queue[str | Close] = asyncio.Queue(maxsize=QUEUE_LIMIT)
        self.closed = False
        self.sender: asyncio.Task | None = None
        self.sending = False  # the sender task has a message in flight
        # `fray serve`'s protocol can write a message at once when nothing is queued (app/web/ws_protocol.py)
        self.send_now = getattr(ws, "scope", {}).get("extensions", {}).get("fray.send_now")
        self._seen: tuple[object, Viewer, tuple] | None = None  # (the characters, its viewer, its key)

    def viewer(self, state: CampaignState) -> Viewer:
        if self.page == "table":
            return state.table_viewer(self.seat_id, self.role)
        if self.preview:
            return state.viewer_for(self.preview, "player")
        return state.viewer_for(self.seat_id, self.role)

    def key(self, state: CampaignState) -> tuple:
        return (self.page, self.fmt, self.viewer(state).key)

    def seen(self, state: CampaignState) -> tuple[Viewer, tuple]:
        """`viewer` and `key` together, kept while the state's characters are the same tuple (a viewer
        is made of them and of this socket's seat, role and page alone): a push asks every socket."""
        seen = self._seen
        if seen is None or seen[0] is not state.participants:
            viewer = self.viewer(state)
            seen = self._seen = (state.participants, viewer, (self.page, self.fmt, viewer.key))
        return seen[1], seen[2]

    def push(self, message: str) -> None:
        if self.closed:
            return
        if self.send_now is not None and not self.sending and self.queue.empty() and self.send_now(message):
            return  # written now, in order: nothing was waiting before it
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.close(1013, "Too far behind: reconnecting.", stuck=True)

    def close(self, code: int, reason: str, stuck: bool = False) -> None:
        if self.closed:
            return
        self.closed = True
        # What is still queued is stale for a socket we are closing: drop it so the close goes out now.
        while not self.queue.empty():
            self.queue.get_nowait()
        close_now = (
            getattr(self.ws, "scope", {}).get("extensions", {}).get("fray.close_now") if stuck else None
        )
        if close_now is not None:
            # The sender is waiting on a peer that does not read: a queued close would wait behind it.
            if self.sender is not None:
                self.sender.cancel()
            close_now(code, reason)
            return
        self.queue.put_nowait(Close(code, reason))

    async def send_loop(self) -> None:
        try:
            while True:
                message = await self.queue.get()
                self.sending = True
                if isinstance(message, Close):
                    await self.ws.close(code=message.code, reason=message.reason)
                    return
                await self.ws.send_text(message)
                self.sending = False
        except Exception:  # the peer went away; the receive loop ends the connection
            self.closed = True
