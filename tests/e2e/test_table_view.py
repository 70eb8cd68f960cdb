"""A phone's fitted map (issue 30): a 3:2 scene on a 390 x 844 screen fills the width with no black bands
above and below, and tokens are drawn no smaller than a thumb can hit."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw
from playwright.sync_api import expect

from tests.e2e.test_map import PHONE
from tests.helpers import Table
from tests.mapping import png, upload


def scene(table: Table, width: int, height: int, cell: int = 50) -> str:
    """A shown scene over a plain image of width x height with a drawn grid of `cell` pixels."""
    image = Image.new("RGB", (width, height), (90, 110, 90))
    draw = ImageDraw.Draw(image)
    for x in range(0, width, cell):
        draw.line((x, 0, x, height), fill=(20, 20, 20))
    for y in range(0, height, cell):
        draw.line((0, y, width, y), fill=(20, 20, 20))
    r = upload(table, png(image))
    assert r.status_code == 201, r.text
    grid = {"type": "square", "size": cell}
    reply = table.ok(table.gm, "map.scene.create", name="Field", asset=r.json()["id"], grid=grid, show=True)
    return reply["view"]["map"]["scene"]


def test_a_phone_fits_a_wide_map_without_bands_and_tokens_a_thumb_can_hit(
    browser, live_server, live_http, artifacts: Path
):
    table = Table.create(live_http, name="Wide field")
    ann = table.join("Ann")
    rook = table.character("Rook", owner=ann)
    scene_id = scene(table, 900, 600)  # 3:2
    table.ok(table.gm, "map.token.place", scene=scene_id, participant=rook, x=125, y=125)

    ctx = browser.new_context(**PHONE, base_url=live_server.url)
    phone = ctx.new_page()
    phone.goto(f"/c/{table.id}/seat/{ann.token}")
    expect(phone.locator("#live-pill")).to_have_text("live")
    image = phone.locator(".mapframe .map-image")
    expect(image).to_have_count(1)
    frame = phone.locator(".mapframe").bounding_box()
    drawn = image.bounding_box()
    assert frame and drawn
    # The image fills the frame's width, and the frame is no taller than the image: no bands.
    assert drawn["width"] >= frame["width"] - 4
    assert abs(frame["height"] - drawn["height"]) <= 4, (frame, drawn)
    # The token is drawn at least 28 CSS pixels across at the fitted zoom (its cell is ~22 px here).
    token = phone.locator(".mapframe .token.mine circle").bounding_box()
    assert token and token["width"] >= 28 and token["height"] >= 28, token
    phone.screenshot(path=str(artifacts / "phone-fitted-wide-map.png"))
    ctx.close()
