"""A view that notes which of its keys a template read: how the block memo learns what a block read."""

from __future__ import annotations

from typing import Any


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


class NotInView(Exception):
    """A block read a key its part of the view was not built with: draw it from the whole view."""


class PartView(dict):
    """Some keys of a view, built alone (`Game.view_parts`): a block drawn from it may read only those."""


class StrictTracked(Tracked):
    """A tracked part of a view: reading a key it lacks, or all of it, raises NotInView rather than find
    nothing where the whole view has something (app/realtime/decided.py then draws from the whole view)."""

    __slots__ = ()

    def __getitem__(self, key: str) -> Any:
        if not super().__contains__(key):
            raise NotInView(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        return self[key]

    def __contains__(self, key: object) -> bool:
        self[str(key)]
        return True

    def _all(self) -> None:
        raise NotInView("*")


def tracking(view: dict[str, Any]) -> Tracked:
    """A view that notes what is read of it: strictly, for a part of one."""
    return StrictTracked(view) if isinstance(view, PartView) else Tracked(view)
