"""The WebSocket protocol `fray serve` runs: uvicorn's sans-I/O websockets, compressing each message alone.

With context takeover, permessage-deflate keeps a zlib compressor and decompressor alive on every socket
(tens of KB each) for a few percent better compression. A table's pushes are small and bursty, and most
sockets sit idle between them, so each message is compressed on its own: an idle phone costs far less.

Compressed alone, the same message compresses to the same bytes on every socket, so a push to a room is
compressed once and the bytes are shared (most of a room sees one view). The frame around them is the same
too: a message pushed to many sockets is framed once and its bytes written to each. Measured by
bench/idle_sockets.py and bench/fanout.py (docs/performance.md).
"""

from __future__ import annotations

import logging
import struct
import zlib
from collections import OrderedDict
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol

SHARED_MESSAGES = 32  # recent distinct messages kept compressed: a room's views of its latest pushes
# Bytes waiting for a peer that does not read. Past this the peer is dropped: a client that floods pings
# and never reads their pongs cannot grow the server's memory without end.
MAX_UNSENT = 512 * 1024
CLOSE_GRACE = 10.0  # seconds a slow peer has to read its close frame before the connection is cut


class SharedDeflate(PerMessageDeflate):
    """permessage-deflate without context takeover, reusing the compression of a message already sent."""

    recent: OrderedDict[tuple[bytes, int, int], Frame] = OrderedDict()

    def encode(self, frame: Frame) -> Frame:
        whole_message = frame.fin and frame.opcode in (Opcode.TEXT, Opcode.BINARY)
        if not (self.local_no_context_takeover and whole_message):
            return super().encode(frame)
        key = (bytes(frame.data), frame.opcode.value, self.local_max_window_bits)
        done = self.recent.get(key)
        if done is None:
            done = self.recent[key] = super().encode(frame)
            while len(self.recent) > SHARED_MESSAGES:
                self.recent.popitem(last=False)
        return done


class SharedDeflateFactory(ServerPerMessageDeflateFactory):
    def process_request_params(self, params: Any, accepted_extensions: Any) -> tuple[list, PerMessageDeflate]:
        response, ext = super().process_request_params(params, accepted_extensions)
        shared = SharedDeflate(
            ext.remote_no_context_takeover,
            ext.local_no_context_takeover,
            ext.remote_max_window_bits,
            ext.local_max_window_bits,
            ext.compress_settings,
        )
        return response, shared


def deflate() -> ServerPerMessageDeflateFactory:
    return SharedDeflateFactory(
        server_no_context_takeover=True,
        client_no_context_takeover=True,
        server_max_window_bits=12,
        client_max_window_bits=12,
        compress_settings={"memLevel": 5},
    )


def text_frame(data: bytes, deflate: PerMessageDeflate | None) -> bytes:
    """A text message as one server frame, compressed alone when `deflate` (without context takeover) is
    the socket's extension: the bytes `Frame(Opcode.TEXT, data).serialize(mask=False, ...)` writes, made
    by one compressor and a header rather than websockets' frame objects and extension chain (about a
    tenth of a push's first phone's wait on an idle server, docs/performance.md)."""
    head = 0x81  # FIN, a text frame
    if deflate is not None:
        encoder = zlib.compressobj(wbits=-deflate.local_max_window_bits, **deflate.compress_settings)
        # A sync flush ends in the empty block 00 00 ff ff, which permessage-deflate leaves off.
        data = (encoder.compress(data) + encoder.flush(zlib.Z_SYNC_FLUSH))[:-4]
        head |= 0x40  # RSV1: compressed
    length = len(data)
    if length < 126:
        return bytes((head, length)) + data
    if length < 65536:
        return struct.pack("!BBH", head, 126, length) + data
    return struct.pack("!BBQ", head, 127, length) + data


class FrayWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O protocol with shared compression, and limits for peers that stop reading."""

    # For each kind of socket, the last message framed, known by identity (a push hands every socket of
    # a view the same string), with its bytes on the wire.
    last_framed: dict[tuple[int, ...], tuple[str, bytes]] = {}
    _frame_kind: tuple[int, ...] | None = None
    _frame_kind_known = False  # worked out once, after the handshake fixed the socket's extensions

    def _cannot_flush(self) -> bool:
        if self.transport.get_write_buffer_size() > MAX_UNSENT:
            self.transport.abort()
            return True
        return False

    def data_received(self, data: bytes) -> None:
        # A peer that does not read what it is sent is not read from either, and past the limit dropped.
        if not self._cannot_flush():
            super().data_received(data)

    def handle_ping(self) -> None:
        if not self._cannot_flush():
            super().handle_ping()

    def pause_writing(self) -> None:
        super().pause_writing()
        self.transport.pause_reading()  # stop reading while the socket cannot be written to

    def resume_writing(self) -> None:
        super().resume_writing()
        if not self.read_paused:
            self.transport.resume_reading()

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"]["fray.close_now"] = self.close_now
            scope["extensions"]["fray.send_now"] = self.send_now

    def send_now(self, text: str) -> bool:
        """Write a text message into the socket's buffer now, if it can take one without waiting: open,
        accepted, not closing, and not held back by flow control. False: send it the usual way (the
        socket's sender task awaits). A push to 200 phones is then 200 writes, not 200 task wake-ups."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        conn = self.conn
        kind = self._shareable_frames()
        if kind is None or conn.expect_continuation_frame or conn.state is not State.OPEN:
            conn.send_text(text.encode())  # the protocol's own checks and errors
            self.transport.write(b"".join(conn.data_to_send()))
            return True
        pending = conn.data_to_send()  # nothing is, as every write is flushed at once; kept in order anyway
        if pending:
            self.transport.write(b"".join(pending))
        self.transport.write(self.framed(text, kind))
        return True

    def framed(self, text: str, kind: tuple[int, ...]) -> bytes:
        """A text message's bytes on the wire for sockets of this kind, framed once for all of them.
        What `ServerProtocol.send_text` writes: a server's frames are not masked, and each message is
        compressed alone (`SharedDeflate`), so the bytes depend only on the text and the kind."""
        last = self.last_framed.get(kind)
        if last is not None and last[0] is text:
            return last[1]
        extensions = self.conn.extensions  # none, or SharedDeflates without context takeover (`kind`)
        if not extensions:
            data = text_frame(text.encode(), None)
        elif len(extensions) == 1 and isinstance(extensions[0], SharedDeflate):
            data = text_frame(text.encode(), extensions[0])
        else:
            data = Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=extensions)
        self.last_framed[kind] = (text, data)
        return data

    def _shareable_frames(self) -> tuple[int, ...] | None:
        """What a frame's bytes depend on for this socket (the window its messages are compressed with),
        or None when they depend on the socket's own history (compression with context takeover)."""
        if not self._frame_kind_known:
            deflates = [e for e in self.conn.extensions if isinstance(e, SharedDeflate)]
            shared = len(deflates) == len(self.conn.extensions) and all(
                e.local_no_context_takeover for e in deflates
            )
            self._frame_kind = tuple(e.local_max_window_bits for e in deflates) if shared else None
            self._frame_kind_known = True
        return self._frame_kind

    def close_now(self, code: int, reason: str) -> None:
        """Close a socket whose sends are stuck behind a peer that does not read: the close frame goes into
        the buffer at once, and the connection is cut if the peer has not taken it within the grace."""
        if self.close_sent or self.transport.is_closing():
            return
        self.conn.send_close(code, reason)
        self.close_sent = True
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.loop.call_later(CLOSE_GRACE, self._cut)

    def _cut(self) -> None:
        if not self.transport.is_closing():
            self.transport.abort()

    def __init__(self, config: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        if config.ws_per_message_deflate:
            self.conn = ServerProtocol(
                extensions=[deflate()],
                max_size=config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )
