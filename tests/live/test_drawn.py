"""Pieces drawn once for what they are given (app/realtime/drawn.py): the same arguments give the kept
markup, different ones a new drawing, two macros never share a piece, and the map's tokens are drawn per
token, so a move draws the moved token alone (not every token of every viewer)."""

import pickle

from jinja2 import Environment
from markupsafe import Markup

from app.realtime.drawn import Drawn
from app.realtime.render import ENV


def _macros(drawn: Drawn) -> object:
    env = Environment(autoescape=True)
    env.globals["drawn"] = drawn
    return env.from_string(
        "{% macro a(t, n) %}<i>{{ t.name }}{{ n }}</i>{% endmacro %}"
        "{% macro b(t, n) %}<b>{{ t.name }}{{ n }}</b>{% endmacro %}"
        "{% macro row(ts) %}{% for t in ts %}{{ drawn(a, t, 1) }}{% endfor %}{% endmacro %}"
    ).module


def test_same_arguments_give_the_kept_markup_others_a_new_drawing() -> None:
    drawn = Drawn()
    m = _macros(drawn)
    first = drawn(m.a, {"name": "<Ghoul>"}, 1)
    assert first == Markup("<i>&lt;Ghoul&gt;1</i>")
    assert drawn(m.a, {"name": "<Ghoul>"}, 1) is first  # an equal dict, another object: the same piece
    assert drawn.draws == 1
    assert drawn(m.a, {"name": "<Ghoul>"}, 2) == Markup("<i>&lt;Ghoul&gt;2</i>")
    assert drawn(m.a, {"name": "Ann"}, 1) == Markup("<i>Ann1</i>")
    assert drawn.draws == 3


def test_markup_and_text_of_the_same_characters_are_not_one_piece() -> None:
    drawn = Drawn()
    m = _macros(drawn)
    assert drawn(m.a, {"name": "<b>"}, 1) == Markup("<i>&lt;b&gt;1</i>")
    assert drawn(m.a, {"name": Markup("<b>")}, 1) == Markup("<i><b>1</i>")


def test_arguments_that_cannot_be_told_apart_are_drawn_not_kept() -> None:
    drawn = Drawn()
    m = _macros(drawn)
    odd = {"name": "x", "f": lambda: None}  # a lambda does not pickle
    assert drawn(m.a, odd, 1) == Markup("<i>x1</i>")
    assert drawn(m.a, odd, 1) == Markup("<i>x1</i>")
    assert drawn.draws == 0 and drawn.unkept == 2


def test_an_undefined_argument_is_drawn_not_kept() -> None:
    """Jinja's Undefined pickles the object it was looked up on: kept by it, a piece would be drawn anew
    whenever that object changed (the GM's walls, on every push, for a scene without lights)."""
    drawn = Drawn()
    env = Environment(autoescape=True)
    env.globals["drawn"] = drawn
    m = env.from_string("{% macro a(t, n) %}<i>{{ n or 'none' }}</i>{% endmacro %}").module
    assert str(env.from_string("{{ drawn(m.a, v, v.nope) }}").render(m=m, v={"x": 1})) == "<i>none</i>"
    assert drawn.draws == 0 and drawn.unkept == 1


def test_two_macros_never_share_a_piece() -> None:
    drawn = Drawn()
    m = _macros(drawn)
    assert drawn(m.a, {"name": "x"}, 1) == Markup("<i>x1</i>")
    assert drawn(m.b, {"name": "x"}, 1) == Markup("<b>x1</b>")
    assert drawn.draws == 2


def test_the_oldest_pieces_are_let_go_past_the_limit() -> None:
    drawn = Drawn(keep=2)
    m = _macros(drawn)
    for n in (1, 2, 3):
        drawn(m.a, {"name": "x"}, n)
    drawn(m.a, {"name": "x"}, 3)
    assert drawn.draws == 3
    drawn(m.a, {"name": "x"}, 1)  # let go: drawn again
    assert drawn.draws == 4


def test_the_oldest_pieces_are_let_go_past_the_text_kept() -> None:
    drawn = Drawn(keep_chars=25)  # each piece here is 11 characters: two fit
    m = _macros(drawn)
    for n in (10, 20, 30):
        drawn(m.a, {"name": "xx"}, n)
    drawn(m.a, {"name": "xx"}, 30)
    drawn(m.a, {"name": "xx"}, 20)
    assert drawn.draws == 3
    drawn(m.a, {"name": "xx"}, 10)  # let go: drawn again
    assert drawn.draws == 4


def test_from_a_template_loop_only_new_items_are_drawn() -> None:
    drawn = Drawn()
    m = _macros(drawn)
    assert str(m.row([{"name": "a"}, {"name": "b"}])) == "<i>a1</i><i>b1</i>"
    assert str(m.row([{"name": "a"}, {"name": "c"}])) == "<i>a1</i><i>c1</i>"
    assert drawn.draws == 3


def _token(tid: str, x: float, mine: bool = False) -> dict:
    return {
        "id": tid,
        "x": x,
        "y": 96.0,
        "size": 1.0,
        "color": "#3d7dd8",
        "participant": None,
        "name": f"Token {tid}",
        "initials": tid[:2].upper(),
        "mine": mine,
        "locked": False,
        "movable": mine,
    }


def _map(tokens: list[dict]) -> dict:
    grid = {"type": "square", "size": 64, "offset": [0, 0]}
    return {
        "scene": "s1",
        "name": "Crypt",
        "width": 640,
        "height": 640,
        "grid": grid,
        "player_moves": True,
        "image_url": None,
        "tokens": tokens,
        "drawings": [],
    }


