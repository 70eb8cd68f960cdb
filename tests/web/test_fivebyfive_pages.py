"""The 5x5 pages: the tabletop drawn in SVG for the GM, a phone and the table view; the GM's set-up
forms and JSON import through the form post; bad JSON refused with a sentence, changing nothing."""

from __future__ import annotations

import json
import re

from tests.api.test_fivebyfive import ROOFTOP, rooftop
from tests.helpers import Table

HX = {"HX-Request": "true", "Origin": "http://testserver"}


def _as(client, table: Table, token: str):
    client.cookies.clear()
    client.cookies.set(f"fray_{table.id}", token)
    return client


def _post(client, table: Table, data: dict):
    return client.post(f"/c/{table.id}/commands", data=data, headers=HX)


def test_gm_phone_and_table_view_draw_the_tabletop_and_only_what_each_may_see(client):
    table = Table.create(client, system="fivebyfive", dice="manual")
    ann, _, ids = rooftop(
        table,
        extra=[
            {
                "name": "Sniper",
                "kind": "npc",
                "rage": 2,
                "grace": 2,
                "precognition": 2,
                "aim": 2,
                "at": [16, 2],
            }
        ],
    )
    table.ok(table.gm, "fivebyfive.roll_initiative", dice=[3, 1, 2, 1])
    gm = _as(client, table, table.gm.token).get(f"/c/{table.id}/gm").text
    assert 'id="fx-board"' in gm and "<svg" in gm and "<polygon" in gm and "Water tower" in gm
    assert gm.count('class="fx-token') == 4 and "Sniper" in gm
    assert 'name="table:json"' in gm and 'aria-label="Add a rectangle"' in gm
    # Aria's turn: the phone shows the movement circle, the targets with exact odds, a move form.
    phone = _as(client, table, ann.token).get(f"/c/{table.id}/play").text
    assert 'class="fx-reach mine"' in phone and 'r="3.0"' in phone
    assert "fx-move-form" in phone and 'name="x"' in phone
    assert f'data-target="fx-act-{ids["Thug"]}"' in phone and "Aim 38.9%" in phone
    assert (
        f'id="fx-act-{ids["Thug"]}"' in phone and "out of reach" in phone
    )  # Strike disabled, with its reason
    assert "Sniper" not in phone and ids["Sniper"] not in phone  # out of sight: no trace
    assert "Rage" in phone and 'aria-label="rage 3 of 3"' in phone  # Aria's own sheet
    assert "The GM keeps this sheet" in phone  # the Thug's
    client.cookies.clear()
    spectator = client.get(f"/c/{table.id}/watch/{table.spectator}", follow_redirects=True).text
    assert "<svg" in spectator and "fx-reach" in spectator and "fx-move-form" not in spectator
    assert "Sniper" not in spectator and "Aim 38.9%" not in spectator
    # The GM previews Ann's phone.
    preview = _as(client, table, table.gm.token).get(f"/c/{table.id}/play?as={ann.seat_id}").text
    assert "fx-reach mine" in preview and "Sniper" not in preview


def test_the_set_up_forms_and_the_json_import_work_through_the_form_post(client):
    table = Table.create(client, system="fivebyfive", dice="manual")
    ann = table.join("Ann")
    gm = _as(client, table, table.gm.token)
    r = _post(gm, table, {"type": "fivebyfive.board", "width": "30", "height": "20"})
    assert r.status_code == 200
    r = _post(
        gm,
        table,
        {
            "type": "fivebyfive.terrain",
            "name": "Van",
            "x": "10",
            "y": "4",
            "width": "6",
            "height": "3",
            "solid": "true",
        },
    )
    assert r.status_code == 200, r.text
    r = _post(
        gm, table, {"type": "fivebyfive.terrain", "name": "Smoke", "corners": "2,2 6,2 4,5", "solid": "false"}
    )
    assert r.status_code == 200, r.text
    data = {
        **ROOFTOP,
        "board": None,
        "terrain": [],
        "characters": [
            {**c, "player": c.get("player") if c["name"] == "Aria" else None} for c in ROOFTOP["characters"]
        ],
    }
    r = _post(gm, table, {"type": "fivebyfive.import", "table:json": json.dumps(data)})
    assert r.status_code == 200, r.text
    r = _post(
        gm,
        table,
        {
            "type": "fivebyfive.setup",
            "participant": "Brick",
            "rage": "2",
            "grace": "2",
            "precognition": "4",
            "strike": "1",
            "aim": "",
            "focus": "3",
        },
    )
    assert r.status_code == 200, r.text
    r = _post(gm, table, {"type": "fivebyfive.place", "participant": "Brick", "x": "20", "y": "15"})
    assert r.status_code == 200, r.text
    r = _post(gm, table, {"type": "fivebyfive.shift", "participant": "Aria", "rank": "strike", "shift": "1"})
    assert r.status_code == 200, r.text
    view = table.view(table.gm)["system"]
    assert (view["board"]["width"], view["board"]["height"]) == (30, 20)
    assert [(t["name"], t["solid"]) for t in view["board"]["terrain"]] == [("Van", True), ("Smoke", False)]
    assert view["board"]["terrain"][0]["points"] == [[10, 4], [16, 4], [16, 7], [10, 7]]
    brick = next(c for c in view["characters"] if c["name"] == "Brick")
    assert brick["current"]["precognition"] == 4 and brick["ranks"]["focus"] == 3
    aria = next(c for c in view["characters"] if c["name"] == "Aria")
    assert aria["shifts"]["strike"] == 1
    assert {(t["name"], t["x"], t["y"]) for t in view["board"]["tokens"]} >= {
        ("Brick", 20, 15),
        ("Aria", 4, 8),
    }
    owner = next(p for p in table.view(table.gm)["participants"] if p["name"] == "Aria")["owner"]
    assert owner == ann.seat_id
    page = gm.get(f"/c/{table.id}/gm").text
    assert re.search(r'aria-label="Remove Van"', page) and "Smoke" in page


