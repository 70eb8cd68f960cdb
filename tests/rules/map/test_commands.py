"""The map's deciders: who each event is for (issue 28: hidden means hidden), and the caps on a scene.

Driven through the registry's generic game in memory (the generic rules' harness), as the service does.
"""

from __future__ import annotations

import json

import pytest

from app.realtime.log import log_entries
from app.rules.errors import InputError, RuleError
from app.rules.map.commands import MAX_DRAWINGS, MAX_DRAWN_POINTS
from tests.rules.generic.test_generic_rules import Table

ASSET = "a" * 64


def _table() -> Table:
    t = Table().cast()
    _image(t, ASSET, 400, 300)
    return t


def _image(t: Table, asset: str, width: int, height: int) -> None:
    """An image recorded as the upload route records it (map.asset.add is the server's own command)."""
    record = {"asset": {"id": asset, "name": "crypt.png", "width": width, "height": height}}
    t._append([("map.asset_added", record, "gm")], "seat-gm")


def _scene(t: Table, show: bool = True, **fields) -> str:
    (made, *_) = t.do("gm", "map.scene.create", name=fields.pop("name", "Crypt"), asset=ASSET, **fields)
    scene = made.data["scene"]["id"]
    if show:
        t.do("gm", "map.scene.show", scene=scene)
    return scene


def _token(t: Table, scene: str, who: str | None = None, **fields) -> str:
    kind = {"participant": t.pid(who)} if who else {"label": fields.pop("label", "Chest")}
    events = t.do(
        "gm", "map.token.place", scene=scene, x=fields.pop("x", 75), y=fields.pop("y", 75), **kind, **fields
    )
    return next(e for e in events if e.type == "map.token_placed").data["token"]["id"]


def _seen_by(t: Table, who: str) -> str:
    """Everything a seat is handed of the log: its events' data and its log's lines."""
    viewer = t.viewer(who)
    events = t.game.visible(t.events, viewer, t.state)
    log = log_entries(t.game, t.state, t.events, viewer)
    return json.dumps([e.data for e in events]) + json.dumps([e["text"] for e in log])


# --- 2. fog strokes and drawings under fog ------------------------------------------------------


def test_fog_strokes_are_the_gms_alone():
    t = _table()
    scene = _scene(t)
    t.do("gm", "map.fog.cover", scene=scene, polygon=[[1.5, 2.5], [399.5, 2.5], [200.5, 299.5]])
    t.do("gm", "map.fog.reveal", scene=scene, rect=[10.25, 10.25, 50, 50])
    for who in ("ann", "spec"):
        assert "map.fog_covered" not in t.visible_types(who)
        assert "map.fog_revealed" not in t.visible_types(who)
        assert "399.5" not in _seen_by(t, who) and "10.25" not in _seen_by(t, who)
    assert "399.5" in _seen_by(t, "gm")


def test_a_drawing_under_fog_stays_the_gms_until_the_fog_lifts():
    t = _table()
    scene = _scene(t)
    t.do("gm", "map.fog.cover", scene=scene, rect=[200, 0, 200, 300])
    t.do("gm", "map.draw", scene=scene, points=[[250.5, 40.5], [300.5, 90.5]], color="#123456")
    t.do("gm", "map.draw", scene=scene, points=[[20, 20], [60, 60]], color="#abcdef")
    assert [e.audience for e in t.events if e.type == "map.drawn"] == ["gm", "all"]
    assert "#123456" not in _seen_by(t, "ann") and "250.5" not in _seen_by(t, "ann")
    assert "#123456" not in json.dumps(t.view("ann")["map"])
    assert "#abcdef" in _seen_by(t, "ann")  # the control: a drawing in the open reaches the players
    t.do("gm", "map.fog.reveal", scene=scene)
    assert "#123456" in json.dumps(t.view("ann")["map"])  # uncovered now: the drawing is theirs too


def test_erasing_a_drawing_under_fog_names_it_to_no_player():
    t = _table()
    scene = _scene(t)
    t.do("gm", "map.fog.cover", scene=scene, rect=[200, 0, 200, 300])
    (drawn,) = t.do("gm", "map.draw", scene=scene, points=[[250, 40], [300, 90]])
    (erased,) = t.do("gm", "map.erase", scene=scene, drawing=drawn.data["drawing"]["id"])
    assert erased.audience == "gm"


