"""Which events a viewer may see (app/rules/seen_events.py): by audience, as the players read them, none
naming a character hidden from them now; a push's viewers who hear alike share one filtered list."""

from __future__ import annotations

from app.rules import seen_events
from app.rules.campaign.state import CampaignState, Participant, SeatInfo
from app.rules.system import Event, Viewer

ANN = Viewer(role="player", seat_id="s1", participants=frozenset({"p1"}))
BO = Viewer(role="player", seat_id="s2", participants=frozenset({"p2"}))


def _state(hidden: bool = False) -> CampaignState:
    return CampaignState(
        id="c",
        name="C",
        system="generic",
        seq=3,
        seats=(SeatInfo(id="s1", name="Ann", role="player"), SeatInfo(id="s2", name="Bo", role="player")),
        participants=(
            Participant(id="p1", name="Aria", owner="s1"),
            Participant(id="p2", name="Brick", owner="s2"),
            Participant(id="p3", name="Ghoul", kind="npc", hidden=hidden),
        ),
    )


EVENTS = [
    Event(seq=1, type="generic.pool_changed", data={"name": "Luck"}),
    Event(seq=2, type="generic.pool_changed", audience="p:p1", data={"name": "Hunch"}),
    Event(seq=3, type="generic.rolled", data={"who": "Ghoul", "total": 7}),
]


def test_each_viewer_sees_its_audiences_and_nothing_naming_a_hidden_character():
    seen = {
        name: [e.seq for e in seen_events.visible({}, EVENTS, v, _state())]
        for name, v in (("ann", ANN), ("bo", BO))
    }
    assert seen == {"ann": [1, 2, 3], "bo": [1, 3]}
    hidden = [e.seq for e in seen_events.visible({}, EVENTS, BO, _state(hidden=True))]
    assert hidden == [1]  # the ghoul's roll names it: gone while it is hidden, whenever it was written
    assert [
        e.seq for e in seen_events.visible({}, EVENTS, Viewer(role="gm", seat_id="gm"), _state(True))
    ] == [1, 2, 3]


def test_a_players_reading_of_an_event_is_what_they_get():
    def without_total(state, event):
        return event.model_copy(update={"data": {"who": event.data["who"]}})

    read = seen_events.visible({"generic.rolled": without_total}, EVENTS, BO, _state())
    assert read[-1].data == {"who": "Ghoul"} and EVENTS[-1].data["total"] == 7


def test_viewers_of_a_push_who_hear_alike_share_one_list_each_as_it_would_be_alone():
    memo: dict = {}
    spectator = Viewer(role="spectator", seat_id="s9")
    lists = [seen_events.visible({}, EVENTS, v, _state(), memo) for v in (ANN, BO, spectator)]
    assert lists[1] is lists[2] and lists[0] is not lists[1]
    assert [[e.seq for e in got] for got in lists] == [
        [e.seq for e in seen_events.visible({}, EVENTS, v, _state())] for v in (ANN, BO, spectator)
    ]


def test_texts_are_found_however_deep_they_are():
    data = {"a": [{"b": ("Ghoul", 3)}], "c": "x"}
    assert sorted(seen_events.texts(data)) == ["Ghoul", "x"]
    assert seen_events.names_any(data, frozenset({"Ghoul"})) and not seen_events.names_any(
        data, frozenset({"p3"})
    )