def test_bad_json_or_a_bad_form_gets_a_sentence_and_changes_nothing(client):
    table = Table.create(client, system="fivebyfive", dice="manual")
    table.join("Ann")
    gm = _as(client, table, table.gm.token)
    before = table.view(table.gm)
    r = _post(gm, table, {"type": "fivebyfive.import", "table:json": "{characters: [oops"})
    assert r.status_code == 422 and "table is not valid JSON." in r.text
    r = _post(gm, table, {"type": "fivebyfive.import", "table:json": "[1, 2]"})
    assert r.status_code == 422 and "JSON object" in r.text
    bad_row = {"characters": [{"name": "Aria", "rage": 9, "grace": 2, "precognition": 2}]}
    r = _post(gm, table, {"type": "fivebyfive.import", "table:json": json.dumps(bad_row)})
    assert r.status_code == 422 and "rage must be at most 5" in r.text
    r = _post(gm, table, {"type": "fivebyfive.terrain", "corners": "1,1 2,2 3"})
    assert r.status_code == 422 and "one number is missing" in r.text
    r = _post(gm, table, {"type": "fivebyfive.terrain", "corners": "0,0 4,4 4,0 0,4"})
    assert r.status_code == 422 and "crosses itself" in r.text
    after = table.view(table.gm)
    assert after["system"] == before["system"] and after["participants"] == before["participants"]


def test_the_gm_turns_a_ruling_off_with_one_button(client):
    table = Table.create(client, system="fivebyfive", dice="manual")
    gm = _as(client, table, table.gm.token)
    page = gm.get(f"/c/{table.id}/gm").text
    form = re.search(r'<form[^>]*aria-label="Turn off fog_of_war".*?</form>', page, re.S).group(0)
    settings = re.search(r'name="settings:json" value="([^"]*)"', form).group(1)
    data = {"type": "campaign.settings", "settings:json": settings.replace("&#34;", '"')}
    assert _post(gm, table, data).status_code == 200
    assert table.view(table.gm)["system"]["settings"] == {
        "strike_reach": 1.0,
        "unskilled_ability_minus_one": False,
        "twenty_five_always_fails": False,
        "unskilled_focus_forbidden": False,
        "fog_of_war": False,
        "fallen_can_be_targeted": False,
    }
    assert 'aria-label="Turn on fog_of_war"' in gm.get(f"/c/{table.id}/gm").text


def test_the_demo_table_is_ready_to_play_on_every_page(client):
    from app.rules.fivebyfive.demo import DEMO

    table = Table.create(client, system="fivebyfive", dice="server")
    seats = {name: table.join(name) for name in DEMO.players}
    for command in DEMO.commands:
        payload = json.loads(json.dumps(command))
        if str(payload.get("owner", "")).startswith("@"):
            payload["owner"] = seats[payload["owner"][1:]].seat_id
        table.ok(table.gm, payload.pop("type"), **payload)
    gm = _as(client, table, table.gm.token).get(f"/c/{table.id}/gm").text
    assert gm.count('class="fx-token') == 4 and "Roll Initiative for round 1" in gm
    phone = _as(client, table, seats["Ann"].token).get(f"/c/{table.id}/play").text
    assert "Water tower" in phone and "Aria" in phone and "Mindbender" not in phone  # behind the tower