def test_a_fog_stroke_an_older_log_gave_everyone_is_still_the_gms():
    """Logs written before strokes were the GM's say "all": read today, the players get none."""
    t = _table()
    scene = _scene(t)
    t._append(
        [("map.fog_covered", {"scene": scene, "stroke": {"op": "cover", "rect": [1, 2, 3, 4]}}, "all")],
        "seat-gm",
    )
    assert "map.fog_covered" not in t.visible_types("ann")
    assert "map.fog_covered" in t.visible_types("gm")


# --- 1. an image's id never reaches a player --------------------------------------------------------


def test_swapping_a_shown_scenes_image_tells_the_players_nothing_of_the_image():
    t = _table()
    scene = _scene(t)
    other = "b" * 64
    _image(t, other, 500, 400)
    t.do("gm", "map.scene.update", scene=scene, asset=other)
    assert "map.scene_updated" in t.visible_types("ann")  # the change itself is public
    for who in ("ann", "spec"):
        assert other not in _seen_by(t, who) and ASSET not in _seen_by(t, who)
        assert other not in json.dumps(t.view(who)) and ASSET not in json.dumps(t.view(who))
    assert other in _seen_by(t, "gm")


# --- 3. hidden is one idea ------------------------------------------------------------------------


def test_hiding_a_characters_token_hides_the_character_everywhere():
    t = _table()
    scene = _scene(t)
    token = _token(t, scene, "Goblin")
    t.do(
        "gm",
        "generic.initiative.set",
        entries=[{"participant": "Goblin", "value": 20}, {"participant": "Aria", "value": 5}],
    )
    t.do("gm", "map.token.set", token=token, hidden=True)
    assert t.state.participant("Goblin").hidden
    t.do("gm", "generic.initiative.next")
    for who in ("ann", "spec"):
        text = _seen_by(t, who) + json.dumps(t.view(who))
        assert "Goblin" not in text, who
        assert t.view(who)["initiative"]["current"] is None  # its turn reads as the GM's
        assert [e["name"] for e in t.view(who)["initiative"]["entries"]] == ["Aria"]
    assert "Goblin" in json.dumps(t.view("gm"))
    # Revealed: what is public from then on appears, its token too.
    t.do("gm", "map.token.set", token=token, hidden=False)
    assert not t.state.participant("Goblin").hidden
    assert "Goblin" in json.dumps(t.view("ann")["map"]["tokens"])
    assert any(
        e["text"] == "Goblin appears!" for e in log_entries(t.game, t.state, t.events, t.viewer("ann"))
    )


def test_a_hidden_characters_token_is_hidden_and_placing_a_hidden_token_hides_its_character():
    t = _table()
    scene = _scene(t)
    t.do("gm", "campaign.set_hidden", participant="Goblin", hidden=True)
    _token(t, scene, "Goblin")
    assert "Goblin" not in _seen_by(t, "ann") + json.dumps(t.view("ann"))
    _token(t, scene, "Aria", x=125, y=125)
    t.do("gm", "campaign.add_participant", name="Ghoul", kind="npc")
    _token(t, scene, "Ghoul", x=175, hidden=True)
    assert t.state.participant("Ghoul").hidden
    assert "Ghoul" not in _seen_by(t, "ann") + json.dumps(t.view("ann"))  # "Ghoul (NPC) joins" too
    assert "Aria" in json.dumps(t.view("ann")["map"]["tokens"])  # the control


def test_an_older_log_that_hid_a_characters_token_alone_now_hides_the_character():
    t = _table()
    scene = _scene(t)
    token = _token(t, scene, "Goblin")
    t._append(
        [("map.token_changed", {"token": token, "changes": {"hidden": True}, "name": "Goblin"}, "all")],
        "seat-gm",
    )
    assert t.state.participant("Goblin").hidden
    assert t.state.map.token(token).hidden is False  # one flag, on the character
    assert "Goblin" not in json.dumps(t.view("ann"))


# --- 4. preparing is private ------------------------------------------------------------------------


