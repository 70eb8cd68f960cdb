"""Sight from walls (issue 29): what a player's characters see among walls, doors, windows and light, what
they have explored, and that nothing outside their sight reaches them.

The map: a 1000 x 600 scene of two rooms joined by a corridor (y 250 to 350), with a door across the
corridor's middle (x 500). Cells are 50 pixels. Aria is Ann's character, Brick Ben's.

    0            400   500   600            1000
    +-------------+           +--------------+ 0
    |  west room  |           |  east room   |
    |             +-----|-----+              | 250
    |                  door                  |
    |             +-----|-----+              | 350
    |             |           |              |
    +-------------+           +--------------+ 600
"""

from __future__ import annotations

import json

import pytest
import shapely

from app.rules.errors import Forbidden, InputError, RuleError
from app.rules.map.sight import ANY_PLAYER, Sight
from tests.rules.generic.test_generic_rules import Table
from tests.rules.map.test_commands import ASSET, _image, _seen_by, _token

WALLS = [
    [[400, 0], [400, 250], [600, 250], [600, 0]],
    [[400, 600], [400, 350], [600, 350], [600, 600]],
]
DOOR = [[500, 250], [500, 350]]


def _dungeon(door: str = "door", **door_fields) -> tuple[Table, str, str]:
    """The two rooms, vision on, the door closed unless said; returns the table, the scene and the door."""
    t = Table().cast()
    _image(t, ASSET, 1000, 600)
    (made, *_) = t.do("gm", "map.scene.create", name="Keep", asset=ASSET, grid={"size": 50}, show=True)
    scene = made.data["scene"]["id"]
    for points in WALLS:
        t.do("gm", "map.wall.add", scene=scene, points=points)
    (added,) = t.do("gm", "map.wall.add", scene=scene, points=DOOR, kind=door, **door_fields)
    t.do("gm", "map.scene.update", scene=scene, vision=True)
    return t, scene, added.data["wall"]["id"]


def _sees(t: Table, who: str, *spots: tuple[float, float]) -> list[bool]:
    scene = t.state.map.scene(t.state.map.shown)
    return Sight(t.state, t.viewer(who)).points(scene, list(spots))


def _aria(t: Table, scene: str, x: float = 100, y: float = 300) -> str:
    return _token(t, scene, "Aria", x=x, y=y, free=True)


# --- sight among walls --------------------------------------------------------------------------


def test_sight_runs_down_a_corridor_through_an_open_door():
    t, scene, _ = _dungeon(closed=False)
    _aria(t, scene)
    assert _sees(t, "ann", (450, 300), (800, 300)) == [True, True]


def test_sight_stops_at_a_closed_door():
    t, scene, _ = _dungeon()
    _aria(t, scene)
    assert _sees(t, "ann", (450, 300), (550, 300), (800, 300)) == [True, False, False]


def test_sight_does_not_turn_a_corner():
    t, scene, _ = _dungeon(closed=False)
    _aria(t, scene)
    # In her own room, yes; the east room's corner, off the corridor's line, no; nor behind the walls.
    assert _sees(t, "ann", (300, 550), (50, 50)) == [True, True]
    assert _sees(t, "ann", (800, 100), (700, 500), (500, 100)) == [False, False, False]


def test_sight_passes_a_window():
    t, scene, _ = _dungeon(door="window")
    _aria(t, scene)
    assert _sees(t, "ann", (800, 300)) == [True]


def test_a_token_sees_no_farther_than_its_range():
    t, scene, _ = _dungeon()
    aria = _aria(t, scene)
    t.do("gm", "map.token.set", token=aria, sight={"range": 150})
    assert _sees(t, "ann", (200, 300), (300, 300)) == [True, False]


def test_in_the_dark_only_darkvision_sees():
    t, scene, _ = _dungeon()
    aria = _aria(t, scene)
    t.do("gm", "map.scene.update", scene=scene, ambient="dark")
    assert _sees(t, "ann", (150, 300), (300, 300)) == [False, False]
    t.do("gm", "map.token.set", token=aria, sight={"range": None, "darkvision": 100})
    assert _sees(t, "ann", (150, 300), (300, 300)) == [True, False]


def test_a_light_lets_a_token_see_in_the_dark_where_its_light_reaches():
    t, scene, _ = _dungeon()
    _aria(t, scene)
    t.do("gm", "map.scene.update", scene=scene, ambient="dark")
    t.do("gm", "map.light.add", scene=scene, x=300, y=100, bright=50, dim=150)
    t.do("gm", "map.light.add", scene=scene, x=800, y=300, dim=300)  # the east room's, behind the door
    assert _sees(t, "ann", (300, 200), (300, 500), (800, 300)) == [True, False, False]


# --- what a player is sent ----------------------------------------------------------------------


def test_tokens_outside_a_players_sight_are_not_in_their_view_or_events():
    t, scene, _ = _dungeon()
    _aria(t, scene)
    _token(t, scene, "Brick", x=800, y=300, free=True)
    goblin = _token(t, scene, "Goblin", x=900, y=200, free=True)
    t.do("gm", "map.token.move", token=goblin, x=850, y=150, free=True)
    ann_view = json.dumps(t.view("ann")["map"])
    assert goblin not in ann_view and goblin not in _seen_by(t, "ann") and "850" not in _seen_by(t, "ann")
    # The control: Brick, in the east room, sees the goblin, in his view and his events.
    assert goblin in json.dumps(t.view("ben")["map"]) and "850" in _seen_by(t, "ben")
    (moved,) = [e for e in t.events if e.type == "map.token_moved"]
    assert t.pid("Brick") in moved.audience and t.pid("Aria") not in moved.audience


def test_walls_and_lights_reach_only_the_gm():
    t, scene, _ = _dungeon()
    _aria(t, scene)
    t.do("gm", "map.light.add", scene=scene, x=333, y=111, dim=77)
    for who in ("ann", "spec"):
        types = t.visible_types(who)
        assert "map.wall_added" not in types and "map.light_added" not in types
        assert "333" not in _seen_by(t, who)
        view = t.view(who)["map"]
        assert "walls" not in view and "lights" not in view and "333" not in json.dumps(view)
    gm = t.view("gm")["map"]
    assert [w["kind"] for w in gm["walls"]] == ["wall", "wall", "door"]
    assert gm["lights"][0]["x"] == 333 and gm["vision"] is True


def test_a_players_view_carries_their_sight_and_the_doors_they_see():
    t, scene, door = _dungeon()
    _aria(t, scene)
    view = t.view("ann")["map"]
    assert view["vision"] is True and view["doors"] == [
        {"id": door, "x": 500.0, "y": 300.0, "open": False, "usable": True}
    ]
    seen = shapely.from_wkt("POLYGON EMPTY")
    assert view["sight"].startswith("M")
    assert not seen.contains(shapely.Point(0, 0))
    # Ben has no token on the scene: he sees no door and nothing at all.
    assert t.view("ben")["map"]["doors"] == [] and t.view("ben")["map"]["sight"] == ""


def test_the_doors_and_sight_a_view_remembers_follow_fog_moves_and_undo():
    """A view's doors and sight path are remembered for where the tokens stand (every push rebuilds every
    player's view): fog over the door, a step away and an undo each give what a fresh reading gives."""
    t, scene, door = _dungeon()
    aria = _aria(t, scene, x=450)
    near = t.view("ann")["map"]
    assert [d["id"] for d in near["doors"]] == [door]
    t.do("gm", "map.fog.cover", scene=scene, rect=[480, 280, 40, 40])
    assert t.view("ann")["map"]["doors"] == []  # the same spot, the door's middle now under fog
    t.do("gm", "campaign.undo")
    assert t.view("ann")["map"]["doors"] == near["doors"]
    t.do("ann", "map.token.move", token=aria, x=100, y=500, free=True)
    away = t.view("ann")["map"]
    assert away["sight"] != near["sight"] and away["doors"] == []  # the door is round the corner
    t.do("gm", "campaign.undo")
    assert t.view("ann")["map"]["sight"] == near["sight"]
    assert t.view("ann")["map"]["doors"] == near["doors"]


