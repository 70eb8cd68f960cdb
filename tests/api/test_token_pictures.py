"""Issue 30, item 1: token pictures. A picture is an image of the campaign (checked, re-encoded, small),
framed by a crop in the token's state; a player gives one to their own characters' tokens only, and every
viewer is sent only the framed square of it."""

from __future__ import annotations

import io

from PIL import Image

from app.services.rate_limits import LIMITS
from tests.helpers import Seat, Table
from tests.mapping import RED, dungeon_png, png, scene_with_image, upload


def _picture(table: Table, seat: Seat, data: bytes, name: str = "face.png"):
    return table.http.post(
        f"/api/campaigns/{table.id}/pictures",
        files={"file": (name, data, "application/octet-stream")},
        headers=seat.auth,
    )


def _face(width: int = 900, height: int = 600) -> bytes:
    """A wide picture: grey, with a red square on its right half (x 600-800, y 200-400)."""
    image = Image.new("RGB", (width, height), (200, 200, 200))
    image.paste(RED, (600, 200, 800, 400))
    return png(image)


def _setup(table: Table) -> tuple[Seat, Seat, str, str, str]:
    """A shown scene with two players' characters and an NPC on it: (ann, bob, ann's, bob's, npc's)."""
    scene, _ = scene_with_image(table)
    ann, bob = table.join("Ann"), table.join("Bob")
    tokens = []
    for name, owner in (("Aria", ann), ("Brom", bob), ("Goblin", None)):
        pid = table.character(name, owner, kind="npc" if owner is None else "pc")
        reply = table.ok(
            table.gm, "map.token.place", scene=scene, participant=pid, x=75, y=75 + 50 * len(tokens)
        )
        tokens.append(next(t["id"] for t in reply["view"]["map"]["tokens"] if t["participant"] == pid))
    return ann, bob, *tokens


def _token(view: dict, token_id: str) -> dict:
    return next(t for t in view["map"]["tokens"] if t["id"] == token_id)


def test_an_uploaded_picture_is_kept_small_as_webp(client, table: Table):
    r = _picture(table, table.gm, _face())
    assert r.status_code == 201, r.text
    body = r.json()
    assert (body["width"], body["height"]) == (512, 341)
    got = client.get(body["url"], headers=table.gm.auth)
    assert got.status_code == 200 and got.headers["content-type"] == "image/webp"
    assert Image.open(io.BytesIO(got.content)).size == (512, 341)


def test_the_gm_sets_a_framed_picture_and_every_viewer_gets_only_the_framed_square(client, table: Table):
    ann, _, _, _, goblin = _setup(table)
    pic = _picture(table, table.gm, _face()).json()
    # The red square is x 341-455, y 114-227 of the 512-wide picture: frame it.
    table.ok(
        table.gm, "map.token.picture", token=goblin, image=pic["id"], crop={"x": 345, "y": 118, "size": 105}
    )
    seen = _token(table.view(ann), goblin)
    assert "picture" in seen and pic["id"] not in seen["picture"] and "image" not in seen
    got = client.get(seen["picture"], headers=ann.auth)
    assert got.status_code == 200 and got.headers["content-type"] == "image/webp"
    square = Image.open(io.BytesIO(got.content)).convert("RGB")
    assert square.size == (105, 105)
    r, g, b = square.getpixel((52, 52))
    assert r > 180 and g < 80 and b < 80  # the red of the frame, nothing of the grey around it
    assert _token(table.view(table.gm), goblin)["crop"] == {"x": 345.0, "y": 118.0, "size": 105.0}
    # The whole picture stays the GM's.
    assert client.get(pic["url"], headers=ann.auth).status_code == 404
    # Cleared: initials again, and the square is no longer served.
    table.ok(table.gm, "map.token.picture", token=goblin, image=None)
    assert "picture" not in _token(table.view(ann), goblin)
    assert client.get(seen["picture"], headers=ann.auth).status_code == 404


def test_a_token_without_a_crop_shows_the_middle_of_its_picture(table: Table):
    _, _, aria, _, _ = _setup(table)
    pic = _picture(table, table.gm, _face()).json()
    table.ok(table.gm, "map.token.picture", token=aria, image=pic["id"])
    assert _token(table.view(table.gm), aria)["crop"] == {"x": 85.0, "y": 0.0, "size": 341.0}


