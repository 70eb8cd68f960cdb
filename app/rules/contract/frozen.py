"""The base of the contract's value objects: immutable, and refusing fields they do not know; and how a
value derived from one is kept on it (`kept`) instead of in a module-global cache."""

from collections.abc import Callable
from operator import is_
from typing import Any, TypeVar, cast
from weakref import ref

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


T = TypeVar("T")


class Memo:
    """An entry kept in a model's `__dict__` beside its fields: what it was made of (`basis`) and the
    value. Equal only to itself, so comparing two models' `__dict__`s (pydantic's quick path to `==`)
    never walks into what was kept; it falls back to comparing their fields."""

    __slots__ = ("basis", "value")

    def __init__(self, basis: Any, value: Any):
        self.basis = basis
        self.value = value


def kept(owner: BaseModel, key: str, basis: tuple[object, ...], build: Callable[[], T]) -> T:
    """A value derived from an immutable model, kept on the model itself: no global cache, no id(); it
    lives and dies with the object it was made from (as `map/geometry.py` keeps a scene's fogged points).

    It is an entry of the model's `__dict__` beside its fields, under a `key` no field has: dumps,
    equality and validation ignore it. A copy of the model (`model_copy`) carries the entry along, so
    `basis` says what the value is made of, compared by identity: where any of it is another object the
    value is made afresh. A value made of every field is `kept_whole`."""
    hit = owner.__dict__.get(key)
    if hit is not None and len(hit.basis) == len(basis) and all(map(is_, hit.basis, basis)):
        return cast(T, hit.value)
    value = build()
    owner.__dict__[key] = Memo(basis, value)
    return value


def kept_whole(owner: BaseModel, key: str, build: Callable[[], T]) -> T:
    """`kept` for a value made of the whole model (every field). The entry knows its model by a weak
    reference: a copy of the model carries the entry along, but it is another object, so it makes its own."""
    hit = owner.__dict__.get(key)
    if hit is not None and hit.basis() is owner:
        return cast(T, hit.value)
    value = build()
    owner.__dict__[key] = Memo(ref(owner), value)
    return value


def kept_table(owner: BaseModel, key: str, limit: int = 256) -> dict[Any, Any]:
    """A dict kept on the model for values keyed by more than the model (a viewer's kind): the caller
    checks each value's basis itself. Copies of the model share it; it starts afresh past `limit`."""
    hit = owner.__dict__.get(key)
    if hit is None or len(hit.value) > limit:
        hit = owner.__dict__[key] = Memo(None, {})
    return cast(dict[Any, Any], hit.value)
