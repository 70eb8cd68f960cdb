"""The fault-injecting proxy does what the bad-network tests rely on."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.netfault import NetFault, ThreadedNetFault


async def _echo_server(seen: list[bytes]) -> tuple[asyncio.Server, int]:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(4096):
            seen.append(data)
            writer.write(data)
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


async def _with_proxy(body, **options) -> list[bytes]:
    seen: list[bytes] = []
    server, port = await _echo_server(seen)
    proxy = NetFault(("127.0.0.1", port), **options)
    await proxy.start()
    try:
        await body(proxy)
    finally:
        await proxy.close()
        server.close()
    return seen


async def _connect(proxy: NetFault) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", proxy.port)


def test_latency_each_way_delays_a_round_trip_and_keeps_order():
    async def body(proxy):
        reader, writer = await _connect(proxy)
        started = time.monotonic()
        for part in (b"one ", b"two ", b"three"):
            writer.write(part)
            await writer.drain()
        got = b""
        while len(got) < 13:
            got += await asyncio.wait_for(reader.read(100), 2)
        assert got == b"one two three"
        assert 0.18 <= time.monotonic() - started < 0.6  # 2 x (100 ± 10) ms
        writer.close()

    asyncio.run(_with_proxy(body, latency=0.1, jitter=0.01))


def test_bandwidth_is_limited():
    async def body(proxy):
        reader, writer = await _connect(proxy)
        started = time.monotonic()
        writer.write(b"x" * 20_000)
        await asyncio.wait_for(reader.readexactly(20_000), 5)
        assert time.monotonic() - started >= 0.35  # 20 KB at 50 KB/s, and again on the way back
        writer.close()

    asyncio.run(_with_proxy(body, rate=50_000))


def test_a_cut_resets_connections_and_refuses_new_ones_until_restored():
    async def body(proxy):
        reader, writer = await _connect(proxy)
        writer.write(b"hi")
        assert await asyncio.wait_for(reader.read(2), 2) == b"hi"
        proxy.cut()
        assert await asyncio.wait_for(reader.read(10), 1) == b""  # closed at once
        reader2, writer2 = await _connect(proxy)
        writer2.write(b"anyone?")
        with pytest.raises((ConnectionError, asyncio.IncompleteReadError)):
            await asyncio.wait_for(reader2.readexactly(7), 1)
        proxy.restore()
        reader3, writer3 = await _connect(proxy)
        writer3.write(b"back")
        assert await asyncio.wait_for(reader3.readexactly(4), 1) == b"back"
        writer3.close()

    asyncio.run(_with_proxy(body))


def test_a_stall_holds_bytes_without_closing_and_delivers_them_after():
    async def body(proxy):
        reader, writer = await _connect(proxy)
        proxy.stall()
        writer.write(b"held")
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(reader.read(4), 0.5)
        assert not reader.at_eof()
        proxy.restore()
        assert await asyncio.wait_for(reader.readexactly(4), 1) == b"held"
        writer.close()

    seen = asyncio.run(_with_proxy(body))
    assert seen == [b"held"]  # the server saw it once, after the stall


def test_an_eaten_reply_reaches_the_server_and_never_the_client():
    async def body(proxy):
        reader, writer = await _connect(proxy)
        proxy.eat_reply(b"POST /commands")
        writer.write(b"POST /commands")
        assert await asyncio.wait_for(reader.read(100), 1) == b""  # reset, no reply
        reader2, writer2 = await _connect(proxy)  # only that one reply is eaten
        writer2.write(b"POST /commands")
        assert await asyncio.wait_for(reader2.readexactly(14), 1) == b"POST /commands"
        writer2.close()

    seen = asyncio.run(_with_proxy(body))
    assert seen == [b"POST /commands", b"POST /commands"]


def test_the_threaded_proxy_is_driven_from_synchronous_code():
    async def serve(seen):
        return await _echo_server(seen)

    loop = asyncio.new_event_loop()
    import threading

    threading.Thread(target=loop.run_forever, daemon=True).start()
    seen: list[bytes] = []
    server, port = asyncio.run_coroutine_threadsafe(serve(seen), loop).result()
    import socket

    with ThreadedNetFault(("127.0.0.1", port)) as proxy:
        with socket.create_connection(("127.0.0.1", proxy.port), timeout=2) as s:
            s.sendall(b"ping")
            assert s.recv(4) == b"ping"
        proxy.stall()
        proxy.restore()
        assert proxy.accepted == 1
    loop.call_soon_threadsafe(server.close)
    loop.call_soon_threadsafe(loop.stop)
