"""Triptycho in a real browser: the GM draws two sections and a border in the map editor, a phone-sized
player moves by tapping a glowing section, and an adversary in a dark section is on the GM's map while the
player's page source holds no trace of it (TP-I-6)."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Page, expect

from tests.helpers import Table

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
BOW = {"id": "shot", "name": "Longbow Shot", "range": 3, "hit": "1d8", "damage": "1d6", "hostile": True}
SLASH = {"id": "slash", "name": "Slash", "hit": "1d8", "damage": "1d6", "hostile": True}
CLAWS = {"id": "claws", "name": "Claws", "hit": "1d6", "damage": "1d4", "hostile": True}


def grid_click(page: Page, x: int, y: int) -> None:
    """Click the editor canvas at grid point (x, y)."""
    point = page.evaluate(
        """([x, y]) => {
          const svg = document.querySelector('svg.tp-editor');
          const p = svg.createSVGPoint(); p.x = x; p.y = y;
          const q = p.matrixTransform(svg.getScreenCTM());
          return [q.x, q.y];
        }""",
        [x, y],
    )
    page.mouse.click(point[0], point[1])


def draw_section(page: Page, corners: list[tuple[int, int]], sid: str, name: str, light: str) -> None:
    page.get_by_role("button", name="Draw a section").click()
    for x, y in corners:
        grid_click(page, x, y)
    grid_click(page, *corners[0])  # closing on the first corner finishes it
    panel = page.locator("#tp-section-panel")
    expect(panel).to_be_visible()
    panel.get_by_label("Id").fill(sid)
    panel.get_by_label("Name").fill(name)
    panel.get_by_label("Light").select_option(light)


def test_gm_draws_a_map_player_moves_by_tapping_and_the_dark_adversary_stays_off_the_phone(
    browser, live_server, artifacts
):
    with httpx.Client(base_url=live_server.url, timeout=10) as http:
        table = Table.create(http, system="triptycho", dice="server")
        ann = table.join("Ann")
        table.ok(table.gm, "campaign.add_participant", name="Aria", kind="pc", owner=ann.seat_id)
        table.ok(
            table.gm, "triptycho.setup", participant="Aria", health=30, cards=[BOW, SLASH], deck=["slash"] * 7
        )
        gm_link = f"/c/{table.id}/seat/{table.gm.token}"
        player_link = f"/c/{table.id}/seat/{ann.token}"

        gm = browser.new_context(viewport={"width": 1366, "height": 900}, base_url=live_server.url)
        gm_page = gm.new_page()
        errors: list[str] = []
        gm_page.on("pageerror", lambda e: errors.append(str(e)))
        gm_page.goto(gm_link)
        expect(gm_page).to_have_url(re.compile(r"/gm$"))

        # The map editor: two sections snapped to the grid, and the border between them.
        gm_page.get_by_role("link", name="Map editor").click()
        expect(gm_page).to_have_url(re.compile(r"/gm/map$"))
        expect(gm_page.locator("#tp-map-editor .tp-status")).not_to_be_empty()  # the editor has started
        gm_page.locator("[name=mid]").fill("crypt-map")
        gm_page.locator("[name=mname]").fill("The crypt")
        draw_section(gm_page, [(0, 0), (4, 0), (4, 4), (0, 4)], "hall", "Hall", "lit")
        draw_section(gm_page, [(4, 0), (8, 0), (8, 4), (4, 4)], "crypt", "Crypt", "dark")
        grid_click(gm_page, 4, 2)  # the shared edge: the border between them
        border = gm_page.locator("#tp-border-panel")
        expect(border).to_be_visible()
        border.locator("[name=bback]").fill("-1")  # crypt -> hall drops 1; hall -> crypt rises 1
        expect(border.locator("[name=brise]")).to_have_value("1")
        gm_page.screenshot(path=str(artifacts / "triptycho-map-editor.png"))
        assert not errors, errors
        gm_page.locator("#tp-save-form").get_by_role("button", name="Save map").click()
        expect(gm_page.locator("#tp-save-form .msg")).to_contain_text("saved")
        gm_page.get_by_role("button", name="Put the saved map on the table").click()
        expect(gm_page.locator("#tp-load-form .msg")).to_contain_text("The crypt")

        saved = next(m for m in table.view(table.gm)["system"]["maps"] if m["id"] == "crypt-map")["json"]
        assert {s["id"]: s["light"] for s in saved["sections"]} == {"hall": "lit", "crypt": "dark"}
        assert [(b["a"], b["b"], b["height"]) for b in saved["borders"]] == [("hall", "crypt", 1)]

        # An adversary lurks in the dark crypt, where Aria stands too: darkness hides it even from her.
        table.ok(table.gm, "triptycho.add", name="Ghoul", side="foes", darkvision=True, sections=["crypt"])
        # ...and a goblin waits in the lit hall, where everyone sees it.
        table.ok(
            table.gm, "triptycho.add", name="Goblin", side="foes", health=20, cards=[CLAWS], sections=["hall"]
        )
        gm_page.goto(f"/c/{table.id}/gm")
        place = gm_page.locator("form[aria-label='Place a character']")
        place.get_by_label("Who").fill("Aria")
        place.get_by_label("Section", exact=True).fill("crypt")
        place.get_by_role("button", name="Place").click()
        expect(gm_page.locator("#map .tp-token[data-entity]")).to_have_count(3)
        expect(gm_page.locator("#map")).to_contain_text("Ghoul")
        table.ok(
            table.gm,
            "triptycho.order",
            entries=[
                {"participant": "Aria", "value": 10},
                {"participant": "Goblin", "value": 5},
                {"participant": "Ghoul", "value": 1},
            ],
        )
        table.ok(table.gm, "triptycho.deal")
        table.ok(table.gm, "triptycho.next_turn")

        phone = browser.new_context(base_url=live_server.url, **PHONE)
        player = phone.new_page()
        player.add_init_script(
            "window.buzzes = []; navigator.vibrate = (p) => { window.buzzes.push(p); return true; };"
        )
        player.goto(player_link)
        expect(player).to_have_url(re.compile(r"/play$"))
        expect(player.locator("#live-pill")).to_have_text("live")
        assert "Ghoul" not in player.content()
        assert table.view(ann)["system"]["board"]["id"] == "crypt-map"

        # Aria's turn on the phone: draw, then tap the glowing Hall to take the innate Move.
        player.locator("#tp-turn").get_by_role("button", name="Draw a card").tap()
        expect(player.locator("#tp-turn .tp-steps .now")).to_have_text("Strategy")
        hall = player.locator('#map .tp-sec.reach[data-section="hall"]')
        expect(hall).to_have_count(1)
        player.screenshot(path=str(artifacts / "triptycho-phone-before-move.png"), full_page=True)
        hall.locator("polygon").first.tap()
        expect(player.locator("#map .tp-sec.reach")).to_have_count(0)  # the innate Move is spent
        # The GM sees the move live; the player's page never held the adversary.
        expect(gm_page.locator("#tp-gm-entities")).to_contain_text("hall")
        expect(gm_page.locator("#log")).to_contain_text("Aria moves to hall")
        html = player.content()
        assert "Ghoul" not in html
        assert player.evaluate("document.documentElement.scrollWidth") <= 390
        player.screenshot(path=str(artifacts / "triptycho-phone-after-move.png"), full_page=True)

        # The Action Phase: open Slash in hand, its legal target lights up on the map; tap it to strike.
        player.locator("#tp-turn").get_by_role("button", name="Skip the Strategy Phase").tap()
        expect(player.locator("#tp-turn .tp-steps .now")).to_have_text("Action")
        slash = player.locator(".tp-card", has_text="Slash").first
        slash.locator("summary").tap()
        expect(slash.locator(".tp-play .odds")).to_contain_text("hit")  # the exact odds, before committing
        goblin = player.locator("#map .tp-token.target")
        expect(goblin).to_have_count(1)
        player.screenshot(path=str(artifacts / "triptycho-phone-target.png"), full_page=True)
        goblin.locator("circle").tap()
        expect(gm_page.locator("#log")).to_contain_text("Slash on Goblin")
        player.locator("#tp-turn").get_by_role("button", name="End the turn").tap()
        expect(player.locator("#tp-turn")).to_contain_text("Goblin's turn")

        # The goblin claws back (the GM's turn): the Reaction prompt comes to Aria's phone.
        table.ok(table.gm, "triptycho.draw", participant="Goblin")
        table.ok(table.gm, "triptycho.pass", participant="Goblin")
        table.ok(table.gm, "triptycho.act", participant="Goblin", card="claws", target="Aria")
        prompt = player.locator("#prompts .prompt")
        expect(prompt).to_contain_text("choose a Reaction")
        assert player.evaluate("window.buzzes") == [[80, 40, 80]]  # the question buzzed the phone
        player.screenshot(path=str(artifacts / "triptycho-phone-reaction.png"), full_page=True)
        prompt.get_by_role("button", name=re.compile("Base Reaction")).tap()
        expect(gm_page.locator("#log")).to_contain_text("Claws on Aria")
        expect(player.locator("#prompts .prompt")).to_have_count(0)
        assert "Ghoul" not in player.content()
        gm_page.screenshot(path=str(artifacts / "triptycho-gm.png"), full_page=True)
        phone.close()
        gm.close()


def test_the_map_editor_redrawing_while_the_gm_types_an_id_leaves_the_typed_text_whole(browser, live_server):
    """A redraw between a keystroke's select and its text (the editor starting, a mode changed) wrote the
    map's id into the field being typed in, and the text was appended to it: saved as new-mapcrypt-map."""
    with httpx.Client(base_url=live_server.url, timeout=10) as http:
        table = Table.create(http, system="triptycho", dice="server")
    context = browser.new_context(viewport={"width": 1366, "height": 900}, base_url=live_server.url)
    page = context.new_page()
    page.goto(f"/c/{table.id}/seat/{table.gm.token}")
    page.goto(f"/c/{table.id}/gm/map")
    expect(page.locator("#tp-map-editor .tp-status")).not_to_be_empty()  # the editor has started
    # The field selected as a keystroke selects it, then a redraw that leaves the focus where it is.
    page.evaluate(
        """() => {
          const id = document.querySelector('[name=mid]');
          id.value = ''; id.focus(); id.select();
          document.querySelector('[data-mode=select]').click();
        }"""
    )
    page.keyboard.insert_text("crypt-map")
    expect(page.locator("[name=mid]")).to_have_value("crypt-map")
    assert '"id": "crypt-map"' in page.locator("#tp-map-json").input_value()
    context.close()
