"""Garbage collected between pushes, not inside them (app/realtime/quiet_gc.py): the generation the
interpreter would collect next, once a push is done and the loop has turned, when the youngest is past
a share of its threshold."""

from __future__ import annotations

import asyncio

import pytest

from app.realtime import quiet_gc
from app.realtime.hub import Hub, Room
from tests.helpers import Table

THRESHOLDS = (10_000, 50, 1000)


@pytest.mark.parametrize(
    ("counts", "due"),
    [
        ((4_999, 0, 0), None),  # under half the youngest's threshold: not yet
        ((5_000, 0, 0), 0),
        ((9_000, 50, 1000), 0),  # the older ones at their thresholds, not past them
        ((5_000, 51, 0), 1),
        ((5_000, 51, 1001), 2),  # the oldest past its threshold first, as the interpreter picks
        ((5_000, 0, 1001), 2),
    ],
)
def test_the_generation_due_is_the_interpreter_s_choice_once_the_youngest_is_half_full(counts, due):
    assert quiet_gc.generation_due(counts, THRESHOLDS, 0.5) == due


def test_a_collector_turned_off_by_its_threshold_is_never_due():
    assert quiet_gc.generation_due((50_000, 0, 0), (0, 50, 1000), 0.5) is None


class _Collector:
    """The interpreter's collector as quiet_gc sees it, with counts set by the test."""

    def __init__(self, counts: tuple[int, int, int]) -> None:
        self.counts = counts
        self.collected: list[int] = []

    def get_count(self) -> tuple[int, int, int]:
        return self.counts

    def get_threshold(self) -> tuple[int, int, int]:
        return THRESHOLDS

    def isenabled(self) -> bool:
        return True

    def collect(self, generation: int) -> int:
        self.collected.append(generation)
        self.counts = (0, self.counts[1] + 1, self.counts[2])
        return 0


@pytest.fixture
def collector(monkeypatch):
    fake = _Collector((6_000, 51, 0))
    monkeypatch.setattr(quiet_gc, "gc", fake)
    quiet_gc.turn_on()
    yield fake
    quiet_gc.turn_off()


def test_pushes_done_collect_once_after_the_loop_turns_not_inside_them(collector):
    async def go() -> list[int]:
        quiet_gc.after_push()
        quiet_gc.after_push()  # two tables' pushes in one turn of the loop: one collection
        inside = list(collector.collected)
        await asyncio.sleep(0)
        return inside

    assert asyncio.run(go()) == []
    assert collector.collected == [1]


def test_a_process_that_did_not_turn_it_on_collects_nothing(collector):
    quiet_gc.turn_off()

    async def go() -> None:
        quiet_gc.after_push()
        await asyncio.sleep(0)

    asyncio.run(go())
    assert collector.collected == []


def test_a_room_s_push_tells_the_collector_and_a_room_with_nothing_new_does_not(client, monkeypatch):
    told: list[int] = []
    monkeypatch.setattr(quiet_gc, "after_push", lambda: told.append(1))
    table = Table.create(client, dice="server")
    fray = client.app.state.fray
    room = Room(Hub(fray.db, fray.states), table.id)

    async def refresh() -> None:
        await room._refresh()

    asyncio.run(refresh())
    assert told == [1]
    asyncio.run(refresh())  # nothing new since: no push, nothing to collect after
    assert told == [1]


def test_fray_serve_turns_it_on_beside_its_collector_settings(monkeypatch):
    import gc

    from app import cli

    for name in ("collect", "freeze", "set_threshold"):  # this test process keeps its own settings
        monkeypatch.setattr(gc, name, lambda *args: None)
    quiet_gc.turn_off()
    try:
        cli.tune_garbage_collector()
        assert quiet_gc._on
    finally:
        quiet_gc.turn_off()
