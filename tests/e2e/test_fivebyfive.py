"""Xceptional 5x5 in a real browser: the GM rolls Initiative, a phone drags its token within the
movement circle and strikes a highlighted target, the GM's NPC Controls the Hit, the phone chooses the
damage; the GM console and the table view follow live."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.api.test_fivebyfive import ARIA as ARIA_SHEET
from tests.api.test_fivebyfive import rooftop
from tests.helpers import Table

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def screen_point(page: Page, x: float, y: float) -> tuple[float, float]:
    """Where the tabletop's (x, y) inches are on the screen."""
    return page.evaluate(
        """([x, y]) => {
            const svg = document.querySelector('svg.fx-map');
            const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
            return [p.x, p.y];
        }""",
        [x, y],
    )


def view_width(page: Page) -> float:
    return page.evaluate("document.querySelector('svg.fx-map').viewBox.baseVal.width")


def pinch(page: Page, x: float, y: float) -> None:
    """Two fingers on the tabletop moving apart (Chrome's touch input, as a phone sends it)."""
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, spread: float) -> None:
        points = [{"x": x - spread, "y": y, "id": 0}, {"x": x + spread, "y": y, "id": 1}]
        cdp.send(
            "Input.dispatchTouchEvent", {"type": kind, "touchPoints": points if kind != "touchEnd" else []}
        )

    touch("touchStart", 20)
    for spread in (30, 40, 50, 60):
        touch("touchMove", spread)
    touch("touchEnd", 60)
    cdp.detach()


