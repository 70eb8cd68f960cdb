"""Table talk in real browsers (issue 30, item 10): a phone says something under the log and the GM's
console shows it; the GM whispers to one phone, and the other phone never shows it."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.test_map import PHONE
from tests.helpers import Table


def test_a_phone_talks_to_the_table_and_a_whisper_reaches_one_phone(
    browser, live_server, live_http, artifacts
):
    table = Table.create(live_http, name="Talk", system="generic")
    ann, ben = table.join("Ann"), table.join("Ben")
    pages = {}
    for who, seat, options in (
        ("gm", table.gm, {"viewport": {"width": 1280, "height": 800}}),
        ("ann", ann, PHONE),
        ("ben", ben, PHONE),
    ):
        context = browser.new_context(**options, base_url=live_server.url)
        page = context.new_page()
        page.goto(f"/c/{table.id}/seat/{seat.token}")
        expect(page.locator("#live-pill")).to_have_text("live")
        pages[who] = page
    phone = pages["ann"]
    phone.locator("#chat-form [name=text]").fill("<b>I open the door</b>")
    phone.locator("#chat-form button[type=submit]").tap()
    for who in ("gm", "ann", "ben"):
        expect(pages[who].locator("#log-list")).to_contain_text("Ann: <b>I open the door</b>")  # as typed
    expect(phone.locator("#chat-form [name=text]")).to_have_value("")  # ready for the next line
    gm = pages["gm"]
    gm.locator("#chat-form [name=text]").fill("Ben, you hear scratching")
    gm.locator("#chat-form select[name='to[]']").select_option(label="Ben only")
    gm.locator("#chat-form button[type=submit]").click()
    expect(pages["ben"].locator("#log-list")).to_contain_text("(to Ben): Ben, you hear scratching")
    expect(gm.locator("#log-list")).to_contain_text("(to Ben): Ben, you hear scratching")
    pages["ben"].screenshot(path=str(artifacts / "chat-phone-whisper.png"))
    phone.wait_for_timeout(500)
    assert "scratching" not in phone.content()
