"""Pieces of a block drawn once for what they are given, whichever viewer's block asks.

A block is redrawn for a viewer when anything it read changed, but most of it is pieces that did not: a
token moves and the map block of every viewer who sees it is redrawn, yet five of its six tokens read the
same as before. A macro is a pure function of its arguments (and the environment's constant globals), so
its markup is kept by a digest of them: `{{ drawn(token_item, t, look, ...) }}` draws a token only the
first time those arguments are seen, by any viewer of any table in the process.

Arguments the view shares between pushes (the GM's walls, kept on their scene; a token's view, kept on the
token: app/rules/map/view.py) are found by identity, and numbers and strings by their value, before anything
is pickled: a view is never changed once built, and each is held here while its key is, so its id stays its
own.
"""

from __future__ import annotations

import hashlib
import pickle
from collections import OrderedDict
from typing import Any

from jinja2 import Undefined
from jinja2.runtime import Macro
from markupsafe import Markup

KEEP = 8192  # pieces kept in the process (a token's markup is about a kilobyte)
KEEP_CHARS = 16 * 1024 * 1024  # and their text at most (the GM's 2,000 walls are a few hundred KB)
KEEP_BY_IDENTITY = 1024  # the last arguments whose keys are found by identity


# Arguments named by their value in the identity key (a token's radius is a new float on every push); any
# other argument by its identity. The type is part of the name: 1, 1.0 and True draw differently.
_SCALARS = frozenset({str, int, float, bool, type(None)})


def _by_value_or_identity(arg: Any) -> Any:
    kind = type(arg)
    if kind is float:
        return (kind, arg.hex())  # 0.0 and -0.0 are equal, and written apart
    return (kind, arg) if kind in _SCALARS else id(arg)


class Drawn:
    """The kept pieces, by (macro, digest of its arguments); the oldest let go past `keep` pieces or
    `keep_chars` characters."""

    def __init__(self, keep: int = KEEP, keep_chars: int = KEEP_CHARS) -> None:
        self.keep, self.keep_chars = keep, keep_chars
        self._kept: OrderedDict[tuple[Any, bytes], Markup] = OrderedDict()
        self._chars = 0
        # (macro's code, each argument's id or value) -> (the arguments, held so ids stay theirs; the key)
        self._by_identity: dict[tuple[Any, ...], tuple[tuple[Any, ...], tuple[Any, bytes]]] = {}
        self.draws = 0  # how many pieces were really drawn (for tests and benchmarks)
        self.unkept = 0  # how many were drawn without being kept

    def __call__(self, macro: Macro, *args: Any) -> Markup:
        code = macro._func.__code__  # names the macro: two templates' macros of one name never share
        same = (code, *map(_by_value_or_identity, args))
        known = self._by_identity.get(same)
        if known is not None:  # its entry holds its arguments alive: an id in its key is still theirs
            key = known[1]
        else:
            if any(isinstance(a, Undefined) for a in args):  # it pickles the object it was looked up on
                return self._unkept(macro, args)
            try:  # pickled: equal bytes only from equal values (a str and Markup of one text differ)
                data = pickle.dumps(args, protocol=5)
            except (pickle.PicklingError, TypeError, AttributeError):
                return self._unkept(macro, args)  # not to be told apart safely
            key = (code, hashlib.blake2b(data, digest_size=16).digest())
            if len(self._by_identity) >= KEEP_BY_IDENTITY:
                self._by_identity.clear()
            self._by_identity[same] = (args, key)
        hit = self._kept.get(key)
        if hit is not None:
            self._kept.move_to_end(key)
            return hit
        html = self._kept[key] = Markup(macro(*args))
        self.draws += 1
        self._chars += len(html)
        while len(self._kept) > self.keep or (self._chars > self.keep_chars and len(self._kept) > 1):
            _, gone = self._kept.popitem(last=False)
            self._chars -= len(gone)
        return html

    def _unkept(self, macro: Macro, args: tuple[Any, ...]) -> Markup:
        """Drawn and not kept (an argument the key cannot name); counted, so a test sees it."""
        self.unkept += 1
        return Markup(macro(*args))
