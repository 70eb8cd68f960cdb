"""A log line's markup (app/realtime/log_html.py): what the pages' styles and the live log's appends read."""

from __future__ import annotations

from app.realtime import render
from app.realtime.log_html import dice_faces, log_entry


def _roll(sides: int, faces: list[int], kept: list[bool], modifier: int = 0) -> dict:
    return {"terms": [{"sides": sides, "faces": faces, "values": faces, "kept": kept}], "modifier": modifier}


def _entry(**fields) -> dict:
    return {"seq": 5, "type": "generic.roll", "text": "", "by": None, "at": "x", "undone": False,
            "secret": False, "rolls": [], **fields}  # fmt: skip


def test_a_line_without_dice_is_its_words_in_the_entry():
    line = log_entry(_entry(seq=6, text="Gold 3"))
    assert line == '<li class="entry" data-seq="6">\n  <span class="text">Gold 3</span>\n</li>'


def test_each_die_is_its_own_span_a_dropped_one_marked_and_the_modifier_signed():
    line = log_entry(
        _entry(text="r", by="Ann", rolls=[_roll(6, [3, 4], [True, False], 1), _roll(20, [13], [True], -2)])
    )
    assert line == (
        '<li class="entry" data-seq="5">\n  <span class="text">r</span>\n'
        '<span class="dice" aria-label="dice 3, 4">\n'
        '<span class="die d6">3</span><span class="die d6 dropped">4</span>'
        '<span class="mod">+1</span></span>\n'
        '<span class="dice" aria-label="dice 13">\n'
        '<span class="die d20">13</span><span class="mod">-2</span></span>\n'
        '<small class="by">Ann</small></li>'
    )


def test_no_modifier_no_mod_span_and_no_terms_no_dice():
    assert (
        dice_faces(_roll(6, [3], [True]))
        == '<span class="dice" aria-label="dice 3">\n<span class="die d6">3</span></span>\n'
    )
    assert dice_faces({"terms": [], "modifier": 2}) == ""
    assert dice_faces(None) == ""


def test_undone_and_secret_are_classes_and_tags_and_the_author_left_out_when_asked():
    line = log_entry(_entry(text="x", by="Ann", undone=True, secret=True), show_by=False)
    assert line.startswith('<li class="entry undone secret" data-seq="5">')
    assert line.endswith('<small class="tag">undone</small><small class="tag">secret</small></li>')
    assert "Ann" not in line


def test_words_and_names_are_escaped():
    line = log_entry(_entry(text="<b>hit</b> & run", by='"Ann" <3'))
    assert "&lt;b&gt;hit&lt;/b&gt; &amp; run" in line
    assert "&#34;Ann&#34; &lt;3" in line
    assert "<b>" not in line


def test_the_pages_draw_the_same_line():
    entry = _entry(text="r", by="Ann", rolls=[_roll(6, [2], [True], 3)])
    assert render.log_line(entry) == log_entry(entry)
    assert render.log_lines_of([entry]) == [str(log_entry(entry))]
