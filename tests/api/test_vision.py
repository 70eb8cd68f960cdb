"""Sight from walls through the JSON API and the pages (issue 29): a player's phone is told what their
character sees and the doors in sight, never the walls or lights; it can open a door next to its token."""

from __future__ import annotations

import json

from tests.helpers import Seat, Table
from tests.mapping import scene_with_image

# The 400 x 300 dungeon: a wall down x = 200 with a door in it (y 100 to 200); the red room is east of it.
WALLS = ([[200, 0], [200, 100]], [[200, 200], [200, 300]])
DOOR = [[200, 100], [200, 200]]


def _keep(table: Table):
    ann = table.join("Ann")
    rook = table.character("Rook", owner=ann)
    scene, _ = scene_with_image(table)
    for points in WALLS:
        table.ok(table.gm, "map.wall.add", scene=scene, points=points)
    door = table.ok(table.gm, "map.wall.add", scene=scene, points=DOOR, kind="door")
    door_id = next(e for e in door["events"] if e["type"] == "map.wall_added")["data"]["wall"]["id"]
    table.ok(table.gm, "map.light.add", scene=scene, x=123.25, y=45.75, dim=80)
    table.ok(table.gm, "map.scene.update", scene=scene, vision=True)
    table.ok(table.gm, "map.token.place", scene=scene, x=170, y=150, participant=rook, free=True)
    table.ok(table.gm, "map.token.place", scene=scene, x=300, y=100, label="Ogre", free=True)
    return ann, scene, door_id


def test_a_phone_is_told_its_sight_and_doors_but_never_walls_lights_or_unseen_tokens(table: Table):
    ann, _, door = _keep(table)
    view = table.view(ann)["map"]
    sent = json.dumps(view) + json.dumps(table.events(ann))
    assert view["vision"] is True and view["sight"].startswith("M")
    assert [d["id"] for d in view["doors"]] == [door] and view["doors"][0]["usable"] is True
    assert "walls" not in view and "lights" not in view and "123.25" not in sent
    assert "Ogre" not in sent  # behind the closed door
    page = table.http.get(f"/c/{table.id}/play", headers={**ann.auth, "Accept": "text/html"}).text
    assert 'class="map-unseen"' in page and f'data-door="{door}"' in page and "Ogre" not in page
    gm = table.view(table.gm)["map"]
    assert gm["lights"][0]["x"] == 123.25 and len(gm["walls"]) == 3


def test_a_phone_opens_the_door_next_to_its_token_and_sees_the_room_beyond(table: Table):
    ann, _, door = _keep(table)
    reply = table.ok(ann, "map.door.set", wall=door, open=True)
    assert "Ogre" in json.dumps(reply["view"]["map"]["tokens"])
    assert any(e["type"] == "map.door_set" for e in table.events(ann))
    refused = table.send(ann, "map.door.set", wall=door, open=False, locked=True)
    assert refused.status_code == 403 and "GM" in refused.json()["detail"]


def test_the_tv_page_opened_by_a_player_sees_with_their_characters_and_the_tv_with_the_party(table: Table):
    ann, scene, _ = _keep(table)
    ben = table.join("Ben")
    scout = table.character("Scout", owner=ben)
    table.ok(table.gm, "map.token.place", scene=scene, x=320, y=150, participant=scout, free=True)

    def tv(seat) -> str:
        return table.http.get(f"/c/{table.id}/table", headers={**seat.auth, "Accept": "text/html"}).text

    # Ben's scout stands in the east room with the ogre; Ann's Rook is behind the closed door.
    assert "Ogre" not in json.dumps(table.view(ann)["map"])
    assert "Ogre" not in tv(ann)  # the TV's page on Ann's phone is no window into Ben's sight
    assert "Ogre" in tv(ben)
    r = table.http.post(f"/api/campaigns/{table.id}/watch", json={"code": table.spectator, "name": "TV"})
    assert r.status_code == 201, r.text
    assert "Ogre" in tv(Seat(r.json()["token"], r.json()["seat_id"], "TV"))  # the room's TV: the party's
