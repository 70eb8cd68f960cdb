"""Render each distinct live block once, whichever views share it.

Eight players at a table are eight views, but most of a page (the log, the pools, the initiative) reads
the same for all of them. A block's render is kept with the fingerprint of what it read: the top-level
keys of the view it looked at (recorded while it rendered) and the other context names its source
mentions. A template is a pure function of what it reads, so when another view, or the same view after
a push, has the same fingerprint, the block is the same HTML and is not rendered again.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from jinja2 import Environment

from app.realtime.digests import Lasting, digest
from app.realtime.sources import CONSTANT, EVERY_NAME, names_read
from app.realtime.tracked import tracking

# Renders kept per block: a room's distinct views of its latest states (a block of each phone's own, at a
# table of 200 seats, is 200 renders a state).
KEEP_PER_BLOCK = 256
KEEP_PER_VIEWER = 256 * 24  # the blocks of the 256 viewers last pushed to
KEEP_VIEWERS = 256
KNOWN_PER_PUSH = 100_000  # values whose digests a push keeps by identity
MAX_SHAPES = 16  # distinct sets of view keys a block was seen to read; more and the memo starts afresh


MISSING = "\0missing"
SHORT_TEXT = 256  # strings up to this long have their digests kept (ids, names, flags)


@lru_cache(maxsize=4096, typed=True)  # typed: 1, 1.0 and True, a str and its Markup, are told apart
def _scalar_digest(value: Any) -> bytes:
    return digest(value)


class Fingerprints:
    """The digests of one render context's parts, each computed at most once.

    `known` holds the digests of this push's values by identity (a push's views share some parts: the
    log of viewers who see alike, the players' list of seats): each is pickled once a push, not once a
    view. Nothing in a view is changed after it is built, so an object keeps its digest for the push.
    """

    def __init__(
        self,
        context: dict[str, Any],
        known: dict[int, tuple[Any, bytes]] | None = None,
        lasting: Lasting | None = None,
    ):
        self.context = context
        self.view: dict[str, Any] = context["v"]
        self._known = {} if known is None else known
        self._lasting = Lasting() if lasting is None else lasting
        self._view: dict[str, bytes] = {}
        self._names: dict[str, bytes] = {}
        self._compared: dict[tuple[int, int], tuple[Any, Any, bool]] = {}
        self._context_names: frozenset[str] | None = None
        # Set by `BlockMemo.view_started`: the viewer's last context, and the view keys and context
        # names that differ from it (None: no last context to compare with).
        self.against: Fingerprints | None = None
        self.changed_keys: frozenset[str] | None = None
        self.changed_names: frozenset[str] | None = None

    def _digest(self, value: Any) -> bytes:
        if value is None or isinstance(value, (str, int, float)):
            if isinstance(value, str) and len(value) > SHORT_TEXT:
                return digest(value)
            return _scalar_digest(value)  # a table's id, a template's name: the same every push
        hit = self._known.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        found = digest(self._lasting.parts(value) if isinstance(value, dict) else value)
        self._known[id(value)] = (value, found)  # kept alive with its digest, so its id is not reused
        return found

    def value_of_view(self, key: str) -> Any:
        return self.view.get(key, MISSING)

    def value_of_name(self, name: str) -> Any:
        value = self.context.get(name, MISSING)
        # A value that says what decides it (the log's entries) is compared by that alone.
        return getattr(value, "fingerprint", value)

    def of_view(self, key: str) -> bytes:
        if key not in self._view:
            self._view[key] = self._digest(self.value_of_view(key))
        return self._view[key]

    def of_name(self, name: str) -> bytes:
        if name not in self._names:
            self._names[name] = self._digest(self.value_of_name(name))
        return self._names[name]

    def names(self, names: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(set(self.context) - CONSTANT)) if names == EVERY_NAME else names

    def of(self, keys: tuple[str, ...], names: tuple[str, ...]) -> bytes:
        parts = [self.of_view(k) for k in keys] + [self.of_name(n) for n in self.names(names)]
        return hashlib.blake2b(b"".join(parts), digest_size=16).digest()

    @property
    def context_names(self) -> frozenset[str]:
        """The names this context has, one shared object for every context with the same names."""
        if self._context_names is None:
            names = frozenset(self.context)
            self._context_names = _CONTEXT_NAMES.setdefault(names, names)
        return self._context_names

    def used(self, names: tuple[str, ...]) -> tuple[str, ...]:
        """Of the names a block's source mentions, those this context has (not its loop variables)."""
        return tuple(n for n in self.names(names) if n in self.context)

    def values(self, keys: tuple[str, ...], names: tuple[str, ...]) -> tuple[Any, ...]:
        """What a block read, as values: to compare with what the same viewer's last render read."""
        view, context = self.view, self.context
        found = [view.get(k, MISSING) for k in keys]
        for name in names:
            value = context.get(name, MISSING)
            found.append(getattr(value, "fingerprint", value))
        return tuple(found)

    def _same(self, old: Any, new: Any) -> bool:
        if old is new:
            return True
        pair = (id(old), id(new))
        seen = self._compared.get(pair)
        if seen is None:
            seen = self._compared[pair] = (old, new, old == new)  # both kept alive: ids stay theirs
        return seen[2]

    def finished(self) -> None:
        """Its blocks are drawn: let go of what only the drawing needed. The context it was compared
        with above all: each context would otherwise keep the one before alive, and every push of
        a room's history would stay in memory."""
        self._compared = {}
        self.against = None

    def compare_with(self, last: Fingerprints, reads: Reads | None = None) -> None:
        """Work out, once for the view, which of its keys and context names differ from the viewer's
        last context: a block that read none of them is unchanged (a set test, not a comparison).

        `reads`: every key and name the viewer's kept renders read. Only those are compared: a key no
        block of this page reads (the whole list of the table's characters, on a phone) costs nothing,
        however long it is. The set test only ever asks about a kept render's own keys and names."""
        if last.context_names is not self.context_names:
            return
        view, old = self.view, last.view
        before, now = last.context, self.context
        if reads is None:
            keys = {k for k, value in view.items() if k not in old or not _same(old[k], value)}
            keys.update(k for k in old if k not in view)
            looked: Any = now
        else:
            keys = {
                k
                for k in reads.keys
                if (k in view) != (k in old) or (k in view and not _same(old[k], view[k]))
            }
            looked = reads.names
        names = {
            n
            for n in looked
            if n in now
            and n not in CONSTANT
            and (n not in before or not _same(_decided(before[n]), _decided(now[n])))
        }
        self.against, self.changed_keys, self.changed_names = last, frozenset(keys), frozenset(names)

    def unchanged(self, before: Previous) -> tuple[Any, ...] | None:
        """What a block reads now, if it is what it read before (same names in the context, and the
        same objects or equal ones: compared in C, far cheaper than pickling, each pair once for all
        the view's blocks); else None. A view's values are typed by their models, so equal values never
        differ in type (1 and True)."""
        if before.context_names is not self.context_names:
            return None
        if before.drawn_for is not None and before.drawn_for is self.against:
            # The viewer's last context is the one this render was last found right for: a set test.
            assert self.changed_keys is not None and self.changed_names is not None
            if self.changed_keys.isdisjoint(before.keys) and self.changed_names.isdisjoint(before.names):
                return before.values
            return None
        now = self.values(before.keys, before.names)
        for old, new in zip(before.values, now, strict=True):
            if not self._same(old, new):
                return None
        return now