def test_a_new_scene_and_everything_done_on_it_is_the_gms_until_shown():
    t = _table()
    scene = _scene(t, show=False, name="Lair")
    assert t.state.map.shown is None
    _token(t, scene, "Aria")  # even the token's own player learns nothing of an unshown scene
    _token(t, scene, label="Skeleton B", x=175)
    t.do("gm", "map.draw", scene=scene, points=[[10, 10], [50, 50]])
    for who in ("ann", "spec"):
        text = _seen_by(t, who) + json.dumps(t.view(who))
        assert "Lair" not in text and "Skeleton" not in text and "map.token_placed" not in text
        assert t.view(who)["map"]["scene"] is None
    t.do("gm", "map.scene.show", scene=scene)
    assert "Skeleton B" in json.dumps(t.view("ann")["map"]["tokens"])


def test_new_scenes_start_under_fog_when_the_campaign_says_so():
    t = _table()
    t.do("gm", "map.settings", cover_new_scenes=True)
    scene = _scene(t, show=False)
    assert t.state.map.scene(scene).fog[-1].op == "cover"
    assert t.view("gm")["map"]["cover_new_scenes"] is True
    uncovered = _scene(t, show=False, name="Open field", covered=False)
    assert t.state.map.scene(uncovered).fog == ()
    assert "map.settings_changed" not in t.visible_types("ann")
    assert t.refused("gm", "map.settings", cover_new_scenes=True).startswith("Nothing to change")


# --- 5. players act only on the shown scene --------------------------------------------------------


def test_a_player_cannot_move_their_token_on_a_scene_not_shown():
    t = _table()
    shown = _scene(t)
    hidden = _scene(t, show=False, name="Lair")
    secret = _token(t, hidden, "Aria")
    assert (
        t.refused("ann", "map.token.move", token=secret, x=125, y=125) == "There is no such token on the map."
    )
    mine = _token(t, shown, "Aria")
    t.do("ann", "map.token.move", token=mine, x=175, y=125)  # the control: on the shown scene, it moves


def test_a_players_move_off_the_map_does_not_tell_its_size():
    t = _table()
    mine = _token(t, _scene(t), "Aria")
    message = t.refused("ann", "map.token.move", InputError, token=mine, x=5000, y=10)
    assert message == "That spot is off the map." and "400" not in message
    assert "400 by 300" in t.refused("gm", "map.token.move", InputError, token=mine, x=5000, y=10)


# --- 9. caps ------------------------------------------------------------------------------------------


def test_a_scene_keeps_a_bounded_number_of_drawings_and_points():
    t = _table()
    scene = _scene(t)
    line = [[float(i % 400), float(i % 300)] for i in range(500)]
    for _ in range(MAX_DRAWN_POINTS // 500):
        t.do("gm", "map.draw", scene=scene, points=line)
    assert "at most" in t.refused("gm", "map.draw", scene=scene, points=[[1, 1], [2, 2]])
    t.do("gm", "map.erase", scene=scene)
    for _ in range(MAX_DRAWINGS):
        t.do("gm", "map.draw", scene=scene, points=[[1, 1], [2, 2]])
    assert f"at most {MAX_DRAWINGS} drawings" in t.refused(
        "gm", "map.draw", scene=scene, points=[[1, 1], [2, 2]]
    )


@pytest.mark.parametrize("op", ["cover", "reveal"])
def test_a_scene_keeps_a_bounded_number_of_fog_strokes(op):
    from app.rules.map.commands import MAX_FOG_STROKES

    t = _table()
    scene = _scene(t)
    t.do("gm", "map.fog.cover", scene=scene)
    for i in range(MAX_FOG_STROKES - 1):
        t.do("gm", "map.fog.reveal" if i % 2 else "map.fog.cover", scene=scene, rect=[i, i, 10, 10])
    with pytest.raises(RuleError, match="too many strokes"):
        t.do("gm", f"map.fog.{op}", scene=scene, rect=[300, 200, 10, 10])


def test_a_fog_outline_that_crosses_itself_is_refused_with_a_sentence():
    t = _table()
    scene = _scene(t)
    bowtie = [[0, 0], [100, 100], [100, 0], [0, 100]]
    assert "crosses itself" in t.refused("gm", "map.fog.cover", InputError, scene=scene, polygon=bowtie)
    t.do("gm", "map.fog.cover", scene=scene, polygon=[[0, 0], [100, 0], [100, 100], [0, 100]])  # the control
