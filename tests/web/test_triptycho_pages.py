"""Triptycho's pages: the map drawn in SVG for the GM, a player and a spectator; the set-up form, the JSON
imports of characters and maps through form posts; bad JSON refused with a sentence, changing nothing;
the GM's map and card editors."""

from __future__ import annotations

import json
import re

import pytest

from tests.helpers import Table

HX = {"HX-Request": "true", "Origin": "http://testserver"}
CLAWS = {"id": "claws", "name": "Claws", "hit": "1d6", "damage": "1d6", "hostile": True}


def as_seat(client, table: Table, token: str):
    client.cookies.clear()
    client.cookies.set(f"fray_{table.id}", token)
    return client


def post(client, table: Table, form: dict[str, str]):
    return client.post(f"/c/{table.id}/commands", data=form, headers=HX)


@pytest.fixture
def cave(client) -> Table:
    table = Table.create(client, system="triptycho", dice="manual")
    ann = table.join("Ann")
    table.ok(table.gm, "campaign.add_participant", name="Aria", kind="pc", owner=ann.seat_id)
    table.ok(table.gm, "triptycho.map.load", map="cliff")
    table.ok(table.gm, "triptycho.setup", participant="Aria", low_light=True, uses_deck=False, cards=[CLAWS])
    table.ok(table.gm, "triptycho.place", participant="Aria", sections=["mouth"])
    return table


def test_the_gm_player_and_spectator_pages_draw_the_map_and_only_what_each_may_see(client, cave: Table):
    ann = cave.players["Ann"]
    cave.ok(cave.gm, "triptycho.add", name="Lurker", side="foes", sections=["floor"])  # dark: unseen
    gm = as_seat(client, cave, cave.gm.token).get(f"/c/{cave.id}/gm")
    assert gm.status_code == 200
    for piece in ('id="tp-gm-map"', 'class="tp-board"', "<polygon", 'data-section="floor"', "Lurker"):
        assert piece in gm.text, piece
    assert 'href="gm/map"' in gm.text and 'href="gm/cards"' in gm.text
    assert 'href="play?as=' in gm.text  # the GM previews a player's screen

    player = as_seat(client, cave, ann.token).get(f"/c/{cave.id}/play")
    assert player.status_code == 200 and 'id="tp-map"' in player.text and "<polygon" in player.text
    assert "Aria" in player.text and "Lurker" not in player.text
    preview = as_seat(client, cave, cave.gm.token).get(f"/c/{cave.id}/play?as={ann.seat_id}")
    assert preview.status_code == 200 and "Lurker" not in preview.text

    spectator = client.get(f"/c/{cave.id}/watch/{cave.spectator}", follow_redirects=True)
    assert spectator.status_code == 200 and 'id="tp-table-map"' in spectator.text
    assert "Lurker" not in spectator.text


def test_the_players_turn_shows_the_steps_reachable_sections_and_cards(client, cave: Table):
    ann = cave.players["Ann"]
    cave.ok(cave.gm, "triptycho.order", entries=[{"participant": "Aria", "value": 5}])
    cave.ok(cave.gm, "triptycho.next_turn")
    cave.ok(ann, "triptycho.draw", participant="Aria")
    page = as_seat(client, cave, ann.token).get(f"/c/{cave.id}/play").text
    assert re.search(r'<li class="now[^"]*">Strategy</li>', page)
    # From the cave mouth the pool is one soft border away (flat); the ledge is 1 up: a climb, not a Move.
    reach = set(re.findall(r'class="tp-sec [^"]*reach[^"]*"\s+data-section="(\w+)"', page))
    assert reach == {"pool"}
    assert "Climb toward Ledge" in page and "Claws" in page


def test_the_set_up_form_adds_an_adversary_quietly(client, cave: Table):
    gm = as_seat(client, cave, cave.gm.token)
    form = {
        "type": "triptycho.add",
        "name": "Spitter",
        "side": "foes",
        "size": "small",
        "darkvision": "true",
        "acrobatics": "1d8",
        "initiative": "1d6",
        "health": "6",
        "sections[]": "pool",
        "cards:json": json.dumps([CLAWS]),
    }
    r = post(gm, cave, form)
    assert r.status_code == 200, r.text
    spitter = next(e for e in cave.view(cave.gm)["system"]["entities"] if e["name"] == "Spitter")
    assert spitter["size"] == "small" and spitter["senses"]["darkvision"] and spitter["sections"] == ["pool"]
    assert spitter["health"] == 6 and [c["id"] for c in spitter["cards"]] == ["claws"]
    ann = cave.players["Ann"]
    assert "Spitter" not in json.dumps(cave.events(ann))  # added quietly; it stands in the dark


