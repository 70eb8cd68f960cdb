"""The core's view (app/rules/campaign/view.py): the characters' list kept per kind of viewer while the
characters and seats are the same tuples, and made afresh when either moves."""

from __future__ import annotations

from app.rules.campaign.state import CampaignState, Participant
from app.rules.campaign.view import participants_view
from app.rules.contract.viewer import Viewer
from tests.rules.campaign.test_seats import table

GM = Viewer(seat_id="seat-gm", role="gm")
ANN = Viewer(seat_id="seat-ann", role="player", participants=frozenset({"p2"}))
TV = Viewer(seat_id="seat-tv", role="spectator")


def _with_characters(state: CampaignState) -> CampaignState:
    people = (
        Participant(id="p1", name="Ghoul", kind="npc", hidden=True, notes="claws"),
        Participant(id="p2", name="Aria", owner="seat-ann", notes="hers"),
        Participant(id="p3", name="Brick", owner="seat-ann"),
    )
    return state.model_copy(update={"participants": people})


def test_each_kind_of_viewer_gets_its_own_list_kept_while_the_characters_and_seats_stand():
    state = _with_characters(table())
    gm, ann, tv = (participants_view(state, v) for v in (GM, ANN, TV))
    assert [p["name"] for p in gm] == ["Ghoul", "Aria", "Brick"] and gm[0]["notes"] == "claws"
    assert [p["name"] for p in ann] == ["Aria", "Brick"]
    assert ann[0]["mine"] and ann[0]["notes"] == "hers" and "notes" not in ann[1]  # Brick is not hers here
    assert [p["name"] for p in tv] == ["Aria", "Brick"] and not any(p["mine"] for p in tv)
    later = state.model_copy(update={"seq": state.seq + 1, "pools": ()})  # a push that moved no character
    assert participants_view(later, ANN) is ann and participants_view(later, GM) is gm
    brick = later.participants[2].model_copy(update={"name": "B"})
    renamed = later.model_copy(update={"participants": (*later.participants[:2], brick)})
    assert participants_view(renamed, ANN) is not ann
    assert [p["name"] for p in participants_view(renamed, ANN)] == ["Aria", "B"]
