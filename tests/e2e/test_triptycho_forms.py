"""A Triptycho PC set up through the GM's forms alone: added on the Characters card, then given its sheet
and starting section with the Triptycho add form (it used to answer "There is already a character")."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from tests.helpers import Table


def test_a_pc_from_the_characters_card_gets_a_sheet_and_a_place_through_the_forms(
    browser, live_server, live_http, artifacts: Path
):
    table = Table.create(live_http, system="triptycho", dice="manual")
    table.join("Ann")
    table.ok(table.gm, "triptycho.map.load", map="cliff")
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=live_server.url)
    gm = ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(gm.locator("#live-pill")).to_have_text("live")

    gm.locator(".side-tabs").get_by_role("button", name="Characters & seats").click()
    gm.locator("summary", has_text="Add a character").first.click()
    add = gm.locator("form[aria-label='Add a character']")
    add.get_by_label("Name").fill("Rook")
    add.get_by_label("Played by").select_option(label="Ann")
    add.get_by_role("button", name="Add").click()
    expect(gm.locator("#participants")).to_contain_text("Rook")

    gm.locator(".side-tabs").get_by_role("button", name="Triptycho (Chapter 4: Combat)").click()
    gm.locator("summary", has_text="Add a character or adversary").click()
    sheet = gm.locator("form[aria-label='Add a character or adversary']")
    sheet.get_by_label("Name").fill("Rook")
    sheet.get_by_label("Party").check()
    sheet.get_by_label("Low-light vision").check()
    sheet.get_by_label("Starts in").fill("mouth")
    sheet.get_by_role("button", name="Add").click()
    expect(sheet.locator(".form-msg")).not_to_contain_text("already")
    expect(gm.locator('#map .tp-token:has-text("Rook")')).to_have_count(1)
    gm.screenshot(path=str(artifacts / "triptycho-gm-pc-by-forms.png"))
    assert [p["name"] for p in table.view(table.gm)["participants"]] == ["Rook"]
    ctx.close()
