"""Sight from walls on a real phone (issue 29): the phone dims what its character does not see now and
shows the door in sight; a tap on the door opens it, and the room beyond, with its ogre, appears without a
reload. The walls and the ogre behind the closed door are never on the page."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from tests.e2e.test_map import PHONE
from tests.helpers import Table
from tests.mapping import scene_with_image

WALLS = ([[200, 0], [200, 100]], [[200, 200], [200, 300]])
DOOR = [[200, 100], [200, 200]]


def test_a_phone_taps_the_door_next_to_its_token_and_sees_the_room_beyond(
    browser, live_server, live_http, artifacts: Path
):
    table = Table.create(live_http, name="Keep")
    ann = table.join("Ann")
    rook = table.character("Rook", owner=ann)
    scene, _ = scene_with_image(table)
    for points in WALLS:
        table.ok(table.gm, "map.wall.add", scene=scene, points=points)
    table.ok(table.gm, "map.wall.add", scene=scene, points=DOOR, kind="door")
    table.ok(table.gm, "map.scene.update", scene=scene, vision=True)
    table.ok(table.gm, "map.token.place", scene=scene, x=170, y=150, participant=rook, free=True)
    table.ok(table.gm, "map.token.place", scene=scene, x=300, y=100, label="Ogre", free=True)

    phone_ctx = browser.new_context(**PHONE, base_url=live_server.url)
    phone = phone_ctx.new_page()
    phone.goto(f"/c/{table.id}/seat/{ann.token}")
    expect(phone.locator("#live-pill")).to_have_text("live")
    expect(phone.locator(".mapframe .token.mine")).to_have_count(1)
    expect(phone.locator(".mapframe .map-unseen")).to_have_count(1)
    door = phone.locator(".mapframe .door.usable")
    expect(door).to_have_count(1)
    expect(phone.locator(".mapframe .token[data-name='Ogre']")).to_have_count(0)
    phone.screenshot(path=str(artifacts / "vision-phone-door-closed.png"))

    door.tap()
    expect(phone.locator(".mapframe .token[data-name='Ogre']")).to_have_count(1)
    expect(phone.locator(".mapframe .door.open")).to_have_count(1)
    phone.screenshot(path=str(artifacts / "vision-phone-door-open.png"))
    phone_ctx.close()
