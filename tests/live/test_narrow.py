"""A changed block narrowed to the one element that changed (app/realtime/narrow.py)."""

from __future__ import annotations

import random

from app.realtime import narrow


def _common_one_by_one(old: str, new: str) -> tuple[int, int]:
    limit = min(len(old), len(new))
    start = 0
    while start < limit and old[start] == new[start]:
        start += 1
    tail = 0
    while tail < limit - start and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return start, tail


def test_the_common_ends_are_found_as_one_character_at_a_time_finds_them():
    rng = random.Random(31)
    base = "".join(rng.choice("ab<>") for _ in range(700))
    cases = [("", ""), ("a", ""), ("", "b"), ("abc", "abc"), ("aaaa", "aa"), ("ab" * 100, "ab" * 101)]
    for _ in range(400):  # an edit anywhere: near either end, across a step, or growing a repeat
        at, cut = rng.randrange(len(base)), rng.randrange(0, 140)
        inserted = "".join(rng.choice("ab<>") for _ in range(rng.randrange(0, 140)))
        cases.append((base, base[:at] + inserted + base[at + cut :]))
    for old, new in cases:
        assert narrow._common(old, new) == _common_one_by_one(old, new), (len(old), len(new))


def test_a_change_inside_one_row_is_that_row_marked_to_morph():
    rows = "".join(f'<li id="pool-{n}"><b>Pool {n}</b> <span>{n}</span></li>' for n in range(40))
    old = f'<section id="pools"><ul>{rows}</ul></section>'
    new = old.replace("<span>7</span>", "<span>8</span>")
    assert narrow.narrow(old, new) == '<li hx-swap-oob="morph" id="pool-7"><b>Pool 7</b> <span>8</span></li>'
    # A change across two rows is the list's: no id of its own below the block, so the block goes whole.
    both = new.replace("<span>30</span>", "<span>31</span>")
    assert narrow.narrow(old, both) is None


def test_text_that_is_not_a_whole_tag_is_no_element():
    # An attribute never closed is not a tag: the row before it narrows as ever, and a change inside
    # that text has no element of its own to go in, so the block goes whole.
    open_tag = '<section id="pools"><ul><li id="pool-a">A <b>1</b></li><li id="pool-b" title="' + "b" * 20000
    assert narrow.narrow(open_tag, open_tag.replace("<b>1</b>", "<b>2</b>")) == (
        '<li hx-swap-oob="morph" id="pool-a">A <b>2</b></li>'
    )
    assert narrow.narrow(open_tag + "x", open_tag + "y") is None


def _by_tags(old: str, new: str) -> str | None:
    """`narrow` as it reads any block: by its tags, the rows it was drawn as forgotten."""
    kept = dict(narrow._drawn_rows)
    narrow._drawn_rows.clear()
    try:
        return narrow.narrow(old, new)
    finally:
        narrow._drawn_rows.update(kept)


def test_a_block_drawn_as_rows_narrows_as_its_tags_would():
    from app.realtime.render import OOB
    from app.realtime.rows import every_pool, table_pools

    def pool(pid: str, value: int, **more) -> dict:
        return {"id": pid, "name": pid.title(), "value": value, "min": 0, "max": 3, "can_adjust": True,
                "hidden": False, "owner": None, "owner_name": None, **more}  # fmt: skip

    before = [pool("gold", 1), pool("luck", 2), pool("doom", 0)]
    afters = [
        [pool("gold", 2), pool("luck", 2), pool("doom", 0)],  # one value
        [pool("gold", 1), pool("luck", 3), pool("doom", 0)],  # to its bound: a step turns off
        [pool("gold", 1), pool("luck", 2), pool("doom", 0, hidden=True)],  # the last row
        [pool("gold", 0), pool("luck", 3), pool("doom", 0)],  # two rows: the block
        [pool("gold", 1), pool("luck", 2)],  # a row gone
        [pool("gold", 1), pool("doom", 0), pool("luck", 2)],  # reordered
        [pool("gold", 1), pool("luck", 2), pool("doom", 0), pool("ammo", 3)],  # a row more
        [pool("gold", 1, owner="c1", owner_name="Ann"), pool("luck", 2), pool("doom", 0)],  # a character's
        [],
    ]
    narrowed = 0
    for card in (table_pools, every_pool):
        for oob in ("", OOB):
            for after in afters:
                old, new = card(before, oob), card(after, oob)
                found = narrow.narrow(str(old), str(new))
                assert found == _by_tags(str(old), str(new)), (card.__name__, after)
                narrowed += found is not None
    # The three one-row changes narrow on both cards; a pool given to a character leaves the players' card
    # (its rows change) and is one row on the GM's list.
    assert narrowed == 4 * 3 + 2
    assert narrow.narrow(str(table_pools(before)), str(table_pools(afters[0]))).startswith(
        '<li hx-swap-oob="morph" class="pool" id="pool-gold">'
    )
