"""What one push of a room works out once for all its viewers: each diff's message, each narrowed block.

Viewers who see a change alike hold the same old renders (shared by the block memo, `blocks.py`) and get
the same new ones, so the message that brings them from one to the other is the same text: it is put
together once, and the same string goes to each of their sockets (which the socket layer then
compresses once, app/web/ws_protocol.py). What is a viewer's own (their sheet, their prompts) is a
different render, hence a different message: per-viewer work is the parts that are theirs.
"""

from __future__ import annotations

from typing import Any

from app.realtime import pieces, render
from app.realtime.narrow import NARROWED, narrow

# What a room keeps of how often an id is in each block, from push to push: a phone's own blocks (its
# sheet, its roll buttons) are the same strings push after push, and counting a narrowed row's id in them
# again was a fifth of a pool change's work per phone. Bounded by the text it holds alive.
IdCounts = dict[str, "_Counts"]
ID_COUNTS_CHARS = 4_000_000
ID_COUNTS_NEEDLES = 32


class Push:
    """The shared work of one push: kept for the push only (its strings' ids stay theirs meanwhile).
    `counts`: the room's counts of ids in blocks, kept from its last push (`IdCounts`)."""

    def __init__(self, seq: int, counts: IdCounts | None = None) -> None:
        self.marker = render.seq_marker(seq)
        self._narrowed: dict[tuple[str, str, str], str | None] = {}
        if counts is not None and (
            len(counts) > ID_COUNTS_NEEDLES or sum(c.chars for c in counts.values()) > ID_COUNTS_CHARS
        ):
            counts.clear()
        self._counts: IdCounts = {} if counts is None else counts
        # Each changed element worked out once per (old, new) pair, with the counts of its id.
        self._elements: dict[tuple[str, str, str], tuple[str | None, _Counts | None]] = {}
        self._appends: dict[tuple[int, int], tuple[Any, Any, str | None]] = {}
        self._messages: dict[tuple[int, ...], tuple[tuple[str, ...], str]] = {}
        self._diffs: dict[tuple[Any, ...], str] = {}
        self.narrowings = 0  # how many (old, new) pairs were compared: once per pair, not per viewer

    def log_append(self, old: list[str], new: list[str]) -> str | None:
        """`render.log_append`, once per pair of line lists (the memo shares them among views)."""
        key = (id(old), id(new))
        hit = self._appends.get(key)
        if hit is None or hit[0] is not old or hit[1] is not new:
            hit = self._appends[key] = (old, new, render.log_append(old, new))
        return hit[2]

    def part(self, name: str, old: str | None, new: str, page: dict[str, str]) -> str:
        """A changed block as sent: the one element of it that changed when that can be told apart
        (and its id is the only one of its kind on the page), else the whole block."""
        if old is None:
            return new
        if name not in NARROWED:
            key = (name, old, new)
            if key not in self._narrowed:
                self._narrowed[key] = pieces.kept(old, new)  # the board's large pieces the page holds
            return self._narrowed[key] or new
        key = (name, old, new)
        hit = self._elements.get(key)
        if hit is None:
            self.narrowings += 1
            found = narrow(old, new)
            counts = None
            if found is not None:
                ident = found[found.index(' id="') + 5 :]
                ident = ident[: ident.index('"')]
                counts = self._counts.get(ident)
                if counts is None:
                    counts = self._counts[ident] = _Counts(f'id="{ident}"')
            hit = self._elements[key] = (found, counts)
        found, counts = hit
        if found is None or counts is None:
            return new
        return found if sum(map(counts.__getitem__, page.values())) == 1 else new

    def diff(self, page: str, parts: dict[str, str], log: str | None) -> str:
        """`message` of the changed parts in the page's order with the log's append: one look-up for each
        phone after the first that sends the same (the parts and the log are the push's shared strings)."""
        key = (page, log, *parts.items())
        hit = self._diffs.get(key)
        if hit is None:
            hit = self._diffs[key] = self.message(render.in_page_order(page, parts, log))
        return hit

    def message(self, parts: list[str]) -> str:
        """The parts and the seq marker as one message, one string for every viewer sending the same."""
        key = tuple(map(id, parts))
        hit = self._messages.get(key)
        if hit is None:
            text = "".join(parts) + self.marker
            hit = self._messages[key] = (tuple(parts), text)  # the parts kept: their ids stay theirs
        return hit[1]


class _Counts(dict[str, int]):
    """How often an id is in each block: counted once per block, whichever views share it (a block is
    found by its text, whose hash Python keeps: a look-up per block, not a count)."""

    def __init__(self, needle: str) -> None:
        super().__init__()
        self.needle = needle
        self.chars = 0  # the text of the blocks counted, kept alive as keys

    def __missing__(self, html: str) -> int:
        found = self[html] = html.count(self.needle)
        self.chars += len(html)
        return found
