"""A log line's HTML, written in Python: every command adds one, and the first phone of a push draws it
before anything is sent. As a Jinja macro (with its dice) it cost about 80 µs of that phone's wait; the
same markup here costs a few. The pages and the pushes both draw lines through `render.log_line`."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape


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
    modifier = roll.get("modifier") if roll else None
    if modifier:
        dice.append(f'<span class="mod">{modifier:+d}</span>')
    return f'<span class="dice" aria-label="dice {faces}">\n{"".join(dice)}</span>\n'
