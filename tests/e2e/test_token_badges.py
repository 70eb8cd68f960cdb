"""The table plays like a VTT (issue 30, items 3, 4 and 9) on a touch phone of 390 x 844:

- each game's rules on its tokens (badges, tracks as bars), a tap says them in words, and a hidden
  NPC's badges never reach the phone;
- the turn ringed on the GM's and the phone's map, the phone whose turn it becomes brought to its token;
- a drag made offline snaps back with the offline notice, and the phone that reconnects shows the
  server's state with its pill saying live.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.api.test_fivebyfive import rooftop
from tests.api.test_triptycho import hall
from tests.e2e.test_board_frame import board_point
from tests.e2e.test_map import PHONE, screen_point, touches
from tests.helpers import Seat, Table


def scene(table: Table, width: int = 600, height: int = 400) -> str:
    made = table.ok(table.gm, "map.scene.create", name="Crypt", width=width, height=height, show=True)
    return str(made["view"]["map"]["scene"])


def place(table: Table, scene_id: str, pid: str, x: float, y: float) -> None:
    table.ok(table.gm, "map.token.place", scene=scene_id, x=x, y=y, participant=pid)


def open_phone(browser, live_server, table: Table, seat: Seat) -> tuple[Any, Page]:
    ctx = browser.new_context(**PHONE, base_url=live_server.url)
    page = ctx.new_page()
    page.goto(f"/c/{table.id}/seat/{seat.token}")
    expect(page.locator("#live-pill")).to_have_text("live")
    return ctx, page


def open_gm(browser, live_server, table: Table) -> tuple[Any, Page]:
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=live_server.url)
    page = ctx.new_page()
    page.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(page.locator("#live-pill")).to_have_text("live")
    return ctx, page


def token(page: Page, name: str):
    return page.locator(f".mapframe .token[data-name='{name}']")


def tap_token(page: Page, name: str) -> None:
    x, y = (float(token(page, name).get_attribute(a) or 0) for a in ("data-x", "data-y"))
    touches(page, [screen_point(page, x, y)] * 2)


def words_popover(page: Page):
    return page.locator("#token-pop:not([hidden])")


# --- item 3: the rules on the tokens, in each game ----------------------------------------------------


def test_generic_tracks_are_bars_on_the_token_and_the_own_sheet_says_them(
    browser, live_server, live_http, artifacts: Path
):
    table = Table.create(live_http, system="generic")
    ann = table.join("Ann")
    hero, lurker = table.character("Hero", ann), table.character("Lurker", kind="npc", hidden=True)
    table.ok(table.gm, "generic.track.create", name="Hit points", total=10, filled=7, owner=hero)
    table.ok(table.gm, "generic.track.create", name="Doom", total=4, filled=1, owner=hero, hidden=True)
    table.ok(table.gm, "generic.track.create", name="Wounds", total=3, filled=2, owner=lurker)
    crypt = scene(table)
    place(table, crypt, hero, 175, 175)
    place(table, crypt, lurker, 325, 175)

    gm_ctx, gm = open_gm(browser, live_server, table)
    expect(token(gm, "Lurker").locator(".token-badges .bar")).to_have_count(1)
    expect(token(gm, "Hero").locator(".token-badges .bar")).to_have_count(2)

    phone_ctx, phone = open_phone(browser, live_server, table, ann)
    expect(token(phone, "Hero").locator(".token-badges .bar")).to_have_count(1)
    expect(token(phone, "Hero")).to_have_attribute("aria-label", "Hero (yours): Hit points 7/10")
    html = phone.content()
    assert "Lurker" not in html and "Wounds" not in html and "Doom" not in html
    tap_token(phone, "Hero")  # a phone's own token: its sheet lists them
    expect(phone.locator(".token-sheet:not([hidden]) .token-words")).to_have_text("Hit points 7/10")
    phone.screenshot(path=str(artifacts / "badges-generic-phone.png"))
    gm.screenshot(path=str(artifacts / "badges-generic-gm.png"))
    gm_ctx.close()
    phone_ctx.close()


def test_trinity_conditions_are_pips_and_a_tap_says_them_in_words(browser, live_server, live_http, artifacts):
    table = Table.create(live_http, system="trinity")
    ann = table.join("Ann")
    jo, max_ = table.character("Jo", ann), table.character("Max")
    table.ok(table.gm, "trinity.setup_character", character=jo, harm=4, stress=2)
    table.ok(table.gm, "trinity.setup_character", character=max_, harm_limit=6, harm=7)
    crypt = scene(table)
    place(table, crypt, jo, 175, 175)
    place(table, crypt, max_, 325, 175)
    phone_ctx, phone = open_phone(browser, live_server, table, ann)
    expect(token(phone, "Jo").locator(".token-badges .pip")).to_have_count(2)  # Wounded, Traumatised
    expect(token(phone, "Max").locator(".token-badges .badge-danger")).to_have_count(1)  # Dying
    tap_token(phone, "Max")
    expect(words_popover(phone)).to_contain_text("Dying")
    expect(words_popover(phone)).to_contain_text("Harm 7/6")
    phone.screenshot(path=str(artifacts / "badges-trinity-phone.png"))
    tap_token(phone, "Jo")
    sheet = phone.locator(".token-sheet:not([hidden]) .token-words")
    expect(sheet).to_contain_text("Wounded")
    expect(sheet).to_contain_text("Traumatised")
    expect(words_popover(phone)).to_have_count(0)
    phone_ctx.close()


def test_tote_injuries_and_a_hidden_enemy_stays_off_the_phone(browser, live_server, live_http, artifacts):
    table = Table.create(live_http, system="tote")
    ann = table.join("Ann")
    kai, brute = table.character("Kai", ann), table.character("Brute", kind="npc", hidden=True)
    track = ("5", "4", "3", "2", "1", "U")
    table.ok(table.gm, "tote.hero", participant=kai, resolve=10, block=1, resist=1, track=track, skills={})
    table.ok(table.gm, "tote.adjust", participant=kai, injuries=2)
    stats = {"resolve": 5, "block": 1, "resist": 1, "rating": 1}
    table.ok(table.gm, "tote.enemy", participant=brute, injuries=1, track=("N", "U"), **stats)
    crypt = scene(table)
    place(table, crypt, kai, 175, 175)
    place(table, crypt, brute, 325, 175)
    gm_ctx, gm = open_gm(browser, live_server, table)
    expect(token(gm, "Brute")).to_have_attribute("data-words", "Injuries 1/2")
    phone_ctx, phone = open_phone(browser, live_server, table, ann)
    expect(token(phone, "Kai")).to_have_attribute("data-words", "No 4, 5 on skill dice|Injuries 2/6")
    expect(token(phone, "Kai").locator(".token-badges .pip")).to_have_count(1)
    expect(phone.locator(".mapframe .token")).to_have_count(1)
    assert "Brute" not in phone.content()
    phone.screenshot(path=str(artifacts / "badges-tote-phone.png"))
    gm_ctx.close()
    phone_ctx.close()


def test_triptycho_conditions_and_charges_on_the_scene(browser, live_server, live_http, artifacts):
    table = Table.create(live_http, system="triptycho")
    ann, bob = table.join("Ann"), table.join("Bob")
    mage, fighter = table.character("Mage", ann), table.character("Fighter", bob)
    table.ok(table.gm, "triptycho.setup", participant=mage, side="party", health=10)
    table.ok(table.gm, "triptycho.setup", participant=fighter, side="party", health=12)
    table.ok(table.gm, "triptycho.condition", participant=mage, condition="vulnerable")
    table.ok(table.gm, "triptycho.charge", participant=mage, charges=2)
    crypt = scene(table)
    place(table, crypt, mage, 175, 175)
    place(table, crypt, fighter, 325, 175)
    phone_ctx, phone = open_phone(browser, live_server, table, ann)
    mage_token = token(phone, "Mage")
    expect(mage_token.locator(".token-badges .badge-count")).to_have_text("2")
    expect(mage_token.locator(".token-badges .badge-condition")).to_have_text("V")
    tap_token(phone, "Mage")
    sheet = phone.locator(".token-sheet:not([hidden]) .token-words")
    expect(sheet).to_contain_text("Vulnerable")
    expect(sheet).to_contain_text("Incantation charges 2")
    phone.screenshot(path=str(artifacts / "badges-triptycho-phone.png"))
    phone_ctx.close()
    # Bob's phone: the mage is off the section map, so Bob's fighter does not see it (TP-I-6).
    bob_ctx, bob_phone = open_phone(browser, live_server, table, bob)
    expect(token(bob_phone, "Fighter")).to_have_count(1)
    assert "Incantation" not in bob_phone.content()
    bob_ctx.close()


def test_fivebyfive_damage_and_unconscious_on_the_tabletop(browser, live_server, live_http, artifacts):
    table = Table.create(live_http, system="fivebyfive")
    ann = table.join("Ann")
    rook, wolf = table.character("Rook", ann), table.character("Wolf", kind="npc")
    table.ok(table.gm, "fivebyfive.setup", participant=rook, rage=3, grace=2, precognition=2,
             current={"rage": 1, "grace": 2, "precognition": 2})  # fmt: skip
    table.ok(table.gm, "fivebyfive.setup", participant=wolf, rage=2, grace=2, precognition=1,
             current={"rage": 0, "grace": 2, "precognition": 1})  # fmt: skip
    table.ok(table.gm, "fivebyfive.place", participant=rook, x=6, y=6)
    table.ok(table.gm, "fivebyfive.place", participant=wolf, x=10, y=6)
    phone_ctx, phone = open_phone(browser, live_server, table, ann)
    rook_token = phone.locator(".fx-token[data-name='Rook']")
    expect(rook_token.locator(".token-badges .badge-condition")).to_have_count(1)
    wolf_token = phone.locator(".fx-token[data-name='Wolf']")
    expect(wolf_token.locator(".token-badges .badge-danger")).to_have_count(1)
    touches(phone, [board_point(phone, "fivebyfive", 10, 6)] * 2)
    expect(words_popover(phone)).to_contain_text("Unconscious")
    touches(phone, [board_point(phone, "fivebyfive", 6, 6)] * 2)
    expect(words_popover(phone)).to_contain_text("Rage damaged 1")
    phone.screenshot(path=str(artifacts / "badges-fivebyfive-phone.png"))
    phone_ctx.close()


# --- item 4: the turn on the map -------------------------------------------------------------------


def view_box(page: Page) -> list[float]:
    box = page.evaluate("document.querySelector('.mapframe svg').getAttribute('viewBox')")
    return [float(v) for v in box.split()]


def test_the_turn_is_ringed_everywhere_and_the_phone_whose_turn_it_is_sees_its_token(
    browser, live_server, live_http, artifacts: Path
):
    table = Table.create(live_http, system="generic")
    ann = table.join("Ann")
    hero, orc = table.character("Hero", ann), table.character("Orc", kind="npc")
    crypt = scene(table, 1200, 800)
    place(table, crypt, orc, 105, 105)
    place(table, crypt, hero, 1085, 705)
    table.ok(table.gm, "generic.initiative.add", participant=orc, value=15)
    table.ok(table.gm, "generic.initiative.add", participant=hero, value=10)
    gm_ctx, gm = open_gm(browser, live_server, table)
    phone_ctx, phone = open_phone(browser, live_server, table, ann)
    for _ in range(3):
        phone.get_by_role("button", name="Zoom in").tap()
    x, y, w, h = view_box(phone)
    assert not (x < 1085 < x + w and y < 705 < y + h)  # zoomed on the middle: Hero is off screen

    table.ok(table.gm, "generic.initiative.next")  # the Orc's turn
    for page in (gm, phone):
        expect(page.locator(".mapframe .token.turn")).to_have_count(1)
        expect(token(page, "Orc")).to_have_attribute("aria-label", "Orc, Orc's turn")
        expect(token(page, "Orc").locator(".turn-ring")).to_have_count(1)
    assert view_box(phone)[2] == w  # not the phone's turn: its view stays where it was

    table.ok(table.gm, "generic.initiative.next")  # Hero's turn: Ann's phone brings Hero into view
    expect(token(phone, "Hero")).to_have_class("token turn mine movable")
    phone.wait_for_function(
        """() => { const [x, y, w, h] = document.querySelector('.mapframe svg').getAttribute('viewBox')
                   .split(' ').map(Number); return x < 1085 && 1085 < x + w && y < 705 && 705 < y + h; }"""
    )
    assert view_box(phone)[2] == w  # panned, at the zoom the player chose
    expect(token(gm, "Hero").locator(".turn-ring")).to_have_count(1)
    phone.screenshot(path=str(artifacts / "turn-phone.png"))
    gm.screenshot(path=str(artifacts / "turn-gm.png"))

    # Panned away again, a push that keeps the turn Ann's does not pull the view back.
    for _ in range(2):
        phone.get_by_role("button", name="Zoom out").tap()
    phone.get_by_role("button", name="Zoom in").tap()
    moved = view_box(phone)
    table.ok(table.gm, "generic.track.create", name="Luck", total=3, owner=hero)
    expect(token(phone, "Hero").locator(".token-badges .bar")).to_have_count(1)
    assert view_box(phone) == pytest.approx(moved, abs=0.01)
    gm_ctx.close()
    phone_ctx.close()


# --- item 9: offline drags --------------------------------------------------------------------------


def test_a_drag_made_offline_snaps_back_and_the_reconnected_phone_shows_the_server(
    browser, live_server, live_http, artifacts: Path
):
    table = Table.create(live_http, system="generic")
    ann = table.join("Ann")
    hero = table.character("Hero", ann)
    crypt = scene(table)
    place(table, crypt, hero, 175, 175)
    phone_ctx, phone = open_phone(browser, live_server, table, ann)
    mine = token(phone, "Hero")
    expect(mine).to_have_class("token mine movable")

    phone_ctx.set_offline(True)
    expect(phone.locator("#live-pill")).to_have_text("offline")
    start, end = screen_point(phone, 175, 175), screen_point(phone, 375, 275)
    touches(phone, [start, ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2), end, end])
    expect(mine).to_have_attribute("transform", "translate(175.0 175.0)")  # snapped back
    expect(phone.locator("#flash")).to_contain_text("Offline")
    phone.screenshot(path=str(artifacts / "offline-drag-phone.png"))
    # Meanwhile the GM moves Hero; and whatever this page drew while away (here a stray transform)
    # must not outlive the reconnection.
    token_id = mine.get_attribute("data-token")
    table.ok(table.gm, "map.token.move", token=token_id, x=425, y=125)
    phone.evaluate("document.querySelector('.token.mine').setAttribute('transform', 'translate(20 20)')")

    phone_ctx.set_offline(False)
    expect(phone.locator("#live-pill")).to_have_text("live", timeout=15_000)
    server = next(t for t in table.view(ann)["map"]["tokens"] if t["id"] == token_id)
    assert (server["x"], server["y"]) != (175, 175)  # where the GM put it (snapped to the grid)
    expect(mine).to_have_attribute("transform", f"translate({server['x']} {server['y']})", timeout=10_000)
    expect(mine).to_have_attribute("data-x", str(server["x"]))
    phone.screenshot(path=str(artifacts / "offline-drag-reconnected.png"))

    # Away again with nothing changed on the server: no push will come, and still the page that comes
    # back shows the server's state, not what it drew meanwhile.
    phone_ctx.set_offline(True)
    expect(phone.locator("#live-pill")).to_have_text("offline")
    phone.evaluate("document.querySelector('.token.mine').setAttribute('transform', 'translate(20 20)')")
    phone_ctx.set_offline(False)
    expect(phone.locator("#live-pill")).to_have_text("live", timeout=15_000)
    expect(mine).to_have_attribute("transform", f"translate({server['x']} {server['y']})", timeout=10_000)
    phone_ctx.close()


def test_triptycho_badges_on_its_section_map_and_a_tap_says_them(browser, live_server, live_http, artifacts):
    table, _, ben = hall.__wrapped__(live_http)  # the seed's hallway; Brick's turn
    table.ok(table.gm, "triptycho.condition", participant="Brick", condition="vulnerable")
    phone_ctx, phone = open_phone(browser, live_server, table, ben)
    brick = phone.locator(".tp-token[data-name='Brick']").first
    expect(brick.locator(".token-badges .badge-condition")).to_have_count(1)
    spot = (brick.get_attribute("transform") or "").removeprefix("translate(").rstrip(")").split()
    touches(phone, [board_point(phone, "triptycho", float(spot[0]), float(spot[1]))] * 2)
    expect(words_popover(phone)).to_contain_text("Brick's turn")
    expect(words_popover(phone)).to_contain_text("Vulnerable")
    phone.screenshot(path=str(artifacts / "badges-triptycho-board-phone.png"))
    phone_ctx.close()


def test_the_phone_whose_turn_it_becomes_sees_its_token_on_5x5s_tabletop(browser, live_server, live_http):
    table = Table.create(live_http, system="fivebyfive", dice="manual")
    ann, _, ids = rooftop(table)
    phone_ctx, phone = open_phone(browser, live_server, table, ann)
    aria = phone.locator(".fx-token[data-name='Aria']")
    x, y = (float(aria.get_attribute(a) or 0) for a in ("data-x", "data-y"))
    for _ in range(3):
        phone.get_by_role("button", name="Zoom in").tap()
    phone.evaluate(  # the player looks at the far corner of the table
        "() => { const f = document.querySelector('.mapframe'); const [, , w, h] = FrayFrame.view(f);"
        " FrayFrame.setView(f, [100, 100, w, h]); }"
    )
    vx, vy, vw, vh = view_box(phone)
    assert not (vx < x < vx + vw and vy < y < vy + vh)
    table.ok(table.gm, "fivebyfive.roll_initiative", dice=[3, 1, 3])  # Aria first: Ann's turn
    expect(aria).to_have_class(re.compile(r"\bcurrent\b"))
    phone.wait_for_function(
        """([x, y]) => { const [vx, vy, w, h] = FrayFrame.view(document.querySelector(".mapframe"));
                         return vx < x && x < vx + w && vy < y && y < vy + h; }""",
        arg=[x, y],
    )
    assert ids["Aria"] == aria.get_attribute("data-pid")
    phone_ctx.close()
