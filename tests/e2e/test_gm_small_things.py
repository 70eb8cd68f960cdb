"""Small things on the GM's console (issue 30): the new-scene form starts blank again once the scene is
made, and an upload on the 5x5 console leaves no empty message pill behind, not even while it fades."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from tests.helpers import Table
from tests.mapping import dungeon_png


def test_an_upload_leaves_no_empty_pill_on_the_fivebyfive_console(
    browser, live_server, live_http, artifacts: Path, tmp_path
):
    table = Table.create(live_http, name="Rooftops", system="fivebyfive")
    image = tmp_path / "roof.png"
    image.write_bytes(dungeon_png(600, 400))
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=live_server.url)
    gm = ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(gm.locator("#live-pill")).to_have_text("live")
    gm.locator("#map-file").set_input_files(str(image))
    expect(gm.locator(".map-scenes summary")).to_contain_text("not shown")
    # Every 50 ms until the upload's message is gone: the box shows a message, or nothing at all.
    empty_and_seen = """n => !n.textContent.trim() && getComputedStyle(n).visibility === 'visible'
        && +getComputedStyle(n).opacity > 0"""
    samples = []
    for _ in range(100):
        samples.append(gm.locator("#flash").evaluate(empty_and_seen))
        gm.wait_for_timeout(50)
    assert not any(samples), samples.index(True)
    gm.screenshot(path=str(artifacts / "fivebyfive-after-upload.png"))
    ctx.close()


def test_the_new_scene_form_starts_blank_once_the_scene_is_made(browser, live_server, live_http):
    table = Table.create(live_http, name="Inn")
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=live_server.url)
    gm = ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(gm.locator("#live-pill")).to_have_text("live")
    name = gm.locator(".map-new-scene input[name='name']")
    name.fill("Tavern brawl")
    gm.get_by_role("button", name="Make scene").click()
    expect(gm.locator(".scene-list")).to_contain_text("Tavern brawl")
    expect(name).to_have_value("")
    ctx.close()
