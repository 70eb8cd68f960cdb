"""The Jinja environment the pages are drawn in: a view's keys read as Jinja would read them but faster,
a render's context made of plain dicts, and the helpers the templates call (the map's pieces written in
Python, the drawn pieces kept for what they are given, a token sheet's and its buttons' one object)."""

from __future__ import annotations

import hashlib
from collections import ChainMap
from collections.abc import Mapping
from functools import cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, Template, select_autoescape
from jinja2.runtime import Context, new_context

from app.realtime import svg
from app.realtime.drawn import Drawn
from app.realtime.looks import seat_colours, token_looks
from app.realtime.marks import token_marks
from app.realtime.tracked import Tracked
from app.resources import ROOT
from app.rules.dice import fraction_text

TEMPLATES = ROOT / "templates"


@cache
def static_version() -> str:
    """A short hash of our own static files, so browsers may cache them for a year."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "static").rglob("*")):
        if path.is_file():
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


class _Env(Environment):
    """Jinja's environment, reading a view's dict's key as Jinja would (`t.x`: no attribute of a plain
    dict or a tracked view has that name, so it is the key) without first failing to find an attribute
    of that name, a quarter of a map block's time: a view's keys are read a few hundred times a block."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        names = _ATTRIBUTES.get(type(obj))
        if names is not None and attribute not in names:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


_ATTRIBUTES: dict[type, frozenset[str]] = {dict: frozenset(dir(dict)), Tracked: frozenset(dir(Tracked))}


class _Template(Template):
    """A template whose render context is its globals and the render's variables merged as plain dicts
    (Jinja copies its globals' ChainMap key by key in Python: a tenth of a small block's render, and every
    push renders blocks for every viewer whose view changed). The same context: the template's own
    globals over the environment's, the variables over both."""

    def new_context(
        self,
        vars: dict[str, Any] | None = None,
        shared: bool = False,
        locals: Mapping[str, Any] | None = None,
    ) -> Context:
        found = self.globals
        if shared or not isinstance(found, ChainMap) or any(type(m) is not dict for m in found.maps):
            return super().new_context(vars, shared, locals)
        merged: dict[str, Any] = {}
        for layer in reversed(found.maps):
            merged.update(layer)
        if vars:
            merged.update(vars)
        return new_context(self.environment, self.name, self.blocks, merged, True, found, locals)


def make_env() -> Environment:
    """The environment every page and live block is drawn in, with the helpers its templates call."""
    env = _Env(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )
    env.template_class = _Template
    env.filters["percent"] = fraction_text
    env.globals["static_version"] = static_version
    env.filters["token_marks"] = token_marks
    env.globals["token_looks"], env.globals["seat_colours"] = token_looks, seat_colours
    env.globals["tile_layer"] = svg.tile_layer
    env.globals["token_items"] = svg.token_items
    env.globals["sight_layer"], env.globals["door_layer"] = svg.sight_layer, svg.door_layer
    env.globals["drawn"] = Drawn()
    env.globals["sheet_of"], env.globals["acts_of"] = sheet_of, acts_of
    return env


SHEET_READS = ("id", "participant", "name", "movable")


_SHEETS: dict[tuple[Any, ...], dict[str, Any]] = {}
SHEETS_KEPT = 4096


def sheet_of(token: dict[str, Any]) -> dict[str, Any]:
    """What a phone's token sheet shows of its token (partials/map.html): the sheet is drawn of this, so a
    step, which moves the token and nothing the sheet shows, finds it drawn. One dict for each sheet, so
    the drawing is found by its identity (app/realtime/drawn.py), not by pickling it every push."""
    shown = tuple(token.get(k) for k in SHEET_READS)
    try:
        hit = _SHEETS.get(shown)
    except TypeError:  # a value that cannot be a key: a dict of its own
        return dict(zip(SHEET_READS, shown, strict=True))
    if hit is None:
        if len(_SHEETS) >= SHEETS_KEPT:
            _SHEETS.clear()
        hit = _SHEETS[shown] = dict(zip(SHEET_READS, shown, strict=True))
    return hit


_ACTS: dict[tuple[int, ...], list[dict[str, Any]]] = {}  # each list holds its options: their ids stay theirs
ACTS_KEPT = 4096


def acts_of(options: list[dict[str, Any]], participant: str | None) -> list[dict[str, Any]]:
    """A character's options (its token sheet's buttons), one list for the same options: a view's options
    are kept by what they read (app/rules/game.py), so a sheet is found drawn by identity push after push
    (app/realtime/drawn.py) instead of its buttons being pickled for every phone."""
    acts = [o for o in options if o.get("participant") == participant]
    key = tuple(map(id, acts))
    hit = _ACTS.get(key)
    if hit is None:
        if len(_ACTS) >= ACTS_KEPT:
            _ACTS.clear()
        hit = _ACTS[key] = acts
    return hit
