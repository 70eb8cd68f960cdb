"""Table talk (issue 30, item 10): `chat.say` to everyone, a whisper to some seats and the GM only, the
GM speaking as an NPC; plain text, one line, at most 500 characters."""

from __future__ import annotations

import json

import pytest

from app.realtime.log import log_entries
from app.rules.errors import Forbidden, InputError, RuleError
from tests.rules.generic.test_generic_rules import Table


@pytest.fixture
def t() -> Table:
    return Table().cast()


def _log(t: Table, who: str) -> list[str]:
    return [e["text"] for e in log_entries(t.game, t.state, t.events, t.viewer(who))]


def test_a_message_to_everyone_reaches_every_seat_with_the_speakers_name(t):
    t.do("ann", "chat.say", text="  I open the door.  ")
    for who in ("gm", "ann", "ben", "spec"):
        assert _log(t, who)[0] == "Ann: I open the door."


def test_a_whisper_reaches_only_its_seats_and_the_gm_in_every_reading(t):
    t.do("ann", "chat.say", text="Psst, the idol is fake", to=["seat-ben"])
    for who in ("gm", "ann", "ben"):
        assert _log(t, who)[0] == "Ann (to Ben): Psst, the idol is fake"
    for who in ("spec",):
        assert "idol" not in json.dumps([e.data for e in t.game.visible(t.events, t.viewer(who), t.state)])
        assert "idol" not in json.dumps(_log(t, who))
    t.do("gm", "campaign.add_participant", name="Cara", owner=None)
    t.do("gm", "chat.say", text="Ben only: you feel watched", to=["seat-ben"])
    assert "watched" not in json.dumps(_log(t, "ann")) and "watched" in _log(t, "ben")[0]


def test_the_gm_speaks_as_an_npc_the_players_can_see(t):
    t.do("gm", "chat.say", text="You shall not pass!", **{"as": "Goblin"})
    assert _log(t, "ann")[0] == "Goblin: You shall not pass!"
    assert "hidden" in t.refused("gm", "chat.say", text="Boo", **{"as": "Grakkazul"})
    assert "player's character" in t.refused("gm", "chat.say", text="Hi", **{"as": "Aria"})
    assert "Only the GM" in t.refused("ann", "chat.say", Forbidden, text="Hi", **{"as": "Goblin"})


@pytest.mark.parametrize(
    ("fields", "error", "says"),
    [
        ({"text": "x" * 501}, InputError, "at most 500"),
        ({"text": "   "}, InputError, "empty"),
        ({"text": "bad\x00byte"}, InputError, "control character"),
        ({"text": "hi", "to": ["seat-nobody"]}, RuleError, "seats at this table"),
        ({"text": "hi", "to": ["seat-spec"]}, RuleError, "seats at this table"),
    ],
)
def test_bad_messages_are_refused_with_a_sentence(t, fields, error, says):
    assert says in t.refused("ann", "chat.say", error, **fields)


def test_markup_is_kept_as_text_and_spectators_do_not_talk(t):
    t.do("ben", "chat.say", text="<b>bold</b> http://example.test")
    assert _log(t, "ann")[0] == "Ben: <b>bold</b> http://example.test"  # the page escapes it
    assert "Spectators" in t.refused("spec", "chat.say", Forbidden, text="hello")


def test_undo_steps_over_what_was_said(t):
    t.do("gm", "generic.pool.create", name="Doom", value=1)
    t.do("ann", "chat.say", text="Oh no")
    t.do("gm", "campaign.undo")
    assert not [p for p in t.state.pools if p.name == "Doom"]
    assert "Ann: Oh no" in _log(t, "ann")
