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
