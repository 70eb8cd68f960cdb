"""What a live block's template source reads: the context names it mentions, its includes' too.

The block memo (`blocks.py`) fingerprints a block by the values of these names, so a block whose names all
read the same is the same HTML. Parsed once per template and block (`functools.cache`).
"""

from __future__ import annotations

from functools import cache

from jinja2 import Environment, nodes

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
def mentions(env: Environment, template: str, block: str) -> frozenset[str] | None:
    """Every name a block's source mentions, its includes' too; None if unknowable."""
    for node in _parsed(env, template).find_all(nodes.Block):
        if node.name == block:
            found = _names_in(env, node, frozenset({template}))
            return None if found is None else frozenset(found)
    raise KeyError(f"{template} has no block {block}")


@cache
def names_read(env: Environment, template: str, block: str) -> tuple[str, ...]:
    """The context names a block's source mentions, its includes' too (loop variables too: harmless)."""
    found = mentions(env, template, block)
    return EVERY_NAME if found is None else tuple(sorted(found - CONSTANT))
