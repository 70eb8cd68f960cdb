"""Rows a push draws most often, written in Python: a log line (every command adds one) and a pool's row
(every pool change redraws its card). The first phone of a push draws them before anything is sent; as
Jinja macros, with their dice and their two `{% call %}` forms, they were about 80 and 60 µs of its wait
(docs/performance.md, ninth session); the same markup here costs a few. The pools cards around the rows
are here too (eleventh session), drawn as rows a push narrows by (`narrow.in_rows`). The pages and the
pushes both draw through these (`render.log_line`, the templates' `pool_row`, `table_pools`,
`every_pool`), so a page and a push never differ."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markupsafe import Markup, escape

from app.realtime.narrow import in_rows


def log_entry(entry: dict[str, Any], show_by: bool = True) -> Markup:
    """`<li class="entry">`: the event's words, its dice, who did it, and whether it was undone or secret."""
    undone, secret = entry.get("undone"), entry.get("secret")
    classes = "entry" + (" undone" if undone else "") + (" secret" if secret else "")
    parts = [
        f'<li class="{classes}" data-seq="{escape(entry.get("seq"))}">\n'
        f'  <span class="text">{escape(entry.get("text"))}</span>\n'
    ]
    parts += [dice_faces(roll) for roll in entry.get("rolls") or ()]
    if show_by and entry.get("by"):
        parts.append(f'<small class="by">{escape(entry["by"])}</small>')
    if undone:
        parts.append('<small class="tag">undone</small>')
    if secret:
        parts.append('<small class="tag">secret</small>')
    parts.append("</li>")
    return Markup("".join(parts))


def dice_faces(roll: dict[str, Any] | None) -> str:
    """A roll's dice, each face in its own span (a die left out of the total marked `dropped`), and the
    modifier; its label reads every face."""
    terms = roll.get("terms") if roll else None
    if not terms:
        return ""
    faces = ", ".join(str(escape(face)) for term in terms for face in term.get("faces") or ())
    dice = []
    for term in terms:
        sides, kept, values = escape(term.get("sides")), term.get("kept") or (), term.get("values") or ()
        for i, _face in enumerate(term.get("faces") or ()):
            dropped = "" if i < len(kept) and kept[i] else " dropped"
            value = escape(values[i]) if i < len(values) else ""
            dice.append(f'<span class="die d{sides}{dropped}">{value}</span>')
    modifier = roll.get("modifier") if roll else None  # roll is one here: `terms` came from it
    if modifier:
        dice.append(f'<span class="mod">{modifier:+d}</span>')
    return f'<span class="dice" aria-label="dice {faces}">\n{"".join(dice)}</span>\n'


def pool_row(pool: dict[str, Any], show_owner: bool = True) -> Markup:
    """`<li class="pool">`: a pool's name (and its owner's), its value out of its maximum, and the steps
    down and up for a seat that may change it, each off at the pool's bound."""
    pid, name, value = escape(pool["id"]), escape(pool["name"]), pool["value"]
    low, high = pool.get("min"), pool.get("max")
    owner = f"<small>{escape(pool['owner_name'])}</small> " if show_owner and pool.get("owner_name") else ""
    parts = [f'<li class="pool" id="pool-{pid}">\n  <span class="name">{owner}{name}</span>\n']
    can_adjust = pool.get("can_adjust")
    if can_adjust:
        parts.append(_step(pid, name, -1, low is not None and value <= low))
    of_max = f"<small>/{escape(high)}</small>" if high is not None else ""
    parts.append(f'  <output class="value" aria-label="{name}">{escape(value)}{of_max}</output>\n')
    if can_adjust:
        parts.append(_step(pid, name, 1, high is not None and value >= high))
    if pool.get("hidden"):
        parts.append('<span class="tag">hidden</span>')
    parts.append("</li>")
    return Markup("".join(parts))


def table_pools(pools: Sequence[dict[str, Any]], oob: str = "") -> Markup:
    """A player's card of the table's pools (those of no character): hidden while there are none."""
    shared = [(f"pool-{pool['id']}", pool_row(pool)) for pool in pools if not pool.get("owner")]
    head = (
        f'<section id="pools" class="card"{oob}{"" if shared else " hidden"}>\n'
        '  <h2>Table pools</h2>\n  <ul class="pools">'
    )
    return Markup(in_rows(head, shared, "</ul>\n</section>\n"))


def every_pool(pools: Sequence[dict[str, Any]], oob: str = "") -> Markup:
    """The GM's list of every pool, each with its owner's name, or a line saying there are none yet."""
    head = f'<ul id="pools" class="pools"{oob}>\n'
    if not pools:
        return Markup(f'{head}<li class="muted">No pools yet (Good Karma, Fate, Ammo\u2026).</li>\n</ul>\n')
    return Markup(in_rows(head, [(f"pool-{pool['id']}", pool_row(pool)) for pool in pools], "\n</ul>\n"))


def _step(pid: Markup, name: Markup, delta: int, off: bool) -> str:
    """One step of a pool as a command form (what `ui.command_form` draws, with its message output)."""
    label, said, sign = (
        ("Take one from", "minus one", "\u2212") if delta < 0 else ("Add one to", "plus one", "+")
    )
    return (
        '<form class="cmd step" method="post" action="commands" hx-post="commands" '
        'hx-target="find .form-msg" hx-swap="innerHTML" hx-sync="this:queue all" '
        f'aria-label="{label} {name}">\n'
        '  <input type="hidden" name="type" value="generic.pool.adjust">\n'
        f'  <input type="hidden" name="pool" value="{pid}"><input type="hidden" name="delta" value="{delta}">'
        f'<button type="submit" aria-label="{name} {said}"{" disabled" if off else ""}>{sign}</button>\n'
        '  <output class="form-msg" aria-live="polite"></output>\n</form>\n'
    )
