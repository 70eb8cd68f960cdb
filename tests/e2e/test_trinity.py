"""The Trinity Code in a real browser: a GM and two phones. Ann opens fire through the karma window and
spends Luck on a reroll; the GM's screen and Ben's phone see harm, ammo, armour and the pools change live."""

from __future__ import annotations

from playwright.sync_api import expect

from app.demo import _with_seats
from app.rules.trinity.demo import DEMO
from tests.helpers import Table

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def demo_table(http) -> tuple[Table, dict]:
    """The demo Investigation (pistol, rifle, tactical armour, healing potion) with physical dice."""
    table = Table.create(http, name="The Hollow Chapel", system="trinity", dice="manual")
    seats = {name: table.join(name) for name in DEMO.players}
    ids = {name: seat.seat_id for name, seat in seats.items()}
    for command in DEMO.commands:
        fields = dict(_with_seats(command, ids))
        table.ok(table.gm, fields.pop("type"), **fields)
    return table, seats


def sheet(page, name: str):
    return page.locator(f".tc-sheet[data-character='{name}']").first


def test_a_player_opens_fire_through_the_karma_window_and_spends_luck(
    browser, live_server, live_http, artifacts
):
    table, seats = demo_table(live_http)
    gm_ctx = browser.new_context(viewport={"width": 1366, "height": 900}, base_url=live_server.url)
    ann_ctx = browser.new_context(**PHONE, base_url=live_server.url)
    ben_ctx = browser.new_context(**PHONE, base_url=live_server.url)
    gm, ann, ben = gm_ctx.new_page(), ann_ctx.new_page(), ben_ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    ann.goto(f"/c/{table.id}/seat/{seats['Ann'].token}")
    ben.goto(f"/c/{table.id}/seat/{seats['Ben'].token}")
    for page in (gm, ann, ben):
        expect(page.locator("#live-pill")).to_have_text("live")
    # The board, the pools and the tracks are drawn.
    expect(gm.locator("#tc-board .tc-lane")).to_have_count(2)
    expect(ann.locator("#tc-field .tc-pool.good [data-tc=good]")).to_have_text("1")
    expect(ann.locator("#tc-field .tc-pool.bad [data-tc=bad]")).to_have_text("3")
    expect(sheet(ann, "Aria").locator(".tc-harm .tc-box")).to_have_count(9)
    # Only legal moves are offered; the rest say why (aim needs team advantage).
    moves = ann.locator("#tc-moves")
    fire = moves.locator("form.option:not(.disabled)", has_text="Open fire: Ghoul (pistol)")
    expect(fire).to_contain_text("7-9")
    expect(moves.locator(".tc-off").first).to_contain_text("needs your team to have advantage")
    ann.screenshot(path=str(artifacts / "trinity-ann-moves.png"), full_page=True)

    # Ann opens fire at the Ghoul (close band: the pistol's close tag is -1): the karma window opens.
    fire.locator("button").tap()
    expect(ann.locator("#tc-prompts .tc-prompt.karma")).to_be_visible()
    expect(ben.locator("#tc-prompts .tc-prompt.karma")).to_contain_text("Good karma")  # any player
    gm_window = gm.locator("#tc-prompts .tc-prompt.karma", has_text="Bad karma")
    expect(gm_window).to_be_visible()
    gm.screenshot(path=str(artifacts / "trinity-gm-karma-window.png"), full_page=True)
    # The GM passes first (no dice yet); Ann grabs 1 Good and the dice roll with her answer.
    gm_window.locator("form[aria-label='Pass'] button").click()
    grab = ann.locator("#tc-prompts form[aria-label='Grab 1']")
    grab.locator("input[name=dice]").fill("2 3")
    ann.screenshot(path=str(artifacts / "trinity-ann-karma-window.png"), full_page=True)
    grab.locator("button").tap()

    # 2+3, Quickness +2, Good +1, close tag -1 = 7: a 7-9, every modifier shown. Ann rerolls with Luck.
    card = gm.locator("#tc-field .tc-move-card")
    expect(card.locator("[data-tc=total]")).to_have_text("7")
    expect(card).to_contain_text("pistol at close range")
    expect(ben.locator("#tc-field .tc-pool.bad [data-tc=bad]")).to_have_text("4")  # Ann's Good point
    reroll = ann.locator("#tc-prompts form[aria-label='Roll the 2d6 again']")
    expect(reroll).to_contain_text("+1 Good karma")
    reroll.locator("input[name=dice]").fill("6 3")
    reroll.locator("button").tap()
    expect(ann.locator("#tc-prompts .tc-prompt.effect")).to_be_visible()
    ann.locator("#tc-prompts form[aria-label='+1 harm'] button").tap()

    # Ghoul: pistol 2 +1 through hide armour-1 = 2 harm. Aria: Ghoul's 3 through armour-2 = 1 harm,
    # and the armour's threshold wears from 6 to 5. Ammo 6 -> 5. Pools: Good 0 + 1 (Luck) = 1, Bad 4.
    for page in (gm, ben):
        aria = sheet(page, "Aria")
        expect(aria.locator("[data-tc=harm]")).to_have_text("1")
        expect(aria.locator("[data-tc=ammo]")).to_have_text("5")
        expect(aria.locator("[data-tc=threshold]")).to_have_text("5")
        expect(aria.locator("[data-tc=luck]")).to_have_text("7")
        expect(page.locator("#tc-field .tc-pool.good [data-tc=good]")).to_have_text("1")
        expect(page.locator("#tc-field .tc-pool.bad [data-tc=bad]")).to_have_text("4")
    expect(gm.locator("#tc-opp-" + table.view(table.gm)["system"]["opponents"][1]["id"])).to_contain_text(
        "2/5"
    )
    expect(gm.locator("#tc-field .tc-move-card [data-tc=total]")).to_have_text("11")
    expect(ben.locator("#log")).to_contain_text("spends Luck")
    expect(ben.locator("#tc-team")).not_to_contain_text("harm-3")  # no opponent stat block on a phone

    # The GM drags Brick's token on the board to close range from the Ghoul; the phones see it move.
    row = gm.locator("#tc-board .tc-lane[data-opponent='Ghoul'] .tc-token[data-drag]", has_text="Br")
    target = gm.locator("#tc-board .tc-lane[data-opponent='Ghoul'] .tc-cell.close").nth(1)
    row.drag_to(target)
    expect(ben.locator("#tc-board .tc-lane[data-opponent='Ghoul'] .tc-cell.close.here")).to_have_count(2)

    # The table view (the spectator link) draws the same fight, with nothing to press.
    tv_ctx = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_server.url)
    tv = tv_ctx.new_page()
    tv.goto(f"/c/{table.id}/watch/{table.spectator}")
    expect(sheet(tv, "Aria").locator("[data-tc=harm]")).to_have_text("1")
    expect(tv.locator("#tc-board .tc-lane")).to_have_count(2)
    assert tv.locator("#tc-field form, #tc-board form").count() == 0
    tv.screenshot(path=str(artifacts / "trinity-table.png"), full_page=True)
    tv_ctx.close()

    gm.screenshot(path=str(artifacts / "trinity-gm.png"), full_page=True)
    ann.screenshot(path=str(artifacts / "trinity-ann.png"), full_page=True)
    ben.screenshot(path=str(artifacts / "trinity-ben.png"), full_page=True)
    # The narrowest phones: nothing sticks out sideways at 360 px.
    ann.set_viewport_size({"width": 360, "height": 740})
    assert ann.evaluate("document.documentElement.scrollWidth") <= 360
    ann.screenshot(path=str(artifacts / "trinity-ann-360.png"), full_page=True)
    for ctx in (gm_ctx, ann_ctx, ben_ctx):
        ctx.close()
