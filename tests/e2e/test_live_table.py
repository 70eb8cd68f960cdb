"""The GM creates a campaign, a phone joins by the invite link and rolls; the GM sees it without reload."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.test_bad_network import RECORD_SOCKETS

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def test_gm_and_phone_share_the_table_live(browser, live_server, artifacts):
    gm = browser.new_context(viewport={"width": 1366, "height": 900}, base_url=live_server.url)
    gm_page = gm.new_page()
    gm_page.goto("/")
    gm_page.get_by_label("Name", exact=True).fill("Friday Night Fights")
    gm_page.get_by_role("button", name="Create and open the GM console").click()
    expect(gm_page).to_have_url(re.compile(r"/c/\w+/gm$"))
    expect(gm_page.locator("#live-pill")).to_have_text("live")
    invite = gm_page.locator("#invite-url").input_value()
    assert "/join/" in invite

    phone = browser.new_context(**PHONE)
    player = phone.new_page()
    player.goto(invite)
    player.get_by_label("Your name").fill("Ann")
    player.get_by_role("button", name="Take a seat").click()
    expect(player).to_have_url(re.compile(r"/play$"))
    expect(player.locator("#live-pill")).to_have_text("live")
    # The GM's seat list learns of Ann without a reload.
    expect(gm_page.locator("#seats")).to_contain_text("Ann")

    # The GM makes a pool (the console's sidebar keeps pools under their own tab); the phone shows it live.
    gm_page.locator(".side-tabs").get_by_role("button", name="Initiative & pools").click()
    gm_page.get_by_text("New pool").click()
    pool_form = gm_page.locator("form[aria-label='New pool']")
    pool_form.get_by_label("Name", exact=True).fill("Good Karma")
    pool_form.get_by_label("Start").fill("2")
    pool_form.get_by_role("button", name="Create").click()
    expect(player.locator("#pools")).to_contain_text("Good Karma")

    # The player taps a big roll button; the GM's log shows the roll, no reload.
    player.locator("#rolls button", has_text="d20").first.tap()
    expect(gm_page.locator("#log .entry").first).to_contain_text("Ann rolled 1d20")
    # ...and spends a point of the shared pool; the GM's pool changes.
    player.get_by_role("button", name="Good Karma minus one").tap()
    expect(gm_page.locator("#pools .value").first).to_contain_text("1")

    # A secret GM roll stays off the phone; undo is seen by everyone.
    gm_page.locator(".side-tabs").get_by_role("button", name="Play").click()
    roll_form = gm_page.locator("form[aria-label='Free roll']")
    roll_form.get_by_label("Dice").fill("1d20")
    roll_form.get_by_label("For").fill("ambush check")
    roll_form.get_by_label("Secret (only you see it)").check()
    roll_form.get_by_role("button", name="Roll").click()
    expect(gm_page.locator("#log .entry").first).to_contain_text("ambush check")
    gm_page.locator("#undo button").click()
    expect(gm_page.locator("#log .entry").first).to_contain_text("Undone")
    expect(player.locator("#log")).not_to_contain_text("ambush check")

    gm_page.screenshot(path=str(artifacts / "gm-console.png"), full_page=True)
    player.screenshot(path=str(artifacts / "player-phone.png"), full_page=True)
    # The narrowest phones: nothing sticks out sideways at 360 px.
    player.set_viewport_size({"width": 360, "height": 740})
    assert player.evaluate("document.documentElement.scrollWidth") <= 360
    player.screenshot(path=str(artifacts / "player-360.png"), full_page=True)
    assert "ambush check" not in player.content()
    gm.close()
    phone.close()


def test_a_phone_that_slept_catches_up_on_its_own(browser, live_server, live_http, artifacts):
    from tests.helpers import Table

    table = Table.create(live_http, dice="server")
    table.ok(table.gm, "generic.pool.create", name="Fate", value=3)
    phone = browser.new_context(**PHONE, base_url=live_server.url)
    page = phone.new_page()
    seat = table.join("Ben")
    page.add_init_script(RECORD_SOCKETS)
    page.goto(f"/c/{table.id}/seat/{seat.token}")
    expect(page.locator("#live-pill")).to_have_text("live")
    # The network drops (the phone sleeps); meanwhile the table moves on.
    phone.set_offline(True)
    page.evaluate("() => window.sockets.at(-1).close()")
    table.ok(table.gm, "generic.pool.adjust", pool="Fate", delta=-2)
    table.ok(table.gm, "generic.roll", expression="2d6", label="wake-up check")
    phone.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator("#pools")).to_contain_text("1", timeout=10_000)
    expect(page.locator("#log")).to_contain_text("wake-up check")
    expect(page.locator("#live-pill")).to_have_text("live")
    page.screenshot(path=str(artifacts / "player-after-sleep.png"), full_page=True)
    phone.close()


def test_dice_a_player_is_typing_survive_a_push_that_redraws_their_buttons(browser, live_server, live_http):
    from tests.helpers import Table

    table = Table.create(live_http, dice="manual")
    seat = table.join("Ann")
    phone = browser.new_context(**PHONE, base_url=live_server.url)
    page = phone.new_page()
    page.goto(f"/c/{table.id}/seat/{seat.token}")
    expect(page.locator("#live-pill")).to_have_text("live")
    d20 = page.locator("#rolls form", has_text="d20").first
    d20.locator("input[name=dice]").fill("1")
    d20.locator("input[name=dice]").focus()
    # The GM adds a roll button: the phone's buttons, the one Ann is typing into included, are drawn again.
    table.ok(table.gm, "generic.preset.create", label="Sneak", expression="2d6")
    expect(page.locator("#rolls")).to_contain_text("Sneak")
    dice = page.locator("#rolls form", has_text="d20").first.locator("input[name=dice]")
    expect(dice).to_have_value("1")
    # The caret is still in the box: typing goes on where it stopped.
    page.keyboard.type("7")
    expect(dice).to_have_value("17")
    phone.close()
