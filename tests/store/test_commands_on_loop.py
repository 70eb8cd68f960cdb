"""On SQLite a command on a warm cache is written right on the event loop, and never makes it wait.

A write there is a fraction of a millisecond, less than the hop to a worker thread and back. What could
make the loop wait is a lock (this process's other writer, or another process's, such as a backup) or a
checkpoint's sync to disk: the first sends the command to a worker thread, the second is a worker's job.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.realtime.broker import MemoryBroker
from app.services import campaigns, commands
from app.services.auth import SeatAuth
from app.services.context import Fray
from app.settings import Settings
from app.store import db as db_module
from app.store import log
from app.store.db import Database
from app.store.migrate import upgrade
from app.store.states import StateCache

GIVE = {"type": "generic.pool.adjust", "pool": "Gold", "delta": 1}


def _fray(url: str) -> Fray:
    settings = Settings(database_url=url)
    return Fray(settings=settings, db=Database(url), broker=MemoryBroker(), states=StateCache())


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'loop.db'}"
    upgrade(url)
    return url


@pytest.fixture
def gm(sqlite_url: str) -> Iterator[tuple[Fray, SeatAuth]]:
    fray = _fray(sqlite_url)
    new = campaigns.create(fray, "Loop", "generic", gm_name="GM")
    seat = SeatAuth(new.gm.seat_id, new.id, "gm", "GM", "generic")
    commands.execute(fray, seat, {"type": "generic.pool.create", "name": "Gold", "value": 0, "min": None})
    yield fray, seat
    fray.db.dispose()


@pytest.fixture
def hops(monkeypatch) -> list[str]:
    """The commands that went to a worker thread."""
    went: list[str] = []
    original = commands.to_thread.run_sync

    async def counted(function, *args, **kwargs):
        went.append(function.__name__)
        return await original(function, *args, **kwargs)

    monkeypatch.setattr(commands.to_thread, "run_sync", counted)
    return went


def _gold(fray: Fray, campaign_id: str) -> int:
    with fray.db.read() as session:
        events = log.after(session, campaign_id, 0)
    return [e.data["to"] for e in events if e.type == "generic.pool_changed"][-1]


async def _ticking(work) -> tuple[object, int, float]:
    """Run `work` while a ticker counts the loop's turns: the result, the ticks, the longest gap (s)."""
    ticks, longest, stop = 0, 0.0, False

    async def ticker() -> None:
        nonlocal ticks, longest
        last = time.perf_counter()
        while not stop:
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            ticks, longest, last = ticks + 1, max(longest, now - last), now

    task = asyncio.create_task(ticker())
    try:
        result = await work
    finally:
        stop = True
        await task
    return result, ticks, longest


def test_a_command_on_a_warm_cache_runs_on_the_loop_and_a_cold_one_in_a_thread(gm, hops, sqlite_url):
    fray, seat = gm
    result = asyncio.run(commands.run(fray, seat, GIVE))
    assert hops == [] and result.state.pool("Gold").value == 1
    assert _gold(fray, seat.campaign_id) == 1
    cold = _fray(sqlite_url)  # another process's view of it: nothing cached
    try:
        asyncio.run(commands.run(cold, seat, GIVE))
        assert hops == ["execute"]
        assert _gold(fray, seat.campaign_id) == 2
    finally:
        cold.db.dispose()


def test_a_refused_command_is_refused_in_a_thread_the_careful_way(gm, hops):
    fray, seat = gm
    with pytest.raises(commands.RuleError, match="There is no pool 'Silver'"):
        asyncio.run(commands.run(fray, seat, {"type": "generic.pool.adjust", "pool": "Silver", "delta": 1}))
    assert hops == ["execute"]


def test_another_process_holding_the_write_lock_never_holds_up_the_loop(gm, hops, sqlite_url):
    fray, seat = gm
    other = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"), check_same_thread=False)
    other.isolation_level = None
    other.execute("BEGIN IMMEDIATE")  # a backup or a migration, writing
    threading.Timer(0.3, lambda: other.execute("COMMIT")).start()
    try:
        result, ticks, longest = asyncio.run(_ticking(commands.run(fray, seat, GIVE)))
    finally:
        time.sleep(0.35)
        other.close()
    assert result.state.pool("Gold").value == 1  # stored once the lock was let go
    assert hops == ["execute"]  # waited for in a worker thread
    assert ticks >= 10 and longest < 0.2  # the loop went on meanwhile


