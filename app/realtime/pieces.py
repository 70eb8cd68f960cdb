"""Large pieces of a board that a page already holds, sent as stubs the page fills from what it has.

The GM's board draws every wall of the scene (300 walls are 60 KB), and every token move redraws the
board. A piece the template marks (`<g data-piece="walls">…</g><!--/piece-->`) that reads the same in the
block the viewer's sockets hold (a push's diff goes only to them) and in the new one is sent as
`<g data-piece-kept="walls"></g>`: the page's script puts a copy of the piece it holds in its place
(static/js/fray.js), and fetches the page again should it hold none. The page ends up as drawn fresh.
"""

from __future__ import annotations

import re

END = "</g><!--/piece-->"
SMALLEST = 512  # characters: a smaller piece is sent whole (a stub saves nothing worth the step)
_START = re.compile(r'<g data-piece="([a-z-]+)">')


def _pieces(html: str) -> dict[str, tuple[int, int]]:
    """Each marked piece of a block: (start, end of its element, before the END comment), by name."""
    found: dict[str, tuple[int, int]] = {}
    for m in _START.finditer(html):
        end = html.find(END, m.end())
        if end < 0 or m.group(1) in found:
            return {}  # not as the templates write it: nothing is stubbed
        found[m.group(1)] = (m.start(), end + len("</g>"))
    return found


def kept(old: str, new: str) -> str:
    """The new block with each large piece that reads the same in the old one as a stub."""
    if "data-piece=" not in new:
        return new
    before = _pieces(old)
    out, at = [], 0
    for name, (start, end) in sorted(_pieces(new).items(), key=lambda item: item[1]):
        held = before.get(name)
        if held is None or end - start < SMALLEST or old[held[0] : held[1]] != new[start:end]:
            continue
        out += [new[at:start], f'<g data-piece-kept="{name}"></g>']
        at = end
    return "".join(out) + new[at:] if out else new
