"""Render each distinct live block once, whichever views share it.

Eight players at a table are eight views, but most of a page (the log, the pools, the initiative) reads
the same for all of them. A block's render is kept with the fingerprint of what it read: the top-level
keys of the view it looked at (recorded while it rendered) and the other context names its source
mentions. A template is a pure function of what it reads, so when another view, or the same view after
a push, has the same fingerprint, the block is the same HTML and is not rendered again.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from collections import OrderedDict
from collections.abc import Callable
from functools import cache
from typing import Any

from jinja2 import Environment, nodes

# Renders kept per block: a room's distinct views of its latest states (a block of each phone's own, at a
# table of 200 seats, is 200 renders a state).
KEEP_PER_BLOCK = 256
MAX_SHAPES = 16  # distinct sets of view keys a block was seen to read; more and the memo starts afresh


class Tracked(dict):
    """A view that notes which of its keys a template read; iterating it counts as reading them all.

    C code that walks a dict directly (json.dumps of the whole view) is not seen: templates read the view
    through its keys (docs/systems.md).
    """

    __slots__ = ("_fray_read",)

    def __init__(self, data: dict[str, Any]):
        super().__init__(data)
        self._fray_read: set[str] = set()

    @property
    def read(self) -> set[str]:
        return self._fray_read

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self.read.add(str(key))
        return super().__contains__(key)

    def _all(self) -> None:
        self.read.update(super().keys())

    def __iter__(self):
        self._all()
        return super().__iter__()

    def keys(self):
        self._all()
        return super().keys()

    def items(self):
        self._all()
        return super().items()

    def values(self):
        self._all()
        return super().values()


def digest(value: Any) -> bytes:
    # pickle walks a view several times faster than json; equal bytes can only come from equal values.
    try:
        data = pickle.dumps(value, protocol=5)
    except (pickle.PicklingError, TypeError, AttributeError):
        data = json.dumps(value, default=repr, separators=(",", ":")).encode()
    return hashlib.blake2b(data, digest_size=16).digest()


class Fingerprints:
    """The digests of one render context's parts, each computed at most once."""

    def __init__(self, context: dict[str, Any]):
        self.context = context
        self.view: dict[str, Any] = context["v"]
        self._view: dict[str, bytes] = {}
        self._names: dict[str, bytes] = {}

    def of_view(self, key: str) -> bytes:
        if key not in self._view:
            self._view[key] = digest(self.view.get(key, "\0missing"))
        return self._view[key]

    def of_name(self, name: str) -> bytes:
        if name not in self._names:
            value = self.context.get(name, "\0missing")
            # A value that says what decides it (the log's entries) is fingerprinted by that alone.
            self._names[name] = digest(getattr(value, "fingerprint", value))
        return self._names[name]

    def of(self, keys: tuple[str, ...], names: tuple[str, ...]) -> bytes:
        if names == EVERY_NAME:
            names = tuple(sorted(set(self.context) - CONSTANT))
        parts = [self.of_view(k) for k in keys] + [self.of_name(n) for n in names]
        return hashlib.blake2b(b"".join(parts), digest_size=16).digest()


CONSTANT = frozenset({"v", "ui", "oob", "static_version"})  # the view is tracked; the rest never varies
EVERY_NAME = ("*",)  # a block whose sources cannot all be read: every context name counts


# What pulls in another template; a tuple of these node types finds each as itself, not as a Stmt.
_INCLUDING: tuple[type[nodes.Include | nodes.Import | nodes.FromImport], ...] = (
    nodes.Include,
    nodes.Import,
    nodes.FromImport,
)


@cache
def _parsed(env: Environment, template: str) -> nodes.Template:
    return env.parse(env.loader.get_source(env, template)[0])  # type: ignore[union-attr]  # ENV has a loader


def _names_in(env: Environment, node: nodes.Node, seen: frozenset[str]) -> set[str] | None:
    """The context names a piece of template mentions, following what it includes; None if unknowable."""
    found = {n.name for n in node.find_all(nodes.Name) if n.ctx == "load"}
    for inner in node.find_all(_INCLUDING):
        target = inner.template
        if not isinstance(target, nodes.Const) or not isinstance(target.value, str):
            return None
        if target.value in seen:
            continue
        more = _names_in(env, _parsed(env, target.value), seen | {target.value})
        if more is None:
            return None
        found |= more
    return found


@cache
def names_read(env: Environment, template: str, block: str) -> tuple[str, ...]:
    """The context names a block's source mentions, its includes' too (loop variables too: harmless)."""
    for node in _parsed(env, template).find_all(nodes.Block):
        if node.name == block:
            found = _names_in(env, node, frozenset({template}))
            return EVERY_NAME if found is None else tuple(sorted(found - CONSTANT))
    raise KeyError(f"{template} has no block {block}")


class BlockMemo:
    """Renders kept per (template, block), each with what it read."""

    def __init__(self) -> None:
        self._kept: dict[tuple[str, str], OrderedDict[bytes, tuple[tuple[str, ...], str]]] = {}
        self._shapes: dict[tuple[str, str], set[tuple[str, ...]]] = {}
        self.renders = 0  # how many blocks were really rendered (for tests and benchmarks)
        self._last: Fingerprints | None = None

    def prints(self, context: dict[str, Any]) -> Fingerprints:
        """The fingerprints of a view's context, shared by its blocks and its log lines."""
        if self._last is None or self._last.view is not context["v"]:
            self._last = Fingerprints(context)
        return self._last

    def render(
        self,
        env: Environment,
        template: str,
        block: str,
        prints: Fingerprints,
        draw: Callable[[dict[str, Any]], str],
    ) -> str:
        slot = (template, block)
        names = names_read(env, template, block)
        kept = self._kept.setdefault(slot, OrderedDict())
        for keys in self._shapes.get(slot, ()):
            hit = kept.get(prints.of(keys, names))
            if hit is not None and hit[0] == keys:
                return hit[1]
        tracked = Tracked(prints.view)
        html = draw({**prints.context, "v": tracked})
        self.renders += 1
        keys = tuple(sorted(tracked.read))
        shapes = self._shapes.setdefault(slot, set())
        if len(shapes) >= MAX_SHAPES and keys not in shapes:
            shapes.clear()
            kept.clear()
        shapes.add(keys)
        kept[prints.of(keys, names)] = (keys, html)
        while len(kept) > KEEP_PER_BLOCK:
            kept.popitem(last=False)
        return html

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
