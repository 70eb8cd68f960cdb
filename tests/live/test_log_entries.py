"""The dice log's entries (app/realtime/log.py): every roll of an event shown, each entry worded once and
kept with its event from push to push, a reading of an event worded as what it now says."""

from __future__ import annotations

from app.realtime.log import log_entries
from app.rules import dice
from app.rules.campaign.state import CampaignState, Participant, SeatInfo
from app.rules.dice import ManualRoller
from app.rules.game import Game
from app.rules.generic import SYSTEM as GENERIC
from app.rules.system import Event, Viewer

GAME = Game(GENERIC)
GM = Viewer(role="gm")


def _state() -> CampaignState:
    return CampaignState(
        id="c",
        name="C",
        system="generic",
        seq=10,
        seats=(SeatInfo(id="gm", name="GM", role="gm"), SeatInfo(id="s1", name="Ann", role="player")),
        participants=(Participant(id="p1", name="Aria", owner="s1"),),
    )


def _changed(**data: object) -> Event:
    return Event(seq=11, batch=11, type="generic.pool_changed", actor="s1", data=data)


def test_the_log_shows_every_roll_of_an_event():
    one = dice.roll("2d6", ManualRoller([3, 4])).as_dict()
    faces, values = dice.roll_d5_faces(ManualRoller([6, 2]), 2)
    product = dice.roll_record("5x5", 6, faces, values, values[0] * values[1])
    event = Event(
        seq=11,
        batch=11,
        type="generic.initiative_rolled",
        data={"expression": "1d20", "rolls": [{"name": "Aria", "value": 7, "roll": one}, product]},
    )
    entry = log_entries(GAME, _state(), [event], GM)[0]
    assert [r["total"] for r in entry["rolls"]] == [7, 0]
    assert entry["rolls"][1]["terms"][0]["faces"] == [6, 2]
    assert entry["rolls"][1]["terms"][0]["values"] == [0, 2]


def test_a_log_entry_is_kept_from_push_to_push_and_names_its_author_as_the_seats_now_read():
    state = _state()
    event = _changed(name="Luck", **{"from": 1, "to": 2})
    first = log_entries(GAME, state, [event], GM)[0]
    assert first["by"] == "Ann" and first["text"] == "Luck: 1 → 2."
    assert log_entries(GAME, state, [event], GM)[0] is first  # the same seats: the same entry
    same_names = state.model_copy(update={"seats": tuple(s.model_copy() for s in state.seats)})
    assert log_entries(GAME, same_names, [event], GM)[0] is first  # new seats, the same name
    renamed = state.model_copy(
        update={"seats": (state.seats[0], state.seats[1].model_copy(update={"name": "Annika"}))}
    )
    entries = log_entries(GAME, renamed, [event], GM)
    assert entries[0]["by"] == "Annika" and entries.fingerprint[0][-1] == "Annika"
    gone = state.model_copy(update={"seats": state.seats[:1]})
    assert log_entries(GAME, gone, [event], GM)[0]["by"] == "GM"  # a seat since removed


def test_a_copy_of_an_event_with_other_words_is_worded_afresh():
    # A reading of an event (as the players see it) is a copy: it carries its original's kept entry,
    # which must not be shown for it.
    state = _state()
    event = _changed(name="Luck", **{"from": 1, "to": 2})
    log_entries(GAME, state, [event], GM)
    reading = event.model_copy(update={"data": {"name": "Hope", "from": 1, "to": 2}})
    assert log_entries(GAME, state, [reading], GM)[0]["text"] == "Hope: 1 → 2."
    assert log_entries(GAME, state, [event], GM)[0]["text"] == "Luck: 1 → 2."


def test_an_undone_entry_is_marked_and_the_same_event_not_undone_is_not():
    state = _state()
    event = _changed(name="Luck", **{"from": 1, "to": 2})
    undo = Event(seq=12, batch=12, type="campaign.undone", data={"seqs": [11], "label": "Luck"})
    undone = log_entries(GAME, state, [event, undo], GM)
    assert [e["seq"] for e in undone] == [12, 11] and undone[1]["undone"] is True
    assert log_entries(GAME, state, [event], GM)[0]["undone"] is False


