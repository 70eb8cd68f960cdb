"""Issue 30, item 2: a token's side at a glance, read from what the view holds already (so the views of
recorded logs stay as they were); and token pictures that leave a dump as it was while a token has none."""

from __future__ import annotations

from app.realtime.looks import DEFAULT_COLOR, FILLS, GM_RING, PALETTE, seat_colours, token_looks
from app.rules.map.state import Asset, Crop, Token


def _view(*tokens: dict, revoked: bool = False) -> dict:
    return {
        "seats": [
            {"id": "gm1", "role": "gm"},
            {"id": "s-gone", "role": "player", "revoked": revoked},
            {"id": "s-ann", "role": "player"},
            {"id": "s-bob", "role": "player"},
            {"id": "tv", "role": "spectator"},
        ],
        "participants": [
            {"id": "p-rook", "kind": "pc", "owner": "s-ann"},
            {"id": "p-brom", "kind": "pc", "owner": "s-bob"},
            {"id": "p-sidekick", "kind": "pc", "owner": None},
            {"id": "p-goblin", "kind": "npc", "owner": None},
        ],
        "map": {"tokens": list(tokens)},
    }


def _t(token_id: str, participant: str | None = None, color: str = DEFAULT_COLOR) -> dict:
    return {"id": token_id, "participant": participant, "color": color}


def test_each_player_seat_has_its_own_colour_by_the_order_seats_joined():
    colours = seat_colours(_view(revoked=True))
    assert colours == {"s-ann": PALETTE[0], "s-bob": PALETTE[1]}  # the revoked seat and others left out
    assert seat_colours(_view())["s-ann"] == PALETTE[1]


def test_pcs_are_ringed_in_their_players_colour_npcs_are_red_and_markers_grey():
    looks = token_looks(
        _view(_t("t1", "p-rook"), _t("t2", "p-brom"), _t("t3", "p-goblin"), _t("t4"), _t("t5", "p-sidekick"))
    )
    assert looks["t1"] == {"side": "pc", "fill": FILLS["pc"], "ring": PALETTE[1]}
    assert looks["t2"]["ring"] == PALETTE[2] != looks["t1"]["ring"]
    assert looks["t3"] == {"side": "npc", "fill": FILLS["npc"], "ring": ""}
    assert looks["t4"] == {"side": "marker", "fill": FILLS["marker"], "ring": ""}
    assert looks["t5"]["ring"] == GM_RING  # a character the GM plays


def test_a_colour_the_gm_picked_wins_over_the_sides_colour():
    looks = token_looks(_view(_t("t3", "p-goblin", "#2e8b57"), _t("t4", None, "#123456")))
    assert looks["t3"]["fill"] == "#2e8b57" and looks["t3"]["side"] == "npc"
    assert looks["t4"]["fill"] == "#123456"


def test_a_token_or_an_image_without_a_picture_dumps_as_before_pictures():
    token = Token(id="t1", scene="s1", x=1, y=2)
    assert set(token.model_dump()) == {
        "id",
        "scene",
        "x",
        "y",
        "participant",
        "label",
        "color",
        "size",
        "hidden",
        "locked",
    }
    pictured = token.model_copy(update={"image": "a" * 64, "crop": Crop(x=1, y=2, size=30)})
    assert pictured.model_dump()["crop"] == {"x": 1, "y": 2, "size": 30}
    assert "seats" not in Asset(id="a" * 64, width=4, height=4).model_dump()
    assert Asset(id="a" * 64, width=4, height=4, seats=("s1",)).model_dump()["seats"] == ("s1",)
