"""The TV view (issue 30): the map, full screen, with the turn order and the turn banner over it,
readable from across a room at 1920 x 1080 and 1280 x 720."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_table_view import scene
from tests.helpers import Table


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_the_tv_view_is_the_map_with_the_turn_order_over_it(browser, live_server, live_http, artifacts, size):
    width, height = size
    table = Table.create(live_http, name="Crypt night")
    ann = table.join("Ann")
    rook = table.character("Rook", owner=ann)
    table.character("Ghoul")
    scene_id = scene(table, 900, 600)
    table.ok(table.gm, "map.token.place", scene=scene_id, participant=rook, x=125, y=125)
    table.ok(table.gm, "campaign.encounter.prepare", name="Crypt fight", participants=["Rook", "Ghoul"])
    table.ok(table.gm, "campaign.encounter.start", encounter="Crypt fight")
    table.ok(
        table.gm,
        "generic.initiative.set",
        entries=[{"participant": "Rook", "value": 17}, {"participant": "Ghoul", "value": 9}],
    )
    table.ok(table.gm, "generic.initiative.next")

    ctx = browser.new_context(viewport={"width": width, "height": height}, base_url=live_server.url)
    tv = ctx.new_page()
    tv.goto(f"/c/{table.id}/watch/{table.spectator}")
    expect(tv.locator("#live-pill")).to_have_text("live")
    expect(tv.locator(".mapframe .token")).to_have_count(1)

    # The map frame is the whole screen.
    frame = tv.locator("#map .mapframe").bounding_box()
    assert frame is not None
    assert frame["x"] <= 1 and frame["y"] <= 1, frame
    assert frame["width"] >= width - 2 and frame["height"] >= height - 2, frame
    assert tv.evaluate("document.documentElement.scrollWidth") <= width

    # The turn banner and the turn order sit over it, inside the screen, in type readable across a room.
    for sel, text in (("#status .turn", "Rook's turn"), ("#initiative .order li.current", "Rook")):
        node = tv.locator(sel)
        expect(node).to_contain_text(text)
        box = node.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (sel, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (sel, box)
        px = tv.evaluate("(s) => parseFloat(getComputedStyle(document.querySelector(s)).fontSize)", sel)
        assert px >= height / 36, (sel, px)  # 30 px at 1080, 20 px at 720
        # Over the map: the topmost element at the middle of the text is the overlay, not the map.
        on_top = tv.evaluate(
            """([s, x, y]) => document.querySelector(s).contains(document.elementFromPoint(x, y))""",
            [sel, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert on_top, sel
    tv.screenshot(path=str(artifacts / f"tv-view-{width}x{height}.png"))
    ctx.close()