def test_a_players_image_key_follows_what_they_explored():
    t, scene, _ = _dungeon()
    aria = _aria(t, scene)
    before = t.view("ann")["map"]["image_url"]
    t.do("ann", "map.token.move", token=aria, x=100, y=500, free=True)
    assert t.view("ann")["map"]["image_url"] == before  # the same room: nothing new explored
    t.do("gm", "map.door.set", wall=t.state.map.scene(scene).walls[-1].id, open=True)
    assert t.view("ann")["map"]["image_url"] != before


# --- explored -----------------------------------------------------------------------------------


def test_the_room_left_behind_stays_explored_without_its_tokens():
    t, scene, door = _dungeon()
    aria = _aria(t, scene)
    chest = _token(t, scene, label="Chest", x=200, y=100)
    assert chest in json.dumps(t.view("ann")["map"])
    t.do("ann", "map.token.move", token=aria, x=470, y=300, free=True)
    t.do("ann", "map.door.set", wall=door, open=True)
    t.do("ann", "map.token.move", token=aria, x=800, y=300, free=True)
    sight = Sight(t.state, t.viewer("ann"))
    keep = t.state.map.scene(scene)
    explored, seen = sight.explored(keep), sight.seen_region(keep)
    assert explored.contains(shapely.Point(200, 100)) and not seen.contains(shapely.Point(200, 100))
    assert explored.contains(shapely.Point(900, 500))
    assert chest not in json.dumps(t.view("ann")["map"])  # explored, but not seen now: no tokens there
    # Ben's explored nothing: the party does not share unless the GM says so.
    assert Sight(t.state, t.viewer("ben")).explored(keep).is_empty
    t.do("gm", "map.settings", share_explored=True)
    assert Sight(t.state, t.viewer("ben")).explored(keep).contains(shapely.Point(200, 100))


def test_steps_back_and_forth_keep_the_explored_record_and_new_ground_still_grows_it():
    t, scene, door = _dungeon()
    aria = _aria(t, scene)
    t.do("ann", "map.token.move", token=aria, x=150, y=300, free=True)
    (record,) = t.state.map.explored
    for x in (100, 150, 100, 150):  # ground it has seen: the record stays, no union made
        t.do("ann", "map.token.move", token=aria, x=x, y=300, free=True)
        assert t.state.map.explored == (record,) and t.state.map.explored[0] is record
    t.do("gm", "map.door.set", wall=door, open=True)  # the east room comes into sight: it grows
    (grown,) = t.state.map.explored
    assert grown is not record and grown.shape.area > record.shape.area + 10_000
    t.do("ann", "map.token.move", token=aria, x=100, y=300, free=True)
    assert t.state.map.explored[0] is grown


def test_explored_areas_survive_a_restart():
    t, scene, _ = _dungeon(closed=False)
    aria = _aria(t, scene)
    t.do("ann", "map.token.move", token=aria, x=800, y=300, free=True)
    again = t.game.replay(None, t.events)  # a restart: the log folded afresh
    assert again.map.explored == t.state.map.explored and again.map.explored
    keep, ann = again.map.scene(scene), t.viewer("ann")
    assert Sight(again, ann).explored(keep).equals(Sight(t.state, ann).explored(t.state.map.scene(scene)))
    # And from a snapshot: the state's dump loads back to the same explored areas.
    assert t.game.load(t.game.dump(t.state)).map.explored == t.state.map.explored


