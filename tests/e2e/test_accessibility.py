"""Issue 17 item 8: axe-core (pinned in package.json, copied to static/vendor by the Makefile) checks
every page of every game's demo, at a phone's width and a desktop's, against the WCAG 2 A and AA rules.
Any "serious" or "critical" finding fails the test, listed with its rule, the element and axe's words."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from app.demo import create_demo
from app.rules import registry

AXE = Path(__file__).parents[2] / "static" / "vendor" / "axe.min.js"
GAMES = sorted(key for key, system in registry.systems().items() if system.demo)
WIDTHS = {"390": {"width": 390, "height": 844}, "1440": {"width": 1440, "height": 900}}
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BAD = ("serious", "critical")


def test_every_game_has_a_demo_checked():
    assert set(GAMES) >= {"generic", "trinity", "tote", "triptycho", "fivebyfive"}


def axe_findings(page: Page, where: str) -> list[str]:
    """axe's serious and critical violations on the page as it stands, one line per element."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: `make install` copies it from node_modules (package.json pins it).")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    violations = page.evaluate(
        """async (tags) => {
            const only = {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]};
            const r = await axe.run(document, only);
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => ({impact: n.impact, target: n.target.join(" "),
                                          message: n.failureSummary}))}));
        }""",
        RULES,
    )
    out = []
    for v in violations:
        for node in v["nodes"]:
            if (node["impact"] or v["impact"]) in BAD:
                message = " ".join((node["message"] or v["help"]).split())
                out.append(f"{where}: [{v['id']}] {node['target']} — {message}")
    return out


def settle(page: Page, live: bool) -> None:
    if live:
        expect(page.locator("#live-pill")).to_have_text("live")
    page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("key", GAMES)
def test_axe_finds_nothing_serious_on_any_page(browser, live_server, key, artifacts):
    demo = create_demo(live_server.app.state.fray, key, live_server.url)
    root = demo.gm_link.split("/seat/")[0]
    findings: list[str] = []
    for width, viewport in WIDTHS.items():
        phone = width == "390"
        extra = {"is_mobile": True, "has_touch": True} if phone else {}
        gm_ctx = browser.new_context(viewport=viewport, base_url=live_server.url, **extra)
        gm = gm_ctx.new_page()
        gm.goto(demo.gm_link)
        settle(gm, live=True)
        findings += axe_findings(gm, f"{key} GM console @{width}")
        # A wide console shows one sidebar panel at a time (a narrow one shows them all): open each.
        tabs = gm.locator("nav.side-tabs button")
        for i in range(1, tabs.count() if tabs.first.is_visible() else 0):
            name = tabs.nth(i).inner_text()
            tabs.nth(i).click()
            findings += axe_findings(gm, f"{key} GM console, {name} @{width}")
        log = gm.locator("a[href^='encounters/']").first
        replay = log.get_attribute("href") if log.count() else None
        gm.goto(f"{root}/table")
        settle(gm, live=True)
        findings += axe_findings(gm, f"{key} table view (GM) @{width}")
        if replay:
            gm.goto(f"{root}/{replay}")
            settle(gm, live=False)
            findings += axe_findings(gm, f"{key} replay @{width}")
            gm.screenshot(path=str(artifacts / f"a11y-{key}-replay-{width}.png"), full_page=True)
        gm_ctx.close()

        ctx = browser.new_context(viewport=viewport, base_url=live_server.url, **extra)
        page = ctx.new_page()
        name, link = demo.player_links[0]
        page.goto(link)
        settle(page, live=True)
        findings += axe_findings(page, f"{key} {name}'s phone @{width}")
        page.screenshot(path=str(artifacts / f"a11y-{key}-player-{width}.png"), full_page=True)
        ctx.close()

        ctx = browser.new_context(viewport=viewport, base_url=live_server.url, **extra)
        page = ctx.new_page()
        page.goto(demo.spectator_url)
        settle(page, live=True)
        findings += axe_findings(page, f"{key} shared screen @{width}")
        page.screenshot(path=str(artifacts / f"a11y-{key}-table-{width}.png"), full_page=True)
        ctx.close()

        ctx = browser.new_context(viewport=viewport, base_url=live_server.url, **extra)
        page = ctx.new_page()  # no seat yet: the join form itself, then the front page
        page.goto(demo.invite_url)
        settle(page, live=False)
        findings += axe_findings(page, f"{key} join @{width}")
        page.goto("/")
        settle(page, live=False)
        findings += axe_findings(page, f"{key} landing @{width}")
        ctx.close()
    assert not findings, f"{len(findings)} serious or critical axe findings:\n" + "\n".join(findings)
