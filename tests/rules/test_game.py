"""The composed decider's contract pieces that game systems lean on."""

from __future__ import annotations

import json

import pytest

from app.rules.campaign.state import (
    CampaignState,
    Encounter,
    Initiative,
    InitiativeEntry,
    Participant,
    SeatInfo,
    check_answer,
)
from app.rules.contract.part import ViewRequest
from app.rules.errors import Forbidden
from app.rules.game import Game
from app.rules.generic import SYSTEM as GENERIC
from app.rules.system import PLAYERS, Event, Prompt, SystemPart, Viewer


def _state() -> CampaignState:
    return CampaignState(
        id="c",
        name="C",
        system="generic",
        seq=10,
        seats=(SeatInfo(id="gm", name="GM", role="gm"), SeatInfo(id="s1", name="Ann", role="player")),
        participants=(Participant(id="p1", name="Aria", owner="s1"),),
        encounters=(Encounter(id="e1", name="Ford", status="active"),),
        active_encounter="e1",
        prompts=(
            Prompt(
                id="rush", to="p1", kind="victory_rush", text="Pick", answer="x.rush", outlives_encounter=True
            ),
            Prompt(id="dodge", to="p1", kind="dodge", text="Dodge?", answer="x.dodge"),
        ),
    )


def test_only_prompts_marked_so_outlive_the_encounter():
    game = Game(GENERIC)
    ended = game.evolve(
        _state(),
        Event(seq=11, batch=11, type="campaign.encounter_ended", data={"encounter": "e1", "name": "Ford"}),
    )
    assert [p.id for p in ended.prompts] == ["rush"]
    assert ended.active_encounter is None


def test_the_gm_answers_a_players_prompt_only_where_the_system_allows():
    state = _state()
    gm = Viewer(seat_id="gm", role="gm")
    with pytest.raises(Forbidden, match="Aria's player"):
        check_answer(state, "dodge", gm)
    assert check_answer(state, "dodge", gm, gm_may_answer=True).id == "dodge"
    assert check_answer(state, "dodge", state.viewer_for("s1", "player")).id == "dodge"


def test_a_system_that_keeps_its_own_turn_order_hides_the_generic_initiative_commands():
    plain = Game(SystemPart(key="plain", title="Plain"))
    owner = Game(SystemPart(key="own", title="Own order", owns_initiative=True))
    assert "generic.initiative.next" in plain.commands
    assert not any(t.startswith("generic.initiative.") for t in owner.commands)
    assert "generic.roll" in owner.commands
    assert owner.view(_state(), Viewer(role="gm"))["campaign"]["owns_initiative"] is True


def test_what_a_system_conceals_from_a_viewer_leaves_no_trace_in_the_core_and_generic_views():
    lurker = Participant(id="p2", name="Lurker", kind="npc")
    state = _state().model_copy(update={"participants": (*_state().participants, lurker)})
    order = Initiative(entries=(InitiativeEntry(participant="p2", value=12),))
    state = state.model_copy(update={"initiative": order})
    # A viewer's own characters are never concealed from it, whatever the system says.
    game = Game(SystemPart(key="dark", title="Dark", conceals=lambda s, v: frozenset({"p1", "p2"})))
    player = state.viewer_for("s1", "player")
    seen = json.dumps(game.view(state, player))
    assert "Lurker" not in seen and "p2" not in seen
    assert "Aria" in seen
    gm_view = json.dumps(game.view(state, Viewer(seat_id="gm", role="gm")))
    assert "Lurker" in gm_view
    assert "Lurker" in json.dumps(Game(SystemPart(key="lit", title="Lit")).view(state, player))


def test_a_prompt_to_the_players_is_seen_and_answered_by_any_player_but_not_a_spectator():
    state = _state().model_copy(
        update={"prompts": (Prompt(id="karma", to=PLAYERS, kind="karma", text="Grab?", answer="x.karma"),)}
    )
    ann = state.viewer_for("s1", "player")
    assert state.prompts[0].visible_to(ann)
    assert check_answer(state, "karma", ann).id == "karma"
    assert not state.prompts[0].visible_to(Viewer(role="spectator"))
    with pytest.raises(Forbidden, match="the players'"):
        check_answer(state, "karma", Viewer(seat_id="gm", role="gm"))
    assert check_answer(state, "karma", Viewer(seat_id="gm", role="gm"), gm_may_answer=True).id == "karma"


def test_a_view_is_its_parts_views_in_layer_order_and_the_system_sees_the_whole_campaign():
    lurker = Participant(id="p2", name="Lurker", kind="npc")
    state = _state().model_copy(update={"participants": (*_state().participants, lurker)})
    looked: list[ViewRequest] = []

    def dark_view(request: ViewRequest) -> dict[str, object]:
        looked.append(request)
        return {"names": [p.name for p in request.state.participants if not p.hidden]}

    dark = SystemPart(key="dark", title="Dark", view=dark_view, conceals=lambda s, v: frozenset({"p2"}))
    player = state.viewer_for("s1", "player")
    view = Game(dark).view(state, player, scene="s9")
    # The core's keys, the map, the generic tabletop's keys, the system's own, then the options.
    keys = list(view)
    assert keys[:2] == ["campaign", "me"] and keys[-2:] == ["system", "options"]
    assert keys.index("undo") < keys.index("map") < keys.index("initiative") < keys.index("system")
    assert view["system"] == {"names": ["Aria", "Lurker"]}  # the system hides its own secrets
    assert "Lurker" not in json.dumps(view["participants"])  # the layers below see it concealed
    assert looked == [ViewRequest(state, player, "s9")]
    merged = SystemPart(key="flat", title="Flat", view=lambda request: {"flat": True}, view_key=None)
    assert Game(merged).view(state, player)["flat"] is True


def test_a_view_is_built_once_per_state_and_viewer_and_each_other_viewer_state_or_scene_gets_its_own():
    """A command's reply and its push to the same seat read one view; nothing is shared across viewers."""
    game, state = Game(GENERIC), _state()
    ann = Viewer(role="player", seat_id="s1", participants=frozenset({"p1"}))
    first = game.view(state, ann)
    assert game.view(state, Viewer(role="player", seat_id="s1", participants=frozenset({"p1"}))) is first
    gm = game.view(state, Viewer(role="gm", seat_id="gm"))
    assert gm is not first and gm["me"]["role"] == "gm" and first["me"]["role"] == "player"
    assert game.view(state, Viewer(role="spectator", seat_id="s9")) is not first
    assert game.view(state, ann, "scene-2") is not first
    renamed = state.model_copy(update={"name": "Renamed"})  # a copy carries the table of views along
    again = game.view(renamed, ann)
    assert again is not first and again["campaign"]["name"] == "Renamed" and first["campaign"]["name"] == "C"
    assert game.view(state, ann) is not again  # each state's own, whichever was asked last
    other = Game(GENERIC)  # another game (its parts could differ): its own views of the same state
    assert other.view(state, ann) is not game.view(state, ann) and other.view(state, ann) == game.view(
        state, ann
    )


def test_every_view_of_a_state_shares_one_campaign_part_and_the_next_state_its_own():
    game, state = Game(GENERIC), _state()
    ann = Viewer(role="player", seat_id="s1", participants=frozenset({"p1"}))
    gm = Viewer(role="gm", seat_id="gm")
    first = game.view(state, ann)["campaign"]
    assert game.view(state, gm)["campaign"] is first
    assert first["system_title"] == GENERIC.title and first["seq"] == 10
    later = state.model_copy(update={"seq": 11})
    assert game.view(later, ann)["campaign"]["seq"] == 11 and first["seq"] == 10
