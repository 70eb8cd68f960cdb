"""The map part of a view and the players' reading of map events (app/rules/map/view.py)."""

from __future__ import annotations

import pytest

from app.rules.map.view import EVENT_VIEWS, _initials
from app.rules.system import Event
from tests.rules.map.test_commands import ASSET, _scene, _table, _token


@pytest.mark.parametrize(
    ("name", "initials"), [("Aria", "AR"), ("Old Grey Wolf", "OG"), ("half-orc", "HO"), ("", "?"), ("x", "X")]
)
def test_a_token_shows_the_initials_of_its_name(name: str, initials: str):
    assert _initials(name) == initials


def test_the_gm_sees_scenes_fog_and_the_image_a_player_sees_neither():
    t = _table()
    scene = _scene(t)
    t.do("gm", "map.fog.cover", scene=scene, rect=[200, 0, 200, 300])
    gm, ann = t.view("gm")["map"], t.view("ann")["map"]
    assert gm["scene"] == ann["scene"] == scene
    assert [s["id"] for s in gm["scenes"]] == [scene] and gm["asset"] == ASSET and gm["fog"]
    assert gm["image_url"].endswith(f"/assets/{ASSET}")
    assert not {"scenes", "assets", "fog", "asset"} & set(ann)
    assert ASSET not in ann["image_url"] and f"/scenes/{scene}/image?v=" in ann["image_url"]


def test_a_players_token_is_movable_only_their_own_and_only_while_players_may_move():
    t = _table()
    scene = _scene(t)
    aria, brick = _token(t, scene, "Aria"), _token(t, scene, "Brick")
    tokens = {tok["id"]: tok for tok in t.view("ann")["map"]["tokens"]}
    assert tokens[aria]["mine"] and tokens[aria]["movable"] and tokens[aria]["initials"] == "AR"
    assert not tokens[brick]["mine"] and not tokens[brick]["movable"]
    assert "hidden" not in tokens[aria] and "fogged" not in tokens[aria]
    t.do("gm", "map.scene.update", scene=scene, player_moves=False)
    assert not next(tok for tok in t.view("ann")["map"]["tokens"] if tok["id"] == aria)["movable"]


def test_a_scene_change_reaches_the_players_without_its_image_and_only_for_the_shown_scene():
    t = _table()
    scene = _scene(t)
    read = EVENT_VIEWS["map.scene_updated"]
    changed = Event(
        seq=1, type="map.scene_updated", data={"scene": scene, "changes": {"asset": ASSET, "name": "X"}}
    )
    seen = read(t.state, changed)
    assert seen is not None and seen.data["changes"] == {"name": "X"}
    assert changed.data["changes"]["asset"] == ASSET  # the stored event is untouched
    elsewhere = Event(seq=2, type="map.scene_updated", data={"scene": "other", "changes": {"name": "Y"}})
    assert read(t.state, elsewhere) is None


def test_fog_strokes_and_image_records_are_the_gms_alone():
    for type_ in ("map.fog_covered", "map.fog_revealed", "map.asset_added", "map.scene_created"):
        assert EVENT_VIEWS[type_](None, Event(seq=1, type=type_)) is None


def test_a_token_move_leaves_the_gms_walls_and_lights_the_same_lists_and_a_wall_change_new_ones():
    """Kept on their scene: every view after a move shares them (a push draws and writes them once)."""
    t = _table()
    scene = _scene(t)
    t.do("gm", "map.wall.add", scene=scene, points=[[0, 0], [100, 0]])
    t.do("gm", "map.light.add", scene=scene, x=50, y=50, bright=20, dim=40)
    aria = _token(t, scene, "Aria")
    before = t.view("gm")["map"]
    t.do("gm", "map.token.move", token=aria, x=250, y=150)
    after = t.view("gm")["map"]
    assert after["walls"] is before["walls"] and after["lights"] is before["lights"]
    assert after["walls"][0]["points"] == [[0, 0], [100, 0]] and after["lights"][0]["bright"] == 20
    t.do("gm", "map.wall.add", scene=scene, points=[[0, 50], [100, 50]])
    again = t.view("gm")["map"]
    assert again["walls"] is not after["walls"] and len(again["walls"]) == 2


def test_a_step_leaves_the_other_tokens_views_the_same_objects_and_what_they_read_makes_new_ones():
    """Kept on the token per kind of viewer: a board finds the unmoved tokens' pieces by identity."""
    t = _table()
    scene = _scene(t)
    aria, brick = _token(t, scene, "Aria"), _token(t, scene, "Brick", x=200)

    def tokens(who: str) -> dict[str, dict]:
        return {tok["id"]: tok for tok in t.view(who)["map"]["tokens"]}

    before, gm_before = tokens("ann"), tokens("gm")
    t.do("gm", "map.token.move", token=aria, x=250, y=150)
    after, gm_after = tokens("ann"), tokens("gm")
    assert after[brick] is before[brick] and gm_after[brick] is gm_before[brick]
    assert after[aria] is not before[aria] and (after[aria]["x"], after[aria]["y"]) == (
        245.0,
        175.0,
    )  # snapped
    assert (
        gm_after[brick] is not after[brick] and "hidden" in gm_after[brick] and "hidden" not in after[brick]
    )
    assert after[aria]["mine"] and not after[brick]["mine"]  # ann plays Aria: her own, kept apart
    t.do("gm", "campaign.update_participant", participant=t.pid("Brick"), name="Brick the Bold")
    renamed = tokens("ann")
    assert renamed[brick] is not after[brick] and renamed[brick]["name"] == "Brick the Bold"
    t.do("gm", "map.scene.update", scene=scene, player_moves=False)
    assert not tokens("ann")[aria]["movable"]  # what the scene lets players do is read again
    t.do("gm", "map.fog.cover", scene=scene, rect=[0, 0, 400, 300])
    assert tokens("gm")[brick]["fogged"] and not gm_after[brick]["fogged"]


def test_a_token_move_leaves_the_scenes_grid_and_fog_as_viewed_the_same_objects():
    """The board's head is drawn of them: found by identity, push after push, until they change."""
    t = _table()
    scene = _scene(t)
    t.do("gm", "map.fog.cover", scene=scene, rect=[200, 0, 200, 300])
    aria = _token(t, scene, "Aria")
    before, phone = t.view("gm")["map"], t.view("ann")["map"]
    t.do("gm", "map.token.move", token=aria, x=150, y=150)
    after = t.view("gm")["map"]
    assert after["grid"] is before["grid"] is phone["grid"] and after["fog"] is before["fog"]
    t.do("gm", "map.fog.reveal", scene=scene, rect=[200, 0, 100, 300])
    revealed = t.view("gm")["map"]
    assert revealed["fog"] is not after["fog"] and len(revealed["fog"]) == 2
    t.do("gm", "map.scene.update", scene=scene, grid={"type": "square", "size": 40})
    assert t.view("gm")["map"]["grid"]["size"] == 40 and before["grid"]["size"] != 40
