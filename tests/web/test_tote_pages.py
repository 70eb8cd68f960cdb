"""TOTE's pages: the GM console, the phone page and the table view render the fight drawn (Distance band,
engagement lines, Initiative bars, both phases, dice); the set-up form and the JSON import work through
form posts; bad JSON is refused with a sentence and changes nothing."""

from __future__ import annotations

import json
import re

import pytest

from app.realtime import render
from tests.api.test_tote import fight_view, roll_initiative, sheets
from tests.helpers import Table

HX = {"HX-Request": "true", "Origin": "http://testserver"}


def as_seat(client, table: Table, token: str):
    client.cookies.clear()
    client.cookies.set(f"fray_{table.id}", token)
    return client


def post(client, table: Table, form: dict) -> object:
    return client.post(f"/c/{table.id}/commands", data=form, headers=HX)


@pytest.fixture
def tote(client) -> Table:
    table = Table.create(client, system="tote", dice="manual")
    table.join("Ann")
    table.join("Ben")
    return table


def started(table: Table) -> Table:
    table.ok(table.gm, "tote.import", sheets=sheets())
    table.ok(
        table.gm,
        "campaign.encounter.prepare",
        name="Ogre bridge",
        participants=["Aiyana", "Tahoma", "Ogre"],
        setup={"distance": "close"},
    )
    table.ok(table.gm, "campaign.encounter.start", encounter="Ogre bridge")
    return table


def test_the_hero_set_up_form_posts_flat_fields_as_a_sheet(client, tote: Table):
    table = tote
    table.character("Aiyana", owner=table.players["Ann"])
    gm = as_seat(client, table, table.gm.token)
    page = gm.get(f"/c/{table.id}/gm").text
    assert 'aria-label="Hero sheet"' in page and 'name="skill_plan"' in page and 'name="weapon1_name"' in page
    form = {
        "type": "tote.hero",
        "participant": "Aiyana",
        "skill_plan": "2",
        "skill_strike": "3",
        "spec_strike": "1",
        "spec_plan": "",
        "totem_hawk": "3",
        "resolve": "8",
        "block": "8",
        "resist": "6",
        "armour[]": ["Wicker", ""],
        "weapon1_name": "Spear",
        "weapon1_base": "2",
        "weapon1_effect": "3",
        "weapon1_critical": "pierce",
        "weapon1_kind": "melee",
        "weapon2_name": "Bow",
        "weapon2_base": "2",
        "weapon2_effect": "2",
        "weapon2_critical": "pierce",
        "weapon2_kind": "ranged",
        "weapon3_name": "",
        "weapon3_base": "2",
        "weapon3_kind": "melee",
    }
    r = post(gm, table, form)
    assert r.status_code == 200, r.text
    hero = table.view(table.gm)["system"]["heroes"][0]
    assert hero["skills"] == {"plan": 2, "strike": 3} and hero["specialisations"] == {"strike": 1}
    assert hero["armour"] == ["Wicker"] and hero["encumbrance"] == 5 and hero["resist"] == 6 + 3
    assert [(w["name"], w["ranged"]) for w in hero["weapons"]] == [("Spear", False), ("Bow", True)]


def test_the_enemy_form_and_the_encounter_form_with_its_starting_distance(client, tote: Table):
    table = tote
    table.character("Ogre", kind="npc")
    gm = as_seat(client, table, table.gm.token)
    enemy = {
        "type": "tote.enemy",
        "participant": "Ogre",
        "rating": "3",
        "block": "7",
        "resist": "7",
        "resolve": "6",
        # Issue 17: the track is one choice per circle (empty ones left out) and the fixed U, not JSON.
        "track[]": ["N", "", "5", "", "", "", "", "", "U"],
        "weapon1_name": "Club",
        "weapon1_base": "2",
        "weapon1_effect": "3",
        "weapon1_critical": "bash",
        "weapon1_kind": "melee",
    }
    page = gm.get(f"/c/{table.id}/gm").text
    stat_block = page.split('aria-label="Enemy stat block"')[1].split("</form>")[0]
    assert "track:json" not in stat_block and stat_block.count('<select name="track[]">') == 8
    assert '<input type="hidden" name="track[]" value="U">' in stat_block
    assert post(gm, table, enemy).status_code == 200
    ogre = table.view(table.gm)["system"]["enemies"][0]
    assert ogre["rating"] == 3 and [c["label"] for c in ogre["track"]] == ["N", "5", "U"]
    prepare = {
        "type": "campaign.encounter.prepare",
        "name": "Far away",
        "setup:json": '{"distance": "far"}',
        "participants[]": [table.view(table.gm)["participants"][0]["id"]],
    }
    assert post(gm, table, prepare).status_code == 200
    table.ok(table.gm, "campaign.encounter.start", encounter="Far away")
    fight = table.view(table.gm)["system"]["fight"]
    assert fight["distance"] == "far" and fight["combatants"][0]["band"] == "far"


