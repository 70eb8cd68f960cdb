"""Issue 17 item 7 in a real browser: a form's confirmation stays on screen after the live push that the
same command causes redraws the block the form sits in, and phones carry no card with nothing in it."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from app.demo import create_demo

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def still_there(page: Page, form_label: str, text: str) -> None:
    """The confirmation is visible, and still is once the push has long arrived and redrawn the block."""
    message = page.locator(f"form.cmd[aria-label='{form_label}'] .form-msg")
    expect(message).to_contain_text(text)
    expect(message).to_be_visible()
    time.sleep(1.2)
    expect(message).to_contain_text(text, timeout=100)
    expect(message).to_be_visible(timeout=100)


def hold_back_replies(page: Page) -> None:
    """Command replies reach the page a second late, so the push has redrawn the form's block first."""

    def late(route):
        response = route.fetch()
        time.sleep(1)
        route.fulfill(response=response)

    page.route("**/commands", late)


@pytest.mark.parametrize("push_first", [False, True], ids=["reply-first", "push-first"])
def test_prepare_an_encounter_keeps_its_confirmation_after_the_push(
    browser, live_server, artifacts, push_first
):
    demo = create_demo(live_server.app.state.fray, "generic", live_server.url)
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=live_server.url)
    gm = ctx.new_page()
    if push_first:
        hold_back_replies(gm)
    gm.goto(demo.gm_link)
    expect(gm.locator("#live-pill")).to_have_text("live")
    gm.locator("nav.side-tabs").get_by_role("button", name="Characters & seats").click()
    encounters = gm.locator("#encounters")
    encounters.get_by_text("Prepare an encounter").click()
    form = encounters.locator("form[aria-label='Prepare an encounter']")
    form.get_by_label("Name").fill("Night at the mill")
    form.get_by_role("button", name="Prepare").click()
    # The push lists the new encounter (the block is redrawn) ...
    expect(encounters.locator("li.enc").filter(has_text="Night at the mill")).to_be_visible()
    # ... and the fold the GM used stays open with its confirmation in it.
    still_there(gm, "Prepare an encounter", "Encounter Night at the mill prepared.")
    expect(form.get_by_label("Name")).to_have_value("")  # done: the form is ready for the next one
    form.locator(".form-msg").scroll_into_view_if_needed()  # the sidebar scrolls on its own
    gm.screenshot(path=str(artifacts / f"confirm-prepare-encounter-{push_first}.png"))
    ctx.close()


def test_put_on_the_table_keeps_its_confirmation_after_the_push(browser, live_server, artifacts):
    demo = create_demo(live_server.app.state.fray, "triptycho", live_server.url)
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=live_server.url)
    gm = ctx.new_page()
    gm.goto(demo.gm_link)
    expect(gm.locator("#live-pill")).to_have_text("live")
    form = gm.locator("form[aria-label='Put a map on the table']")
    choice = form.get_by_label("Saved map")
    names = choice.locator("option").all_text_contents()
    current = choice.evaluate("s => s.options[s.selectedIndex].text")
    other = next(name for name in names if name != current)
    choice.select_option(label=other)
    form.get_by_role("button", name="Put on the table").click()
    expect(gm.locator("#tp-gm-map h2")).to_contain_text(other)  # the push redrew the card
    still_there(gm, "Put a map on the table", f"The battle map is now {other}.")
    gm.screenshot(path=str(artifacts / "confirm-put-on-the-table.png"), full_page=True)
    ctx.close()


EMPTY_CARDS = """() => [...document.querySelectorAll('main .card')]
    .filter(card => card.offsetParent !== null)
    .filter(card => {
        const copy = card.cloneNode(true);
        copy.querySelectorAll('h1, h2, h3, style, [hidden]').forEach(e => e.remove());
        return copy.textContent.trim() === '' && !copy.querySelector('form, svg, img, input, button');
    })
    .map(card => card.id || card.className)"""


def test_phones_of_system_games_carry_no_empty_cards(browser, live_server, artifacts):
    for key in ("tote", "trinity", "triptycho", "fivebyfive"):
        demo = create_demo(live_server.app.state.fray, key, live_server.url)
        ctx = browser.new_context(**PHONE, base_url=live_server.url)
        phone = ctx.new_page()
        phone.goto(demo.player_links[0][1])
        expect(phone.locator("#live-pill")).to_have_text("live")
        assert phone.evaluate(EMPTY_CARDS) == [], key
        # A name alone is no card: the system's own panel draws the character.
        for card in phone.locator("#mine article.character").all():
            assert card.locator(".tracks, .pools, .notes").count() > 0, key
        # Nor does an empty block leave a gap between the cards.
        for block, inside in (("#mine", "article"), ("#prompts", "*")):
            if phone.locator(f"{block} {inside}").count() == 0:
                expect(phone.locator(block)).to_be_hidden()
        # Pools and initiative appear only with something in them.
        for block in ("#pools", "#initiative"):
            if phone.locator(block).is_visible():
                assert phone.locator(f"{block} li").count() > 0, (key, block)
        phone.screenshot(path=str(artifacts / f"phone-cards-{key}.png"), full_page=True)
        ctx.close()
