"""A fault-injecting TCP proxy, for phones on a bad mobile network (tests and `bench/`).

Each direction gets a delay (latency ± jitter, order kept) and a shared byte rate. Faults, switched while
it runs: `cut()` resets every connection and refuses new ones at once; `stall()` stops bytes flowing
without closing anything (new connections are accepted and hang), and `restore()` delivers what was
held, as TCP's retransmissions would; `eat_reply(marker)` lets the next request containing `marker`
reach the server, then throws its reply away and resets the connection (the server acted, the phone
never heard).

`NetFault` is asyncio; `ThreadedNetFault` runs one on a loop in its own thread for synchronous tests.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")
CHUNK = 4096


@dataclass(eq=False)
class _Conn:
    client: asyncio.StreamWriter
    server: asyncio.StreamWriter
    eat: bool = False  # the reply to the request now in flight is thrown away

    def abort(self) -> None:
        for writer in (self.client, self.server):
            writer.transport.abort()


@dataclass
class NetFault:
    upstream: tuple[str, int]
    latency: float = 0.0  # seconds, each way
    jitter: float = 0.0  # ± seconds around latency
    rate: float | None = None  # bytes per second, each way, shared by the connections
    seed: int = 0
    port: int = 0
    mode: str = "ok"  # "ok" | "cut" | "stall"
    accepted: int = 0  # connections the proxy took, for tests that count reconnects
    eaten: int = 0  # replies thrown away
    _conns: set[_Conn] = field(default_factory=set)
    _flowing: asyncio.Event = field(default_factory=asyncio.Event)
    _free_at: dict[str, float] = field(default_factory=dict)
    _eat: list[bytes] = field(default_factory=list)
    _server: asyncio.Server | None = None
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._random = random.Random(self.seed)
        self._flowing.set()

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for conn in list(self._conns):
            conn.abort()
        self._flowing.set()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def cut(self) -> None:
        self.mode = "cut"
        for conn in list(self._conns):
            conn.abort()
        self._conns.clear()

    def stall(self) -> None:
        self.mode = "stall"
        self._flowing.clear()

    def restore(self) -> None:
        self.mode = "ok"
        self._flowing.set()

    def eat_reply(self, marker: bytes) -> None:
        self._eat.append(marker)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        if self.mode == "cut":
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            writer.transport.abort()
            return
        conn = _Conn(writer, up_writer)
        self._conns.add(conn)
        try:
            await asyncio.gather(
                self._pipe(reader, up_writer, conn, "up"), self._pipe(up_reader, writer, conn, "down")
            )
        except (OSError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass  # cut, reset, or the proxy closing: the connection simply ends
        finally:
            self._conns.discard(conn)
            conn.abort()

    def _delay(self) -> float:
        return max(0.0, self.latency + self._random.uniform(-self.jitter, self.jitter))

    async def _pipe(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, conn: _Conn, way: str
    ) -> None:
        loop = asyncio.get_running_loop()
        held: asyncio.Queue[tuple[float, bytes] | None] = asyncio.Queue()

        async def read() -> None:
            last = 0.0
            while data := await reader.read(CHUNK):
                if way == "up" and self._eat and any(m in data for m in self._eat):
                    self._eat.remove(next(m for m in self._eat if m in data))
                    conn.eat = True
                last = max(last, loop.time() + self._delay())  # a delay never reorders bytes
                held.put_nowait((last, data))
            held.put_nowait(None)

        async def write() -> None:
            while (item := await held.get()) is not None:
                due, data = item
                await asyncio.sleep(max(0.0, due - loop.time()))
                await self._flowing.wait()
                if way == "down" and conn.eat:  # the server answered: nobody will hear it
                    self.eaten += 1
                    conn.abort()
                    return
                await self._throttle(way, len(data))
                await self._flowing.wait()  # a stall that began while this waited for its turn
                writer.write(data)
                await writer.drain()
            if writer.can_write_eof():
                writer.write_eof()

        await asyncio.gather(read(), write())

    async def _throttle(self, way: str, size: int) -> None:
        if not self.rate:
            return
        now = asyncio.get_running_loop().time()
        start = max(now, self._free_at.get(way, 0.0))
        self._free_at[way] = start + size / self.rate
        await asyncio.sleep(self._free_at[way] - now)


class ThreadedNetFault:
    """A NetFault on its own event loop in a daemon thread: for Playwright's synchronous tests."""

    def __init__(self, upstream: tuple[str, int], **options: Any):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.proxy: NetFault = self._call(lambda: NetFault(upstream, **options))
        self.port = self._run(self.proxy.start())
        self.url = f"http://127.0.0.1:{self.port}"

    def _call(self, fn: Callable[[], T]) -> T:
        done: Future[T] = Future()

        def run() -> None:
            try:
                done.set_result(fn())
            except BaseException as error:  # pragma: no cover - handed to the caller
                done.set_exception(error)

        self.loop.call_soon_threadsafe(run)
        return done.result(timeout=10)

    def _run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=10)

    def cut(self) -> None:
        self._call(self.proxy.cut)

    def stall(self) -> None:
        self._call(self.proxy.stall)

    def restore(self) -> None:
        self._call(self.proxy.restore)

    def eat_reply(self, marker: bytes) -> None:
        self._call(lambda: self.proxy.eat_reply(marker))

    @property
    def accepted(self) -> int:
        return self._call(lambda: self.proxy.accepted)

    @property
    def eaten(self) -> int:
        return self._call(lambda: self.proxy.eaten)

    def close(self) -> None:
        self._run(self.proxy.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)

    def __enter__(self) -> ThreadedNetFault:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