def test_the_json_import_form_adds_everyone(client, tote: Table):
    table = tote
    gm = as_seat(client, table, table.gm.token)
    page = gm.get(f"/c/{table.id}/gm").text
    assert 'name="sheets:json"' in page
    r = post(gm, table, {"type": "tote.import", "sheets:json": json.dumps(sheets())})
    assert r.status_code == 200, r.text
    view = table.view(table.gm)
    assert {p["name"] for p in view["participants"]} == {"Aiyana", "Tahoma", "Ogre", "Lurker"}
    assert len(view["system"]["heroes"]) == 2 and len(view["system"]["enemies"]) == 2


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ('[{"name": "Aiyana", "side": "hero"', "sheets is not valid JSON"),
        ('{"name": "Aiyana"}', "Sheets must be a list"),
        ('[{"name": "Ogre", "side": "enemy", "rating": 3, "block": 7, "resist": 7}]', "Sheet 1 (Ogre)"),
        ('[{"name": "Ogre", "side": "dragon", "resolve": 3, "block": 7, "resist": 7}]', "hero or enemy"),
    ],
)
def test_bad_json_gets_a_sentence_and_changes_nothing(client, tote: Table, text: str, sentence: str):
    table = tote
    gm = as_seat(client, table, table.gm.token)
    before = table.view(table.gm)
    r = post(gm, table, {"type": "tote.import", "sheets:json": text})
    assert 400 <= r.status_code < 500 and sentence in r.text and "Traceback" not in r.text
    after = table.view(table.gm)
    assert after["participants"] == before["participants"] and after["system"] == before["system"]


def test_each_seat_sees_the_fight_drawn(client, tote: Table):
    table = started(tote)
    roll_initiative(table)
    ann = table.players["Ann"]
    table.ok(table.gm, "tote.place", participant="Ogre", band="melee")

    gm = as_seat(client, table, table.gm.token).get(f"/c/{table.id}/gm").text
    for piece in ('id="tote-fight"', 'class="tt-field', ">Melee<", ">Close<", ">Far<", 'class="tt-bars"'):
        assert piece in gm
    assert "① Declaration" in gm and "② Resolution" in gm and "lowest first" in gm and "highest first" in gm
    assert "Lurker" in gm and "Rating 3" in gm  # the GM sees every sheet
    assert 'id="tote-act"' in gm and "Declare for Ogre" in gm  # the Ogre declares first

    player = as_seat(client, table, ann.token).get(f"/c/{table.id}/play").text
    assert 'id="tote-turn"' in player and 'id="tote-me"' in player and 'class="tt-field' in player
    assert "Usable faces" in player and 'class="tt-circle' in player
    assert "Lurker" not in player and "SECRETFANG" not in player and "Rating 3" not in player
    assert "Declare for" not in player  # not Aiyana's turn: no declare buttons
    # The GM previews Ann's phone: her hero, nothing of the GM's.
    preview = as_seat(client, table, table.gm.token).get(f"/c/{table.id}/play?as={ann.seat_id}").text
    assert 'id="tote-me"' in preview and "Aiyana" in preview.split('id="tote-me"')[1]
    assert "Lurker" not in preview and "Rating 3" not in preview

    client.cookies.clear()
    spectator = client.get(f"/c/{table.id}/watch/{table.spectator}", follow_redirects=True)
    assert spectator.status_code == 200
    screen = spectator.text
    assert 'id="tote-board"' in screen and 'class="tt-field big"' in screen and 'id="tote-order"' in screen
    assert "Lurker" not in screen and "<form" not in screen.split('id="tote-board"')[1].split("</section>")[0]


