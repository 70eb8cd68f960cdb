"""Sight from walls in a real browser (issue 29): the GM draws walls, a door and lights with the tools,
by mouse; "see as" shows exactly what one player's phone is sent; and a phone walks a corridor, taps a
door open and sees the next room appear."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw
from playwright.sync_api import Page, expect

from tests.e2e.test_map import PHONE, screen_point, touches
from tests.helpers import Seat, Table
from tests.mapping import png, upload

CELL = 50
# A 900x500 dungeon: room A (x 50-300, y 50-300), a corridor east (y 150-200) with a door at x 450, and
# room B (x 550-850, y 50-450) where a goblin waits in the far corner.
ROOM_A, ROOM_B = (50, 50, 300, 300), (550, 50, 850, 450)
CORRIDOR = (300, 150, 550, 200)
DOOR = [[450, 150], [450, 200]]
WALLS = [
    [[300, 150], [300, 50], [50, 50], [50, 300], [300, 300], [300, 200]],  # room A, open to the corridor
    [[300, 150], [550, 150], [550, 50], [850, 50], [850, 450], [550, 450], [550, 200], [300, 200]],
]


def dungeon() -> bytes:
    image = Image.new("RGB", (900, 500), (30, 30, 34))
    draw = ImageDraw.Draw(image)
    for box, colour in ((ROOM_A, (170, 160, 140)), (CORRIDOR, (150, 150, 150)), (ROOM_B, (60, 140, 70))):
        draw.rectangle(box, fill=colour)
    return png(image)


def crypt(table: Table, walls: bool = True, door: bool = True) -> str:
    """A shown scene over the dungeon, vision on, lit; with its walls and the corridor's door."""
    r = upload(table, dungeon())
    assert r.status_code == 201, r.text
    grid = {"type": "square", "size": CELL}
    reply = table.ok(table.gm, "map.scene.create", name="Crypt", asset=r.json()["id"], grid=grid, show=True)
    scene = reply["view"]["map"]["scene"]
    if walls:
        for points in WALLS:
            table.ok(table.gm, "map.wall.add", scene=scene, points=points, kind="wall")
    if door:
        table.ok(table.gm, "map.wall.add", scene=scene, points=DOOR, kind="door", closed=True)
    return scene


def place(table: Table, scene: str, x: float, y: float, **who: Any) -> str:
    reply = table.ok(table.gm, "map.token.place", scene=scene, x=x, y=y, **who)
    tokens = reply["view"]["map"]["tokens"]
    return next(t["id"] for t in tokens if abs(t["x"] - x) < CELL / 2 and abs(t["y"] - y) < CELL / 2)


def gm_page(browser, live_server, table: Table) -> Page:
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=live_server.url)
    gm = ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(gm.locator("#live-pill")).to_have_text("live")
    expect(gm.locator("#map .map-image")).to_have_count(1)
    return gm


def phone_page(browser, live_server, table: Table, seat: Seat) -> Page:
    phone = browser.new_context(**PHONE, base_url=live_server.url).new_page()
    phone.goto(f"/c/{table.id}/seat/{seat.token}")
    expect(phone.locator("#live-pill")).to_have_text("live")
    return phone


def gm_map(table: Table) -> dict[str, Any]:
    return table.view(table.gm)["map"]


def click(page: Page, x: float, y: float, **kw: Any) -> None:
    page.mouse.click(*screen_point(page, x, y), **kw)


def sight_box(page: Page) -> dict[str, float]:
    """The bounding box of what the phone's tokens see now (its `sight` path), in image pixels."""
    return page.evaluate(
        "(() => { const b = document.querySelector('.mapframe .map-vision path.sight').getBBox();"
        " return {x: b.x, y: b.y, right: b.x + b.width, bottom: b.y + b.height}; })()"
    )


