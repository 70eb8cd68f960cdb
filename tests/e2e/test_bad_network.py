"""Phones on a real mobile network (issue 33): each phone reaches the server through its own
fault-injecting proxy (tests/netfault.py: 150 ± 50 ms each way, 50 KB/s), and the network stalls, is cut,
switches off, or eats a reply after the server acted. No tap is lost or doubled, the pill tells the
truth, the phone reconnects once, and it is caught up within 5 s of the network's return."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.test_map import PHONE
from tests.helpers import Seat, Table
from tests.netfault import ThreadedNetFault

MOBILE = {"latency": 0.15, "jitter": 0.05, "rate": 50_000}
# Every socket the page opens, and every close it sees, for counting reconnects.
RECORD_SOCKETS = """(() => {
  const Native = window.WebSocket;
  window.sockets = []; window.closes = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.sockets.push(this);
      this.addEventListener("close", (e) => window.closes.push(e.code));
    }
  };
})()"""
# What the pill and the forms' notes said over time, to catch a false word shown only for a moment.
RECORD_WORDS = """(() => {
  window.said = [];
  new MutationObserver(() => {
    const pill = document.getElementById("live-pill");
    const words = [pill ? pill.textContent : ""];
    document.querySelectorAll(".form-msg").forEach((m) => words.push(m.textContent));
    const line = words.join(" | ");
    if (window.said.at(-1) !== line) window.said.push(line);
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
})()"""


@pytest.fixture
def proxies(live_server) -> Iterator[list[ThreadedNetFault]]:
    made: list[ThreadedNetFault] = []
    yield made
    for proxy in made:
        proxy.close()


def phone_through(browser: Browser, live_server, proxies: list, table: Table, seat: Seat):
    proxy = ThreadedNetFault(("127.0.0.1", live_server.port), seed=len(proxies), **MOBILE)
    proxies.append(proxy)
    ctx = browser.new_context(**PHONE, base_url=proxy.url)
    page = ctx.new_page()
    page.add_init_script(RECORD_SOCKETS)
    page.add_init_script(RECORD_WORDS)
    page.goto(f"/c/{table.id}/seat/{seat.token}")
    expect(page.locator("#live-pill")).to_have_text("live", timeout=20_000)
    return proxy, ctx, page


def one_phone(browser: Browser, live_server, live_http, proxies: list):
    """A table with server dice and Ann's phone on it, live through its proxy."""
    table = Table.create(live_http, dice="server")
    return (table, *phone_through(browser, live_server, proxies, table, table.join("Ann")))


def rolls_by(table: Table, name: str) -> list[dict]:
    events = table.http.get(f"/api/campaigns/{table.id}/events", headers=table.gm.auth).json()["events"]
    return [e for e in events if e["type"] == "generic.rolled" and name in str(e)]


def wait_until(check, timeout: float, step: float = 0.1) -> float:
    """Seconds until check() holds; fails after timeout."""
    started = time.monotonic()
    while not check():
        assert time.monotonic() - started < timeout, "not within the time allowed"
        time.sleep(step)
    return time.monotonic() - started


def test_a_20s_stall_loses_no_tap_doubles_none_and_the_pill_stops_saying_live(
    browser, live_server, live_http, proxies, artifacts: Path
):
    table, proxy, ctx, phone = one_phone(browser, live_server, live_http, proxies)
    pill = phone.locator("#live-pill")

    proxy.stall()  # bytes stop; nothing closes
    stalled = time.monotonic()
    taps = 0
    for _ in range(3):  # nine taps over the first seconds of the stall, three of them on one button
        for die in ("d20", "d6", "d20"):
            phone.locator(f"#rolls form[aria-label='{die}']").get_by_role("button").tap()
            taps += 1
            phone.wait_for_timeout(300)
    wait_until(lambda: pill.text_content() != "live", timeout=12)
    noticed = time.monotonic() - stalled
    assert noticed <= 10, f"the stall was noticed after {noticed:.1f} s"
    assert pill.text_content() == "reconnecting…"
    expect(phone.locator("#rolls form[aria-label='d20'] .form-msg")).to_contain_text("kept")
    phone.screenshot(path=str(artifacts / "phone-stalled.png"))
    assert rolls_by(table, "Ann") == []

    phone.wait_for_timeout(max(0, 20_000 - (time.monotonic() - stalled) * 1000))
    proxy.restore()
    wait_until(lambda: len(rolls_by(table, "Ann")) >= taps, timeout=15)
    expect(pill).to_have_text("live")
    phone.wait_for_timeout(3000)  # a late duplicate, were there one, would have landed by now
    assert len(rolls_by(table, "Ann")) == taps  # every tap once
    expect(phone.locator("#rolls .form-msg")).not_to_contain_text(["kept"] * 2)
    expect(phone.locator("#log-list li", has_text="Ann rolled")).to_have_count(taps)
    phone.screenshot(path=str(artifacts / "phone-after-stall.png"))
    ctx.close()


def test_every_phone_shows_the_servers_state_within_5s_of_an_8s_cut(
    browser, live_server, live_http, proxies, artifacts: Path
):
    table = Table.create(live_http, dice="server")
    table.ok(table.gm, "generic.pool.create", name="Fate", value=5)
    phones = [
        phone_through(browser, live_server, proxies, table, table.join(n)) for n in ("Ann", "Ben", "Cy")
    ]
    ann = phones[0][2]
    for proxy, _, _ in phones:
        proxy.cut()
    ann.locator("#rolls form[aria-label='d6']").get_by_role("button").tap()  # kept during the cut
    table.ok(table.gm, "generic.pool.adjust", pool="Fate", delta=-3)
    table.ok(table.gm, "generic.roll", expression="2d6", label="cut check")
    time.sleep(8)
    for proxy, _, _ in phones:
        proxy.restore()
    back = time.monotonic()
    for _, _, page in phones:
        expect(page.locator("#log")).to_contain_text("cut check", timeout=5_000)
        expect(page.locator("#pools")).to_contain_text("2", timeout=5_000)
        expect(page.locator("#live-pill")).to_have_text("live", timeout=5_000)
    converged = time.monotonic() - back
    assert converged <= 5, f"caught up after {converged:.1f} s"
    expect(ann.locator("#log")).to_contain_text("Ann rolled 1d6", timeout=5_000)
    assert len(rolls_by(table, "Ann")) == 1
    ann.screenshot(path=str(artifacts / "phone-after-cut.png"))
    for _, ctx, _ in phones:
        ctx.close()


def test_the_phones_offline_switch_says_offline_and_it_reconnects_once(
    browser, live_server, live_http, proxies, artifacts: Path
):
    table, _, ctx, phone = one_phone(browser, live_server, live_http, proxies)
    pill = phone.locator("#live-pill")

    ctx.set_offline(True)
    expect(pill).to_have_text("offline", timeout=1000)
    phone.wait_for_timeout(5000)
    d20 = phone.locator("#rolls form[aria-label='d20']")
    d20.get_by_role("button").tap()
    expect(d20.locator(".form-msg")).to_contain_text("kept, and sent when the connection is back")
    phone.wait_for_timeout(1500)
    assert pill.text_content() == "offline"  # the word stays while the device is offline
    assert d20.locator(".form-msg").text_content().startswith("Offline: kept")
    phone.screenshot(path=str(artifacts / "phone-offline-switch.png"))

    sockets_before = phone.evaluate("window.sockets.length")
    ctx.set_offline(False)
    expect(phone.locator("#log")).to_contain_text("Ann rolled 1d20", timeout=5_000)
    expect(pill).to_have_text("live")
    phone.wait_for_timeout(10_000)  # the old page reopened its socket every 2 s: five times by now
    opened = phone.evaluate("window.sockets.length") - sockets_before
    assert opened <= 1, f"{opened} sockets opened after coming back"
    # One socket at a time: none left connecting or open beside the live one.
    assert phone.evaluate("window.sockets.filter((s) => s.readyState < 2).length") == 1
    assert len(rolls_by(table, "Ann")) == 1
    ctx.close()


def test_a_reply_lost_after_the_server_acted_is_resent_silently_and_acts_once(
    browser, live_server, live_http, proxies, artifacts: Path
):
    table, proxy, ctx, phone = one_phone(browser, live_server, live_http, proxies)
    proxy.eat_reply(f"POST /c/{table.id}/commands".encode())
    d20 = phone.locator("#rolls form[aria-label='d20']")
    d20.get_by_role("button").tap()
    expect(phone.locator("#log")).to_contain_text("Ann rolled 1d20")
    # The push goes out before the reply is written, so the reply may reach the proxy a moment later.
    for _ in range(100):
        if proxy.eaten:
            break
        phone.wait_for_timeout(50)
    assert proxy.eaten == 1  # the server answered, and the phone never heard it
    expect(d20.locator(".form-msg .msg.ok")).to_be_visible(timeout=10_000)  # the reply, from the resend
    phone.wait_for_timeout(1500)
    assert len(rolls_by(table, "Ann")) == 1
    said = phone.evaluate("window.said")
    said = said[next(i for i, line in enumerate(said) if line.startswith("live")) :]  # once loaded
    assert not [line for line in said if "No connection" in line or "kept" in line], said
    assert not [line for line in said if line.split(" | ")[0] != "live"], said  # the pill never wavered
    phone.screenshot(path=str(artifacts / "phone-lost-reply.png"))
    ctx.close()


def test_a_reload_offline_shows_the_table_and_the_kept_taps_and_sends_them_when_back(
    browser, live_server, live_http, proxies, artifacts: Path
):
    table, proxy, ctx, phone = one_phone(browser, live_server, live_http, proxies)
    phone.evaluate("navigator.serviceWorker.ready")
    phone.reload()  # the page is now the service worker's, and the copy of the table is kept
    expect(phone.locator("#live-pill")).to_have_text("live", timeout=20_000)
    assert phone.evaluate("!!navigator.serviceWorker.controller")
    manifest = phone.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())"
    )
    assert manifest["display"] == "standalone" and manifest["start_url"] == f"/c/{table.id}"
    table.ok(table.gm, "generic.roll", expression="1d8", label="seen before the outage")
    expect(phone.locator("#log")).to_contain_text("seen before the outage")
    phone.wait_for_timeout(1500)  # the copy is written a second after the push

    ctx.set_offline(True)
    proxy.cut()
    d20 = phone.locator("#rolls form[aria-label='d20']")
    d20.get_by_role("button").tap()
    expect(d20.locator(".form-msg")).to_contain_text("kept")
    phone.reload()
    expect(phone.locator("body[data-offline-copy]")).to_have_count(1)  # the service worker's copy
    expect(phone.locator("#log")).to_contain_text("seen before the outage")
    expect(phone.locator("#live-pill")).to_have_text("offline")
    expect(d20.locator(".form-msg")).to_contain_text("kept")  # the queue survived the reload
    phone.screenshot(path=str(artifacts / "phone-reloaded-offline.png"))
    assert rolls_by(table, "Ann") == []

    proxy.restore()
    ctx.set_offline(False)
    expect(phone.locator("body[data-offline-copy]")).to_have_count(0, timeout=10_000)  # the live page again
    expect(phone.locator("#log")).to_contain_text("Ann rolled 1d20")
    expect(phone.locator("#live-pill")).to_have_text("live")
    assert len(rolls_by(table, "Ann")) == 1
    ctx.close()
