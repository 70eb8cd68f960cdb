"""A command decided on a process's cached state is stored only if that state was the log's end.

Two `Fray`s on one database stand for two processes: each has its own state cache, so one's writes
leave the other's cache behind. The quick way (decide on the cache, one INSERT) must then fail on the
unique keys and go the careful way; a repeated command_id must still return its first result.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import event, select

from app.realtime.broker import MemoryBroker
from app.rules import registry
from app.rules.errors import RuleError
from app.rules.system import NewEvent
from app.services import campaigns, commands
from app.services.auth import SeatAuth
from app.services.context import Fray
from app.settings import Settings
from app.store import log, snapshots
from app.store.db import Database
from app.store.models import ParticipantRow
from app.store.states import StateCache


def _fray(settings: Settings) -> Fray:
    return Fray(
        settings=settings, db=Database(settings.database_url), broker=MemoryBroker(), states=StateCache()
    )


@pytest.fixture
def two(settings: Settings) -> Iterator[tuple[Fray, Fray]]:
    first, second = _fray(settings), _fray(settings)
    yield first, second
    first.db.dispose()
    second.db.dispose()


def _table(fray: Fray) -> tuple[SeatAuth, SeatAuth]:
    """A campaign with a GM, a player (Ann) and a pool Gold at 1 that cannot go below 0."""
    new = campaigns.create(fray, "Cache", "generic", gm_name="GM")
    ann = campaigns.join(fray, new.id, new.invite_code, "Ann")
    gm = SeatAuth(new.gm.seat_id, new.id, "gm", "GM", "generic")
    player = SeatAuth(ann.seat_id, new.id, "player", "Ann", "generic")
    commands.execute(fray, gm, {"type": "generic.pool.create", "name": "Gold", "value": 1, "min": 0})
    return gm, player


def _load(fray: Fray, campaign_id: str) -> None:
    """The state as this process would read it for a page: now in its cache."""
    with fray.db.read() as session:
        fray.states.current(session, registry.game("generic"), campaign_id)


def _events(fray: Fray, campaign_id: str) -> list:
    with fray.db.read() as session:
        return log.after(session, campaign_id, 0)


def _gold(fray: Fray, campaign_id: str) -> int:
    """Gold as a brand-new process would fold it from the whole log."""
    return registry.game("generic").replay(None, _events(fray, campaign_id)).pool("Gold").value


def _dumped(result: commands.CommandResult) -> list[dict]:
    return [e.model_dump() for e in result.events]


def _take(seat: SeatAuth, command_id: str | None = None) -> dict:
    payload = {"type": "generic.pool.adjust", "pool": "Gold", "delta": -1}
    return {**payload, "command_id": command_id} if command_id else payload


def test_a_stale_cache_never_stores_a_command_decided_on_it(two):
    a, b = two
    gm, ann = _table(a)
    _load(b, gm.campaign_id)
    assert b.states.get(gm.campaign_id).pool("Gold").value == 1
    commands.execute(a, ann, _take(ann))  # the last point, taken through the other process
    # On b's cache there is a point to take; on the log there is none.
    with pytest.raises(RuleError, match="nothing left to take"):
        commands.execute(b, gm, _take(gm))
    assert _gold(a, gm.campaign_id) == 0
    assert [e.seq for e in _events(a, gm.campaign_id)] == list(range(1, len(_events(a, gm.campaign_id)) + 1))


def test_a_stale_cache_catches_up_and_the_command_lands_after_the_other_writes(two):
    a, b = two
    gm, ann = _table(a)
    commands.execute(
        b, gm, {"type": "generic.pool.adjust", "pool": "Gold", "delta": 1}
    )  # Gold 2, cached in b
    commands.execute(a, ann, _take(ann))  # Gold 1, b does not know
    result = commands.execute(b, gm, {"type": "generic.pool.adjust", "pool": "Gold", "delta": 5})
    assert result.state.pool("Gold").value == 6
    assert _gold(a, gm.campaign_id) == 6
    assert result.seq == len(_events(a, gm.campaign_id))


def test_a_repeated_command_returns_its_first_result_though_deciding_again_would_refuse(two):
    a, b = two
    gm, ann = _table(a)
    first = commands.execute(a, ann, _take(ann, "take-1"))  # Gold 0: the same command now would be refused
    assert not first.repeated
    again = commands.execute(a, ann, _take(ann, "take-1"))  # a's cache is current
    assert again.repeated and again.seq == first.seq and _dumped(again) == _dumped(first)
    elsewhere = commands.execute(b, ann, _take(ann, "take-1"))  # b has no cache yet
    assert elsewhere.repeated and elsewhere.seq == first.seq
    assert _gold(a, gm.campaign_id) == 0


def test_a_repeated_command_that_would_be_accepted_again_is_not_stored_twice(two):
    a, b = two
    gm, _ann = _table(a)
    give = {"type": "generic.pool.adjust", "pool": "Gold", "delta": 1, "command_id": "give-1"}
    _load(b, gm.campaign_id)
    first = commands.execute(a, gm, give)
    stale = commands.execute(b, gm, give)  # b's cache is behind: both keys would fail
    assert stale.repeated and stale.seq == first.seq
    _load(b, gm.campaign_id)  # b catches up
    assert b.states.get(gm.campaign_id).seq == first.seq
    current = commands.execute(b, gm, give)  # b's cache is current: only the command_id key fails
    assert current.repeated and current.seq == first.seq
    assert _gold(a, gm.campaign_id) == 2
    assert [e.data["to"] for e in _events(a, gm.campaign_id) if e.type == "generic.pool_changed"] == [2]


def test_another_seats_command_id_is_refused_on_the_quick_way_too(two):
    a, _b = two
    gm, ann = _table(a)
    commands.execute(
        a, ann, {"type": "generic.pool.adjust", "pool": "Gold", "delta": 1, "command_id": "mine"}
    )
    before = len(_events(a, gm.campaign_id))
    with pytest.raises(RuleError, match="already used by another seat"):
        commands.execute(
            a, gm, {"type": "generic.pool.adjust", "pool": "Gold", "delta": 1, "command_id": "mine"}
        )
    assert len(_events(a, gm.campaign_id)) == before


def test_a_seat_removed_by_another_process_is_refused(two):
    a, b = two
    gm, ann = _table(a)
    commands.execute(b, ann, {"type": "generic.pool.adjust", "pool": "Gold", "delta": 1})  # b caches Ann
    campaigns.revoke(a, gm, ann.seat_id)
    with pytest.raises(commands.SeatGone):
        commands.execute(b, ann, {"type": "generic.pool.adjust", "pool": "Gold", "delta": 1})
    assert _gold(a, gm.campaign_id) == 2


def _postgres(fray: Fray) -> bool:
    return not fray.db.reads_inline


def _statements(fray: Fray, payload: dict, seat: SeatAuth) -> list[tuple[str, bool]]:
    """Each statement a command sent: its verb, and whether it ran in a transaction of its own making
    (on PostgreSQL, False when the driver ran it alone, without BEGIN and COMMIT)."""
    statements: list[tuple[str, bool]] = []

    def seen(conn, _cursor, statement, *_rest) -> None:
        driver = conn.connection.driver_connection
        in_transaction = not driver.autocommit if _postgres(fray) else True
        statements.append((statement.split()[0].upper(), in_transaction))

    if not _postgres(fray):
        # SQLite's kept writer runs its begin, insert and commit on the driver, past SQLAlchemy's events
        # (app/store/db.py): the driver's own trace sees every statement, and whether it ran in the
        # transaction (BEGIN and COMMIT themselves are left out, as on PostgreSQL's event).
        driver = fray.db._kept.connection.driver_connection  # the kept writer

        def traced(statement: str) -> None:
            verb = statement.split()[0].upper()
            if verb not in ("BEGIN", "COMMIT"):
                statements.append((verb, driver.in_transaction))

        driver.set_trace_callback(traced)
        try:
            commands.execute(fray, seat, payload)
        finally:
            driver.set_trace_callback(None)
        return statements
    event.listen(fray.db.engine, "before_cursor_execute", seen)
    try:
        commands.execute(fray, seat, payload)
    finally:
        event.remove(fray.db.engine, "before_cursor_execute", seen)
    return statements


def test_a_command_on_a_current_cache_runs_one_statement_its_insert(two):
    """What the quick way saves: no read of the log's end, no command_id look-up, no SAVEPOINT, and on
    PostgreSQL no advisory lock, and no BEGIN or COMMIT: the insert is atomic alone, one round trip."""
    a, _b = two
    gm, _ann = _table(a)
    payload = {"type": "generic.pool.adjust", "pool": "Gold", "delta": 1, "command_id": "c1"}
    assert _statements(a, payload, gm) == [("INSERT", not _postgres(a))]
    assert _gold(a, gm.campaign_id) == 2


def test_a_command_that_also_writes_a_projection_writes_it_in_the_same_transaction(two):
    a, _b = two
    gm, _ann = _table(a)
    added = _statements(a, {"type": "campaign.add_participant", "name": "Orc"}, gm)
    assert [verb for verb, _ in added] == ["INSERT", "INSERT"]  # the event, then the participant's row
    assert all(in_transaction for _, in_transaction in added)
    with a.db.read() as session:
        names = session.execute(
            select(ParticipantRow.name).where(ParticipantRow.campaign_id == gm.campaign_id)
        ).scalars()
        assert list(names) == ["Orc"]


def test_a_command_that_takes_a_snapshot_takes_it_in_the_same_transaction(settings: Settings):
    fray = Fray(
        settings=settings,
        db=Database(settings.database_url),
        broker=MemoryBroker(),
        states=StateCache(snapshot_every=5),
    )
    try:
        gm, _ann = _table(fray)  # seqs 1-4: created, joined, joined, pool created
        give = {"type": "generic.pool.adjust", "pool": "Gold", "delta": 1}
        at_five = _statements(fray, give, gm)
        assert [verb for verb, _ in at_five] == ["INSERT", "INSERT"]  # the event, then the snapshot
        assert all(in_transaction for _, in_transaction in at_five)
        assert _statements(fray, give, gm) == [("INSERT", not _postgres(fray))]  # seq 6: none due
        with fray.db.read() as session:
            assert snapshots.latest(session, gm.campaign_id)[0] == 5
    finally:
        fray.db.dispose()


def test_several_events_go_in_as_one_statement_all_or_none(two):
    """Run alone on PostgreSQL, a command's insert must still store all of its events or none."""
    a, _b = two
    gm, _ann = _table(a)
    end = len(_events(a, gm.campaign_id))
    new = [NewEvent(type="generic.pool_changed", data={"pool": "Gold", "to": n}) for n in (5, 6)]
    clash, _ = log.stamped(gm.campaign_id, end + 1, new[:1], gm.seat_id, None)
    later, _ = log.stamped(gm.campaign_id, end, new, gm.seat_id, None)  # its second row is end + 2
    with a.db.write_core() as conn:
        log.insert_rows(conn, clash)  # end + 2 is taken
    statements: list[str] = []

    def seen(_conn, _cursor, statement, *_rest) -> None:
        statements.append(statement)

    event.listen(a.db.engine, "before_cursor_execute", seen)
    try:
        with pytest.raises(log.SeqTaken), a.db.write_core() as conn:
            a.db.alone(conn)
            log.insert_rows(conn, later)
    finally:
        event.remove(a.db.engine, "before_cursor_execute", seen)
    assert len(statements) == 1
    assert [e.seq for e in _events(a, gm.campaign_id)][-2:] == [end, end + 2]  # end + 1 was not stored