def test_this_processs_other_writer_sends_the_command_to_a_thread(gm, hops):
    fray, seat = gm
    held = threading.Event()

    def writing_elsewhere() -> None:
        with fray.db.write_core(seat.campaign_id):
            held.set()
            time.sleep(0.3)

    thread = threading.Thread(target=writing_elsewhere)
    thread.start()
    held.wait(5)
    result, ticks, longest = asyncio.run(_ticking(commands.run(fray, seat, GIVE)))
    thread.join()
    assert result.state.pool("Gold").value == 1 and hops == ["execute"]
    assert ticks >= 10 and longest < 0.2


def test_the_loops_writes_are_checkpointed_by_a_worker_thread(gm, hops, monkeypatch):
    fray, seat = gm
    monkeypatch.setattr(db_module, "CHECKPOINT_EVERY", 3)
    checkpoints: list[tuple[str, tuple[int, int, int]]] = []
    original = Database.checkpoint

    def recorded(self: Database) -> tuple[int, int, int]:
        done = original(self)
        checkpoints.append((threading.current_thread().name, done))
        return done

    monkeypatch.setattr(Database, "checkpoint", recorded)

    async def seven() -> None:
        for _ in range(7):
            await commands.run(fray, seat, GIVE)
            await asyncio.sleep(0.05)  # a checkpoint takes its turn between two pushes

    asyncio.run(seven())
    assert hops == [] and _gold(fray, seat.campaign_id) == 7
    assert len(checkpoints) == 2 and all(name.startswith("fray-checkpoint") for name, _ in checkpoints)
    for _name, (busy, pages, copied) in checkpoints:
        assert busy == 0 and pages > 0 and copied == pages  # every page of the WAL is in the file
    with fray.db.write_now() as connection:  # the loop's own connection leaves checkpoints to them
        assert connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 0


def test_a_worker_threads_writes_are_checkpointed_by_the_worker_too(gm, monkeypatch):
    """SQLite's own checkpoint would run inside one commit in about 250 and sync to disk while it holds
    the write lock: the threads' kept connection leaves it to the checkpoint worker as the loop's does."""
    fray, seat = gm
    monkeypatch.setattr(db_module, "CHECKPOINT_EVERY", 3)
    checkpoints: list[str] = []
    original = Database.checkpoint

    def recorded(self: Database) -> tuple[int, int, int]:
        checkpoints.append(threading.current_thread().name)
        return original(self)

    monkeypatch.setattr(Database, "checkpoint", recorded)
    for _ in range(6):  # with the pool's write in the fixture, the 2nd and the 5th write hand one over
        commands.execute(fray, seat, GIVE)
        time.sleep(0.05)  # a checkpoint takes its turn
    assert _gold(fray, seat.campaign_id) == 6
    assert len(checkpoints) == 2 and all(name.startswith("fray-checkpoint") for name in checkpoints)
    with fray.db.write_core() as connection:
        assert connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0


def test_a_checkpoint_still_running_is_asked_for_again_by_the_next_write(gm, hops, monkeypatch):
    fray, seat = gm
    monkeypatch.setattr(db_module, "CHECKPOINT_EVERY", 2)
    release, calls = threading.Event(), []
    original = Database.checkpoint

    def slow(self: Database) -> tuple[int, int, int]:
        calls.append(time.perf_counter())
        release.wait(5)
        return original(self)

    monkeypatch.setattr(Database, "checkpoint", slow)

    async def writes(count: int) -> None:
        for _ in range(count):
            await commands.run(fray, seat, GIVE)
            await asyncio.sleep(0.02)

    asyncio.run(writes(4))  # the 2nd write hands one over; the 4th finds it still running
    assert len(calls) == 1
    release.set()
    time.sleep(0.1)
    asyncio.run(writes(1))  # so the 5th asks again, not the 6th
    fray.db.dispose()  # waits for the worker
    assert len(calls) == 2 and hops == []
