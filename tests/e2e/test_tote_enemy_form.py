"""Issue 17 item 8 in a real browser: the GM gives an enemy its injury track circle by circle (no JSON),
and the sheet on the console draws those circles."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.helpers import Table


def test_the_gm_picks_an_enemys_injury_track_circle_by_circle(browser, live_server, live_http, artifacts):
    table = Table.create(live_http, name="Ogre bridge", system="tote", dice="manual")
    table.character("Ogre", kind="npc")
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, base_url=live_server.url)
    gm = ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(gm.locator("#live-pill")).to_have_text("live")
    gm.get_by_text("Enemy stat block", exact=True).click()
    form = gm.locator("form[aria-label='Enemy stat block']")
    form.get_by_label("Character").fill("Ogre")
    track = form.locator("fieldset.tt-track-form")
    expect(track.locator("textarea, input[name='track:json']")).to_have_count(0)
    track.get_by_label("Circle 2").select_option("5")
    track.get_by_label("Circle 3").select_option("2")
    track.screenshot(path=str(artifacts / "tote-enemy-track-form.png"))
    form.get_by_role("button", name="Save enemy").click()
    expect(form.locator(".form-msg")).to_contain_text("Enemy stat block set.")
    ogre = table.view(table.gm)["system"]["enemies"][0]
    assert [c["label"] for c in ogre["track"]] == ["N", "5", "2", "U"]
    ctx.close()
