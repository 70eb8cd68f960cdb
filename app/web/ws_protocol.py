"""The WebSocket protocol `fray serve` runs: uvicorn's sans-I/O websockets, compressing each message alone.

With context takeover, permessage-deflate keeps a zlib compressor and decompressor alive on every socket
(tens of KB each) for a few percent better compression. A table's pushes are small and bursty, and most
sockets sit idle between them, so each message is compressed on its own: an idle phone costs far less.
Measured by `bench/idle_sockets.py` (docs/performance.md).
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol


def deflate() -> ServerPerMessageDeflateFactory:
    return ServerPerMessageDeflateFactory(
        server_no_context_takeover=True,
        client_no_context_takeover=True,
        server_max_window_bits=12,
        client_max_window_bits=12,
        compress_settings={"memLevel": 5},
    )


class FrayWebSocketProtocol(WebSocketsSansIOProtocol):
    def __init__(self, config: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        if config.ws_per_message_deflate:
            self.conn = ServerProtocol(
                extensions=[deflate()],
                max_size=config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )
