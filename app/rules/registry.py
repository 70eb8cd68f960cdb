"""Game systems by key, found through the `fray.systems` entry-point group.

A package adds a game exactly as a built-in one does: it names its SystemPart in its pyproject.toml,

    [project.entry-points."fray.systems"]
    mygame = "mygame:SYSTEM"

and, once installed beside Fray, `game("mygame")` plays it. The entry point's name is the system's key.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points

from app.rules.contract.part import SystemPart
from app.rules.errors import InputError
from app.rules.game import Game

GROUP = "fray.systems"

# The built-in systems as pyproject.toml names them (tests/rules/test_registry.py keeps the two the same).
# Read too when the installed metadata lacks one: an editable install made before the group existed
# keeps its old metadata until it is reinstalled (`pip install --no-deps -e .`).
BUILT_IN = {
    "generic": "app.rules.generic:SYSTEM",
    "fivebyfive": "app.rules.fivebyfive:SYSTEM",
    "tote": "app.rules.tote:SYSTEM",
    "trinity": "app.rules.trinity:SYSTEM",
    "triptycho": "app.rules.triptycho:SYSTEM",
}


@cache
def systems() -> dict[str, SystemPart]:
    points = {point.name: point for point in entry_points(group=GROUP)}
    for name, value in BUILT_IN.items():
        points.setdefault(name, EntryPoint(name=name, value=value, group=GROUP))
    found: dict[str, SystemPart] = {}
    for name, point in points.items():
        system = point.load()
        if not isinstance(system, SystemPart) or system.key != name:
            raise TypeError(
                f"The {GROUP} entry point {name} = {point.value} is not a SystemPart keyed {name}."
            )
        found[name] = system
    # The generic tabletop first, then the games by name.
    return dict(sorted(found.items(), key=lambda kv: (kv[0] != "generic", kv[1].title)))


@cache
def game(key: str) -> Game:
    system = systems().get(key)
    if system is None:
        names = ", ".join(systems())
        raise InputError(f"There is no game system '{key[:40]}'. Choose one of: {names}.")
    return Game(system)
