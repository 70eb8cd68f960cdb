"""A room reads only the events after the log page it already has, and gets the same page as a fresh read."""

from __future__ import annotations

from app.realtime import hub as hub_module
from app.realtime.hub import Hub
from app.store.db import Database
from app.store.states import StateCache
from tests.helpers import Table


def _hub(settings, page: int = 5) -> Hub:
    return Hub(Database(settings.database_url), StateCache(), log_page=page)


def _roll(table: Table, times: int) -> None:
    for i in range(times):
        table.ok(table.gm, "generic.roll", expression="1d6", dice=[1 + i % 6])


def test_a_room_that_knows_the_recent_log_reads_only_what_is_new_and_gets_the_same_page(settings, table):
    hub = _hub(settings)
    _roll(table, 3)
    first = hub.load(table.id, None, [])
    _roll(table, 4)
    table.ok(table.gm, "campaign.undo")
    kept = hub.load(table.id, None, first.recent)
    fresh = _hub(settings).load(table.id, None, [])
    assert [e.seq for e in kept.recent] == [e.seq for e in fresh.recent]
    assert len(kept.recent) == 5 and kept.recent[-1].type == "campaign.undone"
    assert kept.events == []


def test_json_catch_up_is_every_event_after_the_socket_seq_whatever_the_room_knows(settings, table):
    hub = _hub(settings)
    _roll(table, 2)
    start = hub.load(table.id, None, []).state.seq
    _roll(table, 3)
    known = hub.load(table.id, None, []).recent
    _roll(table, 2)
    snap = hub.load(table.id, start, known)
    assert [e.seq for e in snap.events] == list(range(start + 1, snap.state.seq + 1))
    # Ahead of the room's page: only the socket's own gap.
    snap = hub.load(table.id, snap.state.seq - 1, known)
    assert [e.seq for e in snap.events] == [snap.state.seq]


def test_a_room_far_behind_reads_the_page_afresh(settings, table, monkeypatch):
    monkeypatch.setattr(hub_module, "MAX_CATCHUP", 6)
    hub = _hub(settings, page=3)
    known = hub.load(table.id, None, []).recent
    _roll(table, 8)
    snap = hub.load(table.id, None, known)
    assert [e.seq for e in snap.recent] == list(range(snap.state.seq - 2, snap.state.seq + 1))


def test_a_push_for_a_command_this_process_ran_needs_no_database_read(settings, table, monkeypatch):
    hub = _hub(settings)
    _roll(table, 2)
    room_log = hub.load(table.id, None, []).recent
    # The app's commands ran in the test client's process, with its own cache: share it with the hub.
    fray = table.http.app.state.fray
    hub.states = fray.states
    _roll(table, 1)
    seq = fray.states.get(table.id).seq

    def no_reads(*args, **kwargs):
        raise AssertionError("read the database")

    monkeypatch.setattr(hub_module.log, "after", no_reads)
    monkeypatch.setattr(hub_module.log, "recent", no_reads)
    snap = hub.from_memory(table.id, seq - 1, room_log, announced=seq)
    assert snap is not None and snap.state.seq == seq
    assert [e.seq for e in snap.events] == [seq]
    assert snap.recent[-1].seq == seq and snap.recent[:-1] == room_log[-4:]


def test_memory_is_not_trusted_past_what_it_holds(settings, table):
    hub = _hub(settings)
    fray = table.http.app.state.fray
    hub.states = fray.states
    _roll(table, 1)
    known = hub.load(table.id, None, []).recent
    seq = fray.states.get(table.id).seq
    assert hub.from_memory(table.id, None, known, announced=seq + 1) is None  # another process is ahead
    assert hub.from_memory(table.id, None, known, announced=None) is None  # after a broker outage
    assert hub.from_memory(table.id, 0, known, announced=seq) is None  # a socket further back than the tail


