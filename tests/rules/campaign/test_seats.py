"""Seats as commands (app/rules/campaign/seats.py): joining, watching and removing, decided by the rules
and made only by the server's own code; each refusal is the sentence the seats routes have always said."""

from __future__ import annotations

from typing import Any

import pytest

from app.rules.campaign.state import CampaignState
from app.rules.dice import ManualRoller
from app.rules.errors import Forbidden, InputError, RuleError
from app.rules.registry import game as game_of
from app.rules.system import Ctx, Event, NewEvent

GAME = game_of("generic")


def event(seq: int, type_: str, data: dict[str, Any], actor: str | None = None) -> Event:
    return Event(seq=seq, batch=seq, type=type_, data=data, actor=actor)


def joined(seq: int, seat: str, name: str, role: str) -> Event:
    return event(seq, "campaign.seat_joined", {"seat": {"id": seat, "name": name, "role": role}}, seat)


def table() -> CampaignState:
    created = {"id": "c1", "name": "Ford", "system": "generic", "dice_mode": "server"}
    return GAME.replay(
        None,
        [
            event(1, "campaign.created", created),
            joined(2, "seat-gm", "Gail", "gm"),
            joined(3, "seat-ann", "Ann", "player"),
            joined(4, "seat-tv", "Table", "spectator"),
            joined(5, "seat-old", "Olga", "player"),
            event(6, "campaign.seat_revoked", {"seat": "seat-old", "name": "Olga"}, "seat-gm"),
        ],
    )


def decide(state: CampaignState, by: str, role: str, /, **payload: Any) -> list[NewEvent]:
    _, command = GAME.parse(payload, internal=True)
    return GAME.decide(state, command, Ctx(ManualRoller(()), state.viewer_for(by, role)))


def refusal(error: type[RuleError], state: CampaignState, by: str, role: str, /, **payload: Any) -> str:
    with pytest.raises(error) as info:
        decide(state, by, role, **payload)
    assert type(info.value) is error
    return str(info.value)


def test_a_player_joining_writes_the_seat_joined_event_of_old():
    state = table()
    made = decide(state, "seat-new", "player", type="campaign.seat.join", seat="seat-new", name="Ben")
    assert made == [
        NewEvent(
            type="campaign.seat_joined", data={"seat": {"id": "seat-new", "name": "Ben", "role": "player"}}
        )
    ]
    after = GAME.replay(state, [joined(7, "seat-new", "Ben", "player")])
    assert after.seat("seat-new").role == "player"


def test_a_player_cannot_take_a_name_another_player_has_in_any_case():
    message = refusal(
        RuleError, table(), "seat-new", "player", type="campaign.seat.join", seat="seat-new", name="ANN"
    )
    assert message == "Someone at this table is already called ANN: pick another name."


def test_a_name_clash_is_told_as_it_is_even_when_a_hidden_character_has_that_name():
    # The refusal names a seat (public), never a character: no hidden character turns it into another.
    hidden = {"id": "p9", "name": "Ann", "kind": "npc", "owner": None, "hidden": True}
    state = GAME.replay(table(), [event(7, "campaign.participant_added", {"participant": hidden}, "seat-gm")])
    message = refusal(
        RuleError, state, "seat-new", "player", type="campaign.seat.join", seat="seat-new", name="Ann"
    )
    assert message == "Someone at this table is already called Ann: pick another name."


def test_a_removed_players_name_and_a_spectators_name_are_free_again():
    state = table()
    for name in ("Olga", "Table"):
        (made,) = decide(state, "seat-new", "player", type="campaign.seat.join", seat="seat-new", name=name)
        assert made.data["seat"]["name"] == name


def test_a_spectator_takes_a_spectators_seat_even_by_a_players_name():
    (made,) = decide(
        table(), "seat-new", "spectator", type="campaign.seat.watch", seat="seat-new", name="Ann"
    )
    assert made.type == "campaign.seat_joined"
    assert made.data == {"seat": {"id": "seat-new", "name": "Ann", "role": "spectator"}}


def test_a_spectator_still_cannot_act_otherwise():
    message = refusal(
        Forbidden, table(), "seat-tv", "spectator", type="campaign.seat.revoke", seat="seat-ann"
    )
    assert message == "Spectators watch the table; they cannot act."


@pytest.mark.parametrize(
    "type_", ["campaign.seat.join", "campaign.seat.watch", "campaign.seat.revoke", "campaign.link.rotate"]
)
def test_no_client_sends_a_seat_command(type_: str):
    with pytest.raises(InputError) as info:
        GAME.parse({"type": type_, "seat": "seat-x", "name": "Ben"})
    assert str(info.value).startswith(f"'{type_}' is not sent as a command: ")


def test_the_gm_removes_a_seat_with_the_event_of_old():
    made = decide(table(), "seat-gm", "gm", type="campaign.seat.revoke", seat="seat-ann")
    assert made == [NewEvent(type="campaign.seat_revoked", data={"seat": "seat-ann", "name": "Ann"})]


def test_only_the_gm_removes_a_seat():
    message = refusal(Forbidden, table(), "seat-ann", "player", type="campaign.seat.revoke", seat="seat-tv")
    assert message == "Only the GM can remove a seat."


@pytest.mark.parametrize(
    ("seat", "sentence"),
    [
        ("seat-gm", "You cannot remove your own GM seat."),
        ("seat-nobody", "There is no such seat at this table."),
        ("seat-old", "Olga was already removed."),
    ],
)
def test_what_the_gm_cannot_remove(seat: str, sentence: str):
    assert refusal(RuleError, table(), "seat-gm", "gm", type="campaign.seat.revoke", seat=seat) == sentence


@pytest.mark.parametrize("link", ["invite", "spectator"])
def test_a_fresh_link_is_the_gms_and_its_event_names_the_link_never_a_code(link: str):
    made = decide(table(), "seat-gm", "gm", type="campaign.link.rotate", link=link)
    assert made == [NewEvent(type="campaign.link_rotated", data={"link": link}, audience="gm")]


def test_only_the_gm_makes_a_fresh_link():
    message = refusal(Forbidden, table(), "seat-ann", "player", type="campaign.link.rotate", link="invite")
    assert message == "Only the GM can make a fresh link."