def test_the_gm_resets_what_the_players_explored():
    t, scene, _ = _dungeon(closed=False)
    aria = _aria(t, scene)
    t.do("ann", "map.token.move", token=aria, x=800, y=300, free=True)
    t.do("gm", "map.explored.reset", scene=scene)
    explored = Sight(t.state, t.viewer("ann")).explored(t.state.map.scene(scene))
    assert not explored.contains(shapely.Point(100, 100)) and explored.contains(shapely.Point(900, 300))


def test_an_undone_move_takes_back_what_it_explored():
    t, scene, _ = _dungeon(closed=False)
    aria = _aria(t, scene)
    t.do("ann", "map.token.move", token=aria, x=800, y=300, free=True)
    t.do("gm", "campaign.undo")
    explored = Sight(t.state, t.viewer("ann")).explored(t.state.map.scene(scene))
    assert not explored.contains(shapely.Point(900, 100))


def test_the_gms_fog_still_covers_what_a_player_sees():
    t, scene, _ = _dungeon()
    _aria(t, scene)
    t.do("gm", "map.fog.cover", scene=scene, rect=[0, 0, 200, 200])
    assert _sees(t, "ann", (100, 100), (300, 300)) == [False, True]
    explored = Sight(t.state, t.viewer("ann")).explored(t.state.map.scene(scene))
    assert not explored.contains(shapely.Point(100, 100)) and explored.contains(shapely.Point(300, 300))


# --- doors --------------------------------------------------------------------------------------


def test_a_player_opens_an_unlocked_door_next_to_their_token():
    t, scene, door = _dungeon()
    aria = _aria(t, scene, x=460, y=300)
    (opened,) = t.do("ann", "map.door.set", wall=door, open=True)
    assert opened.audience == f"p:{t.pid('Aria')}" and "map.door_set" in t.visible_types("ann")
    assert t.state.map.scene(scene).wall(door).open and _sees(t, "ann", (800, 300)) == [True]
    t.do("ann", "map.door.set", wall=door, open=False)
    assert not t.state.map.scene(scene).wall(door).open
    assert aria


def test_a_player_may_not_open_a_locked_door():
    t, scene, door = _dungeon(locked=True)
    _aria(t, scene, x=460, y=300)
    assert t.refused("ann", "map.door.set", wall=door, open=True) == "The door is locked."
    assert "GM" in t.refused("ann", "map.door.set", Forbidden, wall=door, open=False, locked=False)


def test_a_player_may_not_open_a_door_from_afar():
    t, scene, door = _dungeon()
    _aria(t, scene, x=300, y=300)
    assert "next to the door" in t.refused("ann", "map.door.set", wall=door, open=True)


def test_a_player_may_not_open_doors_when_the_gm_keeps_them():
    t, scene, door = _dungeon()
    _aria(t, scene, x=460, y=300)
    t.do("gm", "map.settings", players_open_doors=False)
    assert "GM" in t.refused("ann", "map.door.set", Forbidden, wall=door, open=True)


def test_a_door_a_player_cannot_see_is_no_door():
    t, scene, door = _dungeon()
    _aria(t, scene, x=100, y=100)
    _token(t, scene, "Brick", x=800, y=300, free=True)
    t.do("gm", "map.wall.add", scene=scene, points=[[50, 200], [350, 200]])  # Aria's view of it blocked
    assert t.refused("ann", "map.door.set", wall=door, open=True) == "There is no such door."
    assert t.refused("ann", "map.door.set", wall="w-nowhere", open=True) == "There is no such door."


# --- commands -----------------------------------------------------------------------------------