def test_viewers_of_a_push_who_see_the_same_events_share_one_log_and_a_secret_keeps_its_own():
    """A walk's moves are told only to those who see the token: the players who see alike share one list
    of events and one log (filtered and worded once a push), each as filtering alone would give it."""
    state = _state().model_copy(
        update={
            "seats": (*_state().seats, SeatInfo(id="s2", name="Bo", role="player")),
            "participants": (*_state().participants, Participant(id="p2", name="Brick", owner="s2")),
        }
    )
    public = _changed(name="Luck", **{"from": 1, "to": 2})
    secret = Event(seq=12, batch=12, type="generic.pool_changed", audience="p:p1", data={"name": "Hunch"})
    events = [public, secret]
    ann = Viewer(role="player", seat_id="s1", participants=frozenset({"p1"}))
    bo = Viewer(role="player", seat_id="s2", participants=frozenset({"p2"}))
    spectator = Viewer(role="spectator", seat_id="s3")
    described: dict = {}
    logs = {
        who: log_entries(GAME, state, events, v, described)
        for who, v in (("ann", ann), ("bo", bo), ("spec", spectator))
    }
    assert logs["bo"] is logs["spec"] and logs["ann"] is not logs["bo"]
    assert [e["seq"] for e in logs["ann"]] == [12, 11] and [e["seq"] for e in logs["bo"]] == [11]
    for v in (ann, bo, spectator):
        shared = GAME.visible(events, v, state, described)
        assert shared == GAME.visible(events, v, state)  # as the viewer alone would be told
    assert GAME.visible(events, bo, state, described) is GAME.visible(events, spectator, state, described)


def test_a_log_grown_on_top_of_the_last_pushs_is_found_from_it_and_is_the_log_worded_afresh(monkeypatch):
    """A push's log is usually the last push's with new events on top: each new event is worded, the older
    entries and lines are the last push's own. An undo among the new events (it strikes an older one
    through), new seats, a secret some viewer may not see, or a log that is not the last one's with more on
    top: every entry is looked up as before. At every step the log equals the log worded afresh."""
    from app.realtime import log as log_module
    from app.realtime import render
    from app.realtime.log import BEFORE, PUBLIC

    grown: list[bool] = []  # whether this push's log was found from the last push's
    appended = log_module._appended

    def counted(*args):
        found = appended(*args)
        grown.append(found is not None)
        return found

    monkeypatch.setattr(log_module, "_appended", counted)
    state = _state()
    events: list[Event] = []
    ann = Viewer(role="player", seat_id="s1", participants=frozenset({"p1"}))
    page, before = 5, None

    def add(kind: str = "generic.pool_changed", audience: str = "all", **data: object) -> None:
        seq = len(events) + 1
        events.append(Event(seq=seq, batch=seq, type=kind, actor="s1", audience=audience, data=data))

    def pushed(viewer: Viewer = ann) -> bool:
        """A push of the page's last events to `viewer`: whether every entry was looked up."""
        nonlocal before
        grown.clear()
        window = events[-page:]
        described = {BEFORE: before}
        entries = log_entries(GAME, state, window, viewer, described)
        afresh = log_entries(GAME, state, list(window), viewer, {})
        assert entries == afresh and entries.fingerprint == afresh.fingerprint
        lines = render.log_lines_of(entries, before)
        assert lines == render.log_lines_of(afresh)
        public = described.get(PUBLIC)
        if public is not None:
            public.lines = lines
        before = public
        return not any(grown)

    add(name="Luck", **{"from": 1, "to": 2})
    assert pushed()  # no push before it
    add(name="Luck", **{"from": 2, "to": 3})
    assert not pushed()  # one new event on top
    for n in range(3):
        add(name="Hope", **{"from": n, "to": n + 1})
    assert not pushed()  # three on top, the oldest leaving the page
    for n in range(7):
        add(name="Grit", **{"from": n, "to": n + 1})
    assert not pushed()  # more new events than the page holds
    add("campaign.undone", seqs=[len(events)], label="Grit")
    assert pushed()  # an undo strikes an older entry through
    add(name="Luck", **{"from": 3, "to": 4})
    assert not pushed()
    state = state.model_copy(
        update={"seats": (state.seats[0], state.seats[1].model_copy(update={"name": "Annika"}))}
    )
    add(name="Luck", **{"from": 4, "to": 5})
    assert pushed()  # new seats: the authors' names are looked up again
    assert log_entries(GAME, state, events[-page:], ann)[0]["by"] == "Annika"
    add(audience="p:p1", name="Hunch")
    assert pushed(Viewer(role="player", seat_id="s2")) and before is None  # a secret: not everyone's log
    for n in range(page - 1):
        add(name="Luck", **{"from": 5 + n, "to": 6 + n})
        assert pushed()  # the secret is still on the page: nobody's log grows on a public one
    add(name="Luck", **{"from": 9, "to": 10})
    assert pushed()  # the secret left the page: nothing before to grow on
    assert not pushed()  # the same log again: nothing new on top
    add(name="Luck", **{"from": 10, "to": 11})
    assert not pushed()