def test_a_player_pictures_their_own_token_and_no_other(client, table: Table):
    ann, bob, aria, brom, _ = _setup(table)
    mine = _picture(table, ann, _face())
    assert mine.status_code == 201, mine.text
    pic = mine.json()
    assert client.get(pic["url"], headers=ann.auth).status_code == 200  # to frame it
    assert client.get(pic["url"], headers=bob.auth).status_code == 404
    table.ok(ann, "map.token.picture", token=aria, image=pic["id"], crop={"x": 10, "y": 10, "size": 200})
    own = _token(table.view(ann), aria)
    assert own["image"] == pic["id"] and own["crop"]["size"] == 200.0
    r = table.send(ann, "map.token.picture", token=brom, image=pic["id"])
    assert r.status_code == 403 and "own characters" in r.json()["detail"]
    assert "picture" not in _token(table.view(bob), brom)
    # Bob sees Aria's picture (the square), not the image to frame it.
    assert "picture" in _token(table.view(bob), aria) and "image" not in _token(table.view(bob), aria)
    r = table.send(bob, "map.token.picture", token=brom, image=pic["id"])
    assert r.status_code == 409 and r.json()["detail"].startswith("There is no such image in this campaign")
    # And Ann takes hers off.
    table.ok(ann, "map.token.picture", token=aria, image=None)
    assert "picture" not in _token(table.view(table.gm), aria)


def test_a_player_cannot_put_the_gms_images_on_their_token_and_learns_nothing_of_them(table: Table):
    ann, _, aria, _, goblin = _setup(table)
    secret = upload(table, dungeon_png(380, 290), name="the-lich-lair.png").json()
    npc_pic = _picture(table, table.gm, _face(), name="doppelganger.png").json()
    table.ok(table.gm, "map.token.picture", token=goblin, image=npc_pic["id"])
    for image in (secret["id"], npc_pic["id"], "0" * 64):
        r = table.send(ann, "map.token.picture", token=aria, image=image)
        assert r.status_code == 409
        detail = r.json()["detail"]
        assert detail == "There is no such image in this campaign. Upload the picture first."
    assert "picture" not in _token(table.view(ann), aria)


def test_a_players_upload_of_bytes_the_gm_has_makes_it_theirs_to_use(table: Table):
    ann, _, aria, _, _ = _setup(table)
    data = _face()
    pic = _picture(table, table.gm, data).json()
    assert _picture(table, ann, data).json()["id"] == pic["id"]
    table.ok(ann, "map.token.picture", token=aria, image=pic["id"])


def test_a_crop_past_the_picture_or_too_small_is_refused_with_a_sentence(table: Table):
    _, _, aria, _, _ = _setup(table)
    pic = _picture(table, table.gm, _face()).json()
    r = table.send(
        table.gm, "map.token.picture", token=aria, image=pic["id"], crop={"x": 400, "y": 0, "size": 200}
    )
    assert r.status_code == 422 and "reaches past the picture" in r.json()["detail"]
    r = table.send(
        table.gm, "map.token.picture", token=aria, image=pic["id"], crop={"x": -5, "y": 0, "size": 200}
    )
    assert r.status_code == 422
    r = table.send(table.gm, "map.token.picture", token=aria, image=None, crop={"x": 0, "y": 0, "size": 100})
    assert r.status_code == 422 and "give the picture too" in r.json()["detail"]
    assert "picture" not in _token(table.view(table.gm), aria)


def test_a_file_that_is_not_an_image_is_refused(table: Table):
    ann, *_ = _setup(table)
    r = _picture(table, ann, b"<svg xmlns='http://www.w3.org/2000/svg'/>", name="face.svg")
    assert r.status_code == 422 and "not a PNG, JPEG or WebP" in r.json()["detail"]
    assert not any(a.get("seats") for a in table.view(table.gm)["map"]["assets"])


def test_a_players_picture_uploads_spend_their_seats_upload_budget(table: Table):
    ann, bob, *_ = _setup(table)
    burst = int(LIMITS["uploads"].burst)
    codes = [
        _picture(table, ann, png(Image.new("RGB", (64, 64), (i, 2, 3)))).status_code for i in range(burst + 1)
    ]
    assert codes[:-1] == [201] * burst and codes[-1] == 429
    assert _picture(table, bob, png(Image.new("RGB", (64, 64), (9, 9, 9)))).status_code == 201


