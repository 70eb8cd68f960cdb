"""Game systems by key. Each package under app/rules/ that exposes `SYSTEM` is one.

Built-in systems plug in exactly as an outside one would: a package with a SystemPart named SYSTEM.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

import app.rules
from app.rules.errors import InputError
from app.rules.game import Game
from app.rules.system import SystemPart

_NOT_SYSTEMS = {"campaign"}


@cache
def systems() -> dict[str, SystemPart]:
    found: dict[str, SystemPart] = {}
    for module in pkgutil.iter_modules(app.rules.__path__):
        if not module.ispkg or module.name in _NOT_SYSTEMS:
            continue
        system = getattr(importlib.import_module(f"app.rules.{module.name}"), "SYSTEM", None)
        if isinstance(system, SystemPart):
            found[system.key] = system
    # The generic tabletop first, then the games by name.
    return dict(sorted(found.items(), key=lambda kv: (kv[0] != "generic", kv[1].title)))


@cache
def game(key: str) -> Game:
    system = systems().get(key)
    if system is None:
        names = ", ".join(systems())
        raise InputError(f"There is no game system '{key[:40]}'. Choose one of: {names}.")
    return Game(system)