def _seated_room(settings, table: Table, players: int):
    """A room of `players` phones, each a seat with a character of its own (a view each), on fake sockets."""
    from app.realtime.hub import Conn, Room

    seats = [table.join(f"P{n}") for n in range(players)]
    for n, seat in enumerate(seats):
        table.character(f"Hero {n}", owner=seat)
    hub = _hub(settings, page=40)
    room = Room(hub, table.id)
    for seat in seats:
        conn = Conn(object(), seat.seat_id, "player", "player", "html")  # type: ignore[arg-type]
        room.conns.add(conn)
    return hub, room


def test_a_big_push_gives_the_loop_back_between_views_and_stops_when_a_newer_change_is_announced(
    settings, table, monkeypatch
):
    """Issue 14: another table's step runs in the middle of a big table's push (it never waits for all
    of it), and a push made stale by a newer change stops: the next one brings every phone up to date."""
    import asyncio

    monkeypatch.setattr(hub_module, "HOLD_LOOP_S", 0.0)  # give the loop back after every view
    hub, room = _seated_room(settings, table, 12)
    snap = hub.load(table.id, None, [])
    reached: list[int] = []

    async def another_table() -> None:
        await asyncio.sleep(0)
        reached.append(sum(1 for c in room.conns if c.seq == snap.state.seq))
        room.announced = snap.state.seq + 1  # a newer change: what is left of this push is stale

    async def scenario() -> None:
        await asyncio.gather(room._broadcast(snap), another_table())

    asyncio.run(scenario())
    assert 0 < reached[0] < 12  # it ran between two views
    assert room.seq < snap.state.seq  # the stale push stopped without claiming the room is up to date
    behind = [c for c in room.conns if c.seq < snap.state.seq]
    assert behind and all(c.queue.empty() for c in behind)
    room.announced = 0
    asyncio.run(room._broadcast(snap))
    assert room.seq == snap.state.seq and all(c.seq == snap.state.seq for c in room.conns)
    assert all(c.queue.qsize() == 1 for c in room.conns)  # each phone got exactly one message


def test_a_small_push_renders_all_its_views_in_one_hold_of_the_loop(settings, table, monkeypatch):
    """Eight phones' views take well under a millisecond each: the push does not queue behind other
    tables once per view."""
    import asyncio

    monkeypatch.setattr(hub_module, "HOLD_LOOP_S", 10.0)  # a hold no push reaches, whatever the machine
    hub, room = _seated_room(settings, table, 8)
    snap = hub.load(table.id, None, [])
    reached: list[int] = []

    async def another_table() -> None:
        await asyncio.sleep(0)
        reached.append(sum(1 for c in room.conns if c.seq == snap.state.seq))

    async def scenario() -> None:
        await asyncio.gather(room._broadcast(snap), another_table())

    asyncio.run(scenario())
    assert reached == [8]


def test_a_push_sends_its_first_eight_views_before_it_gives_the_loop_back(settings, table, monkeypatch):
    """A table of eight is pushed in one go even when the hold is spent at once; a bigger one yields
    after its eighth view."""
    import asyncio

    monkeypatch.setattr(hub_module, "HOLD_LOOP_S", 0.0)
    hub, room = _seated_room(settings, table, 12)
    snap = hub.load(table.id, None, [])
    reached: list[int] = []

    async def another_table() -> None:  # scheduled after the push: runs at its first yield
        reached.append(sum(1 for c in room.conns if c.seq == snap.state.seq))

    async def scenario() -> None:
        await asyncio.gather(room._broadcast(snap), another_table())

    asyncio.run(scenario())
    assert reached == [hub_module.VIEWS_BEFORE_YIELD]
    assert all(c.seq == snap.state.seq for c in room.conns)  # and the rest followed