def test_a_phone_drags_its_token_in_the_circle_and_strikes_and_everyone_sees_it(
    browser, live_server, live_http, artifacts
):
    table = Table.create(live_http, system="fivebyfive", dice="manual")
    ann, _, ids = rooftop(table)
    thug = ids["Thug"]

    gm_ctx = browser.new_context(viewport={"width": 1366, "height": 900}, base_url=live_server.url)
    gm = gm_ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(gm.locator("#live-pill")).to_have_text("live")
    phone_ctx = browser.new_context(**PHONE, base_url=live_server.url)
    phone = phone_ctx.new_page()
    phone.goto(f"/c/{table.id}/seat/{ann.token}")
    expect(phone.locator("#live-pill")).to_have_text("live")
    tv_ctx = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_server.url)
    tv = tv_ctx.new_page()
    tv.goto(f"/c/{table.id}/watch/{table.spectator}")
    expect(tv.locator("#live-pill")).to_have_text("live")
    expect(tv.locator("#map .fx-token")).to_have_count(3)

    # The GM rolls Initiative with physical dice: Aria 3, Brick 1, Thug 3 (a tie: the PC goes first).
    roll = gm.locator("#fx-turn form[aria-label^='Roll Initiative']")
    roll.locator("input[name=dice]").fill("3 1 3")
    roll.get_by_role("button").click()
    expect(phone.locator("#initiative li.current")).to_contain_text("Aria")
    expect(tv.locator("#initiative li").first).to_contain_text("Aria")

    # Aria's phone: the movement circle (3 inches) and the Thug, out of reach for a Strike.
    expect(phone.locator("#map .fx-reach.mine")).to_have_attribute("r", "3.0")
    strike = phone.locator(f"#fx-act-{thug} form[aria-label='Strike Thug']")
    expect(strike.get_by_role("button")).to_be_disabled()
    expect(strike).to_contain_text("out of reach")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=str(artifacts / "fivebyfive-phone-turn.png"), full_page=True)

    # Drag Aria's token 2.2 inches right, inside the circle.
    token = phone.locator("#map .fx-token[data-name='Aria']")
    start = screen_point(phone, 4, 8)
    end = screen_point(phone, 6.2, 8)
    phone.mouse.move(*start)
    phone.mouse.down()
    phone.mouse.move((start[0] + end[0]) / 2, end[1], steps=4)
    phone.mouse.move(*end, steps=4)
    phone.mouse.up()
    expect(token).to_have_attribute("data-x", "6.2")
    # The GM console and the table view move the token too, without a reload.
    expect(gm.locator("#map .fx-token[data-name='Aria']")).to_have_attribute("data-x", "6.2")
    expect(tv.locator("#map .fx-token[data-name='Aria']")).to_have_attribute("data-x", "6.2")

    # Two fingers spread on the phone's table zoom in; the zoom stays through live updates.
    before = view_width(phone)
    pinch(phone, *screen_point(phone, 8, 8))
    zoomed = view_width(phone)
    assert zoomed < before * 0.8
    # The table view zooms with its buttons.
    tv.get_by_role("button", name="Zoom in").click()
    tv_zoomed = view_width(tv)
    assert tv_zoomed < 25

    # Now the Thug is a highlighted target with its exact chance; tapping it leads to the Strike.
    target = phone.locator(f"#map .fx-token.target[data-pid='{thug}']")
    expect(target).to_contain_text("Strike 63.9%")
    target.tap()
    strike = phone.locator(f"#fx-act-{thug} form[aria-label='Strike Thug']")
    expect(strike.get_by_role("button")).to_be_enabled()
    expect(strike).to_contain_text("Strike 2 x Rage 3: 6 or less")
    strike.locator("input[name=dice]").fill("2 3")
    strike.get_by_role("button").tap()

    # The GM answers for the Thug: Control the Hit with Parry, the odds shown; 4 x 4 fails.
    control = gm.locator("#fx-prompt .fx-control")
    expect(control).to_contain_text("Roll Parry")
    expect(control).to_contain_text("Not controlled")
    expect(tv.locator("#fx-board")).to_contain_text("Aria → Thug")
    control.locator("input[name=dice]").fill("4 4")
    control.get_by_role("button").click()

    # Not controlled: Aria's player chooses which of the Thug's Abilities drops.
    rage = phone.locator("#prompts").get_by_role("button", name="Rage")
    expect(rage).to_be_visible()
    phone.screenshot(path=str(artifacts / "fivebyfive-phone-damage.png"), full_page=True)
    rage.tap()
    expect(gm.locator(f"#fx-sheet-{thug}")).to_contain_text("2/3")
    assert view_width(phone) == zoomed and view_width(tv) == tv_zoomed  # kept through the pushes
    expect(gm.locator("#fx-order li.current")).to_contain_text("Thug")
    expect(tv.locator("#initiative li.current")).to_contain_text("Thug")
    expect(phone.locator("#fx-turn")).not_to_contain_text("Your turn")

    gm.screenshot(path=str(artifacts / "fivebyfive-gm.png"), full_page=True)
    tv.screenshot(path=str(artifacts / "fivebyfive-table.png"), full_page=True)
    phone.set_viewport_size({"width": 360, "height": 740})
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    phone.screenshot(path=str(artifacts / "fivebyfive-phone-360.png"), full_page=True)
    # The phone never saw the Thug's numbers.
    assert "Parry 2 x Rage" not in phone.content()
    for ctx in (gm_ctx, phone_ctx, tv_ctx):
        ctx.close()


def center(locator) -> tuple[float, float]:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, steps=5)
    page.mouse.move(*end, steps=5)
    page.mouse.up()


def token_at(table: Table, name: str) -> tuple[float, float] | None:
    tokens = table.view(table.gm)["system"]["board"]["tokens"]
    found = [(t["x"], t["y"]) for t in tokens if t["name"] == name]
    return found[0] if found else None


