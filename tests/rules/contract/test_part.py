"""A system's part (app/rules/contract/part.py): what its defaults mean, and a view from state and viewer."""

from __future__ import annotations

from typing import Any

from app.rules.campaign.state import CampaignState
from app.rules.contract.part import SystemPart, ViewRequest, state_view
from app.rules.contract.viewer import Viewer
from app.rules.game import Game


def test_a_part_adds_nothing_it_does_not_name_and_its_view_goes_under_system():
    part = SystemPart(key="bare", title="Bare")
    assert part.view_key == "system" and part.view is None and part.options is None
    assert not part.commands and not part.reducers and not part.owns_initiative
    game = Game(part)
    assert game.key == "bare" and game.parts[-1] is part
    state = CampaignState(id="c", name="C", system="bare")
    assert "system" not in game.view(state, Viewer(role="gm"))


def test_state_view_hands_the_request_state_and_viewer_to_the_function():
    seen: list[tuple[Any, Any]] = []

    def view(state: CampaignState, viewer: Viewer) -> dict[str, Any]:
        seen.append((state, viewer))
        return {"name": state.name}

    state = CampaignState(id="c", name="Ford", system="bare")
    viewer = Viewer(role="player", seat_id="s1")
    assert state_view(view)(ViewRequest(state, viewer, scene="sc1")) == {"name": "Ford"}
    assert seen == [(state, viewer)]
    game = Game(SystemPart(key="lit", title="Lit", view=state_view(view)))
    assert game.view(state, viewer)["system"] == {"name": "Ford"}
