"""Digests of what a block read: equal bytes only from equal values, and long lists found by identity."""

from __future__ import annotations

import hashlib
import json
import pickle
from collections.abc import Callable
from typing import Any, TypeVar, cast

LASTING_LENGTH = 64  # a list this long in a view part is digested alone, and found again by identity
LASTING_KEPT = 64
_LASTING = "\0lasting"
T = TypeVar("T")


def digest(value: Any) -> bytes:
    # pickle walks a view several times faster than json; equal bytes can only come from equal values.
    try:
        data = pickle.dumps(value, protocol=5)
    except (pickle.PicklingError, TypeError, AttributeError):
        data = json.dumps(value, default=repr, separators=(",", ":")).encode()
    return hashlib.blake2b(data, digest_size=16).digest()


class ByIdentity:
    """Values made of objects a view shares between pushes, found by the object's identity: each object
    is held while its value is, so its id stays its own (a view is never changed once built)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._kept: dict[int, tuple[Any, Any]] = {}

    def get(self, obj: Any, make: Callable[[Any], T]) -> T:
        hit = self._kept.get(id(obj))
        if hit is None or hit[0] is not obj:
            if len(self._kept) >= self.limit:
                self._kept.clear()
            hit = self._kept[id(obj)] = (obj, make(obj))
        return cast(T, hit[1])


class Lasting:
    """The digests of a view's long lists, by identity across pushes: the GM's walls are kept on their
    scene (app/rules/map/view.py), the same list push after push, and are pickled once, not per push."""

    def __init__(self) -> None:
        self._digests = ByIdentity(LASTING_KEPT)

    def parts(self, value: dict[str, Any]) -> dict[str, Any]:
        """A view part with its long lists named by their digests: what is digested of it. A view holds
        no tuples, so a list's stand-in is never taken for a value."""
        long = [k for k, v in value.items() if isinstance(v, list) and len(v) >= LASTING_LENGTH]
        if not long:
            return value
        out = dict(value)
        for k in long:
            out[k] = (_LASTING, self._digests.get(value[k], digest))
        return out
