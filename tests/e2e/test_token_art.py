"""Issue 30, items 1 and 2 in a real browser, on phones (390 x 844, touch): the GM gives a token a
picture and frames it in the circle, a player pictures their own character, and every phone sees the
pictures in the tokens' circles; without pictures, player characters (ringed in their player's colour),
NPCs (red rounded squares) and markers (grey) differ at a glance, and the GM recolours a token."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image
from playwright.sync_api import Page, expect

from app.realtime.looks import PALETTE
from tests.e2e.test_map import PHONE, touches
from tests.helpers import Table
from tests.mapping import RED, dungeon_png, png


def _scene(table: Table, live_http) -> str:
    r = live_http.post(
        f"/api/campaigns/{table.id}/assets",
        files={"file": ("crypt.png", dungeon_png(600, 400), "image/png")},
        headers=table.gm.auth,
    )
    assert r.status_code == 201, r.text
    grid = {"type": "square", "size": 80}
    reply = table.ok(table.gm, "map.scene.create", name="Crypt", asset=r.json()["id"], grid=grid, show=True)
    return reply["view"]["map"]["scene"]


def _place(table: Table, scene: str, x: float, y: float, **who) -> str:
    reply = table.ok(table.gm, "map.token.place", scene=scene, x=x, y=y, **who)
    return reply["events"][-1]["data"]["token"]["id"]


def _portrait(path: Path) -> Path:
    """A wide picture: blue, with a red square on its right (x 600-800, y 200-400 of 900 x 600)."""
    image = Image.new("RGB", (900, 600), (40, 70, 160))
    image.paste(RED, (600, 200, 800, 400))
    path.write_bytes(png(image))
    return path


def _phone(browser, live_server, token: str, table: Table) -> Page:
    page = browser.new_context(**PHONE, base_url=live_server.url).new_page()
    page.goto(f"/c/{table.id}/seat/{token}")
    expect(page.locator("#live-pill")).to_have_text("live")
    return page


def _token(view: dict, token_id: str) -> dict:
    return next(t for t in view["map"]["tokens"] if t["id"] == token_id)


def _centre_colour(page: Page, token_id: str) -> list[int]:
    """The colour of the picture drawn in the middle of a token's circle, as the phone shows it."""
    shot = page.locator(f'.mapframe .token[data-token="{token_id}"]').screenshot()
    image = Image.open(io.BytesIO(shot)).convert("RGB")
    return list(image.getpixel((image.width // 2, image.height // 2)))


def test_the_gm_frames_a_picture_on_a_phone_and_the_players_phone_sees_it_in_the_circle(
    browser, live_server, live_http, artifacts: Path, tmp_path
):
    table = Table.create(live_http, name="Portraits")
    ann = table.join("Ann")
    rook = table.character("Rook", owner=ann)
    goblin = table.character("Goblin", kind="npc")
    scene = _scene(table, live_http)
    rook_token = _place(table, scene, 120, 200, participant=rook)
    goblin_token = _place(table, scene, 360, 200, participant=goblin)
    door = _place(table, scene, 440, 330, label="Door")
    picture = _portrait(tmp_path / "goblin.png")

    gm = _phone(browser, live_server, table.gm.token, table)
    gm.locator(f'.mapframe .token[data-token="{goblin_token}"]').tap()
    actions = gm.locator("#map-token-actions")
    expect(actions).to_be_visible()
    actions.locator("[data-picture-token]").tap()
    dialog = gm.locator("#picture-dialog")
    expect(dialog).to_be_visible()
    dialog.locator("[data-picture-file]").set_input_files(str(picture))
    img = dialog.locator("[data-picture-frame] img")
    expect(img).to_be_visible()
    # Zoom in, then drag the picture with a finger until the red square fills the circle.
    dialog.locator("[data-picture-zoom]").fill("1.7")
    box = dialog.locator("[data-picture-frame]").bounding_box()
    assert box is not None
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    touches(gm, [(cx, cy), (cx - 60, cy), (cx - 120, cy), (cx - 120, cy)])
    gm.screenshot(path=str(artifacts / "token-art-gm-framing.png"))
    dialog.locator("[data-picture-save]").tap()
    expect(dialog).to_be_hidden()
    expect(gm.locator(f'.mapframe .token[data-token="{goblin_token}"] .token-body.pictured')).to_have_count(1)

    framed = _token(table.view(table.gm), goblin_token)
    crop = framed["crop"]
    # The frame is the GM's drag: right of the middle, a square of 341 / 1.7 picture pixels.
    assert abs(crop["size"] - 341 / 1.7) < 2 and crop["x"] > 170, crop

    # A marker takes a picture too: the GM picks one of the campaign's images (the map) for the door.
    gm.locator(f'.mapframe .token[data-token="{door}"]').tap()
    actions.locator("[data-picture-token]").tap()
    dialog.locator(".picture-gallery summary").tap()
    thumbs = dialog.locator("[data-picture-asset]")
    expect(thumbs).to_have_count(2)  # the map and the goblin's picture
    thumbs.first.tap()
    expect(img).to_be_visible()
    gm.screenshot(path=str(artifacts / "token-art-gm-gallery.png"))
    dialog.locator("[data-picture-save]").tap()
    expect(dialog).to_be_hidden()
    assert _token(table.view(table.gm), door)["crop"]["size"] == 400  # the map's middle square

    phone = _phone(browser, live_server, ann.token, table)
    expect(phone.locator(f'.mapframe .token[data-token="{door}"] .token-body.pictured')).to_have_count(1)
    pictured = phone.locator(f'.mapframe .token[data-token="{goblin_token}"] .token-body.pictured')
    expect(pictured).to_have_count(1)
    href = phone.locator(f'.mapframe .token[data-token="{goblin_token}"] pattern image').get_attribute("href")
    assert href is not None and framed["image"] not in href
    # The red of the frame fills the circle's middle once the square has loaded (polled: a busy machine).
    colour = [0, 0, 0]
    for _ in range(20):
        r, g, b = colour = _centre_colour(phone, goblin_token)
        if r > 170 and g < 90 and b < 90:
            break
        phone.wait_for_timeout(250)
    assert colour[0] > 170 and colour[1] < 90 and colour[2] < 90, colour
    phone.screenshot(path=str(artifacts / "token-art-phone.png"))

    # Ann gives her own character a picture from her phone: its sheet, Picture…, a file, Save.
    phone.locator(f'.mapframe .token[data-token="{rook_token}"]').tap()
    phone.locator(".token-sheet:not([hidden]) [data-picture-token]").tap()
    pdialog = phone.locator("#picture-dialog")
    expect(pdialog).to_be_visible()
    expect(pdialog.locator("[data-picture-gallery]")).to_have_count(0)  # the GM's images are not hers
    pdialog.locator("[data-picture-file]").set_input_files(str(picture))
    expect(pdialog.locator("[data-picture-frame] img")).to_be_visible()
    phone.screenshot(path=str(artifacts / "token-art-phone-dialog.png"))
    pdialog.locator("[data-picture-save]").tap()
    expect(pdialog).to_be_hidden()
    expect(gm.locator(f'.mapframe .token[data-token="{rook_token}"] .token-body.pictured')).to_have_count(1)
    rook_image = _token(table.view(table.gm), rook_token)["image"]
    assert next(a for a in table.view(table.gm)["map"]["assets"] if a["id"] == rook_image)["seats"] == [
        ann.seat_id
    ]
    # No sheet (so no Picture…) on her phone for a token not hers.
    assert phone.locator(".token-sheet").count() == 1
    gm.screenshot(path=str(artifacts / "token-art-gm.png"))

    # Undo takes Ann's picture back off, on every screen.
    table.ok(table.gm, "campaign.undo")
    expect(phone.locator(f'.mapframe .token[data-token="{rook_token}"] .token-body.pictured')).to_have_count(
        0
    )
    expect(phone.locator(f'.mapframe .token[data-token="{rook_token}"] text')).to_have_text("RO")


def test_player_characters_npcs_and_markers_differ_at_a_glance_and_the_gm_recolours_one(
    browser, live_server, live_http, artifacts: Path
):
    table = Table.create(live_http, name="Sides")
    ann, bob = table.join("Ann"), table.join("Bob")
    scene = _scene(table, live_http)
    rook = _place(table, scene, 120, 120, participant=table.character("Rook", owner=ann))
    brom = _place(table, scene, 120, 280, participant=table.character("Brom", owner=bob))
    goblin = _place(table, scene, 360, 120, participant=table.character("Goblin", kind="npc"))
    door = _place(table, scene, 360, 280, label="Door")

    phone = _phone(browser, live_server, ann.token, table)

    def body(token_id: str):
        return phone.locator(f'.mapframe .token[data-token="{token_id}"] .token-body')

    def style(token_id: str, prop: str) -> str:
        return body(token_id).evaluate(f"(e) => getComputedStyle(e).{prop}")

    def rgb(hex_colour: str) -> str:
        h = hex_colour.lstrip("#")
        return f"rgb({int(h[0:2], 16)}, {int(h[2:4], 16)}, {int(h[4:6], 16)})"

    assert body(rook).evaluate("(e) => e.tagName") == "circle"
    assert style(rook, "stroke") == rgb(PALETTE[0])  # Ann's colour
    assert style(brom, "stroke") == rgb(PALETTE[1])  # Bob's
    assert body(goblin).evaluate("(e) => e.tagName") == "rect"  # an NPC: a rounded square
    assert style(goblin, "fill") != style(rook, "fill")
    assert (
        body(door).evaluate("(e) => e.tagName") == "circle" and style(door, "stroke") == "rgb(255, 255, 255)"
    )
    rook_box, goblin_box = body(rook).bounding_box(), body(goblin).bounding_box()
    assert rook_box and goblin_box and goblin_box["width"] >= 28 and rook_box["width"] >= 28
    phone.screenshot(path=str(artifacts / "token-sides-phone.png"))

    # The GM gives the goblin another colour from its actions; the phone sees it at once.
    gm = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_server.url).new_page()
    gm.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(gm.locator("#live-pill")).to_have_text("live")
    gm.locator(f'.mapframe .token[data-token="{goblin}"]').click()
    colour = gm.locator("#map-token-actions [data-token-color]")
    expect(colour).to_have_value("#b8343a")
    colour.evaluate("(e) => { e.value = '#2e8b57'; e.dispatchEvent(new Event('change', {bubbles: true})); }")
    expect(body(goblin)).to_have_attribute("fill", "#2e8b57")
    assert body(goblin).evaluate("(e) => e.tagName") == "rect"  # still an NPC's shape
    # Each player's colour sits beside their seat on the GM's seat list.
    swatch = gm.locator("#seats li", has_text="Ann").locator(".seat-colour")
    assert swatch.evaluate("(e) => getComputedStyle(e).backgroundColor") == rgb(PALETTE[0])
    gm.screenshot(path=str(artifacts / "token-sides-gm.png"))
    phone.screenshot(path=str(artifacts / "token-sides-phone-recoloured.png"))
