"""Issue 17 item 5: an encounter's replay draws that system's board at each step (the range bands of
Trinity and TOTE, Triptycho's section map, the 5x5 tabletop), folded up to the step and made for the
seat that looks: a player's replay holds only what that player's page held."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from tests.helpers import Table, demo_table


def open_replay(page: Page, table: Table, token: str, encounter: str) -> None:
    page.goto(f"/c/{table.id}/seat/{token}")
    page.goto(f"/c/{table.id}/encounters/{quote(encounter)}")
    page.get_by_role("link", name="First step").click()
    expect(page.locator("#replay-board")).to_be_visible()


def step_forward(page: Page) -> None:
    seq = page.locator("#replay-board").get_attribute("data-seq")
    page.get_by_role("link", name="Next step").click()
    expect(page.locator("#replay-board")).not_to_have_attribute("data-seq", seq)


# Each system: what to play after the demo, the board's pieces, and what moves between the first step
# and the last: (locator, attribute or None for the text, value at the first step, at the last).
CASES = {
    "trinity": (
        "The chapel doors",
        [
            {"type": "trinity.set_band", "character": "Aria", "opponent": "Cultist", "band": "close"},
            {"type": "trinity.set_band", "character": "Brick", "opponent": "Ghoul", "band": "close"},
        ],
        ".tc-cell",
        (
            ".tc-lane[data-opponent='Cultist'] .tc-cell.here[data-pair^='{Aria}']",
            "data-band",
            "medium",
            "close",
        ),
    ),
    "tote": (
        "Wolves at the ford",
        [{"type": "tote.place", "participant": "Aiyana", "band": "melee"}],
        ".tt-field .band",
        (".tt-field", "aria-label", "Aiyana at Close", "Aiyana at Melee"),
    ),
    "triptycho": (
        "Beneath the cliff",
        [{"type": "triptycho.place", "participant": "Aria", "sections": ["floor"]}],
        ".tp-sec",
        (".tp-token[data-entity='{Aria}']", "transform", None, None),
    ),
    "fivebyfive": (
        "Rooftop",
        [
            {"type": "fivebyfive.place", "participant": "Aria", "x": 8, "y": 12},
            {"type": "fivebyfive.place", "participant": "Brick", "x": 9, "y": 6},
        ],
        ".fx-token",
        (".fx-token[data-name='Aria']", "data-x", "4.0", "8.0"),
    ),
}


@pytest.mark.parametrize("system", list(CASES))
def test_the_replay_steps_through_the_board_as_the_gm_saw_it(
    system, browser, live_server, live_http, artifacts
):
    encounter, extra, pieces, (where, attribute, first, last) = CASES[system]
    table, _ = demo_table(live_http, system)
    for command in extra:
        fields = dict(command)
        table.ok(table.gm, fields.pop("type"), **fields)
    ids = {p["name"]: p["id"] for p in table.view(table.gm)["participants"]}
    where = where.format(**ids)

    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=live_server.url)
    gm = ctx.new_page()
    open_replay(gm, table, table.gm.token, encounter)
    board = gm.locator("#replay-board")
    # The encounter's first events set the board up (a start, then its set-up): step until it is drawn.
    for _ in range(3):
        if board.locator(pieces).count() >= 3:
            break
        step_forward(gm)
    assert board.locator(pieces).count() >= 3
    expect(board.locator(where)).to_have_count(1)
    at_first = board.locator(where).get_attribute(attribute)
    if first is not None:
        assert first in at_first, at_first
    gm.screenshot(path=str(artifacts / f"replay-{system}-first.png"), full_page=True)
    # Step by step to the end: the board is drawn at every step, and the piece has moved by the last.
    for _ in range(20):
        if "disabled" in (gm.get_by_role("link", name="Next step").get_attribute("class") or ""):
            break
        step_forward(gm)
        assert board.locator(pieces).count() >= 3
    at_last = board.locator(where).get_attribute(attribute)
    assert at_last != at_first, (at_first, at_last)
    if last is not None:
        assert last in at_last, at_last
    # The replay only looks: no form, no draggable token, no ping on a tap.
    assert board.locator("form").count() == 0
    assert board.locator("[data-drag], .draggable, .movable, [data-ping]").count() == 0
    gm.screenshot(path=str(artifacts / f"replay-{system}-last.png"), full_page=True)
    ctx.close()


def test_a_phone_replays_the_5x5_tabletop_as_its_player_saw_it(browser, live_server, live_http, artifacts):
    table, seats = demo_table(live_http, "fivebyfive")
    table.ok(table.gm, "fivebyfive.place", participant="Aria", x=8, y=12)
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
        base_url=live_server.url,
    )
    phone = ctx.new_page()
    open_replay(phone, table, seats["Ann"].token, "Rooftop")
    board = phone.locator("#replay-board")
    xs = []
    while True:
        expect(board.locator(".fx-token[data-name='Aria']")).to_have_count(1)
        expect(board.locator(".fx-token[data-name='Thug']")).to_have_count(1)
        assert "Mindbender" not in phone.content()  # out of the PCs' sight: not on this phone, then or now
        xs.append(board.locator(".fx-token[data-name='Aria']").get_attribute("data-x"))
        if "disabled" in (phone.get_by_role("link", name="Next step").get_attribute("class") or ""):
            break
        step_forward(phone)
    assert xs[0] == "4.0" and xs[-1] == "8.0", xs
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=str(artifacts / "replay-fivebyfive-phone.png"), full_page=True)
    ctx.close()
