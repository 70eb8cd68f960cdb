"""Who is looking and who may see an event (app/rules/contract/viewer.py)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.rules.contract.viewer import GM, PUBLIC, Viewer, audience_of, can_see, seats_audience, widest

ANN = Viewer(seat_id="s1", role="player", participants=frozenset({"p1"}))
BEN = Viewer(seat_id="s2", role="player", participants=frozenset({"p2", "p3"}))


def test_a_viewer_is_one_of_three_roles_and_only_the_gm_controls_everyone():
    with pytest.raises(ValidationError):
        Viewer(role="admin")  # type: ignore[arg-type]
    assert GM.is_gm and GM.controls("p9") and GM.controls(None) is not False
    assert ANN.controls("p1") and not ANN.controls("p2") and not ANN.controls(None)
    assert not PUBLIC.is_gm and not PUBLIC.controls("p1")


def test_viewers_share_a_key_only_when_they_see_the_same():
    assert ANN.key == "player:s1:p1"
    assert BEN.key == Viewer(seat_id="s2", role="player", participants=frozenset({"p3", "p2"})).key
    assert Viewer(role="spectator").key == PUBLIC.key == "spectator::"
    assert ANN.key != Viewer(seat_id="s1", role="player").key


def test_audiences_are_sorted_and_whispers_name_each_seat_once():
    assert audience_of("p2", "p1") == "p:p1,p2"
    assert seats_audience("s2", "s1", "s2") == "s:s1,s2"


@pytest.mark.parametrize(
    ("audience", "gm", "ann", "ben", "public"),
    [
        ("all", True, True, True, True),
        ("gm", True, False, False, False),
        ("p:p1", True, True, False, False),
        ("p:p1,p3", True, True, True, False),
        ("s:s2", True, False, True, False),
        ("nonsense", True, False, False, False),
    ],
)
def test_who_may_see_an_event(audience: str, gm: bool, ann: bool, ben: bool, public: bool):
    assert [can_see(audience, v) for v in (GM, ANN, BEN, PUBLIC)] == [gm, ann, ben, public]


def test_a_group_of_events_is_seen_by_the_widest_audience_and_whispers_narrow_to_the_gm():
    assert widest(["gm", "all"]) == "all"
    assert widest(["p:p2", "p:p1,p2", "gm"]) == "p:p1,p2"
    assert widest(["gm", "s:s1"]) == "gm"
