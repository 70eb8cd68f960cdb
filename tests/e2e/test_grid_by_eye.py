"""Lining up a scene's grid by eye (issue 30): the GM boxes one cell of the image, with a drag or two
taps on opposite corners; the grid form's size and offset follow, previewed live, and "Set grid" sets
them. "Set grid" with nothing changed is not an error."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw
from playwright.sync_api import Page, expect

from tests.e2e.test_map import screen_point
from tests.helpers import Table
from tests.mapping import png, upload

CELL, OX, OY = 64, 20, 12  # the grid drawn into the image


def gridded_scene(table: Table) -> str:
    image = Image.new("RGB", (800, 600), (200, 190, 170))
    draw = ImageDraw.Draw(image)
    for x in range(OX, 800, CELL):
        draw.line((x, 0, x, 600), fill=(30, 30, 30), width=2)
    for y in range(OY, 600, CELL):
        draw.line((0, y, 800, y), fill=(30, 30, 30), width=2)
    r = upload(table, png(image))
    assert r.status_code == 201, r.text
    reply = table.ok(
        table.gm, "map.scene.create", name="Hall", asset=r.json()["id"], grid={"type": "square", "size": 70}
    )
    return reply["view"]["map"]["scene"]


def gm_console(browser, live_server, table: Table) -> Page:
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=live_server.url)
    gm = ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(gm.locator("#live-pill")).to_have_text("live")
    expect(gm.locator("#map .map-image")).to_have_count(1)
    gm.locator(".map-grid-form summary").click()
    return gm


def field(gm: Page, name: str) -> float:
    return float(gm.locator(f".grid-form [name='{name}']").input_value())


def test_the_gm_boxes_one_cell_and_the_grid_follows(browser, live_server, live_http, artifacts: Path):
    table = Table.create(live_http, name="Grid by eye")
    gridded_scene(table)
    gm = gm_console(browser, live_server, table)

    # A drag over the cell whose top-left corner is (84, 76).
    gm.get_by_role("button", name="Box a cell").click()
    gm.mouse.move(*screen_point(gm, OX + CELL, OY + CELL))
    gm.mouse.down()
    gm.mouse.move(*screen_point(gm, OX + 1.5 * CELL, OY + 1.5 * CELL), steps=4)
    gm.mouse.move(*screen_point(gm, OX + 2 * CELL, OY + 2 * CELL), steps=4)
    assert abs(field(gm, "grid.size") - CELL) <= 1.5  # previewed while the box is drawn
    gm.mouse.up()
    assert abs(field(gm, "grid.offset.0") - OX) <= 1.5 and abs(field(gm, "grid.offset.1") - OY) <= 1.5
    pattern = gm.locator("#map pattern").first
    assert abs(float(pattern.get_attribute("width") or 0) - CELL) <= 1.5  # the grid on the map follows
    gm.screenshot(path=str(artifacts / "grid-by-eye-preview.png"))

    gm.get_by_role("button", name="Set grid").click()
    expect(gm.locator(".map-grid-form summary")).to_contain_text(f"{CELL}.0 px")
    expect(gm.locator("[data-tool='move']")).to_have_attribute("aria-pressed", "true")  # set: back to moving
    grid = table.view(table.gm)["map"]["grid"]
    assert abs(grid["size"] - CELL) <= 1.5 and abs(grid["offset"][0] - OX) <= 1.5, grid

    # Two taps on opposite corners of another cell do the same, from the far corner first.
    gm.locator(".grid-form [name='grid.size']").fill("50")
    gm.get_by_role("button", name="Box a cell").click()
    gm.mouse.click(*screen_point(gm, OX + 5 * CELL, OY + 4 * CELL))
    gm.mouse.click(*screen_point(gm, OX + 4 * CELL, OY + 3 * CELL))
    assert abs(field(gm, "grid.size") - CELL) <= 1.5
    assert abs(field(gm, "grid.offset.0") - OX) <= 1.5 and abs(field(gm, "grid.offset.1") - OY) <= 1.5
    gm.context.close()


def test_set_grid_with_nothing_changed_is_not_an_error(browser, live_server, live_http):
    table = Table.create(live_http, name="Grid as it is")
    gridded_scene(table)
    gm = gm_console(browser, live_server, table)
    gm.get_by_role("button", name="Set grid").click()
    expect(gm.locator("#flash")).to_contain_text("already like that")
    assert gm.locator("#flash p.error").count() == 0  # now: the pill fades out within seconds anyway
    gm.context.close()
