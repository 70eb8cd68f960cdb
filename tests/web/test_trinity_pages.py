"""The Trinity Code's pages: the GM's encounter screen, the phone page and the table view render for
each seat with the board, tracks, pools and advantage drawn; the set-up forms and the JSON import work
through the form post; bad JSON gets a 4xx sentence and changes nothing; live blocks are swappable."""

from __future__ import annotations

import re

import pytest

from app.demo import _with_seats
from app.realtime import render
from app.rules import registry
from app.rules.trinity.demo import DEMO
from tests.helpers import Seat, Table

HX = {"HX-Request": "true", "Origin": "http://testserver"}


@pytest.fixture
def demo(client) -> tuple[Table, dict[str, Seat]]:
    table = Table.create(client, name="Hollow", system="trinity", dice="manual")
    seats = {name: table.join(name) for name in DEMO.players}
    ids = {name: seat.seat_id for name, seat in seats.items()}
    for command in DEMO.commands:
        fields = dict(_with_seats(command, ids))
        table.ok(table.gm, fields.pop("type"), **fields)
    return table, seats


def as_seat(client, table: Table, token: str):
    client.cookies.clear()
    client.cookies.set(f"fray_{table.id}", token)
    return client


def post(client, table: Table, form: dict):
    return client.post(f"/c/{table.id}/commands", data=form, headers=HX)


def test_the_registry_lists_the_trinity_code_and_its_demo():
    system = registry.systems()["trinity"]
    assert system.title == "The Trinity Code 2.0" and system.demo is not None
    gear = {w["name"] for c in system.demo.commands for w in c.get("weapons", ())}
    assert {"pistol", "rifle"} <= gear


def test_the_gm_sees_the_drawn_board_pools_advantage_tracks_and_the_setup_forms(client, demo):
    table, _ = demo
    page = as_seat(client, table, table.gm.token).get(f"/c/{table.id}/gm")
    assert page.status_code == 200
    html = page.text
    assert "/static/css/systems/trinity.css" in html and "/static/js/systems/trinity.js" in html
    # The board: one lane per opponent, one row per character, three bands; every other band a button.
    assert html.count('<section class="tc-lane') == 2
    assert html.count("data-pair=") == 2 * 2 * 3
    assert html.count('name="type" value="trinity.set_band"') == 2 * 2 * 2
    assert 'data-drag="' in html  # tokens the GM can drag
    assert 'aria-label="Advantage to Team"' in html and 'data-advantage="none"' in html
    assert 'data-tc="good">1<' in html and 'data-tc="bad">3<' in html
    assert html.count('class="tc-track tc-harm"') == 4  # two PCs and two opponents
    assert "Hates light." in html  # the GM's notes
    for form in (
        "trinity.setup_character",
        "trinity.give_weapon",
        "trinity.give_armour",
        "trinity.give_item",
        "trinity.setup_opponent",
        "trinity.import",
        "trinity.inflict",
        "trinity.time_passes",
        "trinity.new_investigation",
    ):
        assert f'value="{form}"' in html, form
    assert 'name="sheets:json"' in html


def test_the_phone_offers_legal_moves_with_odds_and_says_why_the_others_are_not(client, demo):
    table, seats = demo
    html = as_seat(client, table, seats["Ann"].token).get(f"/c/{table.id}/play").text
    moves = html[html.index('id="tc-moves"') : html.index('id="tc-board"')]
    assert "Open fire: Cultist (pistol)" in moves and "10+ <b>" in moves
    offered, refused = moves.split('class="tc-off"', 1)
    assert "Aim: Cultist (pistol)" not in offered
    assert "Aim: Cultist (pistol)</b>" in refused and "needs your team to have advantage" in refused
    assert "Reload the pistol" in refused and "still has 6 ammo" in refused
    # Ann's sheet is drawn: harm (limit + 2 boxes), stress, Luck, ammo pips; no opponent stat block.
    me = html[html.index('id="tc-me"') : html.index('id="tc-moves"')]
    assert (
        len(re.findall(r'class="tc-box[ "]', me)) == 9 + 5
        and 'data-tc="ammo">6<' in me
        and 'data-tc="luck">8<' in me
    )
    # Issue 17: what the boxes mean is written under each track, not only in hover tooltips.
    zones = re.findall(r'<small class="tc-zones">([^<]*)</small>', me)
    assert zones == [
        "Boxes 4\u20136 wounded · 7 unconscious · 8 dying · 9 dead",
        "Boxes 2\u20134 traumatised · 5 on the brink",
    ]
    assert "Hates light" not in html and "harm-3 melee" not in html and "hide" not in html


