"""The shared ruler (issue 30): the GM drags a ruler fast with "Share ruler" on; however the 200 ms
throttle falls, the final position reaches the phone, which draws the same line and reads the same
distance (it once showed a shorter ruler reading 10 ft while the GM saw 15 ft)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from tests.e2e.test_map import PHONE, screen_point
from tests.helpers import Table
from tests.mapping import scene_with_image


def test_the_phone_sees_where_the_gms_ruler_ends(browser, live_server, live_http, artifacts: Path):
    table = Table.create(live_http, name="Long corridor")
    ann = table.join("Ann")
    scene_with_image(table)  # shown, 50 px cells of 5 ft

    gm_ctx = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=live_server.url)
    gm = gm_ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    phone_ctx = browser.new_context(**PHONE, base_url=live_server.url)
    phone = phone_ctx.new_page()
    phone.goto(f"/c/{table.id}/seat/{ann.token}")
    for page in (gm, phone):
        expect(page.locator("#live-pill")).to_have_text("live")
        expect(page.locator(".mapframe .map-image")).to_have_count(1)

    gm.locator("#map-share-ruler").check()
    gm.locator("[data-tool='ruler']").click()
    # Fast: every move lands well inside one 200 ms window, so only a trailing send carries the end.
    gm.mouse.move(*screen_point(gm, 75, 75))
    gm.mouse.down()
    gm.mouse.move(*screen_point(gm, 110, 75), steps=2)
    gm.mouse.move(*screen_point(gm, 375, 225), steps=6)
    gm.mouse.up()
    mine = gm.locator(".frame-overlay [data-ruler='ruler-local']")
    reading = "30 ft"  # the server's distance (geometry.ruler_text): the GM's label is its answer too
    expect(mine.locator("text")).to_have_text(reading)

    shared = phone.locator(".frame-overlay [data-ruler='shared']")
    expect(shared.locator("text")).to_have_text(reading)
    end = [float(shared.locator("line").get_attribute(a) or 0) for a in ("x2", "y2")]
    assert end == [float(mine.locator("line").get_attribute(a) or 0) for a in ("x2", "y2")]
    assert abs(end[0] - 375) < 3 and abs(end[1] - 225) < 3, end
    phone.screenshot(path=str(artifacts / "shared-ruler-phone.png"))
    gm_ctx.close()
    phone_ctx.close()


def test_the_gms_own_ruler_reads_the_servers_distance_and_stays_off_the_phone(
    browser, live_server, live_http, artifacts: Path
):
    table = Table.create(live_http, name="Long corridor")
    ann = table.join("Ann")
    scene_with_image(table, diagonals="5-10-5")  # shown, 50 px cells of 5 ft, every second diagonal x2
    gm_ctx = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=live_server.url)
    gm = gm_ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    phone_ctx = browser.new_context(**PHONE, base_url=live_server.url)
    phone = phone_ctx.new_page()
    phone.goto(f"/c/{table.id}/seat/{ann.token}")
    for page in (gm, phone):
        expect(page.locator("#live-pill")).to_have_text("live")
    gm.locator("[data-tool='ruler']").click()
    gm.mouse.move(*screen_point(gm, 75, 75))
    gm.mouse.down()
    gm.mouse.move(*screen_point(gm, 375, 225), steps=8)
    mine = gm.locator(".frame-overlay [data-ruler='ruler-local'] text")
    expect(mine).to_have_text("35 ft")  # 3 straight + 3 diagonal, the second counted twice: the server's rule
    gm.mouse.up()
    phone.wait_for_timeout(500)
    expect(phone.locator(".frame-overlay [data-ruler]")).to_have_count(0)
    gm_ctx.close()
    phone_ctx.close()
