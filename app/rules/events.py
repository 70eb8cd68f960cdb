"""Typed, versioned event payloads and the upcasters that bring old records up to today's reading.

Every event type has a payload model (a `Payload` subclass registered with `@payload(type)`), whose
`VERSION` is the shape deciders write today. A stored event keeps the version it was written with;
loading it runs the upcasters from that version to the current one, one step at a time
(`@upcaster(type, from_version)` turns a version-n dict into a version-n+1 dict), and reducers then read
the parsed model's fields (`event.payload.participant`), never string keys.

The rule: a change to what a recorded log means bumps the type's VERSION and adds an upcaster from the
old version; a recorded log is never edited. All of this is pure: no I/O, no clock, no dice.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict

__all__ = [
    "PAYLOADS",
    "UPCASTERS",
    "Payload",
    "UnknownEvent",
    "current_version",
    "model_of",
    "parse",
    "payload",
    "upcast",
    "upcaster",
]


class Payload(BaseModel):
    """An event's data as the rules read it.

    Fields a model does not name are kept (history is never refused for carrying more than a model
    says); tests/rules/test_event_payloads.py checks that every recorded and demo event is fully named.
    """

    model_config = ConfigDict(frozen=True, extra="allow")

    TYPE: ClassVar[str] = ""
    VERSION: ClassVar[int] = 1

    def given(self, name: str) -> bool:
        """Whether the record carries `name` (an optional field it leaves out reads as its default)."""
        return name in self.model_fields_set


class UnknownEvent(LookupError):
    """An event type no payload model is registered for, or a version no upcaster reaches."""


PAYLOADS: dict[str, type[Payload]] = {}
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
UPCASTERS: dict[tuple[str, int], Upcaster] = {}

P = TypeVar("P", bound=type[Payload])


def payload(type_: str, version: int = 1) -> Callable[[P], P]:
    """Register a class as the payload model of `type_` at its current `version`."""

    def register(cls: P) -> P:
        if type_ in PAYLOADS and PAYLOADS[type_] is not cls:
            raise ValueError(f"two payload models for {type_}: {PAYLOADS[type_].__name__} and {cls.__name__}")
        cls.TYPE = type_
        cls.VERSION = version
        PAYLOADS[type_] = cls
        return cls

    return register


def upcaster(type_: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register the step that turns a `from_version` record of `type_` into a `from_version + 1` one."""

    def register(fn: Upcaster) -> Upcaster:
        key = (type_, from_version)
        if key in UPCASTERS:
            raise ValueError(f"two upcasters for {type_} v{from_version}")
        UPCASTERS[key] = fn
        return fn

    return register


_loaded = False
_loading = threading.RLock()  # another thread must not see the models half registered


def _registered() -> dict[str, type[Payload]]:
    """Every part's models. A part registers them when its events module is imported, so the first look-up
    loads every game system: an event read before its system's code ran is still read at its version."""
    global _loaded
    if not _loaded:
        with _loading:
            if not _loaded:
                from app.rules import registry

                registry.systems()
                _loaded = True
    return PAYLOADS


def model_of(type_: str) -> type[Payload]:
    try:
        return _registered()[type_]
    except KeyError:
        raise UnknownEvent(f"no payload model for the event type {type_!r}") from None


def current_version(type_: str) -> int:
    """The version deciders write `type_` at today (1 for a type no part knows)."""
    model = _registered().get(type_)
    return model.VERSION if model else 1


def upcast(type_: str, version: int, data: Mapping[str, Any]) -> tuple[int, dict[str, Any]]:
    """A record of `type_` written at `version`, brought step by step to the current version."""
    current = current_version(type_)
    if version > current:
        raise UnknownEvent(f"{type_} v{version} was written by a newer Fray (this one reads v{current})")
    out = dict(data)
    while version < current:
        step = UPCASTERS.get((type_, version))
        if step is None:
            raise UnknownEvent(f"no upcaster for {type_} from v{version}")
        out = step(dict(out))
        version += 1
    return version, out


def parse(type_: str, data: Mapping[str, Any]) -> Payload:
    """The payload model of a current-version record."""
    return model_of(type_).model_validate(dict(data))