def test_the_phone_shows_its_options_with_odds_and_reasons_and_the_dice_crossed_out(client, tote: Table):
    table = started(tote)
    ann, ben = table.players["Ann"], table.players["Ben"]
    for who in ("Aiyana", "Tahoma", "Ogre"):
        table.ok(table.gm, "tote.place", participant=who, band="melee")
    roll_initiative(table)
    table.ok(table.gm, "tote.declare", participant="Ogre", action="attack", target="Tahoma")
    table.ok(ben, "tote.declare", participant="Tahoma", action="defend")
    phone = as_seat(client, table, ann.token).get(f"/c/{table.id}/play").text
    assert "Declare your action" in phone and "data-my-turn" in phone
    attack = phone.split('aria-label="Attack (1) Ogre"')[1].split("</form>")[0]
    assert "Miss" in attack and "Hit" in attack and "%" in attack and 'name="dice"' not in attack
    assert "Disengage (3)" in phone and "is not engaged with anyone. (TO-E-2)" in phone  # the reason
    table.ok(ann, "tote.declare", participant="Aiyana", action="attack", target="Ogre", weapon=0)
    phone = as_seat(client, table, ann.token).get(f"/c/{table.id}/play").text
    assert (
        "Your action resolves now" in phone
        and 'name="dice"' in phone
        and "skill dice, then the Paragon" in phone
    )
    # Tahoma takes an injury (the 5), then answers: the 5 is drawn crossed out.
    resolving = table.view(table.gm)["system"]["fight"]["resolving"]
    table.ok(ann, "tote.resolve", declaration=resolving, dice=[5, 1, 3])
    ogre = table.view(table.gm)["system"]["fight"]["resolving"]
    table.ok(table.gm, "tote.resolve", declaration=ogre, dice=[6, 2, 1, 1, 1, 1])
    ben_phone = as_seat(client, table, ben.token).get(f"/c/{table.id}/play").text
    assert "Answer the attack" in ben_phone and "Defend: answer with a Strike" in ben_phone
    prompt = next(p for p in table.view(ben)["prompts"] if p["kind"] == "tote.respond")
    table.ok(ben, "tote.answer", prompt=prompt["id"], choice="strike", dice=[5, 4, 4])
    screen = as_seat(client, table, table.gm.token).get(f"/c/{table.id}/table").text
    last = screen.split('id="tote-last"')[1].split("</section>")[0]
    assert re.search(r'class="tt-die blocked\s*"[^>]*>5<', last), last
    assert 'class="paragon"' in last and "Critical" in last and "6 damage" in last
    # The Ogre's track is the GM's: the shared screen says it is wounded, not which circles.
    assert "Ogre is wounded" in last and "Injuries marked" not in last and "Resolve" not in last
    assert 'class="engaged"' in screen  # engagement lines on the shared screen


def test_every_tote_block_is_one_live_element_with_a_stable_id(client, tote: Table):
    table = started(tote)
    roll_initiative(table)
    for page, expected in (
        ("gm", {"tote_fight", "tote_act", "tote_last", "tote_sheets", "tote_encounter"}),
        ("player", {"tote_turn", "tote_me", "tote_field", "tote_last"}),
        ("table", {"tote_board", "tote_order", "tote_last", "tote_heroes"}),
    ):
        assert set(render.system_blocks("tote", page)) == expected
    gm = as_seat(client, table, table.gm.token).get(f"/c/{table.id}/gm").text
    ids = re.findall(r'id="(tote-[a-z]+)"', gm)
    assert len(ids) == len(set(ids)) and {"tote-fight", "tote-act", "tote-last"} <= set(ids)


def declared_round(table: Table) -> None:
    """Everyone at Melee; the Ogre attacks the Defending Tahoma, Aiyana attacks the Ogre."""
    ann, ben = table.players["Ann"], table.players["Ben"]
    for who in ("Aiyana", "Tahoma", "Ogre"):
        table.ok(table.gm, "tote.place", participant=who, band="melee")
    roll_initiative(table)
    table.ok(table.gm, "tote.declare", participant="Ogre", action="attack", target="Tahoma")
    table.ok(ben, "tote.declare", participant="Tahoma", action="defend")
    table.ok(ann, "tote.declare", participant="Aiyana", action="attack", target="Ogre", weapon=0)


