"""Pings, the shared ruler and a dragged token's ghost (app/rules/map/signals.py): each checked against
the sender's seat and sight, and relayed only to viewers who see every spot it names."""

from __future__ import annotations

import pytest

from app.rules.errors import Forbidden, InputError, RuleError
from app.rules.map import signals
from tests.rules.generic.test_generic_rules import Table
from tests.rules.map.test_commands import _scene, _table, _token


@pytest.fixture
def crypt():
    """A shown crypt whose right half (x >= 200) is under fog; Aria (Ann's) and Brick (Ben's) in the open."""
    t = _table()
    scene = _scene(t)
    t.do("gm", "map.fog.cover", scene=scene, rect=[200, 0, 200, 300])
    ids = {"aria": _token(t, scene, "Aria", x=50, y=50), "brick": _token(t, scene, "Brick", x=60, y=60)}
    return t, scene, ids


def _build(t: Table, who: str, payload: dict) -> dict:
    return signals.build(t.state, t.viewer(who), who.title(), payload)


def test_a_ping_in_the_open_goes_to_the_shown_scene_and_under_fog_is_refused(crypt):
    t, scene, _ = crypt
    assert _build(t, "ann", {"map.ping": {"x": 10, "y": 20}}) == {
        "map.ping": {"scene": scene, "x": 10.0, "y": 20.0, "by": "Ann"}
    }
    with pytest.raises(RuleError, match="cannot ping a spot you cannot see"):
        _build(t, "ann", {"map.ping": {"x": 300, "y": 20}})
    assert _build(t, "gm", {"map.ping": {"x": 300, "y": 20}})["map.ping"]["x"] == 300.0


@pytest.mark.parametrize(
    "point", [{"x": "1", "y": 2}, {"x": True, "y": 2}, {"x": 1}, [1, 2, 3], {"x": 1e400, "y": 0}]
)
def test_a_spot_is_two_finite_numbers(crypt, point):
    t, _, _ = crypt
    with pytest.raises(InputError, match="The ping needs x and y as numbers"):
        _build(t, "ann", {"map.ping": point})


def test_only_the_gm_shares_the_ruler_and_it_is_relayed_only_where_every_end_is_seen(crypt):
    t, scene, _ = crypt
    with pytest.raises(Forbidden, match="Only the GM shares the ruler"):
        _build(t, "ann", {"map.ruler": {"from": [0, 0], "to": [10, 10]}})
    open_ruler = _build(t, "gm", {"map.ruler": {"from": [0, 0], "to": [10, 10]}})
    into_fog = _build(t, "gm", {"map.ruler": {"from": [0, 0], "to": [300, 10]}})
    assert open_ruler["map.ruler"]["scene"] == scene
    assert signals.visible_to(t.state, t.viewer("ann"), open_ruler)
    assert not signals.visible_to(t.state, t.viewer("ann"), into_fog)
    assert signals.visible_to(t.state, t.viewer("gm"), into_fog)


def test_a_player_drags_only_their_own_characters_token(crypt):
    t, scene, ids = crypt
    ghost = _build(t, "ann", {"map.ghost": {"token": ids["aria"], "x": 70, "y": 70}})
    assert ghost == {"map.ghost": {"scene": scene, "token": ids["aria"], "x": 70.0, "y": 70.0, "by": "Ann"}}
    with pytest.raises(Forbidden, match="only your own characters' tokens"):
        _build(t, "ann", {"map.ghost": {"token": ids["brick"], "x": 70, "y": 70}})
    with pytest.raises(RuleError, match="There is no such token on the map"):
        _build(t, "ann", {"map.ghost": {"token": "nope", "x": 70, "y": 70}})


def test_nothing_to_point_at_without_a_shown_scene():
    t = _table()
    with pytest.raises(RuleError, match="There is no map on the table to point at"):
        _build(t, "ann", {"map.ping": {"x": 1, "y": 1}})


def test_a_message_of_no_known_kind_or_of_another_scene_goes_to_no_player(crypt):
    t, _, _ = crypt
    assert not signals.visible_to(t.state, t.viewer("ann"), {"map.wave": {"x": 1, "y": 1}})
    elsewhere = {"map.ping": {"scene": "other", "x": 1.0, "y": 1.0, "by": "GM"}}
    assert not signals.visible_to(t.state, t.viewer("ann"), elsewhere)
    assert signals.visible_to(t.state, t.viewer("gm"), elsewhere)
