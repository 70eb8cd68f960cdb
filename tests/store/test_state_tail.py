"""The in-memory tail of committed events: only ever an unbroken run, or nothing to offer."""

from __future__ import annotations

from app.rules.system import Event
from app.store.states import TAIL, StateCache


def _events(*seqs: int) -> list[Event]:
    return [Event(seq=s, batch=s, type="generic.rolled", data={}) for s in seqs]


def test_the_tail_gives_every_event_after_a_seq_when_it_holds_them_all():
    cache = StateCache()
    cache.remember("c", _events(1, 2))
    cache.remember("c", _events(3))
    assert [e.seq for e in cache.tail_after("c", 1, 3)] == [2, 3]
    assert cache.tail_after("c", 0, 3) is not None
    assert cache.tail_after("c", 1, 4) is None  # not written here yet
    assert cache.tail_after("other", 0, 1) is None


def test_the_tail_gives_exactly_the_events_between_two_seqs():
    cache = StateCache()
    cache.remember("c", _events(*range(5, 15)))
    assert [e.seq for e in cache.tail_after("c", 7, 10)] == [8, 9, 10]  # not the newer ones
    assert [e.seq for e in cache.tail_after("c", 4, 5)] == [5]
    assert [e.seq for e in cache.tail_after("c", 13, 14)] == [14]
    assert cache.tail_after("c", 14, 14) == []


def test_a_gap_starts_the_tail_again_so_it_never_skips_an_event():
    cache = StateCache()
    cache.remember("c", _events(1, 2))
    cache.remember("c", _events(4))  # 3 was written elsewhere, or finished later in another thread
    assert cache.tail_after("c", 2, 4) is None
    assert [e.seq for e in cache.tail_after("c", 3, 4)] == [4]
    cache.remember("c", _events(3))  # out of order: the tail restarts at 3
    assert cache.tail_after("c", 3, 4) is None


def test_the_tail_is_bounded():
    cache = StateCache()
    cache.remember("c", _events(*range(1, TAIL + 50)))
    assert cache.tail_after("c", 0, TAIL + 49) is None
    assert len(cache.tail_after("c", 49, TAIL + 49)) == TAIL