def test_the_gm_console_answers_for_a_player_with_the_same_buttons_odds_and_dice_box(client, tote: Table):
    table = started(tote)
    ann, ben = table.players["Ann"], table.players["Ben"]
    declared_round(table)
    table.ok(ann, "tote.resolve", declaration=fight_view(table, table.gm)["resolving"], dice=[1, 1, 1])
    table.ok(
        table.gm,
        "tote.resolve",
        declaration=fight_view(table, table.gm)["resolving"],
        dice=[6, 2, 1, 1, 1, 1],
    )
    gm = as_seat(client, table, table.gm.token).get(f"/c/{table.id}/gm").text
    now = gm.split('id="tote-act"')[1].split("</section>")[0]
    assert "waiting for Tahoma to answer" in gm  # the banner
    assert "Answer for Tahoma" in now and "Ben may answer on their phone too" in now
    assert "Ogre attacks Tahoma: answer?" in now
    strike = now.split('aria-label="Defend: answer with a Strike"')[1].split("</form>")[0]
    assert "Miss" in strike and "%" in strike and 'name="dice"' in strike and "Paragon" in strike
    assert 'aria-label="Let it go"' in now and "Waiting for" not in now
    phone = as_seat(client, table, ben.token).get(f"/c/{table.id}/play").text
    turn = phone.split('id="tote-turn"')[1].split("</section>")[0]
    assert "Answer the attack" in turn and "Answer for" not in turn
    mine = turn.split('aria-label="Defend: answer with a Strike"')[1].split("</form>")[0]
    assert (
        mine.split('class="odds"')[1].split("</span></span>")[0]
        == strike.split('class="odds"')[1].split("</span></span>")[0]
    )  # the same odds on both screens
    # The GM answers through the console's form: the question closes on Ben's phone too.
    prompt = next(p for p in table.view(ben)["prompts"] if p["kind"] == "tote.respond")
    r = post(
        as_seat(client, table, table.gm.token),
        table,
        {"type": "tote.answer", "prompt": prompt["id"], "choice": "pass"},
    )
    assert r.status_code == 200
    assert table.view(ben)["prompts"] == [] and fight_view(table, table.gm)["round"] == 2
    phone = as_seat(client, table, ben.token).get(f"/c/{table.id}/play").text
    assert "Defend: answer with a Strike" not in phone


def test_players_and_the_table_see_the_ogres_place_in_the_order_without_its_initiative(client, tote: Table):
    table = started(tote)
    roll_initiative(table)  # the Ogre: 0 successes + Rating 3
    ann = table.players["Ann"]
    phone = as_seat(client, table, ann.token).get(f"/c/{table.id}/play").text
    client.cookies.clear()
    screen = client.get(f"/c/{table.id}/watch/{table.spectator}", follow_redirects=True).text
    gm = as_seat(client, table, table.gm.token).get(f"/c/{table.id}/gm").text
    ogre = fight_view(table, table.gm)["combatants"][2]["unit"]
    for page in (phone, screen):
        bar = page.split(f'data-unit="{ogre}"')[1].split("</li>")[0]
        assert '<b class="value">?</b>' in bar and "aria-valuenow" not in bar and "kept by the GM" in bar
        assert "Initiative kept by the GM" in page and 'class="badge secret"' in page
        assert "The GM keeps the roll and the number." in page  # the last roll was the Ogre's
    bar = gm.split(f'data-unit="{ogre}"')[1].split("</li>")[0]
    assert '<b class="value">3</b>' in bar and 'aria-valuenow="3"' in bar


def test_an_action_lost_to_a_fall_is_drawn_last_as_lost(client, tote: Table):
    table = started(tote)
    declared_round(table)
    table.ok(table.gm, "tote.adjust", participant="Tahoma", injuries=6)  # Tahoma falls before his Defend
    gm = as_seat(client, table, table.gm.token).get(f"/c/{table.id}/gm").text
    chips = gm.split("② Resolution")[1].split("</ol>")[0]
    assert chips.rstrip().endswith("</li>")
    last = chips.split('<li class="chip')[-1]
    assert "Tahoma" in last and "Defend" in last and "lost (unconscious)" in last