def test_the_gm_draws_walls_a_door_and_lights_with_the_mouse(
    browser, live_server, live_http, artifacts: Path
):
    table = Table.create(live_http, name="Walls by hand")
    ann = table.join("Ann")
    rook_id = table.character("Rook", owner=ann)
    scene = crypt(table, walls=False, door=False)
    gm = gm_page(browser, live_server, table)

    # A wall of three corners: clicks a little off the grid's corners snap onto them; a double-click ends it.
    gm.locator("[data-tool='wall']").click()
    expect(gm.locator("#wall-kind")).to_be_visible()
    click(gm, 103, 96)
    click(gm, 301, 304)
    gm.keyboard.press("Backspace")  # a corner misplaced, taken back
    click(gm, 196, 104)
    expect(gm.locator(".wall-draft polyline")).to_have_count(1)  # drawn as it goes
    expect(gm.locator("[data-wall-end]")).to_be_visible()
    gm.mouse.dblclick(*screen_point(gm, 204, 197))
    expect(gm.locator(".map-walls .wall.kind-wall")).to_have_count(1)
    walls = gm_map(table)["walls"]
    assert [w["points"] for w in walls] == [[[100, 100], [200, 100], [200, 200]]], walls
    assert walls[0]["kind"] == "wall"
    expect(gm.locator(".wall-draft")).to_have_count(0)

    # A window, placed freely with Alt held, ended with the button.
    gm.locator("#wall-kind").select_option("window")
    gm.keyboard.down("Alt")
    click(gm, 310, 110)
    click(gm, 390, 110)
    gm.keyboard.up("Alt")
    gm.locator("[data-wall-end]").click()
    expect(gm.locator(".map-walls .wall.kind-window")).to_have_count(1)
    window = next(w for w in gm_map(table)["walls"] if w["kind"] == "window")
    assert abs(window["points"][0][0] - 310) < 2 and abs(window["points"][1][0] - 390) < 2, window

    # A door from its two ends, with the door tool: closed, shown as a button at its middle.
    gm.locator("[data-tool='door']").click()
    click(gm, 451, 148)
    click(gm, 449, 202)
    icon = gm.locator(".map-doors .door-icon")
    expect(icon).to_have_count(1)
    door = next(w for w in gm_map(table)["walls"] if w["kind"] == "door")
    assert door["points"] == [[450, 150], [450, 200]] and not door["open"], door

    # The GM clicks the door (with the move tool) to open it, and again to close it.
    gm.locator("[data-tool='move']").click()
    icon.click()
    expect(gm.locator(".map-doors .door-icon.open")).to_have_count(1)
    assert next(w for w in gm_map(table)["walls"] if w["kind"] == "door")["open"] is True
    # With the door tool, a click on a door locks it.
    gm.locator("[data-tool='door']").click()
    gm.locator(".map-doors .door-icon").click()
    expect(gm.locator(".map-doors .door-icon.locked")).to_have_count(1)
    assert next(w for w in gm_map(table)["walls"] if w["kind"] == "door")["locked"] is True

    # Two lights: radii in cells become pixels.
    gm.locator("[data-tool='light']").click()
    gm.locator("#light-bright").fill("2")
    gm.locator("#light-dim").fill("4")
    click(gm, 175, 175)
    click(gm, 700, 250)
    expect(gm.locator(".map-lights .light")).to_have_count(2)
    lights = gm_map(table)["lights"]
    assert sorted((round(li["x"]), li["bright"], li["dim"]) for li in lights) == [
        (175, 2 * CELL, 4 * CELL),
        (700, 2 * CELL, 4 * CELL),
    ], lights
    gm.screenshot(path=str(artifacts / "walls-gm-tools.png"))

    # The eraser takes a light away; Undo brings it back.
    gm.locator("[data-tool='wall-erase']").click()
    click(gm, 700, 250)
    expect(gm.locator(".map-lights .light")).to_have_count(1)
    gm.locator("#undo button[type=submit]").click()
    expect(gm.locator(".map-lights .light")).to_have_count(2)
    # ...and a wall, clicked on its line.
    click(gm, 150, 100)
    expect(gm.locator(".map-walls .wall.kind-wall")).to_have_count(0)
    assert not [w for w in gm_map(table)["walls"] if w["kind"] == "wall"]

    # The vision form: on, in the dark; a token's darkvision from the token actions.
    gm.locator("[data-tool='move']").click()
    gm.locator(".map-vision-form summary").click()
    gm.locator(".map-vision-form [name=vision]").check()
    gm.locator(".map-vision-form [name=ambient]").select_option("dark")
    gm.get_by_role("button", name="Set vision").click()
    expect(gm.locator(".map-vision-form summary")).to_contain_text("on, dark")
    m = gm_map(table)
    assert m["vision"] is True and m["ambient"] == "dark"
    gm.locator(".map-vision-form [name=players_open_doors]").uncheck()
    gm.locator(".map-vision-form").get_by_role("button", name="Save").click()
    expect(gm.locator("#flash")).to_contain_text("Saved")
    settings = [e["data"] for e in table.events(table.gm) if e["type"] == "map.settings_changed"]
    assert settings[-1].get("players_open_doors") is False and "share_explored" not in settings[-1], settings
    place(table, scene, 125, 225, participant=rook_id)
    gm.locator(".mapframe .token[data-name='Rook']").click()
    gm.locator("[data-token-sight] [name=darkvision]").fill("3")
    gm.get_by_role("button", name="Set sight").click()
    expect(gm.locator("#flash")).to_contain_text("Sight set")
    changed = [e for e in table.events(table.gm) if e["type"] == "map.token_changed"]
    assert changed and changed[-1]["data"]["changes"]["sight"] == {"range": None, "darkvision": 3 * CELL}
    gm.screenshot(path=str(artifacts / "walls-gm-vision.png"))
    gm.context.close()


