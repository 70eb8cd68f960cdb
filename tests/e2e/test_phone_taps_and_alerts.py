"""Phones never lose a tap and never miss their moment: a tap made offline (or that the server never
answered) is kept and sent once when the connection is back, the pill says offline at once, and a phone
buzzes and says so when its turn comes or a question is put to it."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from tests.e2e.test_map import PHONE
from tests.helpers import Table


def test_a_roll_tapped_offline_is_sent_once_when_the_phone_is_back(
    browser, live_server, live_http, artifacts: Path
):
    table = Table.create(live_http, dice="server")
    ann = table.join("Ann")
    gm_ctx = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=live_server.url)
    gm = gm_ctx.new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(gm.locator("#live-pill")).to_have_text("live")
    phone_ctx = browser.new_context(**PHONE, base_url=live_server.url)
    phone = phone_ctx.new_page()
    phone.goto(f"/c/{table.id}/seat/{ann.token}")
    pill = phone.locator("#live-pill")
    expect(pill).to_have_text("live")
    before = table.view(table.gm)["campaign"]["seq"]

    phone_ctx.set_offline(True)
    expect(pill).to_have_text("offline", timeout=1000)  # within a second of going offline
    d20 = phone.locator("#rolls form[aria-label='d20']")
    d20.get_by_role("button").tap()
    expect(d20.locator(".form-msg")).to_contain_text("kept, and sent when the connection is back")
    phone.screenshot(path=str(artifacts / "phone-offline-tap.png"))
    assert table.view(table.gm)["campaign"]["seq"] == before  # nothing reached the table

    phone_ctx.set_offline(False)
    expect(gm.locator("#log")).to_contain_text("Ann rolled 1d20")
    expect(pill).to_have_text("live")
    expect(d20.locator(".form-msg")).not_to_contain_text("kept")
    phone.wait_for_timeout(1500)  # a second resend, were there one, would have landed by now
    rolls = [
        e
        for e in table.http.get(f"/api/campaigns/{table.id}/events", headers=table.gm.auth).json()["events"]
        if e["type"] == "generic.rolled"
    ]
    assert len(rolls) == 1 and rolls[0]["seq"] > before
    for ctx in (gm_ctx, phone_ctx):
        ctx.close()


def test_a_tap_the_server_never_answered_is_kept_and_sent_later(browser, live_server, live_http):
    table = Table.create(live_http, dice="server")
    ann = table.join("Ann")
    phone_ctx = browser.new_context(**PHONE, base_url=live_server.url)
    phone = phone_ctx.new_page()
    phone.goto(f"/c/{table.id}/seat/{ann.token}")
    expect(phone.locator("#live-pill")).to_have_text("live")
    phone.route("**/commands", lambda route: route.abort())  # the server away for the tap
    d6 = phone.locator("#rolls form[aria-label='d6']")
    d6.get_by_role("button").tap()
    expect(d6.locator(".form-msg")).to_contain_text("kept")
    # The socket's heartbeat is still answered: the pill says live, the form says what became of the tap.
    expect(phone.locator("#live-pill")).to_have_text("live")
    phone.unroute("**/commands")
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # the phone looks again
    expect(phone.locator("#log")).to_contain_text("Ann rolled 1d6")
    phone_ctx.close()


def test_a_phone_buzzes_and_says_so_when_its_turn_comes(browser, live_server, live_http):
    table = Table.create(live_http, dice="server")
    ann = table.join("Ann")
    table.character("Aria", owner=ann)
    table.character("Brick")
    table.ok(
        table.gm,
        "generic.initiative.set",
        entries=[{"participant": "Brick", "value": 14}, {"participant": "Aria", "value": 9}],
    )
    table.ok(table.gm, "generic.initiative.next")  # Brick's turn
    phone_ctx = browser.new_context(**PHONE, base_url=live_server.url)
    phone = phone_ctx.new_page()
    phone.add_init_script(
        "window.buzzes = []; navigator.vibrate = (p) => { window.buzzes.push(p); return true; };"
    )
    phone.goto(f"/c/{table.id}/seat/{ann.token}")
    expect(phone.locator("#live-pill")).to_have_text("live")
    assert phone.evaluate("window.buzzes") == []
    table.ok(table.gm, "generic.initiative.next")  # Aria's
    expect(phone.locator("#status .turn-banner")).to_have_text("Your turn!")
    assert phone.evaluate("window.buzzes") == [[120, 60, 120]]
    phone_ctx.close()


def _take(table: Table, seat, label: str, **extra) -> None:
    """Send what the seat's option of that label sends, as its button would."""
    command = dict(next(o["command"] for o in table.view(seat)["options"] if o["label"] == label))
    table.ok(seat, command.pop("type"), **command, **extra)


def test_a_tote_phone_says_your_turn_and_buzzes_when_it_must_declare(browser, live_server, live_http):
    from tests.api.test_tote import ogre_bridge

    table = ogre_bridge(live_http)  # everyone at Melee, Initiative to roll
    ann, ben = table.players["Ann"], table.players["Ben"]
    phone_ctx = browser.new_context(**PHONE, base_url=live_server.url)
    phone = phone_ctx.new_page()
    phone.add_init_script(
        "window.buzzes = []; navigator.vibrate = (p) => { window.buzzes.push(p); return true; };"
    )
    phone.goto(f"/c/{table.id}/seat/{ann.token}")
    expect(phone.locator("#live-pill")).to_have_text("live")
    phone.locator("#tote-me h2").first.click()  # the player has touched the phone (vibration needs it)

    # Initiative, lowest declares first: the Ogre (GM), then Tahoma (Ben), then Aiyana (Ann).
    _take(table, ann, "Roll Initiative: Aiyana", dice=[5, 2, 4])
    _take(table, ben, "Roll Initiative: Tahoma", dice=[3, 6])
    _take(table, table.gm, "Roll Initiative: Ogre", dice=[1, 2, 1])
    _take(table, table.gm, "Attack (1) Tahoma")
    expect(phone.locator("#tote-turn .turn-banner")).to_have_count(0)
    assert phone.evaluate("window.buzzes") == []

    _take(table, ben, "Defend (0)")
    expect(phone.locator("#tote-turn .turn-banner")).to_have_text("Your turn! Declare your action")
    expect(phone.locator("#tote-turn")).to_have_class(re.compile(r"\bmy-turn\b"))
    assert phone.evaluate("window.buzzes") == [[80, 60, 80]]
    phone.screenshot(path=str(Path(__file__).parent / "artifacts" / "tote-phone-your-turn.png"))
    phone_ctx.close()
