"""Seat authentication kept in memory (issue 14): a busy table's requests skip the database read, and a
removed seat still stops at once, in this process and, for anything it would do, in every other."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from app.main import create_app
from app.rules.campaign.state import CampaignState, SeatInfo
from app.services.auth import SeatAuth, SeatCache, _well_formed, known_seat
from tests.helpers import Table

ANN = SeatAuth(seat_id="s1", campaign_id="c1", role="player", name="Ann", system="generic")


def state_with(*seats: SeatInfo) -> CampaignState:
    return CampaignState(id="c1", name="Test", system="generic", seats=seats)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_cached_seat_is_trusted_while_the_state_shows_it_as_it_was():
    cache = SeatCache(ttl=10, clock=Clock())
    cache.put("h", ANN)
    assert cache.get("c1", "h", state_with(SeatInfo(id="s1", name="Ann", role="player"))) == ANN
    assert cache.get("c1", "h", None) == ANN  # no state in memory: the entry's age alone decides
    assert cache.get("c2", "h", None) is None  # a token is a seat at one table only


def test_a_seat_the_state_shows_revoked_renamed_or_gone_is_looked_up_again():
    for state in (
        state_with(SeatInfo(id="s1", name="Ann", role="player", revoked=True)),
        state_with(SeatInfo(id="s1", name="Annie", role="player")),
        state_with(),
    ):
        cache = SeatCache(ttl=10, clock=Clock())
        cache.put("h", ANN)
        assert cache.get("c1", "h", state) is None
        assert cache.get("c1", "h", None) is None  # dropped, not only refused once


def test_an_entry_lasts_its_ttl_and_the_cache_its_size():
    clock = Clock()
    cache = SeatCache(size=2, ttl=10, clock=clock)
    cache.put("h", ANN)
    clock.now += 10
    assert cache.get("c1", "h", None) == ANN
    clock.now += 0.5
    assert cache.get("c1", "h", None) is None
    for n in range(3):
        cache.put(f"h{n}", ANN)
    assert cache.get("c1", "h0", None) is None and cache.get("c1", "h2", None) == ANN


def test_a_command_s_seat_is_trusted_past_its_ttl_but_never_past_the_state():
    """A command checks its seat against the state it decides on, so its look-up ignores the entry's age
    (a token names one seat for good); what the state shows still drops the entry."""
    clock = Clock()
    cache = SeatCache(ttl=10, clock=clock)
    cache.put("h", ANN)
    clock.now += 11
    shown = state_with(SeatInfo(id="s1", name="Ann", role="player"))
    assert cache.get("c1", "h", shown, acting=True) == ANN
    assert cache.get("c1", "h", None, acting=True) == ANN
    assert cache.get("c1", "h", shown) is None  # a read: the entry is too old, and dropped
    assert cache.get("c1", "h", shown, acting=True) is None
    cache.put("h", ANN)
    clock.now += 11
    revoked = state_with(SeatInfo(id="s1", name="Ann", role="player", revoked=True))
    assert cache.get("c1", "h", revoked, acting=True) is None


@contextmanager
def _seat_reads(client) -> Iterator[list[str]]:
    """The database reads of a seat by its token while the block runs."""
    seat_reads: list[str] = []

    def count(conn, cursor, statement, *args):
        if "token_hash" in statement:
            seat_reads.append(statement)

    engine = client.app.state.fray.db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seat_reads
    finally:
        event.remove(engine, "before_cursor_execute", count)


def test_a_busy_table_s_commands_never_read_their_seat_again(client, table: Table):
    """Entries older than their ttl: commands (the API's and a page's form) still read no seat; a read of
    the view looks the seat up again."""
    ann = table.join("Ann")
    table.view(ann)
    client.app.state.fray.seats.ttl = -1.0  # every entry already too old for a read
    with _seat_reads(client) as seat_reads:
        for _ in range(3):
            table.ok(ann, "generic.roll", expression="1d6", dice=[4])
        form = client.post(
            f"/c/{table.id}/commands",
            data={"type": "generic.roll", "expression": "1d6", "dice:json": "[4]"},
            headers={**ann.auth, "HX-Request": "true"},
        )
        assert form.status_code == 200, form.text
        assert seat_reads == []
        assert client.get(f"/api/campaigns/{table.id}", headers=ann.auth).status_code == 200
        assert len(seat_reads) == 1


def test_requests_at_a_table_read_the_seat_once(client, table: Table):
    ann = table.join("Ann")
    table.view(ann)
    with _seat_reads(client) as seat_reads:
        for _ in range(3):
            table.ok(ann, "generic.roll", expression="1d6", dice=[4])
        assert client.get(f"/api/campaigns/{table.id}", headers=ann.auth).status_code == 200
    assert seat_reads == []
    # A token never seen is still looked up, and refused.
    unknown = client.get(f"/api/campaigns/{table.id}", headers={"Authorization": "Bearer nope"})
    assert unknown.status_code == 401


def test_a_seat_removed_here_is_refused_at_once(table: Table):
    ann = table.join("Ann")
    table.view(ann)  # authenticated, so cached
    r = table.http.post(f"/api/campaigns/{table.id}/seats/{ann.seat_id}/revoke", headers=table.gm.auth)
    assert r.status_code == 204, r.text
    assert table.http.get(f"/api/campaigns/{table.id}", headers=ann.auth).status_code == 401
    assert table.send(ann, "generic.roll", expression="1d6", dice=[4]).status_code == 401


@pytest.mark.parametrize("long_ago", [False, True])
def test_a_seat_removed_by_another_process_cannot_act_here(settings, table: Table, long_ago: bool):
    """Two apps on one database, as two processes: the second still holds Ann's seat in its cache when
    the first removes her. She cannot act there, and after that refusal she cannot read there either;
    also when the entry over there is older than its ttl (a command's seat ignores the entry's age: the
    state the command would be decided on refuses her)."""
    ann = table.join("Ann")
    with TestClient(create_app(settings), base_url="http://testserver") as other:
        there = Table(other, table.id, table.gm, table.invite, table.spectator)
        assert there.view(ann)["me"]["name"] == "Ann"  # cached over there
        r = table.http.post(f"/api/campaigns/{table.id}/seats/{ann.seat_id}/revoke", headers=table.gm.auth)
        assert r.status_code == 204, r.text
        if long_ago:
            other.app.state.fray.seats.ttl = -1.0
        refused = there.send(ann, "generic.roll", expression="1d6", dice=[4])
        assert refused.status_code == 401, refused.text
        assert refused.json()["detail"] == "This seat was removed from the table."
        assert other.get(f"/api/campaigns/{table.id}", headers=ann.auth).status_code == 401


def test_a_seat_removed_by_another_process_cannot_ping_there(settings, table: Table):
    ann = table.join("Ann")
    with TestClient(create_app(settings), base_url="http://testserver") as other:
        there = Table(other, table.id, table.gm, table.invite, table.spectator)
        assert there.view(ann)["me"]["name"] == "Ann"  # cached over there
        r = table.http.post(f"/api/campaigns/{table.id}/seats/{ann.seat_id}/revoke", headers=table.gm.auth)
        assert r.status_code == 204, r.text
        ping = other.post(
            f"/api/campaigns/{table.id}/signals", json={"map.ping": {"x": 1, "y": 1}}, headers=ann.auth
        )
        assert ping.status_code == 401, ping.text
        assert all(e["type"] != "generic.rolled" for e in there.events(table.gm))


def test_a_token_or_campaign_with_a_control_character_names_no_seat(client: TestClient) -> None:
    table = Table.create(client)
    assert client.get(f"/api/campaigns/{table.id}", headers=table.gm.auth).status_code == 200
    for bad in ("\x00", "\x1f", "\x7f"):
        assert not _well_formed(table.id, table.gm.token + bad)
        assert not _well_formed(table.id + bad, table.gm.token)
        assert known_seat(client.app.state.fray, table.id + bad, table.gm.token) is None
    assert _well_formed(table.id, table.gm.token) and _well_formed(table.id, "é\u2028\x80")
    assert not _well_formed(table.id, "") and not _well_formed(table.id, "x" * 201)
