"""A log line's markup (app/realtime/rows.py): what the pages' styles and the live log's appends read."""

from __future__ import annotations

from app.realtime import render
from app.realtime.rows import dice_faces, log_entry, pool_row


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


def _pool(**fields) -> dict:
    return {"id": "gold", "name": "Gold", "value": 3, "min": 0, "max": 5, "can_adjust": True, "hidden": False,
            "owner_name": None, "owner": None, **fields}  # fmt: skip


def test_a_pool_row_shows_its_value_out_of_its_maximum_between_its_steps():
    row = pool_row(_pool())
    assert row.startswith('<li class="pool" id="pool-gold">\n  <span class="name">Gold</span>\n')
    minus, value, plus = row.index("minus one"), row.index('<output class="value"'), row.index("plus one")
    assert minus < value < plus
    assert '<output class="value" aria-label="Gold">3<small>/5</small></output>' in row
    assert row.count('<form class="cmd step" method="post" action="commands" hx-post="commands"') == 2
    assert '<input type="hidden" name="delta" value="-1">' in row and 'name="delta" value="1">' in row
    assert 'aria-label="Take one from Gold"' in row and 'aria-label="Add one to Gold"' in row
    assert "disabled" not in row
    assert row.endswith("</form>\n</li>")


def test_a_step_is_off_at_the_pools_bound_and_none_without_a_bound():
    at_min, at_max = pool_row(_pool(value=0)), pool_row(_pool(value=5))
    assert 'aria-label="Gold minus one" disabled>' in at_min and 'aria-label="Gold plus one">' in at_min
    assert 'aria-label="Gold plus one" disabled>' in at_max and 'aria-label="Gold minus one">' in at_max
    unbounded = pool_row(_pool(value=-40, min=None, max=None))
    assert "disabled" not in unbounded and "<small>/" not in unbounded


def test_a_pool_the_seat_may_not_change_has_no_steps_and_a_hidden_one_says_so():
    row = pool_row(_pool(can_adjust=False, hidden=True))
    assert "<form" not in row
    assert row.endswith('<span class="tag">hidden</span></li>')


def test_the_owner_is_named_unless_left_out_and_every_name_is_escaped():
    row = pool_row(_pool(name="Ammo <9mm>", owner_name="Bo & Co"))
    assert '<span class="name"><small>Bo &amp; Co</small> Ammo &lt;9mm&gt;</span>' in row
    assert "Ammo <9mm>" not in row
    assert "<small>Bo" not in pool_row(_pool(owner_name="Bo"), show_owner=False)


def test_the_pages_draw_pools_with_it():
    from app.realtime.render import ENV

    assert ENV.globals["pool_row"] is pool_row
    drawn = ENV.from_string("{% for p in pools %}{{ pool_row(p) }}{% endfor %}").render(pools=[_pool()])
    assert drawn == pool_row(_pool())


def _forms(html: str) -> list[dict]:
    """Each form's own attributes and the tags inside it that every command form carries."""
    from html.parser import HTMLParser

    forms: list[dict] = []
    open_form: list[bool] = [False]

    class Reader(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found = dict(attrs)
            if tag == "form":
                forms.append({"form": found, "inside": []})
                open_form[0] = True
            elif open_form[0] and (tag == "output" or found.get("name") == "type"):
                forms[-1]["inside"].append((tag, found))

        def handle_endtag(self, tag):
            if tag == "form":
                open_form[0] = False

    Reader().feed(html)
    return forms


def test_a_pool_steps_form_is_a_command_form_as_the_macro_draws_one():
    """`rows._step` writes `ui.command_form`'s markup in Python: the same attributes on the form (htmx's
    post, target, swap and queue), the command's type and the message output, so the two cannot drift."""
    from app.realtime.render import ENV

    macro = ENV.from_string(
        '{% call ui.command_form("generic.pool.adjust", cls="step", label="Take one from Gold") %}'
        "{% endcall %}"
    ).render()
    (drawn,) = _forms(macro)
    step = _forms(pool_row(_pool()))[0]
    assert step == drawn


_CARDS = [("pages/player.html", "pools"), ("pages/gm.html", "pools")]
_POOL_SETS = [
    [],
    [_pool(owner="c1", owner_name="Ann")],  # only a character's: the players' card hidden
    [_pool(), _pool(id="luck", name="Luck", owner="c1", owner_name="Ann", value=1, max=None)],
    [_pool(name="A <b>&", hidden=True), _pool(id="doom", name="Doom", can_adjust=False, value=-2, min=None)],
]


def test_the_pools_cards_drawn_in_python_are_their_templates_blocks():
    from jinja2_fragments import render_block

    assert set(_CARDS) <= set(render.IN_PYTHON)
    for template, block in _CARDS:
        for pools in _POOL_SETS:
            for oob in (render.Markup(""), render.OOB):
                context = {"v": {"pools": pools}, "oob": oob}
                drawn = render.block_drawer(template, block)(context)
                assert drawn == render_block(render.ENV, template, block, context), (template, pools, oob)
                assert type(drawn) is str  # cut and joined by a push without escaping anything again
        # A view without pools reads as none, as the template's `v.pools` does.
        bare = {"v": {}, "oob": render.OOB}
        assert render.block_drawer(template, block)(bare) == render_block(render.ENV, template, block, bare)


def test_the_players_card_shows_the_tables_pools_and_the_gms_list_every_pool():
    from app.realtime.rows import every_pool, table_pools

    pools = _POOL_SETS[2]
    players = table_pools(pools)
    assert 'id="pool-gold"' in players and 'id="pool-luck"' not in players
    assert players.startswith('<section id="pools" class="card">')
    assert table_pools(_POOL_SETS[1]).startswith('<section id="pools" class="card" hidden>')
    gms = every_pool(pools, render.OOB)
    assert gms.startswith('<ul id="pools" class="pools" hx-swap-oob="morph">')
    assert 'id="pool-gold"' in gms and "<small>Ann</small> Luck" in gms
    assert "No pools yet" in every_pool([]) and "No pools yet" not in gms