def test_the_gm_drags_names_from_the_tray_onto_a_zoomed_table_and_draws_terrain(
    browser, live_server, live_http, artifacts
):
    table = Table.create(live_http, system="fivebyfive", dice="manual")
    ann = table.join("Ann")
    characters = [
        {"name": "Aria", "kind": "pc", "player": "Ann", **ARIA_SHEET},
        {"name": "Thug", "kind": "npc", **ARIA_SHEET},
    ]
    table.ok(table.gm, "fivebyfive.import", board={"width": 24, "height": 16}, characters=characters)

    gm_ctx = browser.new_context(viewport={"width": 1366, "height": 900}, base_url=live_server.url)
    gm = gm_ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(gm.locator("#live-pill")).to_have_text("live")
    # An empty table: both names wait in the tray, and the hint says what works.
    expect(gm.locator("#map .fx-token")).to_have_count(0)
    tray = gm.locator("#map .fx-tray")
    expect(tray.locator(".fx-chip")).to_have_text(["Aria", "Thug"])
    expect(gm.locator("#fx-board .fx-hint")).to_contain_text("drag a name from the tray")
    phone_ctx = browser.new_context(**PHONE, base_url=live_server.url)
    phone = phone_ctx.new_page()
    phone.goto(f"/c/{table.id}/seat/{ann.token}")
    expect(phone.locator("#map .fx-tray")).to_contain_text("Aria: the GM puts you on the table")
    expect(phone.locator("#map .fx-tray")).not_to_contain_text("Thug")
    gm.screenshot(path=str(artifacts / "fivebyfive-tray-empty.png"), full_page=True)

    # Zoomed in and panned, a drop still lands on the inches under the pointer.
    gm.locator("#map").get_by_role("button", name="Zoom in").click()
    gm.locator("#map").get_by_role("button", name="Zoom in").click()
    assert view_width(gm) < 20
    drag(gm, center(tray.locator(".fx-chip", has_text="Aria")), screen_point(gm, 9, 7))
    expect(gm.locator("#map .fx-token[data-name='Aria']")).to_be_visible()
    x, y = token_at(table, "Aria")
    assert abs(x - 9) < 0.15 and abs(y - 7) < 0.15, (x, y)
    expect(tray.locator(".fx-chip")).to_have_text(["Thug"])
    expect(phone.locator("#map .fx-token[data-name='Aria']")).to_be_visible()
    expect(phone.locator("#map .fx-tray")).to_have_count(0)

    # The terrain tool: a rectangle dragged out on open table becomes a named, solid piece of terrain.
    gm.locator("form.fx-terrain-form input[name=name]").fill("Crates")
    gm.locator("form.fx-terrain-form").screenshot(path=str(artifacts / "fivebyfive-terrain-form.png"))
    gm.locator("#map .fx-terrain-tool").click()
    expect(gm.locator("#map .fx-terrain-tool")).to_have_attribute("aria-pressed", "true")
    drag(gm, screen_point(gm, 13, 9.5), screen_point(gm, 16, 11.5))
    expect(gm.locator("#map .fx-terrain")).to_have_count(1)
    terrain = table.view(table.gm)["system"]["board"]["terrain"]
    assert terrain[0]["name"] == "Crates" and terrain[0]["solid"]
    xs = sorted({p[0] for p in terrain[0]["points"]})
    ys = sorted({p[1] for p in terrain[0]["points"]})
    assert abs(xs[0] - 13) < 0.15 and abs(xs[-1] - 16) < 0.15, xs
    assert abs(ys[0] - 9.5) < 0.15 and abs(ys[-1] - 11.5) < 0.15, ys
    # The tool stays on through the push; Escape puts it down.
    expect(gm.locator("#map .fx-terrain-tool")).to_have_attribute("aria-pressed", "true")
    gm.locator("#map .fx-token[data-name='Aria']").focus()
    gm.keyboard.press("Escape")
    expect(gm.locator("#map .fx-terrain-tool")).to_have_attribute("aria-pressed", "false")

    # A focused token moves an inch with an arrow key, and keeps the focus for the next press.
    gm.locator("#map .fx-token[data-name='Aria']").focus()
    gm.keyboard.press("ArrowDown")
    expect(gm.locator("#map .fx-token[data-name='Aria']")).to_have_attribute("data-y", "8.0")
    gm.keyboard.press("ArrowLeft")
    expect(gm.locator("#map .fx-token[data-name='Aria']")).to_have_attribute("data-x", "8.0")
    assert token_at(table, "Aria") == (8.0, 8.0)

    # A refused drop (onto the crates) changes nothing and says why.
    drag(gm, center(tray.locator(".fx-chip", has_text="Thug")), screen_point(gm, 14.5, 10.5))
    expect(gm.locator("form.fx-place-form .form-msg")).to_contain_text("Crates")
    assert token_at(table, "Thug") is None
    # From the keyboard: Enter on a tray name puts it in the middle of the view, focused for the arrows.
    gm.locator("#map").get_by_role("button", name="Show all of the table").click()
    tray.locator(".fx-chip", has_text="Thug").focus()
    gm.keyboard.press("Enter")
    expect(gm.locator("#map .fx-token[data-name='Thug']")).to_have_attribute("data-x", "12.0")
    expect(gm.locator("#map .fx-token[data-name='Thug']")).to_be_focused()
    gm.keyboard.press("Shift+ArrowDown")
    expect(gm.locator("#map .fx-token[data-name='Thug']")).to_have_attribute("data-y", "8.25")
    gm.screenshot(path=str(artifacts / "fivebyfive-tray-drawn.png"), full_page=True)
    for ctx in (gm_ctx, phone_ctx):
        ctx.close()


