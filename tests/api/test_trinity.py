"""The Trinity Code through /api/campaigns/{id}/commands with physical (typed-in) dice: a whole exchange
with the karma window, a Luck reroll, armour wearing down and the GM's band answer; illegal moves get a
409/422/403 naming the rule; a player's replies and views hold nothing hidden."""

from __future__ import annotations

import json

import pytest

from app.demo import _with_seats
from app.rules.trinity.demo import DEMO
from tests.helpers import Seat, Table


@pytest.fixture
def demo(client) -> tuple[Table, dict[str, Seat]]:
    """The demo Investigation: Aria (Ann) with pistol, tactical armour and a healing potion; Brick (Ben)
    with rifle and crowbar; a ranged Cultist and a melee Ghoul (hide armour-1, GM notes). Good 1, Bad 3."""
    table = Table.create(client, name="Hollow", system="trinity", dice="manual")
    seats = {name: table.join(name) for name in DEMO.players}
    ids = {name: seat.seat_id for name, seat in seats.items()}
    for command in DEMO.commands:
        fields = dict(_with_seats(command, ids))
        table.ok(table.gm, fields.pop("type"), **fields)
    return table, seats


def system(table: Table, seat: Seat) -> dict:
    return table.view(seat)["system"]


def sheet(table: Table, seat: Seat, name: str) -> dict:
    return next(c for c in system(table, seat)["characters"] if c["name"] == name)


def prompt(table: Table, seat: Seat, kind: str, to: str | None = None) -> dict:
    found = [p for p in table.view(seat)["prompts"] if p["kind"] == kind and (to is None or p["to"] == to)]
    assert len(found) == 1, found
    return found[0]


def answer(table: Table, seat: Seat, kind: str, choice: str, to: str | None = None, **fields) -> dict:
    p = prompt(table, seat, kind, to)
    return table.ok(seat, p["answer"], prompt=p["id"], choice=choice, **fields)


def pools(table: Table, seat: Seat) -> tuple[int, int]:
    k = system(table, seat)["karma"]
    return k["good"], k["bad"]


def test_a_whole_exchange_karma_window_luck_reroll_armour_and_band_answer(demo):
    table, seats = demo
    ann, ben, gm = seats["Ann"], seats["Ben"], table.gm
    aria_pistol = next(w for w in sheet(table, ann, "Aria")["weapons"] if w["name"] == "pistol")

    # Ann opens fire at the Cultist (medium band): the karma window opens on both sides, no dice yet.
    reply = table.ok(
        ann, "trinity.move", character="Aria", move="open_fire", opponent="Cultist", weapon="pistol"
    )
    assert [e["type"] for e in reply["events"]] == ["trinity.move_declared"]
    good = prompt(table, ben, "karma", to="players")  # any player may grab Good karma
    assert [c["key"] for c in good["choices"]] == ["0", "1"]
    bad = prompt(table, gm, "karma", to="gm")
    assert [c["key"] for c in bad["choices"]] == ["0", "1", "2", "3"]
    assert all(p["to"] != "gm" for p in table.view(ann)["prompts"])  # the GM's window is the GM's

    # TC-K-3's worked example: Good 1, Bad 3; the GM grabs 3 (no dice: the window is still open)...
    answer(table, gm, "karma", "3", to="gm")
    # ...Ben grabs 1 for the players, and the dice roll with the last answer: 3+4 +2 Quickness +1 -3 = 7.
    reply = answer(table, ben, "karma", "1", dice=[3, 4])
    rolled = next(e for e in reply["events"] if e["type"] == "trinity.move_rolled")
    assert rolled["data"]["faces"] == [3, 4] and rolled["data"]["total"] == 7
    labels = {m["label"]: m["value"] for m in rolled["data"]["mods"]}
    assert labels == {"Quickness": 2, "Good karma x1": 1, "Bad karma x3": -3}
    assert pools(table, ann) == (3, 1)  # afterwards Bad 1, Good 3

    # Luck (TC-L-2): the reroll takes dice and puts a point into Good: 6+5 +2 +1 -3 = 11, a 10+.
    luck = prompt(table, ann, "luck")
    assert {c["key"]: c["rolls"] for c in luck["choices"]}["reroll"] is True
    table.ok(ann, "trinity.luck", prompt=luck["id"], choice="reroll", dice=[6, 5])
    assert pools(table, ann) == (4, 1)
    assert sheet(table, ann, "Aria")["luck"] == 7

    # The 10+ pick: +1 harm. The Cultist (harm limit 3) takes 3 and is out; it fires back for 2,
    # all absorbed by the tactical armour (armour-2), whose threshold wears from 6 to 5; ammo 6 -> 5.
    answer(table, ann, "effect", "harm_plus")
    aria = sheet(table, ann, "Aria")
    assert aria["harm"] == 0 and aria["armour"]["threshold"] == 5
    assert next(w for w in aria["weapons"] if w["id"] == aria_pistol["id"])["ammo"] == 5
    cultist = next(o for o in system(table, gm)["opponents"] if o["name"] == "Cultist")
    assert cultist["taken"] == 3 and cultist["out"] is True
    assert system(table, ann)["advantage"] == "team"
    assert system(table, ann)["move"] is None and system(table, ann)["last"]["result"] == "strong"

    # The GM inflicts 3 harm through armour: 2 absorbed, 1 taken, the threshold wears to 4.
    table.ok(gm, "trinity.inflict", character="Aria", harm=3)
    aria = sheet(table, ann, "Aria")
    assert aria["harm"] == 1 and aria["armour"]["threshold"] == 4

    # Brick closes in on the Ghoul (the GM sets the band) and goes toe to toe with the crowbar.
    table.ok(gm, "trinity.set_band", character="Brick", opponent="Ghoul", band="close")
    table.ok(ben, "trinity.move", character="Brick", move="go_toe_to_toe", opponent="Ghoul", weapon="crowbar")
    answer(table, ann, "karma", "0", to="players")  # Ann passes for the players
    answer(table, gm, "karma", "0", to="gm", dice=[1, 2])  # 1+2 +2 Power +1 advantage = 6: a miss
    assert sheet(table, ben, "Brick")["harm"] == 0  # harm comes after the Luck choice (TC-L-2)
    answer(table, ben, "luck", "keep")
    assert sheet(table, ben, "Brick")["harm"] == 3  # the Ghoul's harm 3, Brick wears no armour
    # TC-MV-1: the Ghoul may move one band; the GM answers on the GM's screen.
    band = prompt(table, gm, "band", to="gm")
    assert {c["key"] for c in band["choices"]} == {"further", "stay"}
    assert not [p for p in table.view(ben)["prompts"] if p["kind"] == "band"]
    table.ok(gm, "trinity.band_move", prompt=band["id"], choice="further")
    board = {(b["character_name"], b["opponent_name"]): b["band"] for b in system(table, ben)["board"]}
    assert board[("Brick", "Ghoul")] == "medium"
    assert system(table, ben)["advantage"] == "enemy"
    assert system(table, ben)["move"] is None

    # Undo takes the band answer back: the prompt is open again.
    table.ok(gm, "campaign.undo")
    assert prompt(table, gm, "band", to="gm")["id"] == band["id"]


