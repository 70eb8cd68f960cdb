"""Pings on a game's own board (Triptycho's sections, 5x5's tabletop), through the shared map frame's
signal: relayed, never logged, and refused for a spot the pinging player's characters cannot see."""

from __future__ import annotations

import pytest

from tests.boards import aria_table, centre_of, in_the_cave
from tests.helpers import Table


@pytest.fixture
def cave(client) -> Table:
    return aria_table(client)


def ping(table: Table, seat, body: dict) -> object:
    return table.http.post(f"/api/campaigns/{table.id}/signals", json={"map.ping": body}, headers=seat.auth)


def test_a_triptycho_ping_needs_a_board_and_a_spot_the_players_characters_see(cave: Table):
    ann = cave.players["Ann"]
    no_board = ping(cave, ann, {"board": "triptycho", "x": 1, "y": 1})
    assert no_board.status_code == 409 and "no board" in no_board.json()["detail"]

    in_the_cave(cave)
    seq = cave.view(cave.gm)["campaign"]["seq"]
    x, y = centre_of(cave, ann, seen=True)
    r = ping(cave, ann, {"board": "triptycho", "x": x, "y": y})
    assert r.status_code == 202
    assert r.json() == {"map.ping": {"board": "triptycho", "x": x, "y": y, "by": "Ann"}}

    dark_x, dark_y = centre_of(cave, ann, seen=False)
    unseen = ping(cave, ann, {"board": "triptycho", "x": dark_x, "y": dark_y})
    assert unseen.status_code == 409 and "cannot see" in unseen.json()["detail"]
    assert ping(cave, cave.gm, {"board": "triptycho", "x": dark_x, "y": dark_y}).status_code == 202

    wrong = ping(cave, ann, {"board": "fivebyfive", "x": x, "y": y})
    assert wrong.status_code == 422 and "not this game's" in wrong.json()["detail"]
    junk = ping(cave, ann, {"board": "triptycho", "x": "left", "y": y})
    assert junk.status_code == 422 and "numbers" in junk.json()["detail"]
    assert cave.view(cave.gm)["campaign"]["seq"] == seq  # pings are never logged


def test_a_5x5_tabletop_ping_goes_anywhere_on_the_table(client):
    table = Table.create(client, system="fivebyfive")
    ann = table.join("Ann")
    r = ping(table, ann, {"board": "fivebyfive", "x": 3.5, "y": 7})
    assert r.status_code == 202
    assert r.json()["map.ping"] == {"board": "fivebyfive", "x": 3.5, "y": 7.0, "by": "Ann"}


def test_a_game_without_a_board_of_its_own_refuses_a_board_ping(client):
    table = Table.create(client, system="trinity")
    r = ping(table, table.gm, {"board": "trinity", "x": 1, "y": 1})
    assert r.status_code == 409 and "no board" in r.json()["detail"]