def test_the_end_of_the_fight_is_shown_on_the_phone_and_the_table_view(client):
    table = Table.create(client, system="fivebyfive", dice="manual")
    ann, _, ids = rooftop(table)
    table.ok(table.gm, "fivebyfive.place", participant="Thug", x=5, y=8)
    table.ok(table.gm, "fivebyfive.roll_initiative", dice=[4, 1, 2])
    table.ok(ann, "fivebyfive.strike", target=ids["Thug"], dice=[1, 1])
    control = next(p for p in table.view(table.gm)["prompts"] if p["kind"] == "fivebyfive.control")
    table.ok(table.gm, "fivebyfive.control", prompt=control["id"], choice="roll", dice=[5, 5, 5, 5])
    for _ in range(2):
        damage = next(p for p in table.view(ann)["prompts"] if p["kind"] == "fivebyfive.damage")
        table.ok(ann, "fivebyfive.damage", prompt=damage["id"], choice="precognition")
    phone = _as(client, table, ann.token).get(f"/c/{table.id}/play").text
    assert "The PCs won the fight!" in phone and "The fight is over." in phone
    client.cookies.clear()
    tv = client.get(f"/c/{table.id}/watch/{table.spectator}", follow_redirects=True).text
    assert "The PCs won the fight!" in tv and "Thug †" in tv


def test_the_house_rules_card_explains_each_older_ruling_and_switches_it_on(client):
    """Every game's GM settings list its rulings, one sentence each, with the seed's as the default."""
    for system, key, sentence in (
        ("fivebyfive", "twenty_five_always_fails", "a roll of 25 always fails"),
        ("tote", "double_six", "twice Base Damage"),
        ("trinity", "stress_reset_from_limit", "face your demons sets stress to limit - 1"),
    ):
        client.cookies.clear()
        table = Table.create(client, system=system, dice="manual")
        gm = _as(client, table, table.gm.token)
        page = gm.get(f"/c/{table.id}/gm").text
        card = page[page.index('id="rulings"') :]
        assert sentence in card
        label = f"Set {key} to {'True' if system != 'tote' else 'critical'}"
        form = re.search(rf'<form[^>]*aria-label="{label}".*?</form>', card, re.S).group(0)
        settings = re.search(r'name="settings:json" value="([^"]*)"', form).group(1)
        data = {"type": "campaign.settings", "settings:json": settings.replace("&#34;", '"')}
        assert _post(gm, table, data).status_code == 200
        assert table.view(table.gm)["campaign"]["settings"][key] in (True, "critical")


def test_the_tray_offers_the_gm_every_name_off_the_table_and_a_phone_only_its_own(client):
    table = Table.create(client, system="fivebyfive", dice="manual")
    ann, _, ids = rooftop(
        table,
        extra=[
            {"name": "Sniper", "kind": "npc", "rage": 2, "grace": 2, "precognition": 2},
            {"name": "Cass", "kind": "pc", "player": "Ann", "rage": 2, "grace": 2, "precognition": 2},
        ],
    )
    gm = _as(client, table, table.gm.token).get(f"/c/{table.id}/gm").text
    tray = gm[gm.index('class="fx-tray"') : gm.index("</div>", gm.index('class="fx-tray"'))]
    assert f'data-place-pid="{ids["Sniper"]}"' in tray and f'data-place-pid="{ids["Cass"]}"' in tray
    assert ids["Aria"] not in tray  # on the table already
    assert 'class="tool fx-terrain-tool"' in tray and 'aria-label="Draw terrain"' in gm
    assert "Drag any token" not in gm
    phone = _as(client, table, ann.token).get(f"/c/{table.id}/play").text
    assert "Cass: the GM puts you on the table" in phone
    assert "Sniper" not in phone and ids["Sniper"] not in phone  # an NPC off the table: no trace
    assert "fx-terrain-tool" not in phone and "data-place-pid" not in phone


def test_a_dragged_rectangle_of_terrain_through_the_form_and_a_backwards_one_refused(client):
    table = Table.create(client, system="fivebyfive", dice="manual")
    rooftop(table)
    gm = _as(client, table, table.gm.token)
    drawn = {
        "type": "fivebyfive.terrain",
        "x": "13",
        "y": "9",
        "width": "2.5",
        "height": "3",
        "name": "Crates",
    }
    r = _post(gm, table, {**drawn, "solid": "true"})
    assert r.status_code == 200, r.text
    terrain = table.view(table.gm)["system"]["board"]["terrain"]
    assert [t["name"] for t in terrain] == ["Water tower", "Crates"]
    r = _post(gm, table, {**drawn, "width": "-2"})
    assert 400 <= r.status_code < 500 and "width" in r.text.lower()
    assert len(table.view(table.gm)["system"]["board"]["terrain"]) == 2


def test_the_placing_hint_follows_the_tray(client):
    table = Table.create(client, system="fivebyfive", dice="manual")
    rooftop(table)  # everyone on the table: no name waits in the tray
    gm = _as(client, table, table.gm.token).get(f"/c/{table.id}/gm").text
    assert "Drag a token to put it elsewhere" in gm and "from the tray" not in gm
    assert "Off the table: drag onto it" not in gm
