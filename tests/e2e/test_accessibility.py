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


def unfold(page: Page) -> None:
    """Open every fold (set-up forms, stat blocks, imports, links): axe skips what a closed one hides."""
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")


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
        unfold(gm)
        findings += axe_findings(gm, f"{key} GM console @{width}")
        if phone:
            gm.screenshot(path=str(artifacts / f"a11y-{key}-gm-{width}.png"), full_page=True)
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
        unfold(page)
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


CONTRAST = """(selector) => {
    const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map((v) => {
        v /= 255;
        return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    }).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
    const backdrop = (el) => {
        for (let n = el; n; n = n.parentElement) {
            const c = rgb(getComputedStyle(n).backgroundColor);
            if (c.length === 3 || c[3] === 1) return c;
        }
        return rgb(getComputedStyle(document.body).backgroundColor);
    };
    return [...document.querySelectorAll(selector)].filter((el) => el.getClientRects().length).map((el) => {
        const a = lum(rgb(getComputedStyle(el).color)), b = lum(backdrop(el));
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    });
}"""

PHONE_WIDTH = {"viewport": WIDTHS["390"], "is_mobile": True, "has_touch": True}


def contrasts(page: Page, selector: str) -> list[float]:
    ratios = page.evaluate(CONTRAST, selector)
    assert ratios, f"nothing on the page matches {selector}"
    return ratios


def test_the_contrasts_issue_17_names_reach_aa(browser, live_server):
    """The four the issue measured: the remove cross on the current initiative row (was 1.2:1), the red Remove
    (4.26:1), TOTE's filled injury circles (3.32:1) and Trinity's foe initials (3.96:1)."""
    fray = live_server.app.state.fray
    ctx = browser.new_context(**PHONE_WIDTH, base_url=live_server.url)  # narrow: every panel is shown
    page = ctx.new_page()

    page.goto(create_demo(fray, "generic", live_server.url).gm_link)
    settle(page, live=True)
    page.locator("#initiative").get_by_role("button", name="Start round 1").click()
    expect(page.locator("#initiative li.current")).to_have_count(1)
    assert min(contrasts(page, "#initiative li.current button.icon")) >= 4.5
    assert min(contrasts(page, "button.danger")) >= 4.5

    page.goto(create_demo(fray, "tote", live_server.url).gm_link)
    settle(page, live=True)
    # A filled circle as the sheets and the last result draw one, in the sheet of an enemy.
    page.locator(".tt-sheet.side-enemy .tt-circle").first.evaluate("c => c.classList.add('filled')")
    assert min(contrasts(page, ".tt-sheet.side-enemy .tt-circle.filled")) >= 4.5

    page.goto(create_demo(fray, "trinity", live_server.url).gm_link)
    settle(page, live=True)
    assert min(contrasts(page, ".tc-foe")) >= 4.5
    ctx.close()
