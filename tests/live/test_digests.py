"""Digests of what a block read (app/realtime/digests.py): a view part's long lists are digested alone
and found again by identity across pushes, and the digest still tells equal values from different ones."""

from __future__ import annotations

from app.realtime import digests
from app.realtime.digests import LASTING_LENGTH, Lasting, digest


def _walls(n: int, x: float = 0.0) -> list[dict]:
    return [{"id": f"w{i}", "points": [[x + i, 0.0], [x + i, 64.0]]} for i in range(n)]


def test_equal_parts_give_equal_digests_and_a_changed_wall_another():
    lasting = Lasting()
    walls = _walls(LASTING_LENGTH)
    part = {"scene": "s1", "walls": walls, "tokens": [{"id": "t1", "x": 3}]}
    same = {"scene": "s1", "walls": _walls(LASTING_LENGTH), "tokens": [{"id": "t1", "x": 3}]}
    assert digest(lasting.parts(part)) == digest(lasting.parts(same))
    moved = {**part, "walls": _walls(LASTING_LENGTH, x=1.0)}
    assert digest(lasting.parts(part)) != digest(lasting.parts(moved))
    token = {**part, "tokens": [{"id": "t1", "x": 4}]}
    assert digest(lasting.parts(part)) != digest(lasting.parts(token))


def test_a_long_list_a_view_shares_is_pickled_once(monkeypatch):
    lasting = Lasting()
    walls = _walls(300)
    first = digest(lasting.parts({"walls": walls, "x": 1}))
    pickled: list[int] = []
    real = digests.digest
    monkeypatch.setattr(digests, "digest", lambda value: pickled.append(len(value)) or real(value))
    assert digest(lasting.parts({"walls": walls, "x": 1})) == first
    assert pickled == []  # the same list, found by identity
    lasting.parts({"walls": list(walls), "x": 1})  # an equal list, another object: digested again
    assert pickled == [300]


def test_short_lists_are_digested_with_their_part():
    lasting = Lasting()
    part = {"tiles": _walls(LASTING_LENGTH - 1)}
    assert lasting.parts(part) is part


def test_a_contexts_short_values_keep_their_digests_and_values_of_other_types_differ():
    """Ids, names and flags are digested once for the process; 1, 1.0 and True, or a text and its
    Markup, still read apart (a block draws them apart), and a long text is digested as it is."""
    from markupsafe import Markup

    from app.realtime.blocks import SHORT_TEXT, Fingerprints

    prints = Fingerprints({"v": {}})
    values = [1, 1.0, True, "1", Markup("1"), None, "x" * (SHORT_TEXT + 1)]
    found = [prints._digest(v) for v in values]
    assert len(set(found)) == len(values)
    assert found == [Fingerprints({"v": {}})._digest(v) for v in values]  # the same in any context
    assert found == [digest(v) for v in values]  # as every other value is digested
