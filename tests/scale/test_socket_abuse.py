"""A real `fray serve` against a peer that floods pings and never reads (issue 16, item 5): the server
stops reading from it, cuts it off once it cannot flush, and its memory stays bounded."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import httpx

from app.store.migrate import upgrade
from bench.common import rss_kb
from tests.helpers import Table
from tests.scale.conftest import AppProcess


def _frame(opcode: int, payload: bytes) -> bytes:
    """A client frame (masked), as a browser sends it."""
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked


def _open(app: AppProcess, path: str, token: str) -> socket.socket:
    """A WebSocket opened by hand on a socket with a tiny receive window: a peer that never reads."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", app.port))
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{app.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            f"Authorization: Bearer {token}\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert b" 101 " in head.split(b"\r\n")[0], head
    return sock


def _table(app: AppProcess) -> tuple[Table, object]:
    http = httpx.Client(base_url=app.url, timeout=10)
    table = Table.create(http)
    ann = table.join("Ann")
    table.ok(table.gm, "generic.pool.create", name="Gold", value=0, min=None)
    return table, ann


def test_a_ping_flood_that_never_reads_is_cut_off_and_memory_stays_bounded(tmp_path: Path):
    url = f"sqlite:///{tmp_path}/flood.db"
    upgrade(url)
    app = AppProcess(url, "memory://", tmp_path / "serve.log").wait_ready()
    try:
        table, ann = _table(app)
        before = rss_kb(app.process.pid)
        sock = _open(app, f"/ws/campaigns/{table.id}?format=json", ann.token)
        sock.settimeout(2)
        ping = _frame(0x9, b"p" * 120)
        sent, cut = 0, False
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and sent < 400_000:
            try:
                sock.sendall(ping * 100)
                sent += 100
            except (BrokenPipeError, ConnectionResetError):
                cut = True  # the server dropped the peer that would not read
                break
            except TimeoutError:
                break  # the server stopped reading from it: it cannot be flooded faster than it answers
        grown_mb = (rss_kb(app.process.pid) - before) / 1024
        print(f"\nping flood: {sent} pings sent, cut={cut}, server grew {grown_mb:.1f} MB")
        sock.close()
        # Unprotected, the same flood ran to the end and grew the server by 42 MB; now it stops reading
        # (about 60,000 pings in) or cuts the peer off, and grows by a couple of MB.
        assert grown_mb < 15, f"the server grew {grown_mb:.0f} MB under {sent} pings"
        assert cut or sent < 400_000, "the server kept reading a peer that never read"
        # And it still serves everyone else.
        assert table.ok(table.gm, "generic.pool.adjust", pool="Gold", delta=1)["seq"] > 0
    finally:
        app.stop()
