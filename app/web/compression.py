"""Gzip for replies, as Starlette's GZipMiddleware does it, without its set-up cost on small bodies.

Starlette makes a compressor with zlib's largest window (32 KB) for every reply, and setting one up
costs more than compressing a command's few kilobytes of JSON. A whole body (not a stream) gets a
window just larger than itself: deflate never looks further back than the body, so the bytes sent are
exactly the same, made for about half the CPU. Streams keep Starlette's compressor.
"""

from __future__ import annotations

import zlib

from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware, GZipResponder
from starlette.types import Receive, Scope, Send

# zlib keeps this much lookahead out of the window (its MIN_LOOKAHEAD): a window this much larger than
# the body reaches back over all of it, as the 32 KB one does.
_LOOKAHEAD = 262


def window_bits(size: int) -> int:
    """The smallest window (as zlib's wbits, 9 to 15) through which deflate sees a whole body."""
    return min(zlib.MAX_WBITS, max(9, (size + _LOOKAHEAD - 1).bit_length()))


class _WholeBodyResponder(GZipResponder):
    async def apply_compression(self, body: bytes, *, more_body: bool) -> bytes:
        if self._compressor is None and not more_body:
            self._compressor = zlib.compressobj(
                self.compresslevel, zlib.DEFLATED, 16 + window_bits(len(body))
            )
        return await super().apply_compression(body, more_body=more_body)


class GZip(GZipMiddleware):
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and "gzip" in Headers(scope=scope).get("Accept-Encoding", ""):
            responder = _WholeBodyResponder(
                self.app,
                self.minimum_size,
                compresslevel=self.compresslevel,
                thread_minimum_size=self.thread_minimum_size,
                exclude_content_types=self.exclude_content_types,
            )
            await responder(scope, receive, send)
            return
        await super().__call__(scope, receive, send)