def test_see_as_shows_exactly_what_the_players_phone_is_sent(
    browser, live_server, live_http, artifacts: Path
):
    table = Table.create(live_http, name="See as")
    ann = table.join("Ann")
    rook = table.character("Rook", owner=ann)
    scene = crypt(table)
    table.ok(table.gm, "map.scene.update", scene=scene, vision=True)
    place(table, scene, 125, 175, participant=rook)
    place(table, scene, 825, 425, label="Goblin")  # in room B, behind the closed door
    gm = gm_page(browser, live_server, table)
    expect(gm.locator(".mapframe .token")).to_have_count(2)  # the GM sees both

    gm.locator("#see-as").select_option(label="Ann")
    bar = gm.locator(".see-as-bar")
    expect(bar).to_contain_text("Seeing as Ann")
    seen = gm.frame_locator(".see-as-view iframe")
    expect(seen.locator(".mapframe .token[data-name='Rook']")).to_have_count(1)
    expect(seen.locator(".mapframe .map-vision path.sight")).to_have_count(1)
    expect(seen.locator(".mapframe .token[data-name='Goblin']")).to_have_count(0)
    assert "Goblin" not in seen.locator("html").inner_html()
    expect(gm.locator("#map .mapframe")).to_be_hidden()  # the GM's own map is out of the way, not under it
    gm.screenshot(path=str(artifacts / "walls-see-as.png"))

    # The phone page it shows is the phone's own (its live socket): the door opening reaches it.
    table.ok(table.gm, "map.door.set", wall=door_id(table), open=True)
    table.ok(table.gm, "map.token.move", token=token_of(table, "Rook"), x=525, y=175)
    expect(seen.locator(".mapframe .token[data-name='Goblin']")).to_have_count(1)

    bar.get_by_role("button", name="Back to the GM's view").click()
    expect(gm.locator(".see-as-view")).to_have_count(0)
    expect(gm.locator("#map .mapframe")).to_be_visible()
    # The preview's own "back" link closes the view too, rather than opening a console inside it.
    gm.locator("#see-as").select_option(label="Ann")
    gm.frame_locator(".see-as-view iframe").get_by_role("link", name="Back to the GM console").click()
    expect(gm.locator(".see-as-view")).to_have_count(0)
    expect(gm.locator("#see-as")).to_have_value("")
    gm.context.close()


def door_id(table: Table) -> str:
    return next(w["id"] for w in gm_map(table)["walls"] if w["kind"] == "door")


def token_of(table: Table, name: str) -> str:
    return next(t["id"] for t in gm_map(table)["tokens"] if t["name"] == name)


def test_a_phone_walks_the_corridor_opens_the_door_and_sees_the_next_room(
    browser, live_server, live_http, artifacts: Path
):
    table = Table.create(live_http, name="The corridor")
    ann = table.join("Ann")
    rook = table.character("Rook", owner=ann)
    scene = crypt(table)
    table.ok(table.gm, "map.scene.update", scene=scene, vision=True)
    token = place(table, scene, 125, 175, participant=rook)
    place(table, scene, 825, 425, label="Goblin")
    phone = phone_page(browser, live_server, table, ann)
    mine = phone.locator(".mapframe .token.mine")
    expect(mine).to_have_count(1)
    expect(phone.locator(".mapframe .token")).to_have_count(1)  # the goblin is not even in the page
    assert "Goblin" not in phone.content()
    expect(phone.locator(".mapframe .map-vision path.sight")).to_have_count(1)
    start = sight_box(phone)
    assert start["right"] <= 451, start  # room A and the corridor up to the closed door
    tiles = ".mapframe .map-tile"  # the phone's explored image, in tiles named by their content
    expect(phone.locator(".mapframe .map-image")).to_have_count(0)
    image = set(phone.locator(tiles).evaluate_all("els => els.map(e => e.getAttribute('href'))"))
    assert image
    phone.screenshot(path=str(artifacts / "walls-phone-room-a.png"))

    # A finger drags Rook one cell east, then the player walks on down the corridor to the door.
    a, b = screen_point(phone, 125, 175), screen_point(phone, 175, 175)
    touches(phone, [a, ((a[0] + b[0]) / 2, a[1]), b, b])
    expect(mine).to_have_attribute("data-x", "175.0")
    for x in (275, 375, 425):
        table.ok(ann, "map.token.move", token=token, x=x, y=175)
        expect(mine).to_have_attribute("data-x", f"{x}.0")

    # Next to the door, its button can be tapped: the door opens and the corridor beyond is seen.
    door = phone.locator(".mapframe .door-icon.usable.near")
    expect(door).to_have_count(1)
    phone.screenshot(path=str(artifacts / "walls-phone-at-door.png"))
    box = door.bounding_box()
    assert box is not None
    touches(phone, [(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)] * 2)
    expect(phone.locator(".mapframe .door-icon.open")).to_have_count(1)
    assert next(w for w in gm_map(table)["walls"] if w["kind"] == "door")["open"] is True
    expect(phone.locator(".mapframe .map-vision path.sight")).to_have_count(1)
    assert sight_box(phone)["right"] > 560  # through the open door into room B
    expect(phone.locator(".mapframe .token")).to_have_count(1)  # the goblin's corner is still out of sight

    # Into room B's doorway: the room appears, the goblin with it; the explored image grew.
    table.ok(ann, "map.token.move", token=token, x=525, y=175)
    expect(phone.locator(".mapframe .token[data-name='Goblin']")).to_have_count(1)
    grown = sight_box(phone)
    assert grown["right"] > 800 and grown["bottom"] > 400, grown
    grown_tiles = set(phone.locator(tiles).evaluate_all("els => els.map(e => e.getAttribute('href'))"))
    assert grown_tiles - image, "room B's tiles are new"
    phone.screenshot(path=str(artifacts / "walls-phone-room-b.png"))

    # Walking back, the goblin leaves the phone's page (out of sight now); room B stays explored (dimmed).
    table.ok(ann, "map.token.move", token=token, x=175, y=175)
    expect(phone.locator(".mapframe .token[data-name='Goblin']")).to_have_count(0)
    phone.screenshot(path=str(artifacts / "walls-phone-back.png"))
    phone.context.close()


def test_a_door_out_of_reach_is_refused_with_the_flash(browser, live_server, live_http):
    table = Table.create(live_http, name="Far door")
    ann = table.join("Ann")
    rook = table.character("Rook", owner=ann)
    scene = crypt(table)
    table.ok(table.gm, "map.scene.update", scene=scene, vision=True)
    place(table, scene, 325, 175, participant=rook)  # sees the door down the corridor, 2.5 cells away
    phone = phone_page(browser, live_server, table, ann)
    door = phone.locator(".mapframe .door-icon")
    expect(door).to_have_count(1)
    expect(phone.locator(".mapframe .door-icon.near")).to_have_count(0)  # drawn faint: not next to Rook
    box = door.bounding_box()
    assert box is not None
    touches(phone, [(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)] * 2)
    expect(phone.locator("#flash p.error")).to_have_count(1)
    assert next(w for w in gm_map(table)["walls"] if w["kind"] == "door")["open"] is False
    phone.context.close()

    # The table's TV shows the door the party sees, to look at only.
    tv = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_server.url).new_page()
    tv.goto(f"/c/{table.id}/watch/{table.spectator}")
    expect(tv.locator(".mapframe .door-icon")).to_have_count(1)
    expect(tv.locator(".mapframe .door-icon[role=button]")).to_have_count(0)
    tv.context.close()