def test_the_karma_window_reaches_every_player_and_the_gm_with_exact_odds(client, demo):
    table, seats = demo
    table.ok(
        seats["Ann"], "trinity.move", character="Aria", move="open_fire", opponent="Cultist", weapon="pistol"
    )
    ben = as_seat(client, table, seats["Ben"].token).get(f"/c/{table.id}/play").text
    window = ben[ben.index('id="tc-prompts"') : ben.index('id="tc-tags"')]
    assert "Karma window" in window and 'aria-label="Grab 1"' in window
    assert re.search(r"10\+ <b>\d+(\.\d)?%</b>", window)
    assert "Bad karma" not in window  # the GM's side of the window is the GM's
    gm = as_seat(client, table, table.gm.token).get(f"/c/{table.id}/gm").text
    window = gm[gm.index('id="tc-prompts"') : gm.index('id="tc-field"')]
    assert "grab Bad karma" in window and 'aria-label="Grab 3"' in window
    assert "Waiting for the players" in window
    # The GM answers first: no dice box yet; the players' answer then rolls (dice typed in).
    assert 'name="dice"' not in window
    table.ok(
        table.gm,
        "trinity.karma",
        prompt=next(p["id"] for p in table.view(table.gm)["prompts"] if p["to"] == "gm"),
        choice="1",
    )
    ann = as_seat(client, table, seats["Ann"].token).get(f"/c/{table.id}/play").text
    window = ann[ann.index('id="tc-prompts"') : ann.index('id="tc-tags"')]
    assert window.count('name="dice"') == 2  # pass or grab 1: both roll now


def test_spectators_and_the_table_view_see_the_fight_but_cannot_act(client, demo):
    table, _ = demo
    client.cookies.clear()
    r = client.get(f"/c/{table.id}/watch/{table.spectator}", follow_redirects=True)
    assert r.status_code == 200 and 'id="tc-board"' in r.text and 'id="tc-field"' in r.text
    assert 'value="trinity.' not in r.text and "Hates light" not in r.text
    assert r.text.count('class="tc-sheet') == 2


def test_the_gm_previews_a_players_phone(client, demo):
    table, seats = demo
    r = as_seat(client, table, table.gm.token).get(f"/c/{table.id}/play?as={seats['Ann'].seat_id}")
    assert r.status_code == 200 and "Open fire: Cultist (pistol)" in r.text and "Hates light" not in r.text


def test_the_setup_forms_post_sheets_weapons_armour_items_and_opponents(client, demo):
    table, _ = demo
    gm = as_seat(client, table, table.gm.token)
    table.ok(table.gm, "campaign.add_participant", name="Cleo", kind="pc")
    table.ok(table.gm, "campaign.add_participant", name="Hound", kind="npc")
    forms = [
        {
            "type": "trinity.setup_character",
            "character": "Cleo",
            "power": "1",
            "quickness": "2",
            "cool": "0",
            "wits": "-1",
            "harm_limit": "7",
            "stress_limit": "5",
            "luck": "6",
            "out_of_luck": "",
            "ignores_close_penalty": "true",
        },
        {
            "type": "trinity.give_weapon",
            "character": "Cleo",
            "name": "pistol",
            "harm": "2",
            "kind": "ranged",
            "tags[]": ["close", "medium"],
            "ammo": "6",
            "spares": "2",
        },
        {
            "type": "trinity.give_armour",
            "character": "Cleo",
            "name": "tactical armour",
            "armour": "2",
            "threshold": "6",
        },
        {
            "type": "trinity.give_item",
            "character": "Cleo",
            "name": "healing potion",
            "heal": "2",
            "calm": "0",
            "consumable": "2",
            "timing": "instant",
        },
        {
            "type": "trinity.setup_opponent",
            "opponent": "Hound",
            "harm": "2",
            "harm_limit": "4",
            "attack": "melee",
            "armour:json": '{"name": "hide", "armour": 1}',
        },
    ]
    for form in forms:
        r = post(gm, table, form)
        assert r.status_code == 200, (form["type"], r.text)
    # The sheet form again keeps the gear already given.
    assert post(gm, table, {**forms[0], "luck": "5"}).status_code == 200
    system = table.view(table.gm)["system"]
    cleo = next(c for c in system["characters"] if c["name"] == "Cleo")
    assert (cleo["power"], cleo["quickness"], cleo["wits"], cleo["luck"]) == (1, 2, -1, 5)
    assert cleo["ignores_close_penalty"] is True
    assert cleo["weapons"][0]["tags"] == ["close", "medium"] and cleo["weapons"][0]["spares"] == 2
    assert cleo["armour"] == {"name": "tactical armour", "value": 2, "threshold": 6}
    assert cleo["items"][0]["heal"] == 2 and cleo["items"][0]["uses"] == 2
    hound = next(o for o in system["opponents"] if o["name"] == "Hound")
    assert hound["armour"]["value"] == 1 and hound["armour"]["threshold"] is None
    # A refused form: a 4xx sentence for the form's message slot.
    r = post(
        gm,
        table,
        {"type": "trinity.give_weapon", "character": "Cleo", "name": "bow", "harm": "2", "kind": "ranged"},
    )
    assert r.status_code == 422 and "range tag" in r.text


