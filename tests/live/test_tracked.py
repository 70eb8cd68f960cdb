"""What a block reads of its view (app/realtime/tracked.py): all of it noted, and a part of a view strict."""

from __future__ import annotations

import pytest

from app.realtime.tracked import NotInView, PartView, StrictTracked, Tracked, tracking


def test_a_tracked_view_notes_each_key_read_and_iteration_as_every_key():
    view = tracking({"pools": [1], "tracks": []})
    assert type(view) is Tracked
    assert view["pools"] == [1] and view.get("nothing") is None and "tracks" in view
    assert view.read == {"pools", "nothing", "tracks"}
    list(view)
    assert view.read >= {"pools", "tracks"}


def test_a_part_of_a_view_gives_what_it_has_and_refuses_to_guess_the_rest():
    view = tracking(PartView({"pools": [1]}))
    assert type(view) is StrictTracked
    assert view["pools"] == [1] and view.get("pools") == [1] and "pools" in view
    assert view.read == {"pools"}
    with pytest.raises(NotInView):
        view["tracks"]
    with pytest.raises(NotInView):
        view.get("tracks", [])  # the whole view may have it: no default stands in for it
    with pytest.raises(NotInView):
        "tracks" in view  # noqa: B015 (the test is that it raises)
    with pytest.raises(NotInView):
        list(view.items())