def test_a_spectator_uploads_no_picture(client, table: Table):
    r = client.post(f"/api/campaigns/{table.id}/watch", json={"code": table.spectator, "name": "TV"})
    assert r.status_code == 201, r.text
    seat = Seat(r.json()["token"], r.json()["seat_id"], "TV")
    r = _picture(table, seat, _face())
    assert r.status_code == 403 and "GM and the players" in r.json()["detail"]


def test_undo_gives_back_the_picture_before(table: Table):
    _, _, aria, _, _ = _setup(table)
    first = _picture(table, table.gm, _face()).json()
    second = _picture(table, table.gm, _face(800, 600)).json()
    table.ok(table.gm, "map.token.picture", token=aria, image=first["id"])
    table.ok(
        table.gm, "map.token.picture", token=aria, image=second["id"], crop={"x": 0, "y": 0, "size": 300}
    )
    table.ok(table.gm, "campaign.undo")
    assert _token(table.view(table.gm), aria)["image"] == first["id"]
    table.ok(table.gm, "campaign.undo")
    assert "picture" not in _token(table.view(table.gm), aria)


def test_deleting_an_image_takes_it_off_the_tokens_that_showed_it(table: Table):
    _, _, aria, _, _ = _setup(table)
    pic = _picture(table, table.gm, _face()).json()
    table.ok(table.gm, "map.token.picture", token=aria, image=pic["id"])
    r = table.http.delete(f"/api/campaigns/{table.id}/assets/{pic['id']}", headers=table.gm.auth)
    assert r.status_code == 204
    assert "picture" not in _token(table.view(table.gm), aria)


def test_a_player_cannot_reframe_a_picture_the_gm_gave_their_token_from_an_image_not_theirs(table: Table):
    """The GM frames one small square of a map image on a player's token: the player may take it off,
    but framing another square of it would read the rest of the GM's image, square by square."""
    ann, _, aria, _, _ = _setup(table)
    secret = upload(table, dungeon_png(380, 290), name="the-lich-lair.png").json()
    table.ok(table.gm, "map.token.picture", token=aria, image=secret["id"], crop={"x": 0, "y": 0, "size": 40})
    before = _token(table.view(ann), aria)["picture"]
    r = table.send(
        ann, "map.token.picture", token=aria, image=secret["id"], crop={"x": 200, "y": 150, "size": 120}
    )
    assert r.status_code == 409
    assert r.json()["detail"] == "There is no such image in this campaign. Upload the picture first."
    assert _token(table.view(ann), aria)["picture"] == before
    table.ok(ann, "map.token.picture", token=aria, image=None)  # taking it off is still theirs


def test_a_pictures_image_and_frame_reach_no_player_in_its_event(table: Table):
    """A player's log and sockets read a token's new picture as the view does: changed, never the id of
    the GM's image nor its frame."""
    ann, bob, aria, _, goblin = _setup(table)
    secret = upload(table, dungeon_png(380, 290), name="the-lich-lair.png").json()
    table.ok(table.gm, "map.token.picture", token=aria, image=secret["id"], crop={"x": 0, "y": 0, "size": 40})
    table.ok(table.gm, "map.token.picture", token=goblin, image=secret["id"])
    for seat in (ann, bob):
        events = [e for e in table.events(seat) if e["type"] == "map.token_changed"]
        assert events, "the players read that the tokens changed"
        text = repr(events)
        assert secret["id"] not in text and "crop" not in text


def test_a_tokens_sight_reaches_no_player_in_its_event(table: Table):
    """A token's sight (how far it sees in the dark) is the GM's preparation, as the view keeps it."""
    ann, _, aria, _, _ = _setup(table)
    table.ok(table.gm, "map.token.set", token=aria, sight={"range": 700, "darkvision": 420})
    events = [e for e in table.events(ann) if e["type"] == "map.token_changed"]
    # Its data, not its stamp: a time such as 18:50:46.420642 holds "420" too.
    told = repr([e["data"] for e in events])
    assert events and "darkvision" not in told and "420" not in told
    assert "sight" not in _token(table.view(ann), aria)