def test_a_dying_character_is_asked_to_cheat_death_and_one_on_the_brink_to_face_their_demons(demo):
    table, seats = demo
    ann, gm = seats["Ann"], table.gm
    table.ok(gm, "trinity.add_karma", pool="good", amount=-1)
    table.ok(gm, "trinity.add_karma", pool="bad", amount=-3)  # empty pools: no karma window
    table.ok(gm, "trinity.inflict", character="Aria", harm=8, armour=False)
    assert "dying" in sheet(table, ann, "Aria")["conditions"]
    cheat = prompt(table, ann, "cheat_death")
    assert cheat["choices"][0]["rolls"] is True
    table.ok(
        ann, "trinity.cheat_death", prompt=cheat["id"], choice="roll", dice=[6, 5]
    )  # 11 -1 wounded: unconscious
    answer(table, ann, "luck", "keep")
    assert sheet(table, ann, "Aria")["conditions"][:2] == ["wounded", "unconscious"]
    table.ok(gm, "trinity.inflict", character="Brick", stress=5)
    demons = prompt(table, seats["Ben"], "face_demons")
    table.ok(seats["Ben"], "trinity.face_demons", prompt=demons["id"], choice="cool", dice=[6, 6])
    answer(table, seats["Ben"], "luck", "keep")
    assert sheet(table, ann, "Brick")["stress"] == 3  # a double 6: stress set to 3


@pytest.mark.parametrize(
    ("who", "command", "status", "words"),
    [
        (
            "Ann",
            {
                "type": "trinity.move",
                "character": "Aria",
                "move": "aim",
                "opponent": "Cultist",
                "weapon": "pistol",
            },
            409,
            "TC-A-3",
        ),
        (
            "Ann",
            {
                "type": "trinity.move",
                "character": "Aria",
                "move": "take_cover",
                "opponent": "Cultist",
                "weapon": "pistol",
            },
            409,
            "TC-A-3",
        ),
        (
            "Ben",
            {"type": "trinity.move", "character": "Brick", "move": "go_toe_to_toe", "opponent": "Ghoul"},
            409,
            "TC-B-2",
        ),
        ("Ann", {"type": "trinity.reload", "character": "Aria", "weapon": "pistol"}, 409, "TC-W-4"),
        (
            "Ben",
            {
                "type": "trinity.move",
                "character": "Aria",
                "move": "open_fire",
                "opponent": "Cultist",
                "weapon": "pistol",
            },
            403,
            "",
        ),
        (
            "Ann",
            {"type": "trinity.move", "character": "Aria", "move": "dance", "opponent": "Cultist"},
            422,
            "move",
        ),
        (
            "Ann",
            {"type": "trinity.set_band", "character": "Aria", "opponent": "Ghoul", "band": "long"},
            403,
            "Only the GM",
        ),
        (
            "Ann",
            {
                "type": "trinity.move",
                "character": "Aria",
                "move": "open_fire",
                "opponent": "Cultist",
                "weapon": "pistol",
                "dice": [3, 3],
            },
            422,
            "dice",
        ),
    ],
)
def test_illegal_moves_are_refused_with_the_reason(demo, who, command, status, words):
    table, seats = demo
    before = table.view(table.gm)
    fields = dict(command)
    r = table.send(seats[who], fields.pop("type"), **fields)
    assert r.status_code == status, r.text
    assert words in r.json()["detail"] + r.json().get("rule", "")
    assert table.view(table.gm)["system"] == before["system"]  # nothing changed