def test_a_move_draws_the_moved_token_alone() -> None:
    frame = ENV.globals["mapui"].frame  # type: ignore[attr-defined]
    drawn: Drawn = ENV.globals["drawn"]  # type: ignore[assignment]
    tokens = [_token(f"t{i}", 32.0 + 64 * i) for i in range(6)]
    before = str(frame(_map(tokens), "player", "c1"))
    start = drawn.draws
    moved = [*tokens[:2], {**tokens[2], "x": 999.0}, *tokens[3:]]
    after = str(frame(_map(moved), "player", "c1"))
    assert drawn.draws - start == 1  # the moved token; the frame's head and the other five were kept
    assert 'data-token="t2" data-x="999.0"' in after and 'data-token="t2" data-x="160.0"' in before
    assert after.replace("999.0", "160.0") == before  # the rest of the frame reads as before


def test_the_gms_walls_are_drawn_once_while_tokens_move() -> None:
    """A scene with walls and no lights (the GM's view then has no `lights`): a move redraws the token."""
    frame = ENV.globals["mapui"].frame  # type: ignore[attr-defined]
    drawn: Drawn = ENV.globals["drawn"]  # type: ignore[assignment]
    walls = [
        {"id": f"w{i}", "kind": "wall", "points": [[64 * i, 0], [64 * i, 64]], "open": False, "locked": False}
        for i in range(10)
    ]
    tokens = [_token("t0", 32.0), _token("t1", 96.0)]
    first = str(frame({**_map(tokens), "walls": walls, "vision": True}, "gm", "c1"))
    assert 'data-wall="w9"' in first
    start = drawn.draws
    for x in (160.0, 224.0):
        moved = [{**tokens[0], "x": x}, tokens[1]]
        assert 'data-wall="w9"' in str(frame({**_map(moved), "walls": walls, "vision": True}, "gm", "c1"))
    assert drawn.draws - start == 2  # the moved token, twice; the walls and the rest kept


def test_arguments_a_view_shares_between_pushes_are_found_without_pickling(monkeypatch) -> None:
    """The GM's walls are one list kept on their scene: found by identity, not pickled on every push; an
    equal list that is another object is still found by what it holds."""
    drawn = Drawn()
    m = _macros(drawn)
    walls = [{"name": f"w{i}"} for i in range(300)]
    first = drawn(m.a, walls, 1)
    pickled: list[object] = []
    real = pickle.dumps
    monkeypatch.setattr(pickle, "dumps", lambda value, **kw: pickled.append(value) or real(value, **kw))
    assert drawn(m.a, walls, 1) is first
    assert pickled == []
    assert drawn(m.a, [dict(w) for w in walls], 1) is first  # equal, not the same: pickled, then found
    assert len(pickled) == 1 and drawn.draws == 1
    assert drawn(m.a, walls, 2) is not first  # the same list with another argument: its own piece


def test_a_step_keeps_the_phones_token_sheet_drawn_and_a_new_name_draws_it_again() -> None:
    sheets = ENV.globals["mapui"].token_sheets  # type: ignore[attr-defined]
    drawn: Drawn = ENV.globals["drawn"]  # type: ignore[assignment]
    hero = {**_token("t1", 32.0, mine=True), "participant": "p1", "name": "Aria"}
    first = str(sheets({"map": _map([hero]), "options": []}, False))
    assert 'id="token-sheet-p1"' in first and "Aria" in first
    start = drawn.draws
    stepped = str(sheets({"map": _map([{**hero, "x": 96.0, "y": 160.0}]), "options": []}, False))
    assert stepped == first and drawn.draws == start  # where the token stands is not on its sheet
    renamed = str(sheets({"map": _map([{**hero, "name": "Aria the Bold"}]), "options": []}, False))
    assert "Aria the Bold" in renamed and drawn.draws == start + 1


def test_numbers_and_strings_are_named_by_their_value_without_pickling(monkeypatch) -> None:
    """A token's radius is a new float on every push: an equal number still finds the piece by identity;
    a number of another type, or -0.0 for 0.0, is another piece."""
    drawn = Drawn()
    m = _macros(drawn)
    token = {"name": "Ann"}
    first = drawn(m.a, token, float("1.5"))
    pickled: list[object] = []
    real = pickle.dumps
    monkeypatch.setattr(pickle, "dumps", lambda value, **kw: pickled.append(value) or real(value, **kw))
    again = 3.0 / 2.0  # another float object of the same value
    assert drawn(m.a, token, again) is first
    assert pickled == []
    assert str(drawn(m.a, token, 1)) == "<i>Ann1</i>" and str(drawn(m.a, token, True)) == "<i>AnnTrue</i>"
    assert str(drawn(m.a, token, -0.0)) == "<i>Ann-0.0</i>" and str(drawn(m.a, token, 0.0)) == "<i>Ann0.0</i>"
    assert drawn.draws == 5


def test_a_sheet_and_its_buttons_are_one_object_for_what_they_show() -> None:
    """A phone's token sheet is drawn of these: equal ones are the same objects, so the sheet is found drawn
    by identity; a renamed token or other buttons are others."""
    from app.realtime.environment import acts_of, sheet_of

    token = {**_token("t1", 32.0, mine=True), "participant": "p1", "name": "Aria"}
    assert (
        sheet_of(token)
        is sheet_of({**token, "x": 96.0})
        == {
            "id": "t1",
            "participant": "p1",
            "name": "Aria",
            "movable": True,
        }
    )
    assert sheet_of({**token, "name": "Aria the Bold"})["name"] == "Aria the Bold"
    roll, other = {"id": "o1", "participant": "p1"}, {"id": "o2", "participant": "p2"}
    assert acts_of([roll, other], "p1") is acts_of([other, roll], "p1") == [roll]
    assert acts_of([{"id": "o1", "participant": "p1"}], "p1") is not acts_of([roll], "p1")  # another option
