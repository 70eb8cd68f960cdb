"""New log lines reach an open page as an append; anything else in the log sends the whole block."""

from __future__ import annotations

from app.realtime.render import log_append, log_items, log_line


def _lines(*seqs: int, undone: tuple[int, ...] = ()) -> list[str]:
    entries = [
        {"seq": s, "text": f"roll {s}", "by": "Ann", "undone": s in undone, "secret": False, "rolls": []}
        for s in seqs
    ]
    return log_items({"log": entries})


def test_new_lines_on_top_are_sent_alone_as_an_append_to_the_log_list():
    sent = log_append(_lines(3, 2, 1), _lines(5, 4, 3, 2, 1))
    assert sent is not None and sent.startswith('<ol hx-swap-oob="afterbegin:#log-list">')
    assert 'data-seq="5"' in sent and 'data-seq="4"' in sent and 'data-seq="3"' not in sent


def test_a_full_log_that_drops_its_oldest_lines_still_appends():
    assert log_append(_lines(3, 2, 1), _lines(4, 3, 2)) is not None


def test_an_undone_line_or_a_log_with_nothing_new_sends_the_whole_block():
    assert log_append(_lines(3, 2, 1), _lines(4, 3, 2, 1, undone=(2,))) is None
    assert log_append(_lines(3, 2, 1), _lines(3, 2, 1)) is None
    assert log_append([], _lines(1)) is None  # the empty placeholder must go: the whole block
    assert log_append(_lines(3, 2, 1), _lines(9, 8)) is None  # the page is too far behind to patch


def test_a_log_line_is_drawn_once_for_its_entry_and_drawn_anew_when_anything_in_it_changes():
    entry = {"seq": 7, "text": "Ann rolled 9", "by": "Ann", "undone": False, "secret": False, "rolls": []}
    first = log_line(entry)
    assert log_line(entry) is first  # the same entry (a push's are shared dicts): the same line, kept
    assert log_line(dict(entry)) == first  # a copy is drawn again, alike
    struck = log_line({**entry, "undone": True})
    assert "undone" in struck and "undone" not in first
    assert 'class="by"' not in log_line(entry, show_by=False)
