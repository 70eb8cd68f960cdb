"""The event envelope (app/rules/contract/envelope.py): an event reads as today's shape, its payload is
parsed once for its data, and its public shape leaves out what the store keeps to itself."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.rules.contract.envelope import Event, NewEvent
from app.rules.events import current_version

SAID = {"text": "hello", "by": "Ann"}


def test_an_event_built_in_memory_is_at_todays_version_and_refuses_unknown_fields():
    event = Event(seq=1, type="campaign.seat_revoked", data={"seat": "s1", "name": "Ann"})
    assert event.version == current_version("campaign.seat_revoked")
    with pytest.raises(ValidationError):
        Event(seq=1, type="campaign.seat_revoked", colour="red")  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        NewEvent(type="x", seq=3)  # type: ignore[call-arg]


def test_the_payload_is_read_once_for_its_data_and_again_for_a_copy_with_other_data():
    event = Event(seq=1, type="campaign.seat_revoked", data={"seat": "s1", "name": "Ann"})
    first = event.payload
    assert (first.seat, first.name) == ("s1", "Ann")
    assert event.payload is first
    other = event.model_copy(update={"data": {"seat": "s2", "name": "Ben"}})
    assert other.payload.name == "Ben" and event.payload.name == "Ann"


def test_the_public_shape_leaves_out_the_audience_and_the_version():
    event = Event(seq=4, type="campaign.seat_revoked", data={"seat": "s1", "name": "Ann"}, audience="gm")
    assert event.public() == {
        "seq": 4,
        "type": "campaign.seat_revoked",
        "data": {"seat": "s1", "name": "Ann"},
        "actor": None,
        "encounter": None,
        "batch": 0,
        "at": None,
    }


def test_a_new_event_is_public_by_default():
    assert NewEvent(type="chat.said", data=SAID).audience == "all"
