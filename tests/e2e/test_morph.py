"""Live blocks morph into the page (issue 13): a push redraws the blocks a phone holds, yet the sheet it
opened stays open, and the dice it was typing stay typed, focused, with the caret where it was."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.api.test_tote import sheets
from tests.e2e.test_tote import PHONE
from tests.helpers import Table


def test_a_push_keeps_an_open_sheet_and_typed_dice_with_the_caret(browser, live_server, live_http, artifacts):
    table = Table.create(live_http, name="Ogre bridge", system="tote", dice="manual")
    ann = table.join("Ann")
    table.join("Ben")
    table.ok(table.gm, "tote.import", sheets=sheets())
    table.ok(
        table.gm,
        "campaign.encounter.prepare",
        name="The bridge",
        participants=["Aiyana", "Tahoma", "Ogre"],
        setup={"distance": "close"},
    )
    table.ok(table.gm, "campaign.encounter.start", encounter="The bridge")

    ctx = browser.new_context(**PHONE, base_url=live_server.url)
    phone = ctx.new_page()
    frames: list[str] = []
    phone.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    phone.goto(f"/c/{table.id}/seat/{ann.token}")
    expect(phone.locator("#live-pill")).to_have_text("live")

    sheet = phone.locator("#tote-me details").first
    sheet.locator("summary").click()
    expect(sheet).to_have_attribute("open", "")
    dice = phone.locator("form.tt-option[aria-label='Roll Initiative: Aiyana']").get_by_label("Dice")
    dice.click()
    dice.press_sequentially("5 2 4")
    dice.press("ArrowLeft")  # the caret between "2 " and "4"
    before = len(frames)

    # The GM moves Aiyana to Melee: both of her blocks are pushed to her phone.
    aiyana = next(p["id"] for p in table.view(table.gm)["participants"] if p["name"] == "Aiyana")
    table.ok(table.gm, "tote.place", participant=aiyana, band="melee")
    expect(phone.locator("#tote-me .tt-where")).to_contain_text("Melee")
    phone.wait_for_timeout(300)  # every block of the push has landed
    pushed = "".join(frames[before:])
    assert 'id="tote-me"' in pushed and 'id="tote-turn"' in pushed, "the push must carry both blocks"

    expect(sheet).to_have_attribute("open", "")
    expect(dice).to_have_value("5 2 4")
    expect(dice).to_be_focused()
    assert dice.evaluate("el => [el.selectionStart, el.selectionEnd]") == [4, 4]
    phone.screenshot(path=str(artifacts / "morph-phone-after-push.png"), full_page=True)

    # A second push, with nothing typed any more: the sheet the phone opened stays open still.
    dice.fill("")
    dice.blur()
    table.ok(table.gm, "tote.place", participant=aiyana, band="close")
    expect(phone.locator("#tote-me .tt-where")).to_contain_text("Close")
    expect(sheet).to_have_attribute("open", "")
    ctx.close()