def test_walls_and_lights_are_the_gms_to_add_and_are_checked():
    t, scene, door = _dungeon()
    t.refused("ann", "map.wall.add", Forbidden, scene=scene, points=[[0, 0], [10, 10]])
    t.refused("gm", "map.wall.add", InputError, scene=scene, points=[[0, 0], [0, 0]])
    far = t.refused("gm", "map.wall.add", InputError, scene=scene, points=[[0, 0], [9e5, 0]])
    assert "off the scene" in far
    with pytest.raises(InputError):
        t.do("gm", "map.light.add", scene=scene, x=1, y=1, bright=100, dim=50)
    wall = t.state.map.scene(scene).walls[0].id
    assert "wall, not a door" in t.refused("gm", "map.door.set", wall=wall, open=True)
    (removed,) = t.do("gm", "map.wall.remove", wall=door)
    assert removed.audience == "gm" and t.state.map.scene(scene).wall(door) is None


def test_a_scene_keeps_a_bounded_number_of_wall_segments():
    from app.rules.map.commands import MAX_WALL_SEGMENTS

    t, scene, _ = _dungeon()
    points = [[x % 1000, (x // 1000) * 10] for x in range(0, 400 * 10, 10)]
    for _ in range(MAX_WALL_SEGMENTS // 399 + 1):
        try:
            t.do("gm", "map.wall.add", scene=scene, points=points)
        except RuleError as error:
            assert "at most" in str(error)
            break
    else:
        pytest.fail("the cap was never reached")


def test_the_table_sees_what_every_player_character_sees():
    t, scene, _ = _dungeon()
    _aria(t, scene)
    _token(t, scene, "Brick", x=800, y=300, free=True)
    table = Sight(t.state, ANY_PLAYER)
    assert table.points(t.state.map.scene(scene), [(100, 100), (900, 100)]) == [True, True]
    assert _sees(t, "ann", (900, 100)) == [False]
    assert table.key != Sight(t.state, t.viewer("ann")).key != Sight(t.state, t.viewer("ben")).key


def test_a_drawing_reaches_only_the_players_who_see_it():
    t, scene, _ = _dungeon()
    _aria(t, scene)
    _token(t, scene, "Brick", x=800, y=300, free=True)
    t.do("gm", "map.draw", scene=scene, points=[[850.5, 100.5], [900.5, 150.5]], color="#123456")
    (drawn,) = [e for e in t.events if e.type == "map.drawn"]
    assert drawn.audience == f"p:{t.pid('Brick')}"
    assert "850.5" not in _seen_by(t, "ann") and "#123456" not in json.dumps(t.view("ann")["map"])
    assert "#123456" in json.dumps(t.view("ben")["map"])  # the control: Brick sees it


def test_a_player_sees_their_own_token_even_in_the_dark():
    t, scene, _ = _dungeon()
    aria = _aria(t, scene)
    t.do("gm", "map.scene.update", scene=scene, ambient="dark")
    assert _sees(t, "ann", (100, 300)) == [False]  # the spot is dark ...
    assert aria in json.dumps(t.view("ann")["map"]["tokens"])  # ... but her token is hers


def test_npc_tokens_give_the_players_no_sight_and_explore_nothing():
    t, scene, _ = _dungeon()
    _token(t, scene, "Goblin", x=100, y=300, free=True)
    assert Sight(t.state, ANY_PLAYER).points(t.state.map.scene(scene), [(150, 300)]) == [False]
    assert t.state.map.explored == ()


def test_a_ping_reaches_only_the_players_who_see_its_spot():
    from app.rules.map import signals

    t, scene, _ = _dungeon()
    _aria(t, scene)
    _token(t, scene, "Brick", x=800, y=300, free=True)
    ping = {"map.ping": {"scene": scene, "x": 900.0, "y": 100.0, "by": "GM"}}
    assert signals.visible_to(t.state, t.viewer("ben"), ping)
    assert not signals.visible_to(t.state, t.viewer("ann"), ping)
    with pytest.raises(RuleError, match="cannot see"):
        signals.build(t.state, t.viewer("ann"), "Ann", {"map.ping": {"x": 900, "y": 100}})


def test_a_hidden_characters_explored_area_is_not_shared_with_the_party():
    t, scene, _ = _dungeon()
    _token(t, scene, "Brick", x=800, y=300, free=True)
    t.do("gm", "campaign.set_hidden", participant=t.pid("Brick"), hidden=True)
    t.do("gm", "map.settings", share_explored=True)
    keep = t.state.map.scene(scene)
    assert not Sight(t.state, t.viewer("ann")).explored(keep).contains(shapely.Point(900, 100))
    assert Sight(t.state, t.viewer("ben")).explored(keep).contains(shapely.Point(900, 100))  # his own


def test_map_settings_recorded_at_v1_upcast_to_v2_and_replay_to_the_same_map():
    from app.rules.system import Event

    t = Table().cast()
    (new,) = t.do("gm", "map.settings", cover_new_scenes=True)
    old = Event(seq=new.seq, batch=new.batch, type=new.type, data={"cover_new_scenes": True}, version=1)
    assert old.version == 2 and old.data == {"cover_new_scenes": True}
    replayed = t.game.replay(None, [*t.events[:-1], old])
    assert replayed.map == t.state.map and replayed.map.cover_new_scenes
    assert t.game.describe(old) == "New scenes start under fog."


def test_the_table_sees_the_doors_in_sight_but_may_not_try_them():
    t, scene, door = _dungeon()
    _aria(t, scene, x=460, y=300)
    (seen,) = t.view("spec")["map"]["doors"]
    assert seen == {"id": door, "x": 500.0, "y": 300.0, "open": False, "usable": False}
    assert t.view("ann")["map"]["doors"][0]["usable"] is True


def test_a_token_is_seen_alone_as_among_all_the_tokens_of_its_scene():
    """`Sight.token` (asked of every player's sight for every move) answers as `Sight.tokens` does: own
    tokens, tokens in and out of sight, under fog, and a hidden marker."""
    t, scene, _ = _dungeon()
    _aria(t, scene)
    _token(t, scene, "Brick", x=800, y=300, free=True)
    _token(t, scene, "Goblin", x=900, y=200, free=True)
    _token(t, scene, label="Trap", x=150, y=250, free=True, hidden=True)
    _token(t, scene, label="Chest", x=200, y=350, free=True)
    _token(t, scene, label="Urn", x=300, y=300, free=True)
    t.do("gm", "map.fog.cover", scene=scene, rect=[280, 280, 40, 40])
    state, shown = t.state, t.state.map.scene(scene)
    answers = set()
    for who in ("ann", "ben", "gm"):
        sight = Sight(state, t.viewer(who))
        among = {tok.id for tok in sight.tokens(shown)}
        for tok in state.map.tokens:
            assert sight.token(tok) == (tok.id in among), (who, tok.label or tok.participant)
            answers.add(sight.token(tok))
    assert answers == {True, False}


def test_a_spot_asked_again_of_the_same_sight_is_remembered_and_a_door_opened_asks_anew(monkeypatch):
    """A push asks every player's sight about every token: only a spot not asked before is tested, and
    the answers are the sight's own (a door opened is another sight)."""
    t, scene, door = _dungeon()
    _aria(t, scene)
    spots = [(450.0, 300.0), (800.0, 300.0), (300.0, 550.0)]
    assert _sees(t, "ann", *spots) == [True, False, True]
    tested: list[object] = []
    real = shapely.intersects_xy
    monkeypatch.setattr(shapely, "intersects_xy", lambda *a: tested.append(a) or real(*a))
    assert _sees(t, "ann", *spots) == [True, False, True]
    assert tested == []  # every spot remembered with Aria's sight
    assert _sees(t, "ann", (450.0, 300.0), (100.0, 100.0)) == [True, True] and len(tested) == 1  # one new
    t.do("gm", "map.door.set", wall=door, open=True)
    assert _sees(t, "ann", *spots) == [True, True, True]  # the door open: the east room in sight
