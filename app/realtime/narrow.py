"""A changed block sent as the one element inside it that changed, when one element holds the change.

A pool's value moving redraws the pools block: a card of every pool, most of a kilobyte. What changed is
one row, and the row has its own id: the push sends that row, marked to morph by its id, and the page
ends up exactly as with the whole block (checked here on the text: the old block with the new row in
place is the new block, or the whole block goes). Worked out once per (old, new) pair of a push, for
every viewer who held the same old block and gets the same new one.
"""

from __future__ import annotations

import re

# Blocks whose inner elements may be sent alone. Not the map (its boards are replaced whole by the page's
# script, which watches the board itself) nor the status bar (the page buzzes on its own swap).
NARROWED = frozenset({"pools", "tracks", "initiative", "participants", "mine", "seats", "encounters"})

_TAG = re.compile(r"<!--.*?-->|<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>", re.S)
_ID = re.compile(r'\sid="([A-Za-z][A-Za-z0-9_-]*)"')
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
)
OOB = ' hx-swap-oob="morph"'


STEP = 64  # characters compared at once (slices compared in C), before one at a time


def _common(old: str, new: str) -> tuple[int, int]:
    """The lengths of the common start and the common end (not overlapping in either). Both ends are
    walked in slices: a pool's row changes near a block's start, and a kilobyte one character at a time
    was most of the first phone's push."""
    limit = min(len(old), len(new))
    start = 0
    while start < limit:
        end = min(limit, start + STEP)
        if old[start:end] == new[start:end]:
            start = end
            continue
        while old[start] == new[start]:
            start += 1
        break
    room = limit - start  # the end may not reach into the common start
    n_old, n_new = len(old), len(new)
    tail = 0
    while tail < room:
        step = min(STEP, room - tail)
        if old[n_old - tail - step : n_old - tail] == new[n_new - tail - step : n_new - tail]:
            tail += step
            continue
        while old[n_old - 1 - tail] == new[n_new - 1 - tail]:
            tail += 1
        break
    return start, tail


def _open_at(html: str, at: int) -> list[tuple[int, int, str, str | None]]:
    """The elements open at `at` (outermost first): (start, end of start tag, tag, id)."""
    stack: list[tuple[int, int, str, str | None]] = []
    for m in _TAG.finditer(html, 0, at):
        if m.end() > at:
            break
        closing, tag = m.group(1), m.group(2)
        if tag is None:
            continue  # a comment
        tag = tag.lower()
        if closing:
            while stack and stack[-1][2] != tag:
                stack.pop()
            if stack:
                stack.pop()
        elif tag not in _VOID and not m.group(3).rstrip().endswith("/"):
            found = _ID.search(m.group(3))
            stack.append((m.start(), m.end(), tag, found.group(1) if found else None))
    return stack


def _end_of(html: str, start: int, tag: str) -> int | None:
    """Where the element opened at `start` ends (after its end tag), or None."""
    depth = 0
    for m in _TAG.finditer(html, start):
        name = m.group(2)
        if name is None or name.lower() != tag:
            continue
        if m.group(1):
            depth -= 1
            if depth == 0:
                return m.end()
        elif not m.group(3).rstrip().endswith("/"):
            depth += 1
    return None


def narrow(old: str, new: str) -> str | None:
    """The smallest element with an id holding every change from `old` to `new`, marked to morph; None
    when that is the block itself (send it whole) or the text does not let us be sure."""
    if old == new:
        return None
    start, tail = _common(old, new)
    open_new = _open_at(new, start)
    for begin, tag_end, tag, ident in reversed(open_new[1:]):  # innermost first; never the block itself
        if ident is None:
            continue
        end = _end_of(new, begin, tag)
        if end is None or end < len(new) - tail:
            continue  # it closes before the change does
        old_end = end - len(new) + len(old)
        if _end_of(old, begin, tag) != old_end:
            return None
        if old[:begin] + new[begin:end] + old[old_end:] != new:
            return None
        element = new[begin:end]
        if "hx-swap-oob" in element[: tag_end - begin]:
            return None
        cut = begin + 1 + len(tag)
        return new[begin:cut] + OOB + new[cut:end]
    return None
