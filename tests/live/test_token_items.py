"""The map's tokens drawn in Python (app/realtime/svg.py, `token_items`) read as the template's loop drew
them: each token's piece with its look, its badges and words, whose turn it is and its radius."""

from __future__ import annotations

import itertools

from app.realtime import svg
from app.realtime.render import ENV

LOOP = ENV.from_string(
    '{% from "partials/map.html" import token_item %}'
    "{% for t in tokens %}"
    "{% set said = marks.words.get(t.participant) if marks and t.participant else none %}"
    "{{ drawn(token_item, t, looks.get(t.id) or {}, said, marks.badges[t.participant] if said else none,"
    " marks and t.participant and marks.turn == t.participant, (t.size * size / 2 * 0.9) | round(1), page) }}"
    "{% endfor %}"
)


def _token(i: int, pid: str | None = None, size: float = 1.0, mine: bool = False) -> dict:
    return {
        "id": f"t{i}",
        "x": 10.0 * i,
        "y": 5.0,
        "size": size,
        "color": "#3d7dd8",
        "participant": pid,
        "name": f"Token <{i}>",
        "initials": "TK",
        "mine": mine,
        "locked": False,
        "movable": mine,
    }


def test_the_tokens_read_as_the_templates_loop_drew_them_for_every_mark_and_look():
    tokens = [_token(1, "p1", mine=True), _token(2, "p2", size=2.0), _token(3), _token(4, "p3", size=0.5)]
    badges = {"p1": [{"kind": "count", "value": 2, "label": "Ammo"}, {"kind": "bar", "value": 1, "max": 3}]}
    marks_cases = [
        None,
        {"badges": badges, "words": {"p1": ["2 ammo", "1 of 3"]}, "turn": "p1"},
        {"badges": {}, "words": {}, "turn": "p2"},
    ]
    looks_cases = [{}, {"t1": {"side": "pc", "ring": "#f00", "fill": "#123"}, "t3": {"side": "npc"}}]
    drawn, item = ENV.globals["drawn"], ENV.globals["mapui"].token_item  # type: ignore[attr-defined]
    for marks, looks, page in itertools.product(marks_cases, looks_cases, ["player", "gm"]):
        looped = LOOP.render(tokens=tokens, marks=marks, looks=looks, page=page, size=64.0, drawn=drawn)
        drawn_here = str(svg.token_items(drawn, item, tokens, looks, marks, 64.0, page))
        assert drawn_here.count("data-token=") == 4
        assert "".join(drawn_here.split()) == "".join(looped.split())  # the same pieces, spaces aside
    assert 'class="token turn mine movable"' in str(
        svg.token_items(drawn, item, tokens, {}, marks_cases[1], 64.0, "player")
    )
