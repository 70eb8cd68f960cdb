"""Triptycho's section map and 5x5's tabletop are drawn in the shared map frame on every page, over the
shown scene's image when there is one: the players' pages get the image with the fog blanked, never the
GM's full image; the GM may switch the map area between the board and the scene behind it."""

from __future__ import annotations

import re

import pytest

from tests.boards import aria_table, in_the_cave
from tests.helpers import Table
from tests.mapping import RED_ROOM, scene_with_image


def page(client, table: Table, seat, path: str) -> str:
    client.cookies.clear()
    client.cookies.set(f"fray_{table.id}", seat.token)
    r = client.get(f"/c/{table.id}/{path}")
    assert r.status_code == 200
    return r.text


BACKDROP = re.compile(
    r'<image class="board-backdrop" href="([^"]+)"\s+'
    r'x="([^"]+)"\s+y="([^"]+)"\s+width="([^"]+)"\s+height="([^"]+)"'
)


def frame_of(html: str, kind: str) -> str:
    m = re.search(rf'<div class="mapframe board-frame" data-kind="{kind}".*?</svg>', html, re.S)
    assert m, f"no {kind} board frame"
    return m.group(0)


@pytest.fixture
def crypt(client) -> Table:
    table = in_the_cave(aria_table(client))
    table.ok(table.gm, "triptycho.add", name="Lurker", side="foes", sections=["floor"])  # dark: unseen
    return table


def test_triptycho_draws_its_sections_in_the_map_frame_over_the_scene_image(client, crypt: Table):
    ann = crypt.players["Ann"]
    scene, asset = scene_with_image(crypt, size=25, offset=[10, 20])
    crypt.ok(crypt.gm, "map.fog.cover", scene=scene, rect=list(RED_ROOM))
    gm = page(client, crypt, crypt.gm, "gm")
    board = frame_of(gm, "triptycho")
    assert 'data-board="triptycho"' in board and 'data-section="floor"' in board and "data-ping" in board
    # One scene cell (25 px) is one square; the grid's offset shifts the image the other way.
    backdrop = BACKDROP.search(board)
    assert backdrop and backdrop.group(1) == f"/api/campaigns/{crypt.id}/assets/{asset['id']}"
    assert [float(v) for v in backdrop.groups()[1:]] == [-0.4, -0.8, 16.0, 12.0]
    assert 'class="tp-board over-image"' in board and "Lurker" in board
    # The GM may switch to the scene behind the board (to line up its grid and paint fog).
    assert 'data-stage-view="board"' in gm and 'data-stage-view="scene"' in gm
    assert 'class="scene-view"' in gm and 'data-kind="scene"' in gm

    phone = page(client, crypt, ann, "play")
    board = frame_of(phone, "triptycho")
    href = re.search(r'<image class="board-backdrop" href="([^"]+)"', board).group(1)
    assert href.startswith(f"/api/campaigns/{crypt.id}/scenes/{scene}/image?v=")  # blanked under fog
    assert asset["id"] not in phone  # the full image is never named on a player's page
    assert 'data-kind="scene"' not in phone  # the board is the map area; no second map
    assert "Lurker" not in board

    table_view = client.get(f"/c/{crypt.id}/watch/{crypt.spectator}", follow_redirects=True).text
    assert 'data-kind="triptycho"' in frame_of(table_view, "triptycho")


def test_triptycho_without_a_map_on_the_table_shows_the_scene_instead(client):
    table = Table.create(client, system="triptycho")
    scene, _ = scene_with_image(table)
    gm = page(client, table, table.gm, "gm")
    assert 'data-kind="triptycho"' not in gm and f'data-scene="{scene}"' in gm
    assert "data-stage-view" not in gm


def test_the_5x5_tabletop_is_drawn_in_the_map_frame_in_inches_over_the_scene(client):
    table = Table.create(client, system="fivebyfive")
    ann = table.join("Ann")
    bare = page(client, table, ann, "play")
    board = frame_of(bare, "fivebyfive")
    assert "board-backdrop" not in board and 'class="fx-map"' in board
    assert 'data-full="-0.5 -0.5' in board and 'data-frame-zoom="in"' in bare

    scene, _ = scene_with_image(table, size=50)  # 400 x 300 px: 8 x 6 inches of tabletop
    phone = page(client, table, ann, "play")
    board = frame_of(phone, "fivebyfive")
    backdrop = BACKDROP.search(board)
    assert backdrop.group(1).startswith(f"/api/campaigns/{table.id}/scenes/{scene}/image")
    assert [float(v) for v in backdrop.groups()[1:]] == [0.0, 0.0, 8.0, 6.0]
