"""The map's images in the rules: image keys by content, commands only the server makes, deleting."""

from __future__ import annotations

import pytest

from app.rules.campaign.state import CampaignState, SeatInfo
from app.rules.dice import ManualRoller
from app.rules.errors import InputError, RuleError
from app.rules.game import Game
from app.rules.generic import SYSTEM as GENERIC
from app.rules.map.fog import fog_key, image_key
from app.rules.map.state import Asset, FogOp, MapState, Scene
from app.rules.system import Ctx, Event, Viewer

A, B = "a" * 64, "b" * 64
GM = Viewer(seat_id="gm", role="gm")


def test_an_image_key_follows_the_content_and_names_no_asset():
    cover = (FogOp(op="cover"), FogOp(op="reveal", rect=(0, 0, 10, 10)))
    same = (FogOp(op="cover"), FogOp(op="reveal", rect=(0, 0, 10, 10)))
    assert image_key(A, cover) == image_key(A, same) and fog_key(cover) == fog_key(same)
    assert image_key(A, cover) != image_key(B, cover)
    assert image_key(A, cover) != image_key(A, cover[:1])  # an undo's fog is other content, another key
    assert A[:8] not in image_key(A, cover)


def test_a_scenes_fog_key_is_kept_with_the_scene_for_its_fog():
    cover = (FogOp(op="cover"),)
    scene = Scene(id="s1", name="Crypt", asset=A, width=40, height=30, fog=cover)
    assert image_key(A, scene.fog, scene) == image_key(A, cover)
    assert scene.__dict__["_fog_key"].value == fog_key(cover)
    revealed = scene.model_copy(update={"fog": ()})  # the copy carries the kept key: not for its fog
    assert image_key(A, revealed.fog, revealed) == image_key(A, ()) != image_key(A, cover)
    assert image_key(A, scene.fog, scene) == image_key(A, cover)


def _state(*scenes: Scene) -> CampaignState:
    assets = (Asset(id=A, name="crypt", width=40, height=30), Asset(id=B, width=40, height=30))
    return CampaignState(
        id="c",
        name="C",
        system="generic",
        seq=5,
        seats=(SeatInfo(id="gm", name="GM", role="gm"),),
        map=MapState(assets=assets, scenes=scenes),
    )


def test_a_client_cannot_send_the_commands_only_the_server_makes():
    game = Game(GENERIC)
    for payload in (
        {"type": "map.asset.add", "asset": A, "width": 4, "height": 4},
        {"type": "map.asset.remove", "asset": A},
    ):
        with pytest.raises(InputError, match="not sent as a command"):
            game.parse(payload)
        spec, _ = game.parse(payload, internal=True)
        assert spec.internal


def test_an_image_a_scene_uses_is_not_deleted():
    game = Game(GENERIC)
    state = _state(Scene(id="s1", name="Crypt", asset=A, width=40, height=30))
    _, command = game.parse({"type": "map.asset.remove", "asset": A}, internal=True)
    ctx = Ctx(roller=ManualRoller(()), actor=GM)
    with pytest.raises(RuleError, match="Scene Crypt uses that image"):
        game.decide(state, command, ctx)
    _, other = game.parse({"type": "map.asset.remove", "asset": B}, internal=True)
    [event] = game.decide(state, other, ctx)
    assert event.type == "map.asset_removed" and event.audience == "gm"


def test_a_deleted_image_leaves_every_scene_that_an_undo_gave_it_back_to():
    game = Game(GENERIC)
    state = _state(Scene(id="s1", name="Crypt", asset=A, width=40, height=30))
    gone = game.evolve(
        state, Event(seq=6, batch=6, type="map.asset_removed", data={"asset": A, "name": "crypt"})
    )
    assert [a.id for a in gone.map.assets] == [B]
    assert gone.map.scene("s1").asset is None and gone.map.scene("s1").width == 40
    assert gone.undo_stack == state.undo_stack  # not undoable: its bytes may be gone
