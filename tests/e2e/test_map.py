"""The battle map in a real browser: the GM uploads a dungeon, lines up the grid, places and drags
tokens and lifts the fog; a touch phone drags its own token with a finger, pinch-zooms, and sees the
room appear without a reload."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.helpers import Table
from tests.mapping import dungeon_png

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def screen_point(page: Page, x: float, y: float) -> tuple[float, float]:
    """Where the scene's pixel (x, y) is on the screen."""
    return page.evaluate(
        """([x, y]) => {
            const svg = document.querySelector('.mapframe svg');
            const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
            return [p.x, p.y];
        }""",
        [x, y],
    )


def view_width(page: Page) -> float:
    return page.evaluate("document.querySelector('.mapframe svg').viewBox.baseVal.width")


def touches(page: Page, *strokes: list[tuple[float, float]]) -> None:
    """Fingers on the screen, each following its list of points together (Chrome's touch input)."""
    cdp = page.context.new_cdp_session(page)
    steps = len(strokes[0])
    points: list[dict] = []
    for i in range(steps):
        points = [{"x": s[i][0], "y": s[i][1], "id": n} for n, s in enumerate(strokes)]
        kind = "touchStart" if i == 0 else "touchMove"
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
    if any(s[0] != s[-1] for s in strokes):
        # A finger that dragged rests before it lifts, as a person's does. Lifted at the speed of events
        # sent back to back, Chrome takes it for a fling and swallows the next tap, the one that would
        # stop the fling (a Save tapped right after framing a picture did nothing, now and then).
        page.wait_for_timeout(150)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": points})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_the_gm_builds_a_map_and_a_phone_plays_on_it(
    browser, live_server, live_http, artifacts: Path, tmp_path
):
    table = Table.create(live_http, name="Crypt of the Ghoul")
    ann = table.join("Ann")
    table.character("Rook", owner=ann)
    image = tmp_path / "crypt.png"
    image.write_bytes(dungeon_png(800, 600))

    gm_ctx = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=live_server.url)
    gm = gm_ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(gm.locator("#live-pill")).to_have_text("live")
    expect(gm.locator("#map .map-empty")).to_contain_text("No map yet")

    # Upload through the page: a scene is made from the image, the GM's alone until shown.
    gm.locator("#map-file").set_input_files(str(image))
    frame = gm.locator("#map .mapframe")
    expect(frame).to_have_attribute("data-width", "800")
    expect(gm.locator("#map .map-image")).to_have_count(1)
    expect(gm.locator(".map-scenes summary")).to_contain_text("not shown")

    # Line up the grid: 50-pixel cells.
    gm.locator(".map-grid-form summary").click()
    gm.locator("input[name='grid.size']").fill("50")
    gm.locator(".grid-form button[type=submit]").click()
    expect(gm.locator(".map-grid-form summary")).to_contain_text("50.0 px = 5.0 ft")

    # Put Rook on the map from the tray: click the chip, then the map.
    gm.locator("[data-place-participant]", has_text="Rook").click()
    gm.mouse.click(*screen_point(gm, 60, 60))
    rook = gm.locator(".mapframe .token[data-name='Rook']")
    expect(rook).to_have_attribute("data-x", "75.0")

    # The GM drags Rook two cells right with the mouse: it snaps to the middle of the cell.
    gm.mouse.move(*screen_point(gm, 75, 75))
    gm.mouse.down()
    gm.mouse.move(*screen_point(gm, 130, 80), steps=5)
    gm.mouse.move(*screen_point(gm, 178, 80), steps=5)
    gm.mouse.up()
    expect(rook).to_have_attribute("data-x", "175.0")

    # Fog over everything but the corridor, then a chest in the red room, under the fog.
    gm.locator("[data-map-fog='cover']").click()
    expect(gm.locator(".mapframe .map-fog")).to_have_count(1)
    gm.locator("[data-tool='reveal']").click()
    gm.mouse.move(*screen_point(gm, 5, 5))
    gm.mouse.down()
    gm.mouse.move(*screen_point(gm, 200, 300), steps=5)
    gm.mouse.move(*screen_point(gm, 395, 595), steps=5)
    gm.mouse.up()
    expect(gm.locator(".mapframe .token.fogged")).to_have_count(0)  # Rook stands in the revealed corridor
    gm.once("dialog", lambda d: d.accept("Chest"))
    gm.locator("[data-place-label]").click()
    gm.mouse.click(*screen_point(gm, 600, 200))
    expect(gm.locator(".mapframe .token.fogged[data-name='Chest']")).to_have_count(1)
    # Prepared: now the players see it.
    scenes = gm.locator("details.map-scenes")
    if scenes.get_attribute("open") is None:  # still open from before the first scene, or closed
        scenes.locator("summary").click()
    gm.get_by_role("button", name="Show to players").click()
    expect(gm.locator(".map-scenes summary")).not_to_contain_text("not shown")
    gm.screenshot(path=str(artifacts / "map-gm-console.png"))

    # The phone: the map first, full width; Rook but not the chest under fog.
    phone_ctx = browser.new_context(**PHONE, base_url=live_server.url)
    phone = phone_ctx.new_page()
    phone.goto(f"/c/{table.id}/seat/{ann.token}")
    expect(phone.locator("#live-pill")).to_have_text("live")
    mine = phone.locator(".mapframe .token.mine")
    expect(mine).to_have_attribute("data-x", "175.0")
    expect(phone.locator(".mapframe .token")).to_have_count(1)
    assert "Chest" not in phone.content()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    box = phone.locator(".mapframe").bounding_box()
    assert box is not None and box["y"] < 120 and box["width"] >= 380  # the first thing, full width
    phone.screenshot(path=str(artifacts / "map-phone-fog.png"))

    # A finger drags Rook one cell down; the GM's console follows.
    start, end = screen_point(phone, 175, 75), screen_point(phone, 175, 128)
    touches(phone, [start, ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2), end, end])
    expect(mine).to_have_attribute("data-y", "125.0")
    expect(rook).to_have_attribute("data-y", "125.0")

    # A tap on Rook opens what Ann may do with it, over the map; the cross closes it.
    touches(phone, [screen_point(phone, 175, 125)] * 2)
    sheet = phone.locator(".token-sheet:not([hidden])")
    expect(sheet).to_contain_text("Rook")
    expect(sheet).to_contain_text("Drag the token to move it")
    phone.screenshot(path=str(artifacts / "map-phone-token-sheet.png"))
    sheet.get_by_role("button", name="Close").tap()
    expect(sheet).to_have_count(0)

    # Two fingers spread: the phone zooms in, and keeps its zoom through the next push.
    before = view_width(phone)
    cx, cy = screen_point(phone, 300, 300)
    touches(
        phone,
        [(cx - 20, cy), (cx - 40, cy), (cx - 60, cy), (cx - 80, cy)],
        [(cx + 20, cy), (cx + 40, cy), (cx + 60, cy), (cx + 80, cy)],
    )
    zoomed = view_width(phone)
    assert zoomed < before * 0.7

    # The GM reveals the red room: the phone shows the chest and the new image without a reload.
    image_before = phone.locator(".mapframe .map-image").get_attribute("href")
    gm.mouse.move(*screen_point(gm, 420, 20))
    gm.mouse.down()
    gm.mouse.move(*screen_point(gm, 600, 200), steps=5)
    gm.mouse.move(*screen_point(gm, 780, 420), steps=5)
    gm.mouse.up()
    expect(phone.locator(".mapframe .token[data-name='Chest']")).to_have_count(1)
    assert phone.locator(".mapframe .map-image").get_attribute("href") != image_before
    assert abs(view_width(phone) - zoomed) < 0.01
    phone.screenshot(path=str(artifacts / "map-phone-revealed.png"))
    gm.locator("[data-tool='move']").click()
    gm.screenshot(path=str(artifacts / "map-gm-revealed.png"))

    # The table view: the map full screen for a TV.
    tv_ctx = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_server.url)
    tv = tv_ctx.new_page()
    tv.goto(f"/c/{table.id}/watch/{table.spectator}")
    expect(tv.locator(".mapframe .token")).to_have_count(2)
    tv.screenshot(path=str(artifacts / "map-table-view.png"))
    for ctx in (gm_ctx, phone_ctx, tv_ctx):
        ctx.close()