def test_the_json_import_form_adds_characters_and_bad_json_changes_nothing(client, demo):
    table, _ = demo
    gm = as_seat(client, table, table.gm.token)
    sheets = (
        '{"characters": [{"name": "Dana", "player": "Ben", "quickness": 2, "luck": 8,'
        ' "armour": {"name": "tactical armour", "armour": 2, "threshold": 6},'
        ' "weapons": [{"name": "rifle", "harm": 3, "tags": ["medium"], "ammo": 5, "spares": 1}],'
        ' "items": [{"name": "healing potion", "heal": 2, "consumable": 2}]}],'
        ' "opponents": [{"name": "Shade", "harm": 2, "harm_limit": 5, "attack": "ranged", "hidden": true}]}'
    )
    r = post(gm, table, {"type": "trinity.import", "sheets:json": sheets})
    assert r.status_code == 200, r.text
    view = table.view(table.gm)
    dana = next(c for c in view["system"]["characters"] if c["name"] == "Dana")
    assert dana["weapons"][0]["name"] == "rifle" and dana["armour"]["threshold"] == 6
    assert next(p for p in view["participants"] if p["name"] == "Shade")["hidden"] is True
    before = table.view(table.gm)
    r = post(gm, table, {"type": "trinity.import", "sheets:json": '{"characters": [{"name": "Eve",'})
    assert r.status_code == 422 and "sheets is not valid JSON" in r.text
    r = post(
        gm, table, {"type": "trinity.import", "sheets:json": '{"characters": [{"name": "Eve", "luck": -2}]}'}
    )
    assert r.status_code == 422 and "Eve" in r.text and "luck" in r.text.lower()
    r = post(gm, table, {"type": "trinity.import", "sheets:json": "[1, 2]"})
    assert r.status_code == 422
    assert table.view(table.gm) == before


def test_every_live_block_is_one_element_with_a_stable_id_marked_for_swapping(client, demo):
    table, seats = demo
    for page, seat in (("gm", table.gm), ("player", seats["Ann"]), ("table", table.gm)):
        html = (
            as_seat(client, table, seat.token)
            .get(f"/c/{table.id}/{'play' if page == 'player' else page}")
            .text
        )
        blocks = render.system_blocks("trinity", page)
        assert blocks, page
        for name in blocks:
            block_id = name.replace("_", "-")
            assert html.count(f'id="{block_id}"') == 1, (page, name)