def touch_drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    """One finger from start to end, as a touch screen sends it."""
    cdp = page.context.new_cdp_session(page)
    steps = 8
    cdp.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]}
    )
    for i in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * i / steps
        y = start[1] + (end[1] - start[1]) * i / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_gm_on_a_tablet_drags_a_name_onto_the_table_with_a_finger(
    browser, live_server, live_http, artifacts
):
    table = Table.create(live_http, system="fivebyfive", dice="manual")
    characters = [{"name": "Thug", "kind": "npc", **ARIA_SHEET}]
    table.ok(table.gm, "fivebyfive.import", board={"width": 24, "height": 16}, characters=characters)
    ctx = browser.new_context(
        viewport={"width": 1024, "height": 768}, is_mobile=True, has_touch=True, base_url=live_server.url
    )
    gm = ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(gm.locator("#live-pill")).to_have_text("live")
    chip = gm.locator("#map .fx-chip", has_text="Thug")
    expect(chip).to_be_visible()
    touch_drag(gm, center(chip), screen_point(gm, 18, 10))
    expect(gm.locator("#map .fx-token[data-name='Thug']")).to_be_visible()
    x, y = token_at(table, "Thug")
    assert abs(x - 18) < 0.2 and abs(y - 10) < 0.2, (x, y)
    gm.screenshot(path=str(artifacts / "fivebyfive-tray-touch.png"))
    ctx.close()


def test_a_player_moves_their_token_with_the_arrow_keys_on_their_turn(browser, live_server, live_http):
    table = Table.create(live_http, system="fivebyfive", dice="manual")
    ann, _, _ = rooftop(table)
    table.ok(table.gm, "fivebyfive.roll_initiative", dice=[3, 1, 3])  # Aria first, 3 inches
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_server.url)
    page = ctx.new_page()
    page.goto(f"/c/{table.id}/seat/{ann.token}")
    expect(page.locator("#live-pill")).to_have_text("live")
    aria = page.locator("#map .fx-token[data-name='Aria']")
    expect(aria).to_have_attribute("data-drag", "move")
    aria.focus()
    page.keyboard.press("ArrowUp")
    expect(aria).to_have_attribute("data-y", "7.0")
    expect(aria).to_be_focused()
    page.keyboard.press("ArrowUp")
    expect(aria).to_have_attribute("data-y", "6.0")
    # The third press spends the last of her three inches: the server has her there.
    page.keyboard.press("ArrowUp")
    expect(aria).to_have_attribute("data-y", "5.0")
    assert token_at(table, "Aria") == (4.0, 5.0)
    ctx.close()
