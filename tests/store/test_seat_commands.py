"""Joining and removing a seat are written the way every command is (`commands.decide_and_append`): the
seat's row and its event in one write, this process's state and tail told, a refusal leaving nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import select

from app.realtime.broker import MemoryBroker
from app.rules.errors import Forbidden, RuleError
from app.services import campaigns
from app.services.auth import SeatAuth
from app.services.context import Fray
from app.settings import Settings
from app.store.db import Database
from app.store.models import Seat
from app.store.states import StateCache


@pytest.fixture
def fray(settings: Settings) -> Iterator[Fray]:
    fray = Fray(
        settings=settings, db=Database(settings.database_url), broker=MemoryBroker(), states=StateCache()
    )
    yield fray
    fray.db.dispose()


def _rows(fray: Fray, campaign_id: str) -> dict[str, bool]:
    """Each seat's name, and whether its token was stopped."""
    with fray.db.read() as session:
        seats = session.execute(select(Seat).where(Seat.campaign_id == campaign_id)).scalars()
        return {s.name: s.revoked_at is not None for s in seats}


def test_a_join_is_in_the_push_paths_state_and_tail_at_once(fray: Fray):
    new = campaigns.create(fray, "Seats", "generic", gm_name="GM")
    ann = campaigns.join(fray, new.id, new.invite_code, "Ann")
    tv = campaigns.join(fray, new.id, new.spectator_code, None, role="spectator")
    state = fray.states.get(new.id)
    assert state is not None and state.seq == tv.seq == ann.seq + 1
    assert state.seat(ann.seat_id).role == "player" and state.seat(tv.seat_id).name == "Table"
    tail = fray.states.tail_after(new.id, ann.seq - 1, tv.seq)
    assert tail is not None
    assert [(e.type, e.actor, e.data["seat"]["role"]) for e in tail] == [
        ("campaign.seat_joined", ann.seat_id, "player"),
        ("campaign.seat_joined", tv.seat_id, "spectator"),
    ]
    assert _rows(fray, new.id) == {"GM": False, "Ann": False, "Table": False}


def test_a_refused_join_leaves_no_seat_row_and_no_event(fray: Fray):
    new = campaigns.create(fray, "Seats", "generic", gm_name="GM")
    campaigns.join(fray, new.id, new.invite_code, "Ann")
    seq = fray.states.get(new.id).seq
    with pytest.raises(RuleError, match="already called ann"):
        campaigns.join(fray, new.id, new.invite_code, "ann")
    assert _rows(fray, new.id) == {"GM": False, "Ann": False}
    assert fray.states.get(new.id).seq == seq


def test_a_removed_seat_is_stopped_in_its_row_and_in_the_state(fray: Fray):
    new = campaigns.create(fray, "Seats", "generic", gm_name="GM")
    ann = campaigns.join(fray, new.id, new.invite_code, "Ann")
    gm = SeatAuth(new.gm.seat_id, new.id, "gm", "GM", "generic")
    seq = campaigns.revoke(fray, gm, ann.seat_id)
    state = fray.states.get(new.id)
    assert state.seq == seq and state.seat(ann.seat_id).revoked
    assert [e.data for e in fray.states.tail_after(new.id, seq - 1, seq)] == [
        {"seat": ann.seat_id, "name": "Ann"}
    ]
    assert _rows(fray, new.id) == {"GM": False, "Ann": True}


def test_a_refused_removal_stops_no_token(fray: Fray):
    new = campaigns.create(fray, "Seats", "generic", gm_name="GM")
    gm = SeatAuth(new.gm.seat_id, new.id, "gm", "GM", "generic")
    with pytest.raises(RuleError, match="your own GM seat"):
        campaigns.revoke(fray, gm, gm.seat_id)
    assert _rows(fray, new.id) == {"GM": False}


def test_a_fresh_link_is_written_with_its_event_and_the_code_stays_out_of_the_log(fray: Fray):
    new = campaigns.create(fray, "Seats", "generic", gm_name="GM")
    gm = SeatAuth(new.gm.seat_id, new.id, "gm", "GM", "generic")
    seq = campaigns.join(fray, new.id, new.invite_code, "Ann").seq
    code = campaigns.rotate(fray, gm, "spectator")
    assert campaigns.codes(fray, gm) == (new.invite_code, code) and code != new.spectator_code
    state = fray.states.get(new.id)
    assert state.seq == seq + 1
    [event] = fray.states.tail_after(new.id, seq, state.seq)
    assert (event.type, event.data, event.audience) == ("campaign.link_rotated", {"link": "spectator"}, "gm")
    assert code not in repr(event)
    with pytest.raises(Forbidden):  # the old link lets no one in; the new one does
        campaigns.join(fray, new.id, new.spectator_code, "Tv", role="spectator")
    assert campaigns.join(fray, new.id, code, "Tv", role="spectator").role == "spectator"
