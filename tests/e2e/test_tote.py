"""TOTE in real browsers: two phone-sized heroes roll Initiative and declare, the GM declares for the Ogre
and resolves the round with typed physical dice, the defender answers on his phone, and the shared
screen follows it all live (phases, Initiative bars, engagement lines, dice with crossed-out faces)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.api.test_tote import sheets
from tests.helpers import Table

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def tap_option(page, label: str, dice: str | None = None) -> None:
    form = page.locator(f"form.tt-option[aria-label='{label}']")
    if dice is not None:
        form.get_by_label("Dice").fill(dice)
    form.locator("button[type=submit]").click()


def test_two_phones_declare_and_the_gm_resolves_a_round_live(browser, live_server, live_http, artifacts):
    table = Table.create(live_http, name="Ogre bridge", system="tote", dice="manual")
    ann, ben = table.join("Ann"), table.join("Ben")
    table.ok(table.gm, "tote.import", sheets=sheets())
    table.ok(
        table.gm,
        "campaign.encounter.prepare",
        name="The bridge",
        participants=["Aiyana", "Tahoma", "Ogre"],
        setup={"distance": "close"},
    )
    table.ok(table.gm, "campaign.encounter.start", encounter="The bridge")

    gm_ctx = browser.new_context(viewport={"width": 1366, "height": 900}, base_url=live_server.url)
    gm = gm_ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    screen_ctx = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_server.url)
    screen = screen_ctx.new_page()
    screen.goto(f"/c/{table.id}/watch/{table.spectator}")
    phones = {}
    for seat in (ann, ben):
        ctx = browser.new_context(**PHONE, base_url=live_server.url)
        page = ctx.new_page()
        page.goto(f"/c/{table.id}/seat/{seat.token}")
        phones[seat.name] = page
    ann_p, ben_p = phones["Ann"], phones["Ben"]
    for page in (gm, screen, ann_p, ben_p):
        expect(page.locator("#live-pill")).to_have_text("live")

    # The GM brings everyone to Melee; the shared screen's Distance band moves the tokens live.
    place = gm.locator("form[aria-label='Place at a range']")
    gm.get_by_text("Move someone, fix a number").click()
    for who in ("Aiyana", "Tahoma", "Ogre"):
        place.get_by_label("Character").fill(who)
        place.get_by_label("Range").select_option("melee")
        place.get_by_role("button", name="Place").click()
        expect(place.locator(".form-msg")).to_contain_text(f"{who}: Close → Melee")
    expect(screen.locator("#tote-board .token.side-enemy")).to_have_attribute(
        "transform", "translate(600 84)"
    )

    # Initiative: each phone rolls its own hero with typed dice; the GM rolls the Ogre.
    tap_option(ann_p, "Roll Initiative: Aiyana", "5 2 4")
    tap_option(ben_p, "Roll Initiative: Tahoma", "3 6")
    expect(screen.locator("#tote-order .tt-bar").filter(has_text="Aiyana")).to_contain_text("4")
    expect(screen.locator("#tote-order .tt-bar").filter(has_text="Tahoma")).to_contain_text("3")
    expect(gm.locator("#tote-act form.tt-option")).to_have_count(1)  # only the Ogre's roll is left
    tap_option(gm, "Roll Initiative: Ogre", "1 2 1")
    expect(screen.locator("#tote-board .tt-banner")).to_contain_text("Declaration")
    # The Ogre's Initiative would give its Rating away: the table sees its place, not its number.
    expect(screen.locator("#tote-order .tt-bar.secret").filter(has_text="Ogre")).to_contain_text("?")
    expect(gm.locator("#tote-fight .tt-bar").filter(has_text="Ogre")).to_contain_text("3")

    # Declaration, lowest first: the Ogre (GM), then Tahoma (Ben), then Aiyana (Ann).
    expect(gm.locator("#tote-act")).to_contain_text("Declare for Ogre")
    expect(ann_p.locator("#tote-turn")).not_to_contain_text("Declare your action")
    tap_option(gm, "Attack (1) Tahoma")
    expect(ben_p.locator("#tote-turn")).to_contain_text("Declare your action")
    # Issue 17: what Tahoma can do comes first; what he cannot is folded under one line.
    visible = ben_p.locator("#tote-turn .tt-options.declare form.tt-option:visible button")
    assert visible.count() >= 3 and all(visible.nth(i).is_enabled() for i in range(visible.count()))
    expect(ben_p.locator("#tote-turn .tt-unusable summary")).to_contain_text("more you cannot take now")
    ben_p.screenshot(path=str(artifacts / "tote-phone-declare.png"), full_page=True)
    tap_option(ben_p, "Defend (0)")
    expect(ann_p.locator("#tote-turn")).to_contain_text("Declare your action")
    attack = ann_p.locator("form.tt-option[aria-label='Attack (1) Ogre']")
    expect(attack.locator(".odds")).to_contain_text("Miss")
    expect(ann_p.locator("form.tt-option[aria-label='Disengage (3)'] .reason")).to_contain_text("TO-E-2")
    tap_option(ann_p, "Attack (1) Ogre")

    # Resolution, highest first, shown on every screen.
    expect(screen.locator("#tote-board .tt-banner")).to_contain_text("Resolution")
    expect(screen.locator("#tote-order .tt-phase.now")).to_contain_text("Resolution")
    expect(screen.locator("#tote-order .chip.now")).to_contain_text("Aiyana")
    # The GM resolves Aiyana's attack with her physical dice: a hit, the pair engages.
    tap_option(gm, "Aiyana: Attack Ogre", "5 1 3")
    expect(screen.locator("#tote-last")).to_contain_text("1 success")
    expect(screen.locator("#tote-board line.engaged")).to_have_count(1)
    # The Ogre's attack: a hit with a Bonus; the failed Effect test; Tahoma marks his 5.
    tap_option(gm, "Ogre: Attack Tahoma", "6 2 1 1 1 1")
    expect(ben_p.locator("#tote-turn")).to_contain_text("Answer the attack")
    expect(gm.locator("#tote-fight .tt-banner")).to_contain_text("waiting for Tahoma")
    # The GM may answer for Ben (who might have stepped away): the same buttons, odds and dice box.
    expect(gm.locator("#tote-act .tt-question.on-behalf")).to_contain_text("Answer for Tahoma")
    gm_strike = gm.locator("#tote-act form.tt-option[aria-label='Defend: answer with a Strike']")
    expect(gm_strike.locator(".odds")).to_contain_text("Miss")
    expect(gm_strike.get_by_label("Dice")).to_be_visible()
    expect(ben_p.locator("#tote-me .tt-faces .tt-die.blocked")).to_have_text("5")
    ben_p.screenshot(path=str(artifacts / "tote-phone-answer.png"), full_page=True)
    # Tahoma answers with a Strike on his phone: the 5 is crossed out, 4 + Paragon 4 is a Critical.
    tap_option(ben_p, "Defend: answer with a Strike", "5 4 4")
    expect(screen.locator("#tote-last")).to_contain_text("Critical")
    expect(gm.locator("#tote-act .tt-question")).to_have_count(0)  # Ben answered: the GM's buttons go
    expect(screen.locator("#tote-last .tt-die.blocked")).to_have_text("5")
    expect(screen.locator("#tote-last .paragon .tt-die")).to_have_text("4")
    # Every action resolved: round 2 begins, and the bars show what was spent.
    expect(screen.locator("#tote-board .tt-banner")).to_contain_text("Round 2")
    expect(gm.locator("#tote-fight .tt-banner")).to_contain_text("Round 2")
    expect(screen.locator("#tote-order .tt-bar").filter(has_text="Aiyana")).to_contain_text("3")
    expect(ann_p.locator("#log")).to_contain_text("Tahoma attacks Ogre (Defend answer)")

    gm.screenshot(path=str(artifacts / "tote-gm.png"), full_page=True)
    screen.screenshot(path=str(artifacts / "tote-table.png"), full_page=True)
    ann_p.screenshot(path=str(artifacts / "tote-phone-ann.png"), full_page=True)
    for page in (ann_p, ben_p):
        page.set_viewport_size({"width": 360, "height": 740})
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    ben_p.screenshot(path=str(artifacts / "tote-phone-360.png"), full_page=True)
    assert "Lurker" not in ann_p.content() and "SECRETFANG" not in ben_p.content()
    for ctx in (gm_ctx, screen_ctx, ann_p.context, ben_p.context):
        ctx.close()
