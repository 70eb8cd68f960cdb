"""Pages render for each seat, and forms post commands (with and without htmx)."""

from __future__ import annotations

from tests.helpers import Table
from tests.mapping import dungeon_png, upload

BROWSER = {"Origin": "http://testserver"}  # what a browser sends with every form it posts


def _cookie_client(client, table: Table, token: str):
    client.cookies.clear()
    client.cookies.set(f"fray_{table.id}", token)
    return client


def test_each_seat_gets_its_page_and_forms_run_commands(client, table: Table):
    ann = table.join("Ann")
    table.character("Aria", owner=ann)
    gm = _cookie_client(client, table, table.gm.token)
    page = gm.get(f"/c/{table.id}/gm")
    assert page.status_code == 200 and 'id="invite-url"' in page.text and "<svg" in page.text
    # An htmx form post: a short confirmation; the page's blocks come over the socket.
    form = {"type": "generic.pool.create", "name": "Fate", "value": "2", "max": "", "min:json": "null"}
    r = gm.post(f"/c/{table.id}/commands", data=form, headers={"HX-Request": "true", **BROWSER})
    assert r.status_code == 200 and "Fate" in r.text
    fate = next(p for p in table.view(table.gm)["pools"] if p["name"] == "Fate")
    assert fate["min"] is None and fate["max"] is None
    # A refused form: 4xx with the sentence, for the form's own message slot.
    r = gm.post(
        f"/c/{table.id}/commands",
        data={"type": "generic.pool.adjust", "pool": "Nope", "delta": "1"},
        headers={"HX-Request": "true", **BROWSER},
    )
    assert r.status_code == 409 and "There is no pool" in r.text and "<span" in r.text
    # Without JavaScript: post, then back to the page.
    r = gm.post(
        f"/c/{table.id}/commands",
        data={"type": "generic.roll", "expression": "1d6", "dice": "4"},
        headers={"Referer": f"http://testserver/c/{table.id}/gm", "Origin": "http://testserver"},
        follow_redirects=False,
    )
    assert r.status_code == 303
    player = _cookie_client(client, table, ann.token)
    page = player.get(f"/c/{table.id}/play")
    assert page.status_code == 200 and "Aria" in page.text and "Fate" in page.text
    assert player.get(f"/c/{table.id}/gm").status_code == 403
    assert player.get(f"/c/{table.id}/table").status_code == 200
    assert player.get(f"/c/{table.id}", follow_redirects=False).headers["location"].endswith("/play")


def test_joining_by_the_invite_page_and_landing(client, table: Table):
    client.cookies.clear()
    assert "Start a campaign" in client.get("/").text
    assert client.get(f"/c/{table.id}/join/{table.invite}").status_code == 200
    r = client.post(
        f"/c/{table.id}/join/{table.invite}", data={"name": "Cleo"}, headers=BROWSER, follow_redirects=False
    )
    assert r.status_code == 303 and r.headers["location"].endswith("/play")
    assert "Test table" in client.get("/").text  # "your tables" remembers it
    r = client.post(
        "/join",
        data={"link": f"http://x/c/{table.id}/join/{table.invite}"},
        headers=BROWSER,
        follow_redirects=False,
    )
    assert r.headers["location"] == f"/c/{table.id}/join/{table.invite}"
    bad = client.post("/join", data={"link": "hello"}, headers={"Accept": "text/html", **BROWSER})
    assert bad.status_code == 422 and "invite link" in bad.text
    missing = client.get("/c/nope/gm", headers={"Accept": "text/html"})
    assert missing.status_code == 401 and "<html" in missing.text


def test_a_gm_tool_page_the_game_does_not_have_is_a_404_with_a_sentence(client, table: Table):
    ann = table.join("Ann")
    gm = _cookie_client(client, table, table.gm.token)
    missing = gm.get(f"/c/{table.id}/gm/map-editor")
    assert missing.status_code == 404 and "no such GM page" in missing.text
    assert gm.get(f"/c/{table.id}/gm/..%2Fpages%2Fgm").status_code in (404, 422)
    player = _cookie_client(client, table, ann.token)
    assert player.get(f"/c/{table.id}/gm/map-editor").status_code == 403


def test_the_gm_console_lists_each_image_with_a_delete_button(client, table: Table):
    asset = upload(table, dungeon_png(), name="crypt.png").json()
    gm = _cookie_client(client, table, table.gm.token)
    page = gm.get(f"/c/{table.id}/gm").text
    assert f'data-delete-asset="{asset["id"]}"' in page and 'aria-label="Delete image crypt.png"' in page


def test_a_form_field_of_json_nested_thousands_deep_is_a_422(client, table: Table):
    table.ok(table.gm, "generic.pool.create", name="Good Karma", value=1)
    gm = _cookie_client(client, table, table.gm.token)
    form = {"type": "generic.pool.adjust", "pool": "Good Karma", "delta:json": "[" * 5000}
    r = gm.post(f"/c/{table.id}/commands", data=form, headers={"HX-Request": "true", **BROWSER})
    assert r.status_code == 422, r.text
    assert "delta is not valid JSON." in r.text
