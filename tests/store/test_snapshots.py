"""app/store/snapshots.py and the state cache's use of them: the newest snapshot at or before a seq, undo
dropping the ones it reaches, and a snapshot of an older state shape ignored (the log folded again)."""

from __future__ import annotations

from app.rules import registry
from app.services.context import Fray
from app.store import snapshots
from app.store.states import STATE_VERSION, StateCache
from tests.helpers import Table


def _fray(client) -> Fray:
    return client.app.state.fray


def test_the_newest_snapshot_at_or_before_a_seq_is_found_and_undo_drops_what_it_reaches(client):
    table = Table.create(client)
    fray = _fray(client)
    with fray.db.write() as session:
        for seq in (5, 10, 15):
            snapshots.save(session, table.id, seq, STATE_VERSION, {"seq": seq})
    with fray.db.read() as session:
        assert snapshots.latest(session, table.id)[0] == 15
        assert snapshots.latest(session, table.id, at_most=12)[0] == 10
        assert snapshots.latest(session, table.id, at_most=4) is None
    with fray.db.write() as session:
        snapshots.drop_from(session, table.id, 10)
    with fray.db.read() as session:
        assert snapshots.latest(session, table.id)[0] == 5


def test_a_snapshot_of_an_older_state_shape_is_ignored_and_the_log_folded_again(client):
    table = Table.create(client)
    table.ok(table.gm, "generic.pool.create", name="Good Karma", value=2)
    fray = _fray(client)
    game = registry.game("generic")
    seq = table.view(table.gm)["campaign"]["seq"]
    with fray.db.write() as session:
        # What an older Fray folded to, under its own version: not to be read as today's shape.
        snapshots.save(session, table.id, seq, "0", {"bogus": True})
        snapshots.save(session, table.id, seq - 1, STATE_VERSION + "-future", {"bogus": True})
    with fray.db.read() as session:
        state = StateCache().rebuild(session, game, table.id)
    assert state.seq == seq and [p.name for p in state.pools] == ["Good Karma"]
