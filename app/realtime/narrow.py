"""A changed block sent as the one element inside it that changed, when one element holds the change.

A pool's value moving redraws the pools block: a card of every pool, most of a kilobyte. What changed is
one row, and the row has its own id: the push sends that row, marked to morph by its id, and the page
ends up exactly as with the whole block (checked here on the text: the old block with the new row in
place is the new block, or the whole block goes). Worked out once per (old, new) pair of a push, for
every viewer who held the same old block and gets the same new one.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import NamedTuple

# Blocks whose inner elements may be sent alone. Not the map (its boards are replaced whole by the page's
# script, which watches the board itself) nor the status bar (the page buzzes on its own swap).
NARROWED = frozenset({"pools", "tracks", "initiative", "participants", "mine", "seats", "encounters"})

# Possessive: a tag's attributes never backtrack (runs of plain text, or quoted values, taken whole).
_TAG = re.compile(r"<!--.*?-->|<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>\"']++|\"[^\"]*+\"|'[^']*+')*+)>", re.S)
_ID = re.compile(r'\sid="([A-Za-z][A-Za-z0-9_-]*)"')
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
)
OOB = ' hx-swap-oob="morph"'


# A tag: (start, end, closing, name in lower case or None for a comment, written self-closed, attributes),
# a plain tuple (a named one costs a Python call each, thirty a block).
_Tag = tuple[int, int, bool, str | None, bool, str]
TAGS_KEPT = 256
_parsed: OrderedDict[str, list[_Tag]] = OrderedDict()


def _tags(html: str) -> list[_Tag]:
    """Every tag of a block, parsed once: the block a push sends now is the one it compares with next
    push (a regex walk over a kilobyte of a pools card was most of its narrowing)."""
    found = _parsed.get(html)
    if found is not None:
        _parsed.move_to_end(html)
        return found
    found = []
    for m in _TAG.finditer(html):
        closing, name, attributes = m.groups()
        begin, end = m.span()
        if name is None:
            found.append((begin, end, False, None, False, ""))
        else:
            closed = not closing and attributes.rstrip().endswith("/")
            found.append((begin, end, bool(closing), name.lower(), closed, attributes))
    _parsed[html] = found
    while len(_parsed) > TAGS_KEPT:
        _parsed.popitem(last=False)
    return found


def _prefix(old: str, new: str, limit: int) -> int:
    """How many characters `old` and `new` start with alike, up to `limit`: halving the span each time,
    each comparison a slice compared in C."""
    low, high = 0, limit  # old[:low] == new[:low]; the first difference is at most at `high`
    while low < high:
        middle = (low + high + 1) // 2
        if old[low:middle] == new[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _suffix(old: str, new: str, limit: int) -> int:
    """`_prefix` from the end: how many characters both end with alike, up to `limit`."""
    n_old, n_new = len(old), len(new)
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if old[n_old - middle : n_old - low] == new[n_new - middle : n_new - low]:
            low = middle
        else:
            high = middle - 1
    return low


def _common(old: str, new: str) -> tuple[int, int]:
    """The lengths of the common start and the common end (not overlapping in either)."""
    start = _prefix(old, new, min(len(old), len(new)))
    return start, _suffix(old, new, min(len(old), len(new)) - start)


def _open_at(html: str, at: int) -> list[tuple[int, int, str, str | None]]:
    """The elements open at `at` (outermost first): (start, end of start tag, tag, id)."""
    stack: list[tuple[int, int, str, str | None]] = []
    for begin, end, closing, name, closed, attributes in _tags(html):
        if end > at:
            break
        if name is None:
            continue  # a comment
        if closing:
            while stack and stack[-1][2] != name:
                stack.pop()
            if stack:
                stack.pop()
        elif name not in _VOID and not closed:
            ident = _ID.search(attributes)
            stack.append((begin, end, name, ident.group(1) if ident else None))
    return stack


def _end_of(html: str, start: int, tag: str) -> int | None:
    """Where the element opened at `start` ends (after its end tag), or None."""
    depth = 0
    for begin, end, closing, name, closed, _ in _tags(html):
        if begin < start or name != tag:
            continue
        if closing:
            depth -= 1
            if depth == 0:
                return end
        elif not closed:
            depth += 1
    return None


class Rows(NamedTuple):
    """A block drawn as rows (app/realtime/rows.py): its text before the rows, each row's id and text (one
    element, that id on its own start tag, no id inside it), its text after."""

    head: str
    ids: tuple[str, ...]
    rows: tuple[str, ...]
    tail: str


ROWS_KEPT = 256
_drawn_rows: OrderedDict[str, Rows] = OrderedDict()
_rows_lock = threading.Lock()  # pages are drawn in worker threads too, pushes on the loop


def in_rows(head: str, rows: Sequence[tuple[str, str]], tail: str) -> str:
    """A block of rows as one text, remembered as rows: a push that narrows a change between two blocks
    both drawn so compares their rows, not their tags (parsing a pools card's tags twice was most of a
    pool change's narrowing, docs/performance.md)."""
    ids = tuple(ident for ident, _ in rows)
    texts = tuple(str(text) for _, text in rows)  # plain: a Markup row would escape the OOB added to it
    html = head + "".join(texts) + tail
    with _rows_lock:
        _drawn_rows[html] = Rows(head, ids, texts, tail)
        if len(_drawn_rows) > ROWS_KEPT:
            _drawn_rows.popitem(last=False)
    return html


def _narrow_rows(old: Rows, new: Rows) -> str | None:
    """`narrow` for two blocks drawn as rows: the one row that differs, marked to morph, when the rows are
    the same ids in the same order around the same head and tail; else the block goes whole (what differs
    is then in the block's own element or across rows: no element with an id below the block holds it)."""
    if old.ids != new.ids or old.head != new.head or old.tail != new.tail:
        return None
    differ = [n for n, (was, now) in enumerate(zip(old.rows, new.rows, strict=True)) if was != now]
    if len(differ) != 1:
        return None
    row = new.rows[differ[0]]
    cut = _TAG_NAME.match(row)
    return None if cut is None else row[: cut.end()] + OOB + row[cut.end() :]


_TAG_NAME = re.compile(r"<[a-zA-Z][a-zA-Z0-9-]*")


def narrow(old: str, new: str) -> str | None:
    """The smallest element with an id holding every change from `old` to `new`, marked to morph; None
    when that is the block itself (send it whole) or the text does not let us be sure."""
    if old == new:
        return None
    with _rows_lock:
        old_rows, new_rows = _drawn_rows.get(old), _drawn_rows.get(new)
        if old_rows is not None:
            _drawn_rows.move_to_end(old)  # the card the room's phones hold: kept while they hold it
    if old_rows is not None and new_rows is not None:
        return _narrow_rows(old_rows, new_rows)
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
