"""Triptycho's section map and 5x5's tabletop in the shared map frame, in a real browser: drawn over the
scene's image, panned and pinched by the one frame implementation, and pinged by a tap that reaches the
GM's screen; the GM switches between the board and the scene behind it and traces sections over it."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.boards import aria_table, in_the_cave
from tests.e2e.test_map import PHONE, touches
from tests.helpers import Table
from tests.mapping import dungeon_png, upload


def board_point(page: Page, kind: str, x: float, y: float) -> tuple[float, float]:
    """Where the board's point (x, y), in its own units, is on the screen."""
    return page.evaluate(
        """([kind, x, y]) => {
            const svg = document.querySelector(`.mapframe[data-kind="${kind}"] > svg`);
            const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
            return [p.x, p.y];
        }""",
        [kind, x, y],
    )


def board_width(page: Page, kind: str) -> float:
    return page.evaluate(
        f"""document.querySelector('.mapframe[data-kind="{kind}"] > svg').viewBox.baseVal.width"""
    )


def show_image(table: Table, width: int, height: int, cell: int) -> str:
    asset = upload(table, dungeon_png(width, height)).json()
    grid = {"type": "square", "size": cell, "unit": "in", "per_cell": 1}
    reply = table.ok(table.gm, "map.scene.create", name="Rooftops", asset=asset["id"], grid=grid, show=True)
    return reply["view"]["map"]["scene"]


def test_a_5x5_phone_pings_the_tabletop_over_a_rooftop_photo(
    browser, live_server, live_http, artifacts: Path
):
    table = Table.create(live_http, system="fivebyfive")
    ann = table.join("Ann")
    show_image(table, 1800, 1200, 50)  # 36 x 24 inches, the default tabletop

    gm_ctx = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=live_server.url)
    gm = gm_ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(gm.locator("#live-pill")).to_have_text("live")
    phone_ctx = browser.new_context(**PHONE, base_url=live_server.url)
    phone = phone_ctx.new_page()
    phone.goto(f"/c/{table.id}/seat/{ann.token}")
    expect(phone.locator("#live-pill")).to_have_text("live")

    board = phone.locator('.mapframe[data-kind="fivebyfive"]')
    expect(board).to_be_visible()
    backdrop = board.locator("image.board-backdrop")
    expect(backdrop).to_have_attribute("width", "36.0")
    served = phone.request.get(backdrop.get_attribute("href"))
    assert served.status == 200 and served.headers["content-type"].startswith("image/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    box = board.bounding_box()
    assert box is not None and box["y"] < 120 and box["width"] >= 380  # the map area comes first

    # One finger drags the table: the frame pans it (the same code as the battle map's scenes).
    before = phone.evaluate(
        """document.querySelector('.mapframe[data-kind="fivebyfive"] > svg').getAttribute('viewBox')"""
    )
    touches(phone, [(300, 300), (250, 300), (200, 300), (200, 300)])
    expect(board.locator("svg")).not_to_have_attribute("viewBox", before)

    # A tap on open ground pings it on the GM's tabletop.
    touches(phone, [board_point(phone, "fivebyfive", 12, 8)] * 2)
    expect(gm.locator('.mapframe[data-kind="fivebyfive"] .ping')).to_have_count(1)
    expect(gm.locator('.mapframe[data-kind="fivebyfive"] .ping text')).to_have_text("Ann")
    gm.screenshot(path=str(artifacts / "board-5x5-gm-ping.png"))
    phone.screenshot(path=str(artifacts / "board-5x5-phone.png"))
    for ctx in (gm_ctx, phone_ctx):
        ctx.close()


def test_a_triptycho_gm_traces_over_the_image_and_the_phone_pinches_the_section_map(
    browser, live_server, live_http, artifacts: Path
):
    table = aria_table(live_http)
    ann = table.players["Ann"]
    show_image(table, 800, 500, 50)  # 16 x 10 squares, the size of the cliff map
    in_the_cave(table)

    gm_ctx = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=live_server.url)
    gm = gm_ctx.new_page()
    gm.goto(f"/c/{table.id}/gm/map")
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(gm.locator("#live-pill")).to_have_text("live")
    board = gm.locator('.mapframe[data-kind="triptycho"]')
    expect(board.locator("image.board-backdrop")).to_have_count(1)
    expect(board.locator('.tp-sec[data-section="floor"]')).to_be_visible()
    gm.screenshot(path=str(artifacts / "board-triptycho-gm.png"))

    # The GM switches the map area to the scene behind the board, and back.
    gm.get_by_role("button", name="Scene: image, grid & fog").click()
    expect(gm.locator('.mapframe[data-kind="scene"]')).to_be_visible()
    expect(board).to_be_hidden()
    gm.get_by_role("button", name="Triptycho (Chapter 4: Combat) board").click()
    expect(board).to_be_visible()

    # The map editor draws the scene's image under the sections, to trace them over it.
    editor = gm_ctx.new_page()
    editor.goto(f"/c/{table.id}/gm/map")
    expect(editor.locator("svg.tp-editor image.backdrop")).to_have_attribute("width", "16")
    editor.screenshot(path=str(artifacts / "board-triptycho-editor.png"))

    # The phone pinches the section map (the frame's pinch), and its ping on the lit mouth reaches the GM.
    phone_ctx = browser.new_context(**PHONE, base_url=live_server.url)
    phone = phone_ctx.new_page()
    phone.goto(f"/c/{table.id}/seat/{ann.token}")
    expect(phone.locator("#live-pill")).to_have_text("live")
    before = board_width(phone, "triptycho")
    cx, cy = board_point(phone, "triptycho", 8, 5)
    touches(
        phone,
        [(cx - 20, cy), (cx - 40, cy), (cx - 60, cy), (cx - 80, cy)],
        [(cx + 20, cy), (cx + 40, cy), (cx + 60, cy), (cx + 80, cy)],
    )
    assert board_width(phone, "triptycho") < before * 0.7
    touches(phone, [board_point(phone, "triptycho", 9, 6.5)] * 2)  # inside the cave mouth, where Aria is
    expect(board.locator(".ping text")).to_have_text("Ann")
    phone.screenshot(path=str(artifacts / "board-triptycho-phone.png"))
    for ctx in (gm_ctx, phone_ctx):
        ctx.close()