def test_the_gm_draws_a_wall_and_a_light_by_touch(browser, live_server, live_http, artifacts: Path):
    """A GM with a tablet: taps the corners, a double-tap ends the wall; unticking Snap places freely."""
    table = Table.create(live_http, name="Walls by touch")
    crypt(table, walls=False, door=False)
    ctx = browser.new_context(
        viewport={"width": 1180, "height": 820}, has_touch=True, is_mobile=False, base_url=live_server.url
    )
    gm = ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(gm.locator("#live-pill")).to_have_text("live")
    gm.locator("[data-tool='wall']").tap()
    for x, y in ((52, 248), (148, 252)):
        touches(gm, [screen_point(gm, x, y)] * 2)
    end = screen_point(gm, 153, 352)
    touches(gm, [end] * 2)
    touches(gm, [end] * 2)  # the double-tap ends it
    expect(gm.locator(".map-walls .wall")).to_have_count(1)
    assert [w["points"] for w in gm_map(table)["walls"]] == [[[50, 250], [150, 250], [150, 350]]]

    # Snap off: a window exactly where the finger was; ended with the button.
    gm.locator("#wall-kind").select_option("window")
    gm.locator("#wall-snap").tap()
    touches(gm, [screen_point(gm, 612, 333)] * 2)
    touches(gm, [screen_point(gm, 688, 333)] * 2)
    gm.locator("[data-wall-end]").tap()
    expect(gm.locator(".map-walls .wall.kind-window")).to_have_count(1)
    window = next(w for w in gm_map(table)["walls"] if w["kind"] == "window")
    assert abs(window["points"][0][0] - 612) < 3 and abs(window["points"][1][0] - 688) < 3, window

    gm.locator("[data-tool='light']").tap()
    touches(gm, [screen_point(gm, 700, 250)] * 2)
    expect(gm.locator(".map-lights .light")).to_have_count(1)
    gm.screenshot(path=str(artifacts / "walls-gm-touch.png"))
    ctx.close()


def test_the_gms_walls_come_once_and_a_token_move_keeps_them_on_the_page(
    browser, live_server, live_http, artifacts: Path
):
    """A move sends the GM's board with its walls as a stub (app/realtime/pieces.py): the page keeps the
    walls it holds, the token moves, and a wall added later comes whole."""
    table = Table.create(live_http, name="Walls kept")
    scene = crypt(table)
    chest = place(table, scene, 125, 175, label="Chest")
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=live_server.url)
    gm = ctx.new_page()
    frames: list[str] = []
    gm.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(str(data))))
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(gm.locator("#live-pill")).to_have_text("live")
    walls = gm.locator(".mapframe .map-walls .wall")
    expect(walls).to_have_count(3)

    # The page's first push is whole (the server has no render of it yet to tell a change from); then a
    # move sends the walls as a stub.
    table.ok(table.gm, "map.token.move", token=chest, x=125, y=225)
    expect(gm.locator(".mapframe .token[data-name='Chest']")).to_have_attribute("data-x", "125.0")
    table.ok(table.gm, "map.token.move", token=chest, x=225, y=225)
    expect(gm.locator(".mapframe .token[data-name='Chest']")).to_have_attribute("data-x", "225.0")
    assert any("data-piece-kept" in f for f in frames)  # the walls were not sent again
    expect(walls).to_have_count(3)
    expect(gm.locator("[data-piece-kept]")).to_have_count(0)
    gm.screenshot(path=str(artifacts / "walls-kept-after-move.png"))

    table.ok(table.gm, "map.wall.add", scene=scene, points=[[600, 100], [800, 100]])
    expect(walls).to_have_count(4)
    table.ok(table.gm, "map.token.move", token=chest, x=175, y=225)
    expect(gm.locator(".mapframe .token[data-name='Chest']")).to_have_attribute("data-x", "175.0")
    expect(walls).to_have_count(4)

    # A page that lost the piece it was to fill a stub from fetches itself again: the walls come back.
    gm.evaluate("document.querySelector('[data-piece=\"walls\"]').remove()")
    expect(walls).to_have_count(0)
    table.ok(table.gm, "map.token.move", token=chest, x=125, y=225)
    expect(gm.locator(".mapframe .token[data-name='Chest']")).to_have_attribute("data-x", "125.0")
    expect(walls).to_have_count(4)
    expect(gm.locator("[data-piece-kept]")).to_have_count(0)
    ctx.close()
