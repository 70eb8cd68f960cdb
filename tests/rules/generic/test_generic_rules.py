"""The generic tabletop and the campaign core, driven as pure deciders through the registry.

A small in-test harness folds `campaign.created` and `campaign.seat_joined`, then runs commands the
way the service layer does: parse, decide with a ManualRoller and the seat's viewer, stamp seqs,
evolve (or replay the whole log after an undo).
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from app.realtime.log import log_entries
from app.rules.campaign.state import CampaignState
from app.rules.dice import ManualRoller
from app.rules.errors import Forbidden, InputError, RuleError
from app.rules.registry import game as game_of
from app.rules.system import Ctx, Event, Viewer
from tests.rules.harness import InMemoryLog

SEATS = {
    "gm": ("seat-gm", "Gail", "gm"),
    "ann": ("seat-ann", "Ann", "player"),
    "ben": ("seat-ben", "Ben", "player"),
    "spec": ("seat-spec", "Table", "spectator"),
}

# Words that only the GM may ever see.
GOBLIN_NOTES = "Goblin-notes: AC 12, flees at 2 hp"
BOSS = "Grakkazul"
BOSS_NOTES = "Boss-notes: 21 hp"
HIDDEN_POOL = "Doomclock"
HIDDEN_TRACK = "Ritualcount"


class Table(InMemoryLog):
    """One generic campaign in memory: an event log and the state folded from it."""

    def __init__(self, dice_mode: str = "server"):
        self.game = game_of("generic")
        self.events: list[Event] = []
        self.state: CampaignState | None = None
        self._append(
            [
                (
                    "campaign.created",
                    {"id": "c1", "name": "Ford", "system": "generic", "dice_mode": dice_mode},
                    "all",
                )
            ],
            actor=None,
        )
        for seat_id, name, role in SEATS.values():
            self._append(
                [("campaign.seat_joined", {"seat": {"id": seat_id, "name": name, "role": role}}, "all")],
                actor=seat_id,
            )

    # -- running commands --

    def viewer(self, who: str) -> Viewer:
        seat_id, _, role = SEATS[who]
        return self.state.viewer_for(seat_id, role)

    def do(self, who: str, type_: str, faces: tuple[int, ...] | list[int] = (), **fields: Any) -> list[Event]:
        _, command = self.game.parse({"type": type_, **fields})
        roller = ManualRoller(faces)
        new_events = self.game.decide(self.state, command, Ctx(roller, self.viewer(who)))
        roller.finish()
        return self._append(
            [(e.type, e.data, e.audience, e.encounter) for e in new_events], actor=SEATS[who][0]
        )

    def refused(
        self, who: str, type_: str, error: type[RuleError] = RuleError, faces=(), **fields: Any
    ) -> str:
        """The sentence a refused command gets; the log and state stay as they were."""
        before_events, before_state = list(self.events), self.state
        with pytest.raises(error) as info:
            self.do(who, type_, faces, **fields)
        assert type(info.value) is error, f"expected {error.__name__}, got {type(info.value).__name__}"
        assert self.events == before_events and self.state == before_state
        message = str(info.value)
        assert message.endswith("."), message
        return message

    # -- reading --

    def view(self, who: str) -> dict[str, Any]:
        return self.game.view(self.state, self.viewer(who))

    def dump(self, who: str) -> str:
        return json.dumps(self.view(who), default=str)

    def pid(self, name: str) -> str:
        return self.state.participant(name).id

    def pool(self, name: str, owner: str | None = None):
        owner_id = self.pid(owner) if owner else None
        (pool,) = [p for p in self.state.pools if p.name == name and p.owner == owner_id]
        return pool

    def track(self, name: str, owner: str | None = None):
        owner_id = self.pid(owner) if owner else None
        (track,) = [t for t in self.state.tracks if t.name == name and t.owner == owner_id]
        return track

    def visible_types(self, who: str) -> list[str]:
        return [e.type for e in self.game.visible(self.events, self.viewer(who))]

    def cast(self) -> Table:
        """Aria (Ann's PC), Brick (Ben's PC), a Goblin NPC with GM notes and a hidden boss."""
        self.do("gm", "campaign.add_participant", name="Aria", owner="seat-ann")
        self.do("gm", "campaign.add_participant", name="Brick", owner="seat-ben")
        self.do("gm", "campaign.add_participant", name="Goblin", kind="npc", notes=GOBLIN_NOTES)
        self.do("gm", "campaign.add_participant", name=BOSS, kind="npc", hidden=True, notes=BOSS_NOTES)
        return self


@pytest.fixture
def t() -> Table:
    return Table().cast()


def names(items: list[dict[str, Any]]) -> list[str]:
    return [item["name"] for item in items]


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def _expired(signum, frame):
        raise TimeoutError(f"took longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, _expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --- the harness itself ------------------------------------------------------------------------


def test_a_new_campaign_has_its_seats_and_players_control_their_characters(t: Table):
    assert t.state.system == "generic"
    assert [(s.name, s.role) for s in t.state.seats] == [
        ("Gail", "gm"),
        ("Ann", "player"),
        ("Ben", "player"),
        ("Table", "spectator"),
    ]
    assert t.viewer("ann").participants == frozenset({t.pid("Aria")})
    assert t.viewer("ben").participants == frozenset({t.pid("Brick")})
    assert t.viewer("gm").is_gm
    assert t.viewer("spec").participants == frozenset()
    assert [e.seq for e in t.events] == list(range(1, len(t.events) + 1))
    assert t.state.seq == len(t.events)


def test_unknown_command_types_and_fields_are_refused_with_a_sentence(t: Table):
    with pytest.raises(InputError) as info:
        t.game.parse({"type": "generic.teleport"})
    assert str(info.value) == "'generic.teleport' is not a command of a Generic tabletop campaign."
    with pytest.raises(InputError) as info:
        t.game.parse({"type": "generic.pool.adjust", "pool": "Luck", "delta": 1, "colour": "red"})
    assert str(info.value) == "generic.pool.adjust: Colour is not something this command takes."
    with pytest.raises(InputError) as info:
        t.game.parse({"type": "generic.pool.adjust", "pool": "Luck", "delta": "lots"})
    assert str(info.value) == "generic.pool.adjust: Delta must be a whole number."
    with pytest.raises(InputError, match="needs a type"):
        t.game.parse({})


# --- pools -------------------------------------------------------------------------------------


def test_gm_creates_a_pool_that_everyone_sees(t: Table):
    (event,) = t.do("gm", "generic.pool.create", name="Karma", value=2, min=0, max=5)
    assert event.type == "generic.pool_created"
    assert event.audience == "all"
    pool = t.pool("Karma")
    assert (pool.value, pool.min, pool.max, pool.owner) == (2, 0, 5, None)
    for who in ("ann", "ben", "spec"):
        (seen,) = [p for p in t.view(who)["pools"] if p["name"] == "Karma"]
        assert seen["value"] == 2
    assert [p["can_adjust"] for p in t.view("ann")["pools"]] == [True]
    assert [p["can_adjust"] for p in t.view("spec")["pools"]] == [False]


def test_pool_whose_least_is_above_its_most_is_refused(t: Table):
    message = t.refused("gm", "generic.pool.create", name="Karma", value=4, min=5, max=3)
    assert message == "The least a pool can hold (5) must not be more than the most (3)."


@pytest.mark.parametrize(
    ("value", "low", "high", "within"),
    [(7, 0, 5, "0 to 5"), (-1, 0, None, "0 or more"), (6, None, 5, "5 or less")],
)
def test_pool_starting_outside_its_bounds_is_refused(t: Table, value, low, high, within):
    message = t.refused("gm", "generic.pool.create", name="Karma", value=value, min=low, max=high)
    assert message == f"Karma cannot start at {value}: it must stay within {within}."


def test_duplicate_pool_name_for_the_same_owner_is_refused(t: Table):
    t.do("gm", "generic.pool.create", name="Luck", value=8, owner="Aria")
    message = t.refused("gm", "generic.pool.create", name="luck", value=1, owner="Aria")
    assert message == "There is already a pool called Aria's luck."
    # The same name for another character, or the whole table, is fine.
    t.do("gm", "generic.pool.create", name="Luck", value=8, owner="Brick")
    t.do("gm", "generic.pool.create", name="Luck", value=1)
    assert sorted((p.owner or "") for p in t.state.pools) == sorted(["", t.pid("Aria"), t.pid("Brick")])


def test_pool_for_an_unknown_character_is_refused(t: Table):
    assert t.refused("gm", "generic.pool.create", name="Luck", owner="Zed") == "There is no character 'Zed'."


def test_adjusting_a_pool_moves_it_and_names_the_owner(t: Table):
    t.do("gm", "generic.pool.create", name="Luck", value=8, owner="Aria")
    (event,) = t.do("ann", "generic.pool.adjust", pool=t.pool("Luck", "Aria").id, delta=-3)
    assert event.type == "generic.pool_changed"
    assert event.data == {"pool": t.pool("Luck", "Aria").id, "name": "Aria's Luck", "from": 8, "to": 5}
    assert t.pool("Luck", "Aria").value == 5
    assert t.game.describe(event) == "Aria's Luck: 8 → 5."


def test_adjusting_a_pool_already_at_its_least_is_refused_with_its_name(t: Table):
    t.do("gm", "generic.pool.create", name="Karma", value=0, min=0)
    message = t.refused("ann", "generic.pool.adjust", pool="Karma", delta=-1)
    assert message == "Karma is already at 0, its least: nothing left to take."
    assert t.pool("Karma").value == 0


def test_taking_more_than_a_pool_holds_is_refused(t: Table):
    t.do("gm", "generic.pool.create", name="Karma", value=2, min=0)
    assert t.refused("ann", "generic.pool.adjust", pool="Karma", delta=-3) == (
        "Karma has 2; it cannot go below 0."
    )


def test_adjusting_a_pool_at_its_most_is_refused_with_its_name(t: Table):
    t.do("gm", "generic.pool.create", name="Karma", value=3, min=0, max=3)
    message = t.refused("gm", "generic.pool.adjust", pool="Karma", delta=1)
    assert message == "Karma has 3; it cannot go above 3."
    assert t.pool("Karma").value == 3


def test_a_pool_without_a_least_may_go_negative(t: Table):
    t.do("gm", "generic.pool.create", name="Debt", value=0, min=None)
    t.do("gm", "generic.pool.adjust", pool="Debt", delta=-7)
    assert t.pool("Debt").value == -7


def test_adjusting_a_pool_by_zero_is_refused(t: Table):
    t.do("gm", "generic.pool.create", name="Karma", value=1)
    assert t.refused("ann", "generic.pool.adjust", pool="Karma", delta=0) == "Adjust by at least 1."


def test_players_adjust_shared_pools_and_their_own_characters_pools(t: Table):
    t.do("gm", "generic.pool.create", name="Karma", value=1)
    t.do("gm", "generic.pool.create", name="Luck", value=8, owner="Aria")
    t.do("ann", "generic.pool.adjust", pool="Karma", delta=2)
    t.do("ben", "generic.pool.adjust", pool="Karma", delta=-1)
    t.do("ann", "generic.pool.adjust", pool=t.pool("Luck", "Aria").id, delta=-1)
    assert t.pool("Karma").value == 2
    assert t.pool("Luck", "Aria").value == 7


def test_players_cannot_adjust_a_gm_only_pool(t: Table):
    t.do("gm", "generic.pool.create", name="Bad Karma", value=2, gm_only=True)
    message = t.refused("ann", "generic.pool.adjust", Forbidden, pool="Bad Karma", delta=-1)
    assert message == "Only the GM can change Bad Karma."
    t.do("gm", "generic.pool.adjust", pool="Bad Karma", delta=-1)
    assert t.pool("Bad Karma").value == 1
    (seen,) = t.view("ann")["pools"]
    assert seen["can_adjust"] is False


def test_players_cannot_adjust_another_characters_pool(t: Table):
    t.do("gm", "generic.pool.create", name="Luck", value=8, owner="Brick")
    bricks = t.pool("Luck", "Brick").id
    message = t.refused("ann", "generic.pool.adjust", Forbidden, pool=bricks, delta=-1)
    assert message == "Only the GM can change Luck."
    assert t.pool("Luck", "Brick").value == 8
    assert [p["can_adjust"] for p in t.view("ann")["pools"]] == [False]
    assert [p["can_adjust"] for p in t.view("ben")["pools"]] == [True]


def test_hidden_pools_are_invisible_and_unnameable_by_players(t: Table):
    (event,) = t.do("gm", "generic.pool.create", name=HIDDEN_POOL, value=3, hidden=True)
    assert event.audience == "gm"
    typo = t.refused("ann", "generic.pool.adjust", pool="Doomklok", delta=1)
    hidden = t.refused("ann", "generic.pool.adjust", pool=HIDDEN_POOL, delta=1)
    assert typo == "There is no pool 'Doomklok'."
    assert hidden == f"There is no pool '{HIDDEN_POOL}'."
    assert HIDDEN_POOL not in t.dump("ann")
    assert HIDDEN_POOL not in t.dump("spec")
    (gm_pool,) = t.view("gm")["pools"]
    assert (gm_pool["name"], gm_pool["hidden"]) == (HIDDEN_POOL, True)
    assert "generic.pool_created" not in t.visible_types("ann")
    t.do("gm", "generic.pool.adjust", pool=HIDDEN_POOL, delta=1)
    assert t.pool(HIDDEN_POOL).value == 4
    assert t.events[-1].audience == "gm"


def test_pools_of_a_hidden_character_are_hidden_from_players(t: Table):
    (event,) = t.do("gm", "generic.pool.create", name="Rage", value=2, owner=BOSS)
    assert event.audience == "gm"
    rage = t.pool("Rage", BOSS).id
    assert t.refused("ann", "generic.pool.adjust", pool=rage, delta=1) == f"There is no pool '{rage}'."
    assert t.view("ann")["pools"] == []
    assert names(t.view("gm")["pools"]) == ["Rage"]


def test_a_hidden_pool_of_the_same_name_neither_blocks_nor_reveals_itself(t: Table):
    t.do("gm", "generic.pool.create", name=HIDDEN_POOL, value=3, hidden=True)
    t.do("gm", "generic.pool.create", name=HIDDEN_POOL, value=1, owner="Aria")
    t.do("ann", "generic.pool.adjust", pool=HIDDEN_POOL, delta=1)
    assert t.pool(HIDDEN_POOL, "Aria").value == 2
    assert t.pool(HIDDEN_POOL).value == 3


def test_a_hidden_track_of_the_same_name_neither_blocks_nor_reveals_itself(t: Table):
    t.do("gm", "generic.track.create", name=HIDDEN_TRACK, total=4, hidden=True)
    t.do("gm", "generic.track.create", name=HIDDEN_TRACK, total=4, owner="Aria")
    t.do("ann", "generic.track.adjust", track=HIDDEN_TRACK, delta=1)
    assert t.track(HIDDEN_TRACK, "Aria").filled == 1
    assert t.track(HIDDEN_TRACK).filled == 0


def test_gm_sets_a_pool_within_its_bounds(t: Table):
    t.do("gm", "generic.pool.create", name="Karma", value=1, min=0, max=5)
    (event,) = t.do("gm", "generic.pool.set", pool="Karma", value=5)
    assert (event.data["from"], event.data["to"]) == (1, 5)
    assert t.refused("gm", "generic.pool.set", pool="Karma", value=6) == "Karma has 5; it cannot go above 5."
    assert t.refused("gm", "generic.pool.set", pool="Karma", value=5) == "Karma is already at 5."
    assert t.refused("ann", "generic.pool.set", Forbidden, pool="Karma", value=0) == (
        "Only the GM can set a pool."
    )


def test_gm_removes_a_pool(t: Table):
    t.do("gm", "generic.pool.create", name="Karma", value=1)
    (event,) = t.do("gm", "generic.pool.remove", pool="karma")
    assert event.data["name"] == "Karma"
    assert t.state.pools == ()
    assert t.refused("gm", "generic.pool.adjust", pool="Karma", delta=1) == "There is no pool 'Karma'."
    assert t.refused("ann", "generic.pool.remove", Forbidden, pool="Karma") == (
        "Only the GM can remove a pool."
    )


def test_players_cannot_create_pools(t: Table):
    assert t.refused("ann", "generic.pool.create", Forbidden, name="Mine", value=1) == (
        "Only the GM can create a pool."
    )


# --- tracks ------------------------------------------------------------------------------------


def test_gm_creates_a_track_with_its_boxes(t: Table):
    (event,) = t.do("gm", "generic.track.create", name="Harm", total=7, filled=2, owner="Aria")
    assert event.audience == "all"
    assert (t.track("Harm", "Aria").filled, t.track("Harm", "Aria").total) == (2, 7)
    (seen,) = t.view("ben")["tracks"]
    assert seen["boxes"] == [True, True, False, False, False, False, False]
    assert seen["owner_name"] == "Aria"
    assert seen["can_adjust"] is False
    assert t.view("ann")["tracks"][0]["can_adjust"] is True


def test_track_filled_beyond_its_total_is_refused(t: Table):
    message = t.refused("gm", "generic.track.create", name="Harm", total=3, filled=4)
    assert message == "A track of 3 boxes cannot start with 4 filled."


def test_duplicate_track_name_for_the_same_owner_is_refused(t: Table):
    t.do("gm", "generic.track.create", name="Harm", total=7, owner="Aria")
    message = t.refused("gm", "generic.track.create", name="HARM", total=5, owner="Aria")
    assert message == "There is already a track called Aria's HARM."
    t.do("gm", "generic.track.create", name="Harm", total=7, owner="Brick")
    assert len(t.state.tracks) == 2


def test_owner_marks_their_characters_track(t: Table):
    t.do("gm", "generic.track.create", name="Harm", total=7, owner="Aria")
    harm = t.track("Harm", "Aria").id
    (event,) = t.do("ann", "generic.track.adjust", track=harm, delta=2)
    assert event.data == {"track": harm, "name": "Aria's Harm", "from": 0, "to": 2, "total": 7}
    assert t.game.describe(event) == "Aria's Harm: 0 → 2/7."
    t.do("ann", "generic.track.set", track=harm, filled=5)
    assert t.track("Harm", "Aria").filled == 5


def test_track_cannot_go_below_zero(t: Table):
    t.do("gm", "generic.track.create", name="Harm", total=7, filled=1, owner="Aria")
    harm = t.track("Harm", "Aria").id
    assert t.refused("ann", "generic.track.adjust", track=harm, delta=-2) == (
        "Aria's Harm has 1 of 7 filled; it cannot go below 0."
    )
    assert t.track("Harm", "Aria").filled == 1


def test_track_cannot_go_above_its_total(t: Table):
    t.do("gm", "generic.track.create", name="Harm", total=7, filled=6, owner="Aria")
    harm = t.track("Harm", "Aria").id
    assert t.refused("ann", "generic.track.adjust", track=harm, delta=2) == (
        "Aria's Harm has 6 of 7 filled; it cannot go above 7."
    )
    assert t.refused("gm", "generic.track.set", track=harm, filled=8) == (
        "Aria's Harm has 6 of 7 filled; it cannot go above 7."
    )


def test_track_adjust_by_zero_and_set_to_the_same_are_refused(t: Table):
    t.do("gm", "generic.track.create", name="Clock", total=4, filled=2)
    assert t.refused("gm", "generic.track.adjust", track="Clock", delta=0) == "Adjust by at least 1."
    assert t.refused("gm", "generic.track.set", track="Clock", filled=2) == "Clock already has 2 filled."


def test_players_cannot_mark_shared_or_another_characters_tracks(t: Table):
    t.do("gm", "generic.track.create", name="Clock", total=4)
    t.do("gm", "generic.track.create", name="Harm", total=7, owner="Brick")
    bricks = t.track("Harm", "Brick").id
    assert t.refused("ann", "generic.track.adjust", Forbidden, track="Clock", delta=1) == (
        "Only the GM can change Clock."
    )
    assert t.refused("ann", "generic.track.adjust", Forbidden, track=bricks, delta=1) == (
        "Only the GM can change Harm."
    )
    assert t.refused("ann", "generic.track.set", Forbidden, track=bricks, filled=3) == (
        "Only the GM can change Harm."
    )
    t.do("gm", "generic.track.adjust", track="Clock", delta=1)
    assert t.track("Clock").filled == 1


def test_hidden_tracks_are_invisible_and_unnameable_by_players(t: Table):
    (event,) = t.do("gm", "generic.track.create", name=HIDDEN_TRACK, total=6, hidden=True)
    assert event.audience == "gm"
    assert t.refused("ann", "generic.track.adjust", track=HIDDEN_TRACK, delta=1) == (
        f"There is no track '{HIDDEN_TRACK}'."
    )
    assert t.refused("ann", "generic.track.set", track=HIDDEN_TRACK, filled=1) == (
        f"There is no track '{HIDDEN_TRACK}'."
    )
    assert HIDDEN_TRACK not in t.dump("ann")
    assert HIDDEN_TRACK not in t.dump("spec")
    assert names(t.view("gm")["tracks"]) == [HIDDEN_TRACK]


def test_gm_removes_a_track(t: Table):
    t.do("gm", "generic.track.create", name="Clock", total=4)
    (event,) = t.do("gm", "generic.track.remove", track="Clock")
    assert event.type == "generic.track_removed"
    assert t.state.tracks == ()


# --- rolls -------------------------------------------------------------------------------------


def test_player_rolls_for_their_character_with_the_faces_in_the_event(t: Table):
    (event,) = t.do("ann", "generic.roll", [3, 5], expression="2d6+1", participant="Aria", label="Climb")
    assert event.type == "generic.rolled"
    assert event.audience == "all"
    assert event.data["participant"] == t.pid("Aria")
    assert event.data["who"] == "Aria"
    assert event.data["total"] == 9
    assert event.data["roll"]["terms"][0]["faces"] == [3, 5]
    assert event.data["hidden"] is False
    assert "target" not in event.data
    assert t.game.describe(event) == "Aria rolled 2d6+1 for Climb: 9."


def test_a_roll_without_a_character_is_by_the_seat(t: Table):
    (event,) = t.do("ben", "generic.roll", [20], expression="d20")
    assert (event.data["participant"], event.data["who"], event.data["total"]) == (None, "Ben", 20)


def test_player_rolling_for_another_players_character_is_forbidden(t: Table):
    message = t.refused("ann", "generic.roll", Forbidden, [3, 4], expression="2d6", participant="Brick")
    assert message == "Brick is not your character."


def test_player_rolling_for_a_gm_character_is_forbidden(t: Table):
    message = t.refused("ann", "generic.roll", Forbidden, [3, 4], expression="2d6", participant="Goblin")
    assert message == "Goblin is not your character."


def test_player_naming_a_hidden_character_gets_the_same_answer_as_a_typo(t: Table):
    hidden = t.refused("ann", "generic.roll", RuleError, [3], expression="d6", participant=BOSS)
    typo = t.refused("ann", "generic.roll", RuleError, [3], expression="d6", participant="Grakazul")
    assert hidden == f"There is no character '{BOSS}'."
    assert typo == "There is no character 'Grakazul'."


def test_a_players_secret_roll_is_forbidden(t: Table):
    message = t.refused("ann", "generic.roll", Forbidden, [10], expression="d20", hidden=True)
    assert message == "Only the GM can roll in secret."


def test_a_gms_secret_roll_is_for_the_gm_only(t: Table):
    (event,) = t.do("gm", "generic.roll", [17], expression="1d20", hidden=True, label="Perception")
    assert event.audience == "gm"
    assert event.data["hidden"] is True
    assert t.visible_types("ann").count("generic.rolled") == 0
    assert t.visible_types("spec").count("generic.rolled") == 0
    assert t.visible_types("gm").count("generic.rolled") == 1
    assert t.game.describe(event) == "Gail rolled 1d20 for Perception: 17 (secret)."


def test_gm_rolling_for_a_hidden_character_is_secret_without_asking(t: Table):
    (event,) = t.do("gm", "generic.roll", [4, 4], expression="2d6", participant=BOSS)
    assert event.audience == "gm"
    assert event.data["who"] == BOSS


def test_a_roll_with_an_impossible_face_or_too_few_faces_is_refused(t: Table):
    assert t.refused("ann", "generic.roll", InputError, [7], expression="1d6") == (
        "7 is not a face of a d6: enter a number from 1 to 6."
    )
    assert "Not enough dice" in t.refused("ann", "generic.roll", InputError, [3], expression="2d6")


def test_a_roll_with_a_bad_expression_is_refused_with_a_sentence(t: Table):
    message = t.refused("ann", "generic.roll", InputError, expression="2x6")
    assert message.startswith("'2x6' is not a dice expression")


def test_a_roll_with_nothing_to_roll_is_refused(t: Table):
    with pytest.raises(InputError) as info:
        t.game.parse({"type": "generic.roll", "label": "nothing"})
    assert "say what to roll" in str(info.value).lower()
    assert str(info.value).endswith(".")


@pytest.mark.parametrize(
    ("faces", "total", "success"),
    [((6, 5), 12, True), ((4, 5), 10, True), ((4, 4), 9, False), ((1, 1), 3, False)],
)
def test_roll_button_uses_its_expression_label_and_target(t: Table, faces, total, success):
    t.do("gm", "generic.preset.create", label="Attack", expression=" 2D6 + 1 ", target=10)
    (preset,) = t.state.presets
    assert preset.expression == "2d6+1"
    (event,) = t.do("ann", "generic.roll", faces, preset="Attack", participant="Aria")
    assert event.data["expression"] == "2d6+1"
    assert event.data["label"] == "Attack"
    assert event.data["target"] == 10
    assert event.data["total"] == total
    assert event.data["success"] is success
    outcome = "success" if success else "miss"
    assert t.game.describe(event) == f"Aria rolled 2d6+1 for Attack: {total} — {outcome} against 10."


def test_roll_button_target_and_label_can_be_overridden(t: Table):
    t.do("gm", "generic.preset.create", label="Attack", expression="2d6", target=10)
    (event,) = t.do("gm", "generic.roll", [3, 4], preset="Attack", target=7, label="Swing")
    assert (event.data["label"], event.data["target"], event.data["success"]) == ("Swing", 7, True)


def test_a_characters_roll_button_rolls_for_that_character_and_only_its_player_may_press_it(t: Table):
    t.do("gm", "generic.preset.create", label="Shove", expression="1d6", owner="Brick")
    (event,) = t.do("ben", "generic.roll", [2], preset="Shove")
    assert event.data["participant"] == t.pid("Brick")
    assert t.refused("ann", "generic.roll", Forbidden, [2], preset="Shove") == (
        "Shove belongs to another character."
    )
    assert [o["label"] for o in t.view("ann")["options"] if o["group"] == "roll"] == []
    assert [o["label"] for o in t.view("ben")["options"] if o["group"] == "roll"] == ["Shove"]


def test_a_hidden_characters_roll_button_is_unnameable_by_players(t: Table):
    t.do("gm", "generic.preset.create", label="Cleave", expression="2d8", owner=BOSS)
    assert t.refused("ann", "generic.roll", RuleError, [1, 1], preset="Cleave") == (
        "There is no roll button 'Cleave'."
    )


def test_roll_button_options_carry_exact_odds(t: Table):
    t.do("gm", "generic.preset.create", label="Attack", expression="2d6", target=10)
    (option,) = [o for o in t.view("ann")["options"] if o["label"] == "Attack"]
    assert [(b["label"], b["exact"]) for b in option["odds"]] == [("10+", "1/6"), ("under 10", "5/6")]
    assert option["command"] == {"type": "generic.roll", "preset": t.state.presets[0].id, "participant": "p6"}
    assert t.view("spec")["options"] == []


def test_roll_button_with_a_bad_expression_is_refused_and_removal_works(t: Table):
    assert t.refused("gm", "generic.preset.create", InputError, label="X", expression="4d6kh5") == (
        "4d6 cannot keep 5 dice: keep from 1 to 4."
    )
    t.do("gm", "generic.preset.create", label="Dodge", expression="2d6", target=7)
    (event,) = t.do("gm", "generic.preset.remove", preset="dodge")
    assert event.data["label"] == "Dodge"
    assert t.state.presets == ()
    assert t.refused("gm", "generic.roll", RuleError, [1, 1], preset="Dodge") == (
        "There is no roll button 'Dodge'."
    )


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")
def test_a_huge_roll_button_does_not_hang_the_table(t: Table):
    with time_limit(3):
        try:
            t.do("gm", "generic.preset.create", label="Storm", expression="100d1000")
        except RuleError:
            return
        assert "Storm" in t.dump("ann")


# --- initiative --------------------------------------------------------------------------------


def order(t: Table, who: str = "gm") -> list[tuple[str, int]]:
    return [(e["name"], e["value"]) for e in t.view(who)["initiative"]["entries"]]


def current(t: Table, who: str = "gm") -> str | None:
    return t.view(who)["initiative"]["current_name"]


def start_order(t: Table) -> None:
    t.do(
        "gm",
        "generic.initiative.set",
        entries=[
            {"participant": "Brick", "value": 8},
            {"participant": "Aria", "value": 15},
            {"participant": "Goblin", "value": 12},
        ],
    )


def test_initiative_set_orders_highest_first(t: Table):
    (event,) = t.do(
        "gm",
        "generic.initiative.set",
        entries=[
            {"participant": "Brick", "value": 8},
            {"participant": "Aria", "value": 15},
            {"participant": "Goblin", "value": 8},
        ],
    )
    assert event.type == "generic.initiative_set"
    assert event.audience == "all"
    # Ties keep the GM's order.
    assert order(t) == [("Aria", 15), ("Brick", 8), ("Goblin", 8)]
    assert t.state.initiative.round == 0
    assert current(t) is None


def test_initiative_set_refuses_a_character_twice(t: Table):
    message = t.refused(
        "gm",
        "generic.initiative.set",
        entries=[{"participant": "Aria", "value": 3}, {"participant": "aria", "value": 5}],
    )
    assert message == "Aria is in the order twice."


def test_initiative_add_places_by_value_and_replaces_an_existing_entry(t: Table):
    start_order(t)
    t.do("gm", "generic.initiative.add", participant="Aria", value=5)
    assert order(t) == [("Goblin", 12), ("Brick", 8), ("Aria", 5)]
    t.do("gm", "generic.initiative.add", participant="Aria", value=20)
    assert order(t) == [("Aria", 20), ("Goblin", 12), ("Brick", 8)]


def test_initiative_remove_takes_a_character_out(t: Table):
    start_order(t)
    t.do("gm", "generic.initiative.remove", participant="Goblin")
    assert order(t) == [("Aria", 15), ("Brick", 8)]
    assert t.refused("gm", "generic.initiative.remove", participant="Goblin") == (
        "Goblin is not in the initiative order."
    )


def test_initiative_roll_rolls_for_each_character_and_orders_them(t: Table):
    events = t.do("gm", "generic.initiative.roll", [7, 18, 12], participants=["Aria", "Brick", "Goblin"])
    assert [e.type for e in events] == ["generic.initiative_rolled", "generic.initiative_set"]
    rolled = events[0]
    assert rolled.data["expression"] == "1d20"
    assert [(r["name"], r["value"], r["roll"]["terms"][0]["faces"]) for r in rolled.data["rolls"]] == [
        ("Aria", 7, [7]),
        ("Brick", 18, [18]),
        ("Goblin", 12, [12]),
    ]
    assert order(t) == [("Brick", 18), ("Goblin", 12), ("Aria", 7)]
    assert t.game.describe(rolled) == "Initiative (1d20): Aria 7, Brick 18, Goblin 12."


def test_initiative_roll_with_a_modifier_uses_the_expression(t: Table):
    t.do("gm", "generic.initiative.roll", [3, 5], expression="1d6+2", participants=["Aria", "Brick"])
    assert order(t) == [("Brick", 7), ("Aria", 5)]


def test_initiative_roll_defaults_to_the_active_encounters_characters(t: Table):
    t.do("gm", "campaign.encounter.prepare", name="Ford", participants=["Brick", "Goblin"])
    t.do("gm", "campaign.encounter.start", encounter="Ford")
    t.do("gm", "generic.initiative.roll", [4, 9])
    assert order(t) == [("Goblin", 9), ("Brick", 4)]


def test_initiative_roll_with_nobody_is_refused():
    bare = Table()
    assert bare.refused("gm", "generic.initiative.roll") == "Add characters before rolling initiative."


def test_next_turn_starts_round_one_and_wraps_to_a_new_round(t: Table):
    start_order(t)
    (event,) = t.do("gm", "generic.initiative.next")
    assert (event.data["turn"], event.data["round"], event.data["name"]) == (0, 1, "Aria")
    assert t.game.describe(event) == "Round 1: Aria's turn."
    t.do("gm", "generic.initiative.next")
    assert (current(t), t.state.initiative.round) == ("Goblin", 1)
    t.do("gm", "generic.initiative.next")
    assert (current(t), t.state.initiative.round) == ("Brick", 1)
    (event,) = t.do("gm", "generic.initiative.next")
    assert (event.data["turn"], event.data["round"]) == (0, 2)
    assert (current(t), t.state.initiative.round) == ("Aria", 2)
    assert t.view("ann")["initiative"]["my_turn"] is True
    assert t.view("ben")["initiative"]["my_turn"] is False


def test_a_player_may_press_next_only_on_their_own_turn(t: Table):
    start_order(t)
    message = "Only the GM, or the player whose turn it is, can move to the next turn."
    assert t.refused("ann", "generic.initiative.next", Forbidden) == message  # before round 1
    t.do("gm", "generic.initiative.next")  # Aria
    assert t.refused("ben", "generic.initiative.next", Forbidden) == message
    t.do("ann", "generic.initiative.next")  # Goblin
    assert current(t) == "Goblin"
    assert t.refused("ann", "generic.initiative.next", Forbidden) == message
    t.do("gm", "generic.initiative.next")  # Brick
    t.do("ben", "generic.initiative.next")
    assert (current(t), t.state.initiative.round) == ("Aria", 2)


def test_next_turn_without_an_order_is_refused(t: Table):
    assert t.refused("gm", "generic.initiative.next") == "There is no initiative order yet."


def test_adding_to_the_order_mid_round_keeps_whose_turn_it_is(t: Table):
    start_order(t)
    t.do("gm", "generic.initiative.next")
    t.do("gm", "generic.initiative.next")  # Goblin
    t.do("gm", "generic.initiative.add", participant=BOSS, value=30)
    assert current(t) == "Goblin"
    assert t.state.initiative.turn == 2


def test_removing_a_character_after_the_current_one_keeps_the_turn(t: Table):
    start_order(t)
    t.do("gm", "generic.initiative.next")
    t.do("gm", "generic.initiative.next")  # Goblin
    t.do("gm", "campaign.remove_participant", participant="Brick")
    assert current(t) == "Goblin"


def test_removing_a_character_before_the_current_one_keeps_the_turn(t: Table):
    start_order(t)
    t.do("gm", "generic.initiative.next")
    t.do("gm", "generic.initiative.next")  # Goblin
    t.do("gm", "campaign.remove_participant", participant="Aria")
    assert current(t) == "Goblin"


def test_taking_the_current_character_out_passes_the_turn_on(t: Table):
    start_order(t)
    t.do("gm", "generic.initiative.next")
    t.do("gm", "generic.initiative.next")  # Goblin
    t.do("gm", "generic.initiative.remove", participant="Goblin")
    assert current(t) == "Brick"


def test_hidden_characters_initiative_events_are_for_the_gm_only(t: Table):
    (added,) = t.do("gm", "generic.initiative.add", participant=BOSS, value=14)
    assert added.audience == "gm"
    t.do("gm", "generic.initiative.clear")
    events = t.do("gm", "generic.initiative.roll", [11, 6, 19], participants=["Aria", "Brick", BOSS])
    assert [(e.type, e.audience) for e in events] == [
        ("generic.initiative_rolled", "all"),
        ("generic.initiative_rolled", "gm"),
        ("generic.initiative_set", "gm"),
    ]
    assert BOSS not in json.dumps(events[0].data)
    assert [r["name"] for r in events[1].data["rolls"]] == [BOSS]
    assert order(t, "gm") == [(BOSS, 19), ("Aria", 11), ("Brick", 6)]
    assert order(t, "ann") == [("Aria", 11), ("Brick", 6)]

    advanced, noted = t.do("gm", "generic.initiative.next")  # the boss's turn
    assert (advanced.type, advanced.audience) == ("generic.turn_advanced", "all")
    assert (advanced.data["participant"], advanced.data["name"]) == (None, None)
    assert t.game.describe(advanced) == "Round 1: the GM's turn."
    assert (noted.type, noted.audience, noted.data["name"]) == ("generic.turn_noted", "gm", BOSS)
    assert current(t, "gm") == BOSS
    assert current(t, "ann") is None
    assert t.view("ann")["initiative"]["current"] is None
    assert BOSS not in t.dump("ann")
    for who in ("ann", "ben", "spec"):
        visible = t.game.visible(t.events, t.viewer(who))
        assert BOSS not in json.dumps([e.data for e in visible])


def test_clearing_the_order(t: Table):
    start_order(t)
    t.do("gm", "generic.initiative.next")
    (event,) = t.do("gm", "generic.initiative.clear")
    assert event.type == "generic.initiative_cleared"
    assert t.state.initiative.entries == ()
    assert t.state.initiative.round == 0
    assert t.refused("gm", "generic.initiative.clear") == "The initiative order is already empty."
    assert t.refused("ann", "generic.initiative.set", Forbidden, entries=[]) == (
        "Only the GM can set the initiative order."
    )


# --- campaign core: characters -----------------------------------------------------------------


def test_adding_a_character(t: Table):
    events = t.do("gm", "campaign.add_participant", name="Cato", kind="npc")
    assert [(e.type, e.audience) for e in events] == [("campaign.participant_added", "all")]
    cato = t.state.participant("Cato")
    assert (cato.kind, cato.owner, cato.hidden, cato.notes) == ("npc", None, False, "")
    assert "Cato" in names(t.view("ann")["participants"])
    assert t.game.describe(events[0]) == "Cato (NPC) joins."


def test_a_characters_name_must_be_unique(t: Table):
    assert (
        t.refused("gm", "campaign.add_participant", name="aria")
        == "There is already a character called aria."
    )
    # Even a hidden character's name is taken (the GM sees it).
    assert t.refused("gm", "campaign.add_participant", name=BOSS.upper()) == (
        f"There is already a character called {BOSS.upper()}."
    )


def test_a_character_can_only_go_to_a_live_player_seat(t: Table):
    message = "That seat is not a player at this table."
    assert t.refused("gm", "campaign.add_participant", name="Cato", owner="seat-nobody") == message
    assert t.refused("gm", "campaign.add_participant", name="Cato", owner="seat-gm") == message
    assert t.refused("gm", "campaign.add_participant", name="Cato", owner="seat-spec") == message


def test_notes_go_to_the_gm_and_the_characters_player_only(t: Table):
    events = t.do("gm", "campaign.add_participant", name="Cato", owner="seat-ben", notes="Owes Aria money")
    assert [(e.type, e.audience) for e in events] == [
        ("campaign.participant_added", "all"),
        ("campaign.participant_noted", f"p:{t.pid('Cato')}"),
    ]
    assert "notes" not in events[0].data["participant"]
    assert t.state.participant("Cato").notes == "Owes Aria money"
    assert "Owes Aria money" in t.dump("ben")
    assert "Owes Aria money" not in t.dump("ann")
    assert "Owes Aria money" not in t.dump("spec")
    assert "Owes Aria money" in t.dump("gm")


def test_updating_a_character(t: Table):
    events = t.do("gm", "campaign.update_participant", participant="Goblin", name="Goblin Scout", notes="x")
    assert [e.type for e in events] == ["campaign.participant_updated", "campaign.participant_noted"]
    assert events[0].data == {
        "participant": t.pid("Goblin Scout"),
        "was": "Goblin",
        "changes": {"name": "Goblin Scout"},
    }
    assert events[1].audience == f"p:{t.pid('Goblin Scout')}"
    assert t.state.participant("Goblin Scout").notes == "x"
    assert t.refused(
        "gm", "campaign.update_participant", participant="Goblin Scout", name="Goblin Scout"
    ) == ("Nothing to change: Goblin Scout already looks like that.")
    assert t.refused("gm", "campaign.update_participant", participant="Goblin Scout", name="Aria") == (
        "There is already a character called Aria."
    )


def test_updating_a_hidden_character_is_for_the_gm_only(t: Table):
    events = t.do("gm", "campaign.update_participant", participant=BOSS, kind="pc", notes="changed")
    assert [e.audience for e in events] == ["gm", "gm"]


def test_removing_a_character_deletes_their_pools_tracks_buttons_and_initiative(t: Table):
    t.do("gm", "generic.pool.create", name="Luck", value=8, owner="Aria")
    t.do("gm", "generic.pool.create", name="Luck", value=8, owner="Brick")
    t.do("gm", "generic.pool.create", name="Karma", value=1)
    t.do("gm", "generic.track.create", name="Harm", total=7, owner="Aria")
    t.do("gm", "generic.preset.create", label="Aim", expression="1d20", owner="Aria")
    start_order(t)
    aria = t.pid("Aria")
    (event,) = t.do("gm", "campaign.remove_participant", participant="Aria")
    assert (event.type, event.audience, event.data) == (
        "campaign.participant_removed",
        "all",
        {"participant": aria, "name": "Aria"},
    )
    assert t.state.find_participant(aria) is None
    assert [(p.name, p.owner) for p in t.state.pools] == [("Luck", t.pid("Brick")), ("Karma", None)]
    assert t.state.tracks == ()
    assert t.state.presets == ()
    assert order(t) == [("Goblin", 12), ("Brick", 8)]
    assert t.viewer("ann").participants == frozenset()


def test_removing_a_hidden_character_is_for_the_gm_only(t: Table):
    (event,) = t.do("gm", "campaign.remove_participant", participant=BOSS)
    assert event.audience == "gm"
    assert BOSS not in names(t.view("gm")["participants"])


def test_handing_a_character_to_a_seat(t: Table):
    (event,) = t.do("gm", "campaign.assign_participant", participant="Goblin", seat="seat-ann")
    assert event.data["seat_name"] == "Ann"
    assert t.game.describe(event) == "Goblin handed to Ann."
    assert t.viewer("ann").participants == frozenset({t.pid("Aria"), t.pid("Goblin")})
    assert GOBLIN_NOTES in t.dump("ann")  # the player now runs it and sees its notes
    t.do("gm", "campaign.assign_participant", participant="Goblin")
    assert t.state.participant("Goblin").owner is None
    assert (
        t.refused("gm", "campaign.assign_participant", participant="Goblin")
        == "Goblin is already with the GM."
    )
    assert t.refused("gm", "campaign.assign_participant", participant="Aria", seat="seat-ann") == (
        "Aria is already with Ann."
    )


def test_a_character_cannot_be_handed_to_a_revoked_or_unknown_seat(t: Table):
    t._append([("campaign.seat_revoked", {"seat": "seat-ben", "name": "Ben"}, "all")], actor="seat-gm")
    # The revoked seat's character comes back to the GM.
    assert t.state.participant("Brick").owner is None
    message = "That seat is not a player at this table."
    assert t.refused("gm", "campaign.assign_participant", participant="Brick", seat="seat-ben") == message
    assert t.refused("gm", "campaign.assign_participant", participant="Brick", seat="seat-zed") == message
    assert t.refused("gm", "campaign.assign_participant", participant="Brick", seat="seat-spec") == message
    assert "Ben" not in [s["name"] for s in t.view("ann")["seats"]]


def test_hidden_characters_are_absent_for_players_and_spectators_but_not_the_gm(t: Table):
    assert BOSS in names(t.view("gm")["participants"])
    assert BOSS not in names(t.view("ann")["participants"])
    assert BOSS not in names(t.view("spec")["participants"])
    assert BOSS not in t.dump("ann")
    assert BOSS not in t.dump("spec")
    assert [p["hidden"] for p in t.view("gm")["participants"] if p["name"] == BOSS] == [True]
    assert all("hidden" not in p for p in t.view("ann")["participants"])


def test_hiding_and_revealing_a_character(t: Table):
    (hidden,) = t.do("gm", "campaign.set_hidden", participant="Goblin", hidden=True)
    assert hidden.type == "campaign.participant_hidden"
    assert "Goblin" not in names(t.view("ann")["participants"])
    assert "Goblin" not in names(t.view("spec")["participants"])
    assert "Goblin" in names(t.view("gm")["participants"])
    assert (
        t.refused("gm", "campaign.set_hidden", participant="Goblin", hidden=True)
        == "Goblin is already hidden."
    )

    (revealed,) = t.do("gm", "campaign.set_hidden", participant=BOSS, hidden=False)
    assert revealed.type == "campaign.participant_revealed"
    assert revealed.audience == "all"
    assert "notes" not in revealed.data["participant"]
    assert BOSS_NOTES not in json.dumps(revealed.data)
    assert t.game.describe(revealed) == f"{BOSS} appears!"
    assert BOSS in names(t.view("ann")["participants"])
    assert BOSS_NOTES not in t.dump("ann")  # an NPC's notes stay the GM's
    assert (
        t.refused("gm", "campaign.set_hidden", participant=BOSS, hidden=False)
        == f"{BOSS} is already visible."
    )


def test_players_cannot_run_the_campaign(t: Table):
    assert (
        t.refused("ann", "campaign.add_participant", Forbidden, name="Zed")
        == "Only the GM can add a character."
    )
    assert t.refused("ann", "campaign.set_hidden", Forbidden, participant="Aria", hidden=True) == (
        "Only the GM can hide or reveal a character."
    )
    assert t.refused("ben", "campaign.undo", Forbidden) == "Only the GM can undo the last action."


# --- encounters --------------------------------------------------------------------------------


def test_a_prepared_encounter_is_the_gms_plan_until_it_starts(t: Table):
    (event,) = t.do(
        "gm",
        "campaign.encounter.prepare",
        name="Ford",
        participants=["Aria", "goblin", BOSS, "Aria"],
        notes="Ambush from the reeds",
    )
    assert event.audience == "gm"
    (encounter,) = t.state.encounters
    assert encounter.status == "prepared"
    assert encounter.participants == (t.pid("Aria"), t.pid("Goblin"), t.pid(BOSS))
    assert t.view("ann")["encounters"] == []
    assert "Ambush from the reeds" in t.dump("gm")
    assert "Ambush from the reeds" not in t.dump("ann")

    (started,) = t.do("gm", "campaign.encounter.start", encounter="Ford")
    assert started.audience == "all"
    assert started.data["participants"] == [t.pid("Aria"), t.pid("Goblin")]
    assert t.state.active_encounter == encounter.id
    assert t.view("ann")["encounter"] == {"id": encounter.id, "name": "Ford"}
    (seen,) = t.view("ann")["encounters"]
    assert (seen["status"], seen["participants"]) == ("active", ["Aria", "Goblin"])
    assert "notes" not in seen
    assert "Ambush from the reeds" not in t.dump("ann")
    # Events of the fight name it.
    (rolled,) = t.do("gm", "generic.roll", [4], expression="d6")
    assert rolled.encounter == encounter.id


def test_an_encounter_naming_an_unknown_character_is_refused(t: Table):
    assert t.refused("gm", "campaign.encounter.prepare", name="Ford", participants=["Zed"]) == (
        "There is no character 'Zed'."
    )


def test_only_one_encounter_is_under_way(t: Table):
    t.do("gm", "campaign.encounter.prepare", name="Ford")
    t.do("gm", "campaign.encounter.prepare", name="Bridge")
    t.do("gm", "campaign.encounter.start", encounter="Ford")
    assert t.refused("gm", "campaign.encounter.start", encounter="Bridge") == (
        "Ford is still under way: end it before starting another."
    )
    assert t.state.active.name == "Ford"


def test_ending_an_encounter_and_it_cannot_start_again(t: Table):
    t.do("gm", "campaign.encounter.prepare", name="Ford")
    t.do("gm", "campaign.encounter.start", encounter="Ford")
    start_order(t)
    t.do("gm", "generic.initiative.next")
    (ended,) = t.do("gm", "campaign.encounter.end")
    assert ended.data["name"] == "Ford"
    assert t.state.active_encounter is None
    assert t.state.encounter("Ford").status == "ended"
    assert t.state.encounter("Ford").ended_seq == ended.seq
    assert t.state.initiative.entries == ()
    assert t.refused("gm", "campaign.encounter.start", encounter="Ford") == (
        "Ford has already been played; prepare a new encounter."
    )
    assert t.refused("gm", "campaign.encounter.end") == "No encounter is under way."
    assert (
        t.refused("gm", "campaign.encounter.remove", encounter="Ford")
        == "Ford has been played; its log is kept."
    )
    assert t.refused("gm", "campaign.encounter.update", encounter="Ford", name="Fjord") == (
        "Ford has ended; its log is kept as it was."
    )
    assert [e["status"] for e in t.view("ann")["encounters"]] == ["ended"]


def test_removing_a_prepared_encounter(t: Table):
    t.do("gm", "campaign.encounter.prepare", name="Bridge")
    (event,) = t.do("gm", "campaign.encounter.remove", encounter="bridge")
    assert (event.type, event.audience) == ("campaign.encounter_removed", "gm")
    assert t.state.encounters == ()
    assert (
        t.refused("gm", "campaign.encounter.start", encounter="Bridge") == "There is no encounter 'Bridge'."
    )


def test_updating_a_prepared_encounter(t: Table):
    t.do("gm", "campaign.encounter.prepare", name="Bridge")
    (event,) = t.do(
        "gm", "campaign.encounter.update", encounter="Bridge", participants=["Brick"], notes="Trolls"
    )
    assert event.audience == "gm"
    encounter = t.state.encounter("Bridge")
    assert (encounter.participants, encounter.notes) == ((t.pid("Brick"),), "Trolls")
    assert t.refused("gm", "campaign.encounter.update", encounter="Bridge") == "Nothing to change."


# --- settings ----------------------------------------------------------------------------------


def test_changing_the_dice_mode(t: Table):
    (event,) = t.do("gm", "campaign.settings", dice_mode="manual")
    assert event.data == {"dice_mode": "manual"}
    assert t.state.dice_mode == "manual"
    assert t.view("ann")["campaign"]["dice_mode"] == "manual"
    assert t.refused("gm", "campaign.settings", dice_mode="manual") == (
        "Nothing to change: the campaign already has those settings."
    )
    t.do("gm", "campaign.settings", name="The Ford")
    assert t.state.name == "The Ford"


def test_the_generic_tabletop_has_no_settings_to_change(t: Table):
    assert t.refused("gm", "campaign.settings", InputError, settings={"karma": 3}) == (
        "Generic tabletop has no settings to change."
    )
    with pytest.raises(InputError) as info:
        t.game.parse({"type": "campaign.settings", "dice_mode": "telepathy"})
    assert str(info.value) == "campaign.settings: Dice_mode must be one of 'server' or 'manual'."


# --- undo --------------------------------------------------------------------------------------


def test_undo_twice_steps_back_two_commands():
    t = Table()
    created = t.do("gm", "generic.pool.create", name="Karma", value=0, max=9)
    first = t.do("gm", "generic.pool.adjust", pool="Karma", delta=1)
    second = t.do("gm", "generic.pool.adjust", pool="Karma", delta=2)
    assert t.pool("Karma").value == 3
    assert t.view("gm")["undo"] == {"label": "Karma: 1 → 3."}
    assert t.view("ann")["undo"] is None

    (undo,) = t.do("gm", "campaign.undo")
    assert (undo.type, undo.data) == ("campaign.undone", {"seqs": [second[0].seq], "label": "Karma: 1 → 3."})
    assert t.game.describe(undo) == "Undone: Karma: 1 → 3."
    assert t.pool("Karma").value == 1

    (undo,) = t.do("gm", "campaign.undo")
    assert undo.data["seqs"] == [first[0].seq]
    assert t.pool("Karma").value == 0

    (undo,) = t.do("gm", "campaign.undo")
    assert undo.data["seqs"] == [created[0].seq]
    assert t.state.pools == ()
    assert t.refused("gm", "campaign.undo") == "There is nothing left to undo."


def test_replay_skips_undone_events_and_plain_folding_does_not():
    t = Table()
    t.do("gm", "generic.pool.create", name="Karma", value=0, max=9)
    t.do("gm", "generic.pool.adjust", pool="Karma", delta=1)
    t.do("gm", "generic.pool.adjust", pool="Karma", delta=2)
    t.do("gm", "campaign.undo")
    t.do("gm", "campaign.undo")
    replayed = t.game.replay(None, t.events)
    assert replayed.pools[0].value == 0
    assert replayed.seq == len(t.events)
    assert [entry.label for entry in replayed.undo_stack] == ["Pool Karma (0) created."]
    folded = None
    for event in t.events:
        folded = t.game.evolve(folded, event)
    assert folded.pools[0].value == 3


def test_undo_takes_back_every_event_of_one_command(t: Table):
    before = t.state.participants
    events = t.do("gm", "campaign.add_participant", name="Cato", kind="npc", notes="Sly")
    assert len(events) == 2
    (undo,) = t.do("gm", "campaign.undo")
    assert undo.data["seqs"] == [events[0].seq, events[1].seq]
    assert t.state.participants == before


def test_undo_when_nothing_has_happened_is_refused():
    t = Table()
    assert t.state.undo_stack == ()
    assert t.refused("gm", "campaign.undo") == "There is nothing left to undo."


def test_undo_of_a_secret_roll_is_for_the_gm_only(t: Table):
    t.do("gm", "generic.roll", [13], expression="1d20", hidden=True)
    (undo,) = t.do("gm", "campaign.undo")
    assert undo.audience == "gm"
    assert "campaign.undone" not in t.visible_types("ann")
    assert "campaign.undone" in t.visible_types("gm")


def test_undo_of_a_public_roll_is_seen_by_everyone_in_the_log(t: Table):
    (rolled,) = t.do("ann", "generic.roll", [2, 2], expression="2d6", participant="Aria")
    (undo,) = t.do("gm", "campaign.undo")
    assert undo.audience == "all"
    entries = log_entries(t.game, t.state, t.events, t.viewer("ben"))
    assert entries[0]["type"] == "campaign.undone"
    (logged,) = [e for e in entries if e["seq"] == rolled.seq]
    assert logged["undone"] is True
    assert logged["rolls"][0]["total"] == 4


# --- who may act, who may see --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("type_", "faces", "fields"),
    [
        ("generic.roll", [3], {"expression": "1d6"}),
        ("generic.pool.adjust", [], {"pool": "Karma", "delta": 1}),
        ("generic.initiative.next", [], {}),
        ("campaign.undo", [], {}),
    ],
)
def test_spectators_cannot_act(t: Table, type_, faces, fields):
    t.do("gm", "generic.pool.create", name="Karma", value=1)
    t.do("gm", "generic.initiative.add", participant="Aria", value=3)
    t.do("gm", "generic.initiative.next")
    message = t.refused("spec", type_, Forbidden, faces, **fields)
    assert message == "Spectators watch the table; they cannot act."


def test_a_players_view_never_holds_the_gms_secrets(t: Table):
    t.do("gm", "generic.pool.create", name=HIDDEN_POOL, value=3, hidden=True)
    t.do("gm", "generic.pool.create", name="Fury", value=2, owner=BOSS)
    t.do("gm", "generic.track.create", name=HIDDEN_TRACK, total=4, hidden=True)
    t.do("gm", "generic.preset.create", label="Cleave", expression="2d8", owner=BOSS)
    t.do("gm", "generic.pool.create", name="Karma", value=1)
    t.do("gm", "campaign.encounter.prepare", name="Lair", participants=["Aria", BOSS], notes="Trapdoor")
    t.do("gm", "campaign.encounter.start", encounter="Lair")
    t.do(
        "gm",
        "generic.initiative.set",
        entries=[{"participant": BOSS, "value": 20}, {"participant": "Aria", "value": 10}],
    )
    t.do("gm", "generic.initiative.next")
    secrets = [GOBLIN_NOTES, BOSS, BOSS_NOTES, HIDDEN_POOL, "Fury", HIDDEN_TRACK, "Cleave", "Trapdoor"]
    for who in ("ann", "ben", "spec"):
        dump = t.dump(who)
        assert [s for s in secrets if s in dump] == [], who
        assert "Karma" in dump and "Aria" in dump and "Goblin" in dump
    gm = t.dump("gm")
    assert [s for s in secrets if s not in gm] == []
    # What a player may see of the log holds none of it either.
    for who in ("ann", "spec"):
        visible = json.dumps([e.data for e in t.game.visible(t.events, t.viewer(who))])
        assert [s for s in (BOSS, BOSS_NOTES, GOBLIN_NOTES, HIDDEN_POOL, HIDDEN_TRACK) if s in visible] == []


def test_a_player_sees_their_own_characters_notes_but_not_an_npcs(t: Table):
    t.do("gm", "campaign.update_participant", participant="Aria", notes="Aria-secret-past")
    ann, ben = t.view("ann"), t.view("ben")
    (aria_for_ann,) = [p for p in ann["participants"] if p["name"] == "Aria"]
    assert aria_for_ann["notes"] == "Aria-secret-past"
    assert aria_for_ann["mine"] is True
    assert "Aria-secret-past" not in t.dump("ben")
    assert all("notes" not in p for p in ben["participants"] if p["name"] in ("Aria", "Goblin"))


def test_roll_buttons_follow_the_presets_the_hidden_flags_and_the_viewer_from_push_to_push(t: Table):
    """The buttons are kept between pushes (app/rules/generic/view.py): each change they read shows."""

    def buttons(who: str) -> list[str]:
        return [o["label"] for o in t.view(who)["options"] if o["group"] == "roll"]

    t.do("gm", "generic.pool.create", name="Gold", value=1)
    assert buttons("ann") == []
    t.do("gm", "generic.preset.create", label="Sing", expression="1d6", owner=t.pid("Aria"))
    t.do("gm", "generic.preset.create", label="Dodge", expression="2d6", target=7)
    assert buttons("ann") == ["Sing", "Dodge"] and buttons("ben") == ["Dodge"]  # Sing is Aria's
    t.do("gm", "generic.pool.adjust", pool="Gold", delta=1)  # presets and characters untouched
    assert buttons("ann") == ["Sing", "Dodge"]
    t.do("gm", "campaign.set_hidden", participant="Aria", hidden=True)
    assert buttons("ann") == ["Dodge"] and buttons("gm") == ["Sing", "Dodge"]
    t.do("gm", "campaign.set_hidden", participant="Aria", hidden=False)
    assert buttons("ann") == ["Sing", "Dodge"]
    t.do("gm", "generic.preset.remove", preset="Dodge")
    assert buttons("ann") == ["Sing"] and buttons("ben") == []
    assert t.view("spec")["options"] == []


def test_pools_tracks_and_initiative_are_kept_per_push_but_follow_every_change_and_viewer(t: Table):
    """Each part of the generic view is kept by what it reads (app/rules/generic/view.py): whose the
    viewer's characters are, hidden flags and every change must still show, view by view."""

    def adjustable(who: str, part: str) -> dict[str, bool]:
        return {x["name"]: x["can_adjust"] for x in t.view(who)[part]}

    t.do("gm", "generic.pool.create", name="Gold", value=1)
    t.do("gm", "generic.pool.create", name="Luck", value=1, owner="Aria")
    t.do("gm", "generic.track.create", name="Harm", total=4, owner="Brick")
    assert adjustable("ann", "pools") == {"Gold": True, "Luck": True}
    assert adjustable("ben", "pools") == {"Gold": True, "Luck": False}
    assert adjustable("ann", "tracks") == {"Harm": False} and adjustable("ben", "tracks") == {"Harm": True}
    t.do("gm", "generic.pool.adjust", pool="Gold", delta=2)
    assert [p["value"] for p in t.view("ben")["pools"]] == [3, 1]
    t.do("gm", "campaign.set_hidden", participant="Aria", hidden=True)
    assert adjustable("ben", "pools") == {"Gold": True}
    assert adjustable("gm", "pools") == {"Gold": True, "Luck": True}
    t.do("gm", "campaign.set_hidden", participant="Aria", hidden=False)
    t.do("gm", "generic.initiative.add", participant="Aria", value=20)
    t.do("gm", "generic.initiative.add", participant="Brick", value=10)
    t.do("gm", "generic.initiative.next")
    ann, ben = t.view("ann")["initiative"], t.view("ben")["initiative"]
    assert (ann["my_turn"], ben["my_turn"]) == (True, False)
    assert [e["mine"] for e in ann["entries"]] == [True, False] and [e["mine"] for e in ben["entries"]] == [
        False,
        True,
    ]
    t.do("gm", "generic.initiative.next")
    assert (t.view("ann")["initiative"]["my_turn"], t.view("ben")["initiative"]["my_turn"]) == (False, True)