def test_a_command_returns_only_once_its_push_to_this_process_has_gone_out(settings, table):
    """The push is not queued behind the command's own HTTP reply: by the time `commands.run` hands
    back its result (and the reply is built), this process's phones have been sent the change."""
    import asyncio
    import dataclasses

    from app.realtime.broker import MemoryBroker
    from app.services import commands
    from app.services.auth import seat_for

    fray = table.http.app.state.fray
    hub, room = _seated_room(settings, table, 3)
    hub.states = fray.states
    hub.rooms[table.id] = room
    # As after a room's first push: it holds the recent log and pushes from this process's memory.
    room.recent, room.read_database = hub.load(table.id, None, []).recent, False

    async def scenario() -> tuple[int, list[int]]:
        broker = MemoryBroker()
        await broker.start(hub.notify, hub.resync)
        ours = dataclasses.replace(fray, broker=broker)
        seat = seat_for(ours, table.id, table.gm.token)
        assert seat is not None
        result = await commands.run(ours, seat, {"type": "generic.roll", "expression": "1d6", "dice": [4]})
        return result.seq, [c.seq for c in room.conns]

    seq, pushed = asyncio.run(scenario())
    assert pushed == [seq] * 3
    assert all(c.queue.qsize() == 1 for c in room.conns)


def _pushing_room(settings, table: Table, players: int = 3):
    """A room of fake phones that pushes from this process's memory, and a Fray whose broker is memory."""
    import dataclasses

    from app.realtime.broker import MemoryBroker

    fray = table.http.app.state.fray
    hub, room = _seated_room(settings, table, players)
    hub.states = fray.states
    hub.rooms[table.id] = room
    room.recent, room.read_database = hub.load(table.id, None, []).recent, False
    return hub, room, dataclasses.replace(fray, broker=MemoryBroker())


def _gm_seat(fray, table: Table):
    from app.services.auth import seat_for

    seat = seat_for(fray, table.id, table.gm.token)
    assert seat is not None
    return seat


def test_a_change_made_here_is_pushed_in_the_task_that_made_it_and_a_busy_room_takes_it_to_its_task(
    settings, table
):
    """Idle, the room's push runs in the command's own task (the room's task is never woken for it);
    while another push holds the room, the change is left to the room's task, which pushes it next."""
    import asyncio

    from app.services import commands

    hub, room, fray = _pushing_room(settings, table)
    seat = _gm_seat(fray, table)
    roll = {"type": "generic.roll", "expression": "1d6", "dice": [4]}

    async def scenario() -> tuple[int, bool, int, list[int], list[int]]:
        await fray.broker.start(hub.notify, hub.resync)
        first = await commands.run(fray, seat, roll)
        woken = room.task is not None
        async with room.lock:  # another push under way
            second = await commands.run(fray, seat, roll)
            held = [c.seq for c in room.conns]
        for _ in range(20):
            await asyncio.sleep(0)
        return first.seq, woken, second.seq, held, [c.seq for c in room.conns]

    first, woken, second, held, after = asyncio.run(scenario())
    assert not woken
    assert held == [first] * 3  # not pushed while the room was busy
    assert after == [second] * 3  # its task pushed it once the room was free


def test_a_push_that_fails_in_the_commands_task_leaves_the_command_done(settings, table, monkeypatch, caplog):
    import asyncio

    from app.realtime.hub import Room
    from app.services import commands

    hub, _room, fray = _pushing_room(settings, table)
    seat = _gm_seat(fray, table)

    async def broken(self, snap) -> None:
        raise RuntimeError("a bug in a push")

    monkeypatch.setattr(Room, "_broadcast", broken)

    async def scenario() -> int:
        await fray.broker.start(hub.notify, hub.resync)
        result = await commands.run(fray, seat, {"type": "generic.roll", "expression": "1d6", "dice": [2]})
        return result.seq

    seq = asyncio.run(scenario())
    assert table.events(table.gm)[-1]["seq"] == seq  # stored, and its result came back
    assert any("failed to refresh" in m for m in caplog.messages)