def test_the_gm_answers_the_opponents_band_move_and_a_doubles_tag_on_the_encounter_screen(client, demo):
    table, seats = demo
    gm = as_seat(client, table, table.gm.token)
    table.ok(table.gm, "trinity.set_band", character="Brick", opponent="Ghoul", band="close")
    table.ok(
        seats["Ben"],
        "trinity.move",
        character="Brick",
        move="go_toe_to_toe",
        opponent="Ghoul",
        weapon="crowbar",
    )
    prompts = {p["to"]: p["id"] for p in table.view(table.gm)["prompts"]}
    table.ok(table.gm, "trinity.karma", prompt=prompts["gm"], choice="0")
    table.ok(seats["Ann"], "trinity.karma", prompt=prompts["players"], choice="0", dice=[1, 1])  # 4: 6-
    luck = next(p["id"] for p in table.view(seats["Ben"])["prompts"] if p["kind"] == "luck")
    table.ok(seats["Ben"], "trinity.luck", prompt=luck, choice="keep")
    html = gm.get(f"/c/{table.id}/gm").text
    panel = html[html.index('id="tc-prompts"') : html.index('id="tc-field"')]
    assert "Ghoul may move one band from Brick" in panel
    assert 'aria-label="Move further"' in panel and 'aria-label="Stay"' in panel
    assert 'aria-label="Move closer"' not in panel  # already at close
    band = next(p["id"] for p in table.view(table.gm)["prompts"] if p["kind"] == "band")
    r = post(gm, table, {"type": "trinity.band_move", "prompt": band, "choice": "further"})
    assert r.status_code == 200
    html = gm.get(f"/c/{table.id}/gm").text
    panel = html[html.index('id="tc-tags"') : html.index('id="tc-field"')]
    assert "Double 1s" in panel and 'name="text"' in panel  # the GM types a negative tag
    tag = next(p["id"] for p in table.view(table.gm)["prompts"] if p["kind"] == "tag")
    assert (
        post(
            gm, table, {"type": "trinity.tag", "prompt": tag, "choice": "add", "text": "slick floor"}
        ).status_code
        == 200
    )
    html = as_seat(client, table, seats["Ann"].token).get(f"/c/{table.id}/play").text
    assert "slick floor" in html and "tc-envtag neg" in html
    assert 'data-advantage="enemy"' in html


def test_the_gm_action_forms_inflict_heal_let_time_pass_and_start_a_new_investigation(client, demo):
    table, seats = demo
    gm = as_seat(client, table, table.gm.token)

    def aria() -> dict:
        return next(c for c in table.view(table.gm)["system"]["characters"] if c["name"] == "Aria")

    # Inflict without armour: the unchecked box leaves only the hidden "false".
    form = {"type": "trinity.inflict", "character": "Aria", "harm": "3", "stress": "2", "armour": "false"}
    assert post(gm, table, form).status_code == 200
    assert (aria()["harm"], aria()["stress"], aria()["armour"]["threshold"]) == (3, 2, 6)
    form = {
        "type": "trinity.inflict",
        "character": "Aria",
        "harm": "3",
        "stress": "0",
        "armour": ["false", "true"],
    }
    assert post(gm, table, form).status_code == 200
    assert (aria()["harm"], aria()["armour"]["threshold"]) == (4, 5)  # 2 absorbed, the armour wears
    assert "wounded" in aria()["conditions"] and "traumatised" in aria()["conditions"]
    form = {"type": "trinity.use_item", "character": "Aria", "item": "healing potion", "target": ""}
    assert post(gm, table, form).status_code == 200
    assert aria()["harm"] == 2 and aria()["items"][0]["uses"] == 1
    assert post(gm, table, {"type": "trinity.time_passes", "hours": "2"}).status_code == 200
    assert aria()["stress"] == 0
    # The drawn controls: a band cell, an advantage stop and a karma step are forms too.
    band = {"type": "trinity.set_band", "character": "Aria", "opponent": "Cultist", "band": "long"}
    assert post(gm, table, band).status_code == 200
    assert post(gm, table, {"type": "trinity.set_advantage", "advantage": "enemy"}).status_code == 200
    assert post(gm, table, {"type": "trinity.add_karma", "pool": "good", "amount": "1"}).status_code == 200
    system = table.view(seats["Ann"])["system"]
    assert system["advantage"] == "enemy" and system["karma"]["good"] == 2
    assert (
        next(b for b in system["board"] if b["opponent_name"] == "Cultist" and b["character_name"] == "Aria")[
            "band"
        ]
        == "long"
    )
    # A new Investigation waits for the fight to end, then empties the pools and clears harm and stress.
    r = post(gm, table, {"type": "trinity.new_investigation"})
    assert r.status_code == 409 and "End the encounter" in r.text
    table.ok(table.gm, "campaign.encounter.end")
    assert post(gm, table, {"type": "trinity.new_investigation"}).status_code == 200
    system = table.view(table.gm)["system"]
    assert system["investigation"] == 2 and system["karma"]["good"] == system["karma"]["bad"] == 0
    assert aria()["harm"] == 0 and aria()["luck"] == 8
