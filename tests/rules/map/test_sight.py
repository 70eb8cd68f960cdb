"""The map's one answer to "what may this viewer see" (issue 32, item 6): every channel asks `Sight`, so
the view, the audiences, refusals, pings and the image agree on each token, drawing and spot."""

from __future__ import annotations

import json

import pytest

from app.rules.errors import RuleError
from app.rules.map import signals
from app.rules.map.sight import ANY_PLAYER, Sight
from tests.rules.map.test_commands import _scene, _table, _token


@pytest.fixture
def fogged_table():
    """A shown crypt with its right half under fog: Aria (Ann's) and a chest under it, a lantern and a
    hidden goblin in the open; a drawing under fog and one in the open; a second scene not shown."""
    t = _table()
    scene = _scene(t)
    t.do("gm", "map.fog.cover", scene=scene, rect=[200, 0, 200, 300])
    ids = {
        "aria": _token(t, scene, "Aria", x=300, y=100),
        "chest": _token(t, scene, label="Chest", x=300, y=200),
        "lantern": _token(t, scene, label="Lantern", x=50, y=50),
        "goblin": _token(t, scene, "Goblin", x=100, y=100, hidden=True),
    }
    t.do("gm", "map.draw", scene=scene, points=[[250, 40], [300, 90]])
    t.do("gm", "map.draw", scene=scene, points=[[20, 20], [60, 60]])
    lair = _scene(t, show=False, name="Lair")
    ids["skeleton"] = _token(t, lair, label="Skeleton")
    return t, scene, lair, ids


def test_a_player_sees_their_own_and_what_is_in_the_open_on_the_shown_scene(fogged_table):
    t, scene_id, lair_id, ids = fogged_table
    scene, lair = t.state.map.scene(scene_id), t.state.map.scene(lair_id)
    ann = Sight(t.state, t.viewer("ann"))
    names = {tok.id for tok in ann.tokens(scene)}
    assert names == {ids["aria"], ids["lantern"]}  # her own under fog, the lantern in the open
    assert ann.tokens(lair) == [] and not ann.scene(lair)
    assert [len(d.points) for d in ann.drawings(scene)] == [2] and ann.drawings(lair) == []
    assert ann.point(50, 50) and not ann.point(300, 100) and not ann.point(500, 50)  # off the map
    assert ann.blanked(scene) == scene.fog and ann.blanked(lair) is None
    assert ann.key == Sight(t.state, t.viewer("ben")).key == "players"
    gm = Sight(t.state, t.viewer("gm"))
    assert {tok.id for tok in gm.tokens(scene)} == {ids["aria"], ids["chest"], ids["lantern"], ids["goblin"]}
    assert gm.point(300, 100) and gm.blanked(scene) == () and gm.key == "gm"


def test_every_channel_agrees_with_the_sight(fogged_table):
    """The view, the event audience, a refusal and a ghost all give the answer the sight gives."""
    t, scene_id, _, ids = fogged_table
    table = Sight(t.state, ANY_PLAYER)
    view = json.dumps(t.view("ben")["map"]["tokens"])
    for name, token_id in ids.items():
        token = t.state.map.token(token_id)
        seen = table.token(token)
        assert (f'"{token_id}"' in view) == seen, name
        placed = next(
            e for e in t.events if e.type == "map.token_placed" and e.data["token"]["id"] == token_id
        )
        assert (placed.audience == "all") == seen, name
        if not seen:  # a token the players cannot see is no token, in a refusal's words too
            with pytest.raises(RuleError, match="no such token"):
                signals.build(
                    t.state, t.viewer("ben"), "Ben", {"map.ghost": {"token": token_id, "x": 1, "y": 1}}
                )
    ping = {"map.ping": {"scene": scene_id, "x": 300.0, "y": 100.0, "by": "GM"}}
    assert not signals.visible_to(t.state, t.viewer("ben"), ping)
    assert signals.visible_to(t.state, t.viewer("gm"), ping)
    assert signals.visible_to(
        t.state, t.viewer("ben"), {"map.ping": {**ping["map.ping"], "x": 50.0, "y": 50.0}}
    )
