"""Live blocks morph into the page (issue 13): a push redraws the blocks a phone holds, yet the sheet it
opened stays open, and the dice it was typing stay typed, focused, with the caret where it was."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.api.test_tote import ogre_bridge
from tests.e2e.test_tote import PHONE
from tests.helpers import Table


def test_a_push_keeps_an_open_sheet_and_typed_dice_with_the_caret(browser, live_server, live_http, artifacts):
    table = ogre_bridge(live_http)  # Ann's Aiyana and Ben's Tahoma against an Ogre, everyone at Melee
    ann = table.players["Ann"]

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

    # The GM moves Aiyana back to Close: both of her blocks are pushed to her phone.
    aiyana = next(p["id"] for p in table.view(table.gm)["participants"] if p["name"] == "Aiyana")
    table.ok(table.gm, "tote.place", participant=aiyana, band="close")
    expect(phone.locator("#tote-me .tt-where")).to_contain_text("Close")
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
    table.ok(table.gm, "tote.place", participant=aiyana, band="melee")
    expect(phone.locator("#tote-me .tt-where")).to_contain_text("Melee")
    expect(sheet).to_have_attribute("open", "")
    ctx.close()


def test_a_push_keeps_a_choice_made_in_a_list_and_still_brings_the_server_s_changes(
    browser, live_server, live_http, artifacts
):
    """The GM picks a seat to hand Aria to, then, before pressing the button, the table changes the same
    block (Brick is hidden): the pick and the open fold stay, and Brick's button turns to Reveal."""
    table = Table.create(live_http, name="Crypt")
    table.join("Ann")
    ben = table.join("Ben")
    table.character("Aria")
    table.character("Brick", kind="npc")
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=live_server.url)
    gm = ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(gm.locator("#live-pill")).to_have_text("live")
    gm.locator("button[data-tab=table]").click()
    gm.get_by_label("More for Aria").click()
    hand = gm.locator("form[aria-label='Hand Aria to a seat'] select[name=seat]")
    hand.select_option(label="Ben")
    gm.locator("#h-people").click()  # the GM looks elsewhere: the select is not focused

    table.ok(table.gm, "campaign.set_hidden", participant="Brick", hidden=True)
    brick = gm.locator("#participants li.person").filter(has_text="Brick")
    expect(brick.locator("button", has_text="Reveal")).to_have_count(1)  # in its closed fold
    expect(hand).to_have_value(ben.seat_id)
    expect(
        gm.locator("#participants li.person").filter(has_text="Aria").locator("details.more")
    ).to_have_attribute("open", "")
    gm.screenshot(path=str(artifacts / "morph-gm-choice-kept.png"))
    ctx.close()


def test_a_list_nobody_touched_follows_the_server(browser, live_server, live_http):
    table = Table.create(live_http, name="Crypt")
    ann = table.join("Ann")
    table.character("Aria")
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=live_server.url)
    gm = ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(gm.locator("#live-pill")).to_have_text("live")
    hand = gm.locator("form[aria-label='Hand Aria to a seat'] select[name=seat]")
    expect(hand).to_have_value("")
    table.ok(table.gm, "campaign.assign_participant", participant="Aria", seat=ann.seat_id)
    expect(hand).to_have_value(ann.seat_id)
    ctx.close()