def test_the_json_import_of_characters_through_the_form(client, cave: Table):
    gm = as_seat(client, cave, cave.gm.token)
    characters = [
        {"name": "Aria", "side": "party", "acrobatics": "1d10", "cards": [CLAWS], "deck": ["claws", "claws"]},
        {"name": "Crawler", "side": "foes", "darkvision": True, "health": 10, "sections": ["floor"]},
    ]
    r = post(gm, cave, {"type": "triptycho.import", "characters:json": json.dumps(characters)})
    assert r.status_code == 200, r.text
    view = cave.view(cave.gm)["system"]
    aria = next(e for e in view["entities"] if e["name"] == "Aria")
    assert aria["acrobatics"] == "1d10" and aria["deck_list"] == ["claws", "claws"]
    assert next(e for e in view["entities"] if e["name"] == "Crawler")["sections"] == ["floor"]


@pytest.mark.parametrize(
    ("form", "sentence"),
    [
        ({"type": "triptycho.import", "characters:json": "[{'name': 'Zed'"}, "characters is not valid JSON."),
        (
            {"type": "triptycho.import", "characters:json": '[{"name": "Zed", "cards": [{"id": "x"}]}]'},
            "Character 1: Card 1: Name is required.",
        ),
        ({"type": "triptycho.map.save", "map:json": '{"id": "m", "name": "M"'}, "map is not valid JSON."),
        (
            {"type": "triptycho.map.save", "map:json": '{"id": "m", "name": "M", "sections": []}'},
            "Map: Sections cannot be empty.",
        ),
    ],
)
def test_bad_json_gets_a_sentence_and_changes_nothing(client, cave: Table, form, sentence):
    gm = as_seat(client, cave, cave.gm.token)
    before = cave.view(cave.gm)
    r = post(gm, cave, form)
    assert 400 <= r.status_code < 500 and sentence in r.text
    assert cave.view(cave.gm) == before


def test_the_map_editor_saves_and_exports_maps_as_json(client, cave: Table):
    gm = as_seat(client, cave, cave.gm.token)
    page = gm.get(f"/c/{cave.id}/gm/map")
    assert page.status_code == 200 and 'id="tp-map-editor"' in page.text and 'class="tp-editor"' in page.text
    saved = json.loads(re.search(r'id="tp-maps-data">(.*?)</script>', page.text, re.S).group(1))
    assert {m["id"] for m in saved} == {"hallway", "chasm", "cliff"}
    new = {
        "id": "bridge",
        "name": "Rope bridge",
        "sections": [
            {"id": "a", "points": [[0, 0], [2, 0], [2, 2], [0, 2]], "light": "lit"},
            {"id": "b", "points": [[2, 0], [4, 0], [4, 2], [2, 2]], "light": "dark", "water": True},
        ],
        "borders": [{"a": "a", "b": "b", "kind": "soft", "height": -3}],
    }
    r = post(gm, cave, {"type": "triptycho.map.save", "map:json": json.dumps(new)})
    assert r.status_code == 200 and "Rope bridge" in r.text
    exported = next(m for m in cave.view(cave.gm)["system"]["maps"] if m["id"] == "bridge")["json"]
    assert exported["borders"][0]["height"] == -3 and exported["sections"][1]["water"] is True
    # The export saves back unchanged.
    assert post(gm, cave, {"type": "triptycho.map.save", "map:json": json.dumps(exported)}).status_code == 200
    assert 'id="tp-delete-form"' in page.text
    assert post(gm, cave, {"type": "triptycho.map.delete", "map": "bridge"}).status_code == 200
    assert "bridge" not in {m["id"] for m in cave.view(cave.gm)["system"]["maps"]}
    player = as_seat(client, cave, cave.players["Ann"].token)
    assert player.get(f"/c/{cave.id}/gm/map").status_code == 403


def test_the_card_editor_saves_a_sheet_with_its_cards(client, cave: Table):
    gm = as_seat(client, cave, cave.gm.token)
    page = gm.get(f"/c/{cave.id}/gm/cards")
    assert page.status_code == 200 and 'id="tp-card-editor"' in page.text and 'name="cards:json"' in page.text
    aria = next(e for e in cave.view(cave.gm)["system"]["entities"] if e["name"] == "Aria")
    parry = {"id": "parry", "name": "Parry", "kind": "reaction", "miss": "1d6", "defense": "1d4"}
    rally = {"id": "rally", "name": "Rally", "kind": "strategy", "text": "An ally may Move 1."}
    form = {
        "type": "triptycho.setup",
        "participant": aria["id"],
        "side": "party",
        "size": "medium",
        "low_light": "true",
        "acrobatics": "1d8",
        "initiative": "1d6",
        "uses_deck": "true",
        "cards:json": json.dumps([CLAWS, parry, rally]),
        "deck:json": json.dumps(["claws", "parry", "rally"]),
    }
    assert post(gm, cave, form).status_code == 200
    aria = next(e for e in cave.view(cave.gm)["system"]["entities"] if e["name"] == "Aria")
    assert [c["kind"] for c in aria["cards"]] == ["action", "reaction", "strategy"]
    assert (
        aria["senses"]["low_light"] and aria["uses_deck"] and aria["deck_list"] == ["claws", "parry", "rally"]
    )
