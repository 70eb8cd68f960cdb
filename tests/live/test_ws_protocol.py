"""`fray serve`'s WebSocket layer: compression negotiated with no context kept between messages."""

from __future__ import annotations

import asyncio
import threading
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import uvicorn
import websockets
from websockets.frames import Frame, Opcode

from app.cli import WS_PROTOCOL
from app.main import create_app
from app.web.ws_protocol import SharedDeflate
from tests.conftest import free_port
from tests.helpers import Table
from tests.live.test_websocket import run


@contextmanager
def fray_serve(settings) -> Iterator[int]:
    """The app under uvicorn with `fray serve`'s WebSocket protocol, in a thread; yields its port."""
    port = free_port()
    config = uvicorn.Config(
        create_app(settings), port=port, log_level="warning", ws=WS_PROTOCOL, ws_per_message_deflate=True
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_sockets_compress_each_message_alone_and_still_get_the_table(settings):
    with fray_serve(settings) as port, httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
        table = Table.create(http)
        ann = table.join("Ann")

        async def scenario():
            url = f"ws://127.0.0.1:{port}/ws/campaigns/{table.id}?page=player&after=0"
            async with websockets.connect(url, additional_headers=ann.auth, compression="deflate") as ws:
                offered = ws.response.headers["Sec-WebSocket-Extensions"]
                assert "permessage-deflate" in offered
                assert "server_no_context_takeover" in offered and "client_no_context_takeover" in offered
                first = await asyncio.wait_for(ws.recv(), 5)
                assert 'id="live-seq"' in first
                await asyncio.to_thread(table.ok, table.gm, "generic.pool.create", name="Gold", value=3)
                pushed = await asyncio.wait_for(ws.recv(), 5)
                assert "Gold" in pushed

        run(scenario)


def test_a_message_sent_to_many_sockets_is_compressed_once_and_reads_back_whole():
    message = ('<section id="pools" hx-swap-oob="true">Gold 3</section>' * 40).encode()
    first, second = (SharedDeflate(True, True, 12, 12, {"memLevel": 5}) for _ in range(2))
    a = first.encode(Frame(Opcode.TEXT, message))
    b = second.encode(Frame(Opcode.TEXT, bytes(message)))
    assert a is b and a.rsv1 and len(a.data) < len(message) / 4
    assert zlib.decompressobj(wbits=-12).decompress(bytes(a.data) + b"\x00\x00\xff\xff") == message
    # Another message is compressed on its own.
    other = first.encode(Frame(Opcode.TEXT, message[:-1]))
    assert other is not a


def test_with_context_takeover_nothing_is_shared():
    message = b"the same message " * 20
    first, second = (SharedDeflate(False, False, 12, 12, {"memLevel": 5}) for _ in range(2))
    assert first.encode(Frame(Opcode.TEXT, message)) is not second.encode(Frame(Opcode.TEXT, message))


def test_a_push_is_written_at_once_when_the_socket_is_idle_and_a_burst_arrives_whole_and_in_order(
    settings, monkeypatch
):
    """Issue 14: a push to an idle socket is written into its buffer at once (no task wake-up per
    socket); messages that find one waiting queue behind it. Either way each arrives, in order."""
    from app.web.ws_protocol import FrayWebSocketProtocol

    written: list[str] = []
    original = FrayWebSocketProtocol.send_now

    def counting(self, text: str) -> bool:
        sent = original(self, text)
        if sent:
            written.append(text)
        return sent

    monkeypatch.setattr(FrayWebSocketProtocol, "send_now", counting)
    with fray_serve(settings) as port, httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
        table = Table.create(http)
        ann = table.join("Ann")
        table.ok(table.gm, "generic.pool.create", name="Gold", value=0)

        async def scenario():
            url = f"ws://127.0.0.1:{port}/ws/campaigns/{table.id}?page=player&after=0"
            async with websockets.connect(url, additional_headers=ann.auth, compression="deflate") as ws:
                first = await asyncio.wait_for(ws.recv(), 5)
                seqs = [int(first.rsplit('data-seq="', 1)[1].split('"')[0])]

                def burst():
                    for _ in range(6):
                        table.ok(table.gm, "generic.pool.adjust", pool="Gold", delta=1)

                await asyncio.to_thread(burst)
                last = table.view(table.gm)["campaign"]["seq"]
                text = first
                while seqs[-1] < last:
                    text = await asyncio.wait_for(ws.recv(), 5)
                    seqs.append(int(text.rsplit('data-seq="', 1)[1].split('"')[0]))
                assert seqs == sorted(set(seqs))  # in order, none twice
                assert "Gold" in text and ">6<" in text.replace(" ", "")

        run(scenario)
    assert written  # the idle socket's pushes went straight into its buffer


def test_a_message_pushed_to_many_sockets_is_framed_once_for_each_kind_of_socket(settings, monkeypatch):
    """Issue 14: a shared message is framed once and its bytes written to every socket of the same kind
    (compressed alike); a socket without compression gets its own frame, and all read the same text."""
    from app.web.ws_protocol import FrayWebSocketProtocol

    framed: list[tuple[str, tuple[int, ...]]] = []
    original = FrayWebSocketProtocol.framed

    def counting(self, text: str, kind: tuple[int, ...]) -> bytes:
        last = FrayWebSocketProtocol.last_framed.get(kind)
        if last is None or last[0] is not text:
            framed.append((text, kind))
        return original(self, text, kind)

    monkeypatch.setattr(FrayWebSocketProtocol, "framed", counting)
    with fray_serve(settings) as port, httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
        table = Table.create(http)
        ann = table.join("Ann")

        async def scenario():
            url = f"ws://127.0.0.1:{port}/ws/campaigns/{table.id}?page=table&after=0"
            kinds = ["deflate", "deflate", "deflate", None]
            sockets = [
                await websockets.connect(url, additional_headers=ann.auth, compression=kind) for kind in kinds
            ]
            try:
                for ws in sockets:
                    await asyncio.wait_for(ws.recv(), 5)  # each socket's own first render
                framed.clear()
                await asyncio.to_thread(table.ok, table.gm, "generic.pool.create", name="Gold", value=3)
                pushed = [await asyncio.wait_for(ws.recv(), 5) for ws in sockets]
            finally:
                for ws in sockets:
                    await ws.close()
            assert "Gold" in pushed[0] and all(text == pushed[0] for text in pushed)
            assert sorted(kind for _, kind in framed) == [(), (12,)]  # once compressed, once plain
            assert framed[0][0] is framed[1][0]  # one message, the same string for all four

        run(scenario)


def test_a_text_frame_is_the_bytes_websockets_writes_for_it_compressed_or_not():
    """`text_frame` writes what websockets' own frame and permessage-deflate write (which every client
    reads), at each length a frame's header encodes differently and each window a client may ask for."""
    import random

    from app.web.ws_protocol import text_frame

    rng = random.Random(7)
    noise = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789<>=\"' ") for _ in range(90_000))
    texts = ["", "a", '<li id="pool-1">3</li>' * 40, "é" * 100, noise[:120], noise[:600], noise[:70_000]]
    for text in texts:
        data = text.encode()
        assert text_frame(data, None) == Frame(Opcode.TEXT, data).serialize(mask=False), len(data)
        for bits in (9, 12, 15):
            deflate = SharedDeflate(True, True, bits, bits, {"memLevel": 5})
            theirs = Frame(Opcode.TEXT, data).serialize(mask=False, extensions=[deflate])
            assert text_frame(data, deflate) == theirs, (len(data), bits)
    # Each header length was met: under 126 bytes, up to 65535, and beyond.
    sizes = {len(text_frame(t.encode(), None)) - len(t.encode()) for t in texts}
    assert sizes == {2, 4, 10}