def test_a_rifle_cannot_fire_at_close_range_and_an_empty_gun_must_reload(demo):
    table, seats = demo
    ben, gm = seats["Ben"], table.gm
    table.ok(gm, "trinity.set_band", character="Brick", opponent="Cultist", band="close")
    r = table.send(
        ben, "trinity.move", character="Brick", move="open_fire", opponent="Cultist", weapon="rifle"
    )
    assert r.status_code == 409 and r.json()["rule"] == "TC-W-1" and "close range" in r.json()["detail"]
    option = next(
        o
        for o in table.view(ben)["options"]
        if o["id"].startswith("open_fire-") and "Cultist" in o["label"] and "rifle" in o["label"]
    )
    assert option["enabled"] is False and "cannot be used at close range" in option["reason"]


def test_a_players_replies_and_views_hold_no_opponent_stat_blocks(demo):
    table, seats = demo
    ann = seats["Ann"]
    replies = [
        table.ok(ann, "trinity.move", character="Aria", move="open_fire", opponent="Ghoul", weapon="pistol"),
    ]
    table.ok(table.gm, "trinity.karma", prompt=prompt(table, table.gm, "karma", "gm")["id"], choice="0")
    replies.append(answer(table, ann, "karma", "1", dice=[4, 4]))
    replies.append(answer(table, ann, "luck", "keep"))
    text = json.dumps(replies) + json.dumps(table.view(ann)) + json.dumps(table.events(ann))
    assert "Hates light" not in text  # the GM's notes on the Ghoul
    assert "hide" not in text  # the Ghoul's armour
    for o in table.view(ann)["system"]["opponents"]:
        assert set(o) == {"id", "name", "attack", "out"}
    assert "harm_limit" in json.dumps(table.view(table.gm)["system"]["opponents"])


def test_a_hidden_opponent_leaves_no_trace_for_players(demo):
    table, seats = demo
    gm, ann = table.gm, seats["Ann"]
    table.ok(
        gm,
        "trinity.import",
        sheets={
            "opponents": [
                {"name": "Lurker", "hidden": True, "harm": 4, "harm_limit": 6, "notes": "in the rafters"}
            ]
        },
    )
    assert "Lurker" in json.dumps(table.view(gm))
    text = json.dumps(table.view(ann)) + json.dumps(table.events(ann))
    assert "Lurker" not in text and "rafters" not in text


def test_the_json_import_creates_characters_with_their_gear_and_refuses_bad_entries(demo):
    table, seats = demo
    gm = table.gm
    sheets = {
        "characters": [
            {
                "name": "Cleo",
                "player": "Ben",
                "power": 1,
                "quickness": 1,
                "cool": 2,
                "wits": 0,
                "luck": 6,
                "armour": {"name": "vest", "armour": 1, "threshold": 3},
                "weapons": [{"name": "revolver", "harm": 2, "tags": ["close"], "ammo": 6, "spares": 1}],
                "items": [{"name": "calming tea", "calm": 1, "timing": "delayed", "consumable": 3}],
            }
        ],
        "opponents": [{"name": "Hound", "harm": 2, "harm_limit": 4, "attack": "melee"}],
    }
    table.ok(gm, "trinity.import", sheets=sheets)
    view = table.view(gm)
    cleo = next(c for c in view["system"]["characters"] if c["name"] == "Cleo")
    assert cleo["weapons"][0]["name"] == "revolver" and cleo["items"][0]["uses"] == 3 and cleo["luck"] == 6
    assert next(p for p in view["participants"] if p["name"] == "Cleo")["owner"] == seats["Ben"].seat_id
    assert any(o["name"] == "Hound" for o in view["system"]["opponents"])
    before = table.view(gm)
    r = table.send(gm, "trinity.import", sheets={"characters": [{"name": "Dee", "power": 7}]})
    assert r.status_code == 422 and "Dee" in r.json()["detail"]
    r = table.send(gm, "trinity.import", sheets={"characters": [{"name": "Eve", "player": "Nobody"}]})
    assert r.status_code == 409 and "no player 'Nobody'" in r.json()["detail"]
    assert table.view(gm)["participants"] == before["participants"]