def _same(old: Any, new: Any) -> bool:
    return old is new or old == new


def _decided(value: Any) -> Any:
    """What a context value is compared by: a value that says what decides it (the log's entries)."""
    return getattr(value, "fingerprint", value)


class Previous:
    """What a viewer's last render of a block read, and the render. Each belongs to one (viewer,
    template, block): found unchanged, it is brought up to date in place rather than copied."""

    __slots__ = ("context_names", "drawn_for", "html", "keys", "names", "values")

    def __init__(
        self,
        keys: tuple[str, ...],
        names: tuple[str, ...],
        context_names: frozenset[str],
        values: tuple[Any, ...],
        html: str,
        drawn_for: Fingerprints | None,  # the last context of the viewer this render was found right for
    ) -> None:
        self.keys, self.names, self.context_names = keys, names, context_names
        self.values, self.html, self.drawn_for = values, html, drawn_for


_CONTEXT_NAMES: dict[frozenset[str], frozenset[str]] = {}


class Reads:
    """Every view key and context name a viewer's kept renders read (what its next push compares)."""

    __slots__ = ("keys", "names")

    def __init__(self) -> None:
        self.keys: set[str] = set()
        self.names: set[str] = set()


class BlockMemo:
    """Renders kept per (template, block), each with what it read.

    Given the viewer's key, a block first compares what it reads now with what it read for the same
    viewer last time: a push changes a few parts of a view, and most blocks of most viewers are found
    unchanged without fingerprinting anything. Only the blocks whose inputs moved are fingerprinted, to
    share one render among the viewers who see them alike.
    """

    def __init__(self) -> None:
        self._kept: dict[tuple[str, str], OrderedDict[bytes, tuple[tuple[str, ...], str]]] = {}
        self._shapes: dict[tuple[str, str], set[tuple[str, ...]]] = {}
        self._previous: OrderedDict[tuple[Any, ...], Previous] = OrderedDict()  # (viewer, template, block)
        self.renders = 0  # how many blocks were really rendered (for tests and benchmarks)
        self.reused = 0  # how many were found unchanged for their viewer without a fingerprint
        self._last: Fingerprints | None = None
        self._known: dict[int, tuple[Any, bytes]] = {}
        self._lasting = Lasting()  # long lists' digests, across pushes
        self._known_seq: Any = None
        self._views: OrderedDict[tuple[Any, ...], Fingerprints] = OrderedDict()  # each viewer's last
        self._reads: dict[tuple[Any, ...], Reads] = {}  # what each of those viewers' renders read
        # Every view key any render of a block ever read (never forgotten, unlike the shapes): a push that
        # changed none of them leaves the block as every viewer holds it (app/realtime/decided.py).
        self.reads_ever: dict[tuple[str, str], frozenset[str]] = {}
        self.reads_version = 0  # moved on when reads_ever grows
        # A page's blocks a push touches, by what decides it (app/realtime/decided.py `Decided.touched`):
        # the same from push to push while the same fields move and no render read a key anew.
        self.touched: dict[tuple[Any, ...], tuple[Any, list[Any]]] = {}

    def view_started(self, viewer: tuple, prints: Fingerprints) -> None:
        """Before a viewer's blocks: what changed since its last context (see `Fingerprints.compare_with`)."""
        last = self._views.get(viewer)
        if last is not None and last is not prints and prints.against is None:
            prints.compare_with(last, self._reads.get(viewer))

    def view_finished(self, viewer: tuple, prints: Fingerprints) -> None:
        """After every block of a viewer's context: it is the one the next push compares with."""
        self._views[viewer] = prints
        self._views.move_to_end(viewer)
        prints.finished()
        while len(self._views) > KEEP_VIEWERS:
            gone, _ = self._views.popitem(last=False)
            self._reads.pop(gone, None)

    def prints(self, context: dict[str, Any]) -> Fingerprints:
        """The fingerprints of a view's context, shared by its blocks and its log lines."""
        if self._last is None or self._last.view is not context["v"]:
            if context.get("seq") != self._known_seq or len(self._known) > KNOWN_PER_PUSH:
                self._known, self._known_seq = {}, context.get("seq")  # a new push: new objects
            self._last = Fingerprints(context, self._known, self._lasting)
        return self._last

    def unchanged_blocks(
        self, viewer: tuple, prints: Fingerprints, slots: Sequence[tuple[str, str, str]]
    ) -> dict[str, str]:
        """The viewer's blocks that read nothing of what changed since its last context, each its last
        render (by `out` name): the set test of `Fingerprints.unchanged` for all of them in one pass,
        the common case of a push that changed one thing at the table."""
        against = prints.against
        if against is None:
            return {}
        keys, names, context_names = prints.changed_keys, prints.changed_names, prints.context_names
        assert keys is not None and names is not None
        previous = self._previous
        found: dict[str, str] = {}
        for template, block, out in slots:
            mine = (viewer, template, block)
            before = previous.get(mine)
            if (
                before is not None
                and before.drawn_for is against
                and before.context_names is context_names
                and keys.isdisjoint(before.keys)
                and names.isdisjoint(before.names)
            ):
                before.drawn_for = prints
                previous.move_to_end(mine)
                found[out] = before.html
        self.reused += len(found)
        return found

    def render(
        self,
        env: Environment,
        template: str,
        block: str,
        prints: Fingerprints,
        draw: Callable[[dict[str, Any]], str],
        viewer: tuple | None = None,
    ) -> str:
        slot = (template, block)
        mine = (viewer, template, block)
        if viewer is not None:
            before = self._previous.get(mine)
            now = prints.unchanged(before) if before is not None else None
            if before is not None and now is not None:
                # Keep this push's objects: the viewer's other blocks compare with the same ones next time.
                before.values, before.drawn_for = now, prints
                self._previous.move_to_end(mine)
                self.reused += 1
                return before.html
        names = names_read(env, template, block)
        keys, html = self._shared(env, slot, names, prints, draw)
        if viewer is not None:
            used = prints.used(names)
            values = prints.values(keys, used)
            self._previous[mine] = Previous(keys, used, prints.context_names, values, html, prints)
            reads = self._reads.get(viewer)
            if reads is None:
                reads = self._reads[viewer] = Reads()
            reads.keys.update(keys)
            reads.names.update(used)
            self._previous.move_to_end(mine)
            while len(self._previous) > KEEP_PER_VIEWER:
                self._previous.popitem(last=False)
        return html

    def _shared(
        self,
        env: Environment,
        slot: tuple[str, str],
        names: tuple[str, ...],
        prints: Fingerprints,
        draw: Callable[[dict[str, Any]], str],
    ) -> tuple[tuple[str, ...], str]:
        """A render with these inputs, from any viewer's earlier one or drawn now, and the keys it read."""
        kept = self._kept.setdefault(slot, OrderedDict())
        for keys in self._shapes.get(slot, ()):
            found = prints.of(keys, names)
            hit = kept.get(found)
            if hit is not None and hit[0] == keys:
                kept.move_to_end(found)
                return hit
        tracked = tracking(prints.view)
        html = draw({**prints.context, "v": tracked})
        self.renders += 1
        keys = tuple(sorted(tracked.read))
        shapes = self._shapes.setdefault(slot, set())
        if len(shapes) >= MAX_SHAPES and keys not in shapes:
            shapes.clear()
            kept.clear()
        shapes.add(keys)
        self._learn(slot, keys)
        kept[prints.of(keys, names)] = (keys, html)
        while len(kept) > KEEP_PER_BLOCK:
            kept.popitem(last=False)
        return keys, html

    def drawn(
        self, template: str, block: str, context: dict[str, Any], draw: Callable[[dict[str, Any]], str]
    ) -> str:
        """A block drawn now, for a push that decided it must be (app/realtime/decided.py): what it read
        is learned as `render` learns it, without the fingerprints `render` finds an earlier render of the
        same inputs by. A push draws a block because what it reads moved, and seldom back to what it was:
        the two fingerprints were a fifth of a pool change's first phone (56 µs on an idle server)."""
        tracked = tracking(context["v"])
        html = draw({**context, "v": tracked})
        self.renders += 1
        self._learn((template, block), tuple(sorted(tracked.read)))
        return html

    def _learn(self, slot: tuple[str, str], keys: tuple[str, ...]) -> None:
        """Every key a render of this block read, kept for good (`reads_ever`)."""
        ever = self.reads_ever.get(slot)
        if ever is None or not ever.issuperset(keys):
            ever = frozenset() if ever is None else ever
            self.reads_ever[slot] = ever.union(keys)
            self.reads_version += 1

    def lines(self, prints: Fingerprints, draw: Callable[[], list[str]]) -> list[str]:
        """The log's lines as drawn, once per distinct log."""
        kept = self._kept.setdefault(("", "log lines"), OrderedDict())
        key = prints.of_name("log")
        hit = kept.get(key)
        if hit is None:
            hit = kept[key] = ((), draw())  # type: ignore[assignment]  # lines share the blocks' cache
            while len(kept) > KEEP_PER_BLOCK:
                kept.popitem(last=False)
        return hit[1]  # type: ignore[index, return-value]  # a list of lines here, not one block's html
