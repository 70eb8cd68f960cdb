"""A token whose character the game conceals (5x5's fog of war) is no token to a player in any channel
of the map, as in their view: its drag ghost, its events, a refusal naming it."""

from __future__ import annotations

import pytest

from app.rules.errors import RuleError
from app.rules.map import signals
from tests.rules.fivebyfive.harness import Table

WALL = {"name": "Wall", "rect": {"x": 12, "y": 0, "width": 1, "height": 24}}


def test_a_ghost_of_a_token_the_game_conceals_reaches_no_player():
    t = Table().cast().start(terrain=[WALL], tokens={"Aria": [5, 5], "Goblin": [20, 5], "Brick": [10, 15]})
    goblin = t.pid("Goblin")
    t.do("gm", "map.scene.create", name="Cave", width=1000, height=1000, show=True)
    scene = t.state.map.shown
    t.do("gm", "map.token.place", scene=scene, participant=goblin, x=500, y=500)
    token = next(x for x in t.state.map.tokens if x.participant == goblin)
    assert t.game.system.conceals(t.state, t.viewer("ann")) == {goblin}
    assert token.id not in repr(t.view("ann")["map"]["tokens"])
    message = signals.build(
        t.state, t.viewer("gm"), "GM", {"map.ghost": {"token": token.id, "x": 520, "y": 500}}
    )
    assert signals.visible_to(t.state, t.viewer("gm"), message)
    for who in ("ann", "spec"):
        assert not signals.visible_to(t.state, t.viewer(who), message), who
    # A player who names it is told there is no such token, as for any token they cannot see.
    with pytest.raises(RuleError) as refused:
        signals.build(t.state, t.viewer("ann"), "Ann", {"map.ghost": {"token": token.id, "x": 1, "y": 1}})
    assert str(refused.value) == "There is no such token on the map."


def test_a_move_of_a_token_the_game_conceals_reaches_no_players_log():
    t = Table().cast().start(terrain=[WALL], tokens={"Aria": [5, 5], "Goblin": [20, 5], "Brick": [10, 15]})
    goblin = t.pid("Goblin")
    t.do("gm", "map.scene.create", name="Cave", width=1000, height=1000, show=True)
    t.do("gm", "map.token.place", scene=t.state.map.shown, participant=goblin, x=500, y=500)
    token = next(x for x in t.state.map.tokens if x.participant == goblin)
    moved = t.do("gm", "map.token.move", token=token.id, x=600, y=600)
    for who in ("ann", "spec"):
        assert t.game.visible(moved, t.viewer(who), t.state) == [], who
    assert t.game.visible(moved, t.viewer("gm"), t.state)


def test_a_player_naming_a_token_the_game_conceals_is_told_there_is_no_such_token():
    t = Table().cast().start(terrain=[WALL], tokens={"Aria": [5, 5], "Goblin": [20, 5], "Brick": [10, 15]})
    goblin = t.pid("Goblin")
    t.do("gm", "map.scene.create", name="Cave", width=1000, height=1000, show=True)
    t.do("gm", "map.token.place", scene=t.state.map.shown, participant=goblin, x=500, y=500)
    token = next(x for x in t.state.map.tokens if x.participant == goblin)
    error = t.refused("ann", "map.token.move", token=token.id, x=600, y=600)
    assert error.message == "There is no such token on the map."
