"""The map's look-ups and audiences (app/rules/map/lookups.py): a look-up never names what the asker may
not see, an event's audience follows what it shows, and a spot is kept on the scene and snapped."""

from __future__ import annotations

import pytest

from app.rules.dice import ManualRoller
from app.rules.errors import InputError, RuleError
from app.rules.map import lookups
from app.rules.map.state import Grid, Scene
from app.rules.system import Ctx
from tests.rules.generic.test_generic_rules import Table
from tests.rules.map.test_commands import _scene, _table, _token

SCENE = Scene(id="s", name="S", width=400, height=300, grid=Grid(size=100.0))


def _ctx(t: Table, who: str) -> Ctx:
    return Ctx(ManualRoller(()), t.viewer(who))


def test_a_player_finds_only_the_shown_scene_and_tokens_they_may_see():
    t = _table()
    shown, lair = _scene(t), _scene(t, show=False, name="Lair")
    t.do("gm", "map.fog.cover", scene=shown, rect=[200, 0, 200, 300])
    aria = _token(t, shown, "Aria", x=300, y=100)  # Ann's, under fog
    chest = _token(t, shown, label="Chest", x=300, y=200)  # under fog
    assert lookups.scene_of(t.state, lair, _ctx(t, "gm")).id == lair
    for ref in (lair, "nowhere"):  # one sentence for a hidden scene and a missing one
        with pytest.raises(RuleError, match="There is no such scene in this campaign"):
            lookups.scene_of(t.state, ref, _ctx(t, "ann"))
    assert lookups.token_of(t.state, aria, _ctx(t, "ann")).id == aria  # theirs, even under fog
    for who in ("ann", "ben"):
        with pytest.raises(RuleError, match="There is no such token on the map"):
            lookups.token_of(t.state, chest, _ctx(t, who))
    with pytest.raises(RuleError, match="There is no such token on the map"):
        lookups.token_of(t.state, aria, _ctx(t, "ben"))


def test_an_audience_is_everyone_only_when_the_table_sees_every_token():
    t = _table()
    shown, lair = _scene(t), _scene(t, show=False, name="Lair")
    t.do("gm", "map.fog.cover", scene=shown, rect=[200, 0, 200, 300])
    ids = [
        _token(t, shown, label="Lantern", x=50, y=50),
        _token(t, shown, "Aria", x=300, y=100),
        _token(t, shown, label="Chest", x=300, y=200),
        _token(t, lair, label="Skeleton"),
    ]
    in_open, fogged_aria, fogged_chest, prepared = (t.state.map.token(i) for i in ids)
    assert lookups.audience(t.state, in_open) == "all"
    assert lookups.audience(t.state, in_open, fogged_aria) == f"p:{t.pid('Aria')}"
    assert lookups.audience(t.state, fogged_chest) == "gm"
    assert lookups.audience(t.state, in_open, prepared) == "gm"
    assert lookups.scene_audience(t.state, t.state.map.scene(shown)) == "all"
    assert lookups.scene_audience(t.state, t.state.map.scene(lair)) == "gm"


def test_a_spot_off_the_scene_is_refused_the_gm_told_the_scenes_size():
    t = Table()
    with pytest.raises(InputError) as gm:
        lookups.inside(SCENE, 401, 10, _ctx(t, "gm"))
    assert str(gm.value) == "That spot (401, 10) is off the scene, which is 400 by 300 pixels."
    with pytest.raises(InputError) as player:
        lookups.inside(SCENE, -1, 10, _ctx(t, "ann"))
    assert str(player.value) == "That spot is off the map."


def test_a_placed_spot_snaps_to_its_cells_centre_unless_free_and_stays_on_the_scene():
    ctx = _ctx(Table(), "gm")
    assert lookups.placed(SCENE, 120, 30, False, ctx) == (150.0, 50.0)
    assert lookups.placed(SCENE, 120.04, 30.06, True, ctx) == (120.0, 30.1)
    narrow = SCENE.model_copy(update={"width": 420})
    assert lookups.placed(narrow, 419, 30, False, ctx) == (420.0, 50.0)  # the cell's centre is off: its edge


def test_a_token_is_named_by_its_character_its_label_or_what_it_is():
    t = _table()
    scene = _scene(t)
    ids = _token(t, scene, "Aria"), _token(t, scene, label="Chest")
    aria, chest = (t.state.map.token(i) for i in ids)
    assert lookups.token_name(t.state, aria) == "Aria"
    assert lookups.token_name(t.state, chest) == "Chest"
    assert lookups.token_name(t.state, chest.model_copy(update={"label": None})) == "A marker"
    assert lookups.token_name(t.state, aria.model_copy(update={"participant": "gone"})) == "A token"
