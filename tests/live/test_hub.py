"""The hub's per-socket queue: a phone that stops reading is dropped, never holds up the room."""

from __future__ import annotations

import asyncio

from app.realtime.conn import QUEUE_LIMIT, Close, Conn


class StuckSocket:
    """A socket whose peer stopped reading: every send waits forever."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed_with: tuple[int, str] | None = None
        self.gate = asyncio.Event()

    async def send_text(self, text: str) -> None:
        self.sent.append(text)
        await self.gate.wait()

    async def close(self, code: int, reason: str) -> None:
        self.closed_with = (code, reason)


def test_a_slow_socket_is_closed_with_1013_and_its_backlog_dropped():
    async def scenario():
        ws = StuckSocket()
        conn = Conn(ws, "seat", "player", "player", "json")  # type: ignore[arg-type]
        conn.sender = asyncio.create_task(conn.send_loop())
        conn.push("message 0")
        await asyncio.sleep(0)  # the sender takes it and gets stuck sending
        for i in range(1, QUEUE_LIMIT + 5):
            conn.push(f"message {i}")
        assert conn.closed
        assert conn.queue.qsize() == 1 and isinstance(conn.queue._queue[0], Close)  # the backlog is gone
        ws.gate.set()  # the stuck send returns; the close goes out next
        await asyncio.wait_for(conn.sender, 2)
        assert ws.closed_with == (1013, "Too far behind: reconnecting.")
        conn.push("after close")
        assert ws.sent == ["message 0"]

    asyncio.run(scenario())


def test_on_fray_serve_a_stuck_socket_gets_its_1013_at_once_not_behind_the_stuck_send():
    """With fray serve's protocol, the close frame goes into the socket's buffer now: a peer that reads
    late still finds 1013 first, and one that never reads is cut after a grace (app/web/ws_protocol.py)."""

    async def scenario():
        ws = StuckSocket()
        closed_now: list[tuple[int, str]] = []
        ws.scope = {"extensions": {"fray.close_now": lambda code, reason: closed_now.append((code, reason))}}
        conn = Conn(ws, "seat", "player", "player", "json")  # type: ignore[arg-type]
        conn.sender = asyncio.create_task(conn.send_loop())
        conn.push("message 0")
        await asyncio.sleep(0)  # the sender takes it and gets stuck sending: the gate never opens
        for i in range(1, QUEUE_LIMIT + 5):
            conn.push(f"message {i}")
        await asyncio.sleep(0)
        assert closed_now == [(1013, "Too far behind: reconnecting.")]
        assert conn.closed and conn.sender.cancelled() and conn.queue.empty()

    asyncio.run(scenario())


def test_a_push_to_an_idle_socket_is_written_at_once_and_one_behind_a_queued_message_waits_its_turn():
    async def scenario():
        ws = StuckSocket()
        written: list[str] = []
        ws.scope = {"extensions": {"fray.send_now": lambda text: written.append(text) or True}}
        conn = Conn(ws, "seat", "player", "player", "json")  # type: ignore[arg-type]
        conn.push("first")  # nothing waiting and nothing in flight: straight into the socket's buffer
        assert written == ["first"] and conn.queue.empty()
        conn.sender = asyncio.create_task(conn.send_loop())
        conn.sending = True  # a message the sender task took is still on its way
        conn.push("second")
        conn.push("third")
        assert written == ["first"] and conn.queue.qsize() == 2  # behind it, in order
        conn.sending = False
        await asyncio.sleep(0)  # the sender takes "second" (and is stuck sending it)
        conn.push("fourth")  # "third" is still queued: this one waits too
        assert written == ["first"] and ws.sent == ["second"] and conn.queue.qsize() == 2
        conn.sender.cancel()

    asyncio.run(scenario())
