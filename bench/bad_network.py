"""Phones on a bad mobile network (issue 33): real pages in Debian's chromium, each phone through its own
fault-injecting proxy (tests/netfault.py: 150 ± 50 ms each way, 50 KB/s) to `fray serve`.

- stall_noticed_s: bytes stop flowing without a close; seconds until the phone's pill stops saying "live".
- converge_after_cut_s: three phones cut off for 8 s while the GM changes the table; seconds from the
  network's return until every phone shows the new state (the log line and the pool) and says "live".
- reconnects_per_min_after_recovery: a phone offline 5 s (its switch off and its network cut), then back;
  sockets opened or closed after the first reconnect, per minute of the window that follows.
"""

from __future__ import annotations

import statistics
import sys
import time

import httpx
from playwright.sync_api import Browser, expect, sync_playwright

from bench.common import emit, fray_server
from tests.e2e.conftest import ARGS, CHROMIUM
from tests.e2e.test_bad_network import MOBILE, RECORD_SOCKETS
from tests.e2e.test_map import PHONE
from tests.helpers import Table
from tests.netfault import ThreadedNetFault


def _phone(browser: Browser, port: int, table: Table, name: str, seed: int):
    proxy = ThreadedNetFault(("127.0.0.1", port), seed=seed, **MOBILE)
    ctx = browser.new_context(**PHONE, base_url=proxy.url)
    page = ctx.new_page()
    page.add_init_script(RECORD_SOCKETS)
    page.goto(f"/c/{table.id}/seat/{table.join(name).token}")
    expect(page.locator("#live-pill")).to_have_text("live", timeout=30_000)
    return proxy, ctx, page


def _until(check, timeout: float) -> float:
    started = time.monotonic()
    while not check():
        if time.monotonic() - started > timeout:
            return float("inf")
        time.sleep(0.05)
    return time.monotonic() - started


def stall(browser: Browser, port: int, table: Table, seed: int) -> float:
    proxy, ctx, page = _phone(browser, port, table, f"Stall {seed}", seed)
    page.wait_for_timeout(1000 + 700 * seed)  # stalls start anywhere in the heartbeat's cycle
    proxy.stall()
    noticed = _until(lambda: page.locator("#live-pill").text_content() != "live", 30)
    proxy.restore()
    ctx.close()
    proxy.close()
    return noticed


def cut(browser: Browser, port: int, table: Table, round_: int) -> float:
    phones = [_phone(browser, port, table, f"Cut {round_}.{i}", 10 * round_ + i) for i in range(3)]
    label = f"cut check {round_}"
    pool = f"Fate {round_}"
    table.ok(table.gm, "generic.pool.create", name=pool, value=5)
    for proxy, _, page in phones:
        expect(page.locator("#pools")).to_contain_text(pool)
        proxy.cut()
    table.ok(table.gm, "generic.pool.adjust", pool=pool, delta=-3)
    table.ok(table.gm, "generic.roll", expression="2d6", label=label)
    time.sleep(8)
    for proxy, _, _ in phones:
        proxy.restore()
    back = time.monotonic()

    def caught_up() -> bool:
        return all(
            label in page.locator("#log").text_content()
            and page.locator("#live-pill").text_content() == "live"
            and page.evaluate(
                "(name) => [...document.querySelectorAll('#pools li')].some(l => l.textContent.includes(name)"
                " && /\\b2\\b/.test(l.textContent))",
                pool,
            )
            for _, _, page in phones
        )

    converged = _until(caught_up, 30)
    converged = converged if converged == float("inf") else time.monotonic() - back
    for proxy, ctx, _ in phones:
        ctx.close()
        proxy.close()
    return converged


def recovery(browser: Browser, port: int, table: Table, window: float) -> float:
    proxy, ctx, page = _phone(browser, port, table, "Recovery", 99)
    ctx.set_offline(True)
    proxy.cut()
    page.wait_for_timeout(5000)
    proxy.restore()
    ctx.set_offline(False)
    expect(page.locator("#live-pill")).to_have_text("live", timeout=10_000)
    opened, closed = page.evaluate("[window.sockets.length, window.closes.length]")
    page.wait_for_timeout(window * 1000)
    opened2, closed2 = page.evaluate("[window.sockets.length, window.closes.length]")
    ctx.close()
    proxy.close()
    return max(opened2 - opened, closed2 - closed) * 60 / window


def main(quick: bool = False) -> dict:
    rounds = 2 if quick else 5
    with fray_server() as (url, _pid), sync_playwright() as playwright, httpx.Client(base_url=url) as http:
        port = int(url.rsplit(":", 1)[1])
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        table = Table.create(http, dice="server")
        stalls = [stall(browser, port, table, i) for i in range(rounds)]
        cuts = [cut(browser, port, table, i) for i in range(1 if quick else 3)]
        reconnects = recovery(browser, port, table, 20 if quick else 60)
        browser.close()
    return emit(
        "bad_network",
        stall_noticed_s=round(max(stalls), 2),
        stall_noticed_s_median=round(statistics.median(stalls), 2),
        converge_after_cut_s=round(max(cuts), 2),
        reconnects_per_min_after_recovery=round(reconnects, 2),
    )


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
