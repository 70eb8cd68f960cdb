"""The rules on the map's tokens (issue 30, item 3): each game's badges for each seat, read from that seat's
own view, so a badge a player may not see (a hidden NPC's, a track only the GM sees, an opponent's harm
taken) is never in their marks nor in their page; and whose turn it is (item 4), by each game's notion."""

from __future__ import annotations

from typing import Any

from app.realtime.marks import token_marks
from tests.api.test_fivebyfive import rooftop
from tests.api.test_tote import ogre_bridge
from tests.api.test_tote import roll_initiative as roll_tote_initiative
from tests.api.test_triptycho import hall  # noqa: F401  (a fixture)
from tests.helpers import Seat, Table


def marks(table: Table, seat: Seat) -> dict[str, Any]:
    return token_marks(table.view(seat))


def said(table: Table, seat: Seat, pid: str) -> list[str]:
    return marks(table, seat)["words"].get(pid, [])


def player_page(client, table: Table, seat: Seat) -> str:
    r = client.get(f"/c/{table.id}/seat/{seat.token}", follow_redirects=True)
    assert r.status_code == 200, r.text
    return r.text


def on_the_map(table: Table, *pids: str) -> None:
    scene = table.ok(table.gm, "map.scene.create", name="Crypt", width=600, height=400, show=True)["view"][
        "map"
    ]
    for i, pid in enumerate(pids):
        table.ok(table.gm, "map.token.place", scene=scene["scene"], x=75 + 100 * i, y=75, participant=pid)


# --- the generic tabletop --------------------------------------------------------------------------


def test_generic_tracks_are_bars_and_a_gm_only_track_stays_off_the_phone(client):
    table = Table.create(client, system="generic")
    ann = table.join("Ann")
    hero = table.character("Hero", ann)
    table.ok(table.gm, "generic.track.create", name="Hit points", total=10, filled=7, owner=hero)
    table.ok(table.gm, "generic.track.create", name="Doom", total=6, filled=2, owner=hero, hidden=True)
    gm = marks(table, table.gm)["badges"][hero]
    assert {"label": "Hit points", "kind": "bar", "value": 7, "max": 10} in gm
    assert {"label": "Doom", "kind": "bar", "value": 2, "max": 6} in gm
    assert said(table, ann, hero) == ["Hit points 7/10"]
    on_the_map(table, hero)
    page = player_page(client, table, ann)
    assert "Hit points 7/10" in page and "Doom" not in page


def test_generic_initiative_names_the_turn_for_every_seat(client):
    table = Table.create(client, system="generic")
    ann = table.join("Ann")
    hero, orc = table.character("Hero", ann), table.character("Orc", kind="npc")
    table.ok(table.gm, "generic.initiative.add", participant=orc, value=15)
    table.ok(table.gm, "generic.initiative.add", participant=hero, value=10)
    assert marks(table, ann)["turn"] is None  # no round started
    table.ok(table.gm, "generic.initiative.next")
    assert marks(table, table.gm)["turn"] == orc == marks(table, ann)["turn"]
    table.ok(table.gm, "generic.initiative.next")
    assert marks(table, ann)["turn"] == hero
    on_the_map(table, hero, orc)
    page = player_page(client, table, ann)
    assert "Hero's turn" in page.replace("&#39;", "'")


def test_a_hidden_npcs_badges_and_turn_are_never_the_players(client):
    table = Table.create(client, system="generic")
    ann = table.join("Ann")
    lurker = table.character("Lurker", kind="npc", hidden=True)
    table.ok(table.gm, "generic.track.create", name="Wounds", total=3, filled=1, owner=lurker)
    table.ok(table.gm, "generic.initiative.add", participant=lurker, value=20)
    table.ok(table.gm, "generic.initiative.next")
    assert said(table, table.gm, lurker) == ["Wounds 1/3"]
    assert marks(table, table.gm)["turn"] == lurker
    assert lurker not in marks(table, ann)["badges"] and marks(table, ann)["turn"] is None
    on_the_map(table, lurker)
    page = player_page(client, table, ann)
    assert "Wounds" not in page and "Lurker" not in page


# --- The Trinity Code: harm and stress bands (TC-H-3/4/5) ------------------------------------------


def trinity_conditions(table: Table, seat: Seat, pid: str) -> list[str]:
    return [b["label"] for b in marks(table, seat)["badges"][pid] if b["kind"] != "bar"]


def test_trinity_badges_follow_the_harm_and_stress_bands(client):
    table = Table.create(client, system="trinity")
    ann = table.join("Ann")
    jo = table.character("Jo", ann)
    table.ok(
        table.gm, "trinity.setup_character", character=jo, harm_limit=7, stress_limit=5, harm=3, stress=1
    )
    assert trinity_conditions(table, ann, jo) == []
    assert "Harm 3/7" in said(table, ann, jo) and "Stress 1/5" in said(table, ann, jo)
    bands = [
        (4, 1, ["Wounded"]),
        (4, 2, ["Wounded", "Traumatised"]),
        (7, 2, ["Wounded", "Traumatised", "Unconscious"]),
        (8, 2, ["Wounded", "Traumatised", "Dying"]),
    ]
    for harm, stress, expected in bands:
        table.ok(table.gm, "trinity.setup_character", character=jo, harm=harm, stress=stress)
        assert trinity_conditions(table, ann, jo) == expected, (harm, stress)
        assert trinity_conditions(table, table.gm, jo) == expected
    kinds = {b["label"]: b["kind"] for b in marks(table, ann)["badges"][jo]}
    assert kinds["Dying"] == "danger" and kinds["Wounded"] == "condition"


def test_trinity_opponents_harm_taken_is_the_gms_and_a_hidden_one_is_absent(client):
    table = Table.create(client, system="trinity")
    ann = table.join("Ann")
    thug, boss = table.character("Thug", kind="npc"), table.character("Boss", kind="npc", hidden=True)
    table.ok(table.gm, "trinity.setup_opponent", opponent=thug, harm_limit=3, taken=1)
    table.ok(table.gm, "trinity.setup_opponent", opponent=boss, harm_limit=5, taken=2)
    assert said(table, table.gm, thug) == ["Harm taken 1/3"]
    assert said(table, table.gm, boss) == ["Harm taken 2/5"]
    assert said(table, ann, thug) == [] and boss not in marks(table, ann)["badges"]
    table.ok(table.gm, "trinity.setup_opponent", opponent=thug, harm_limit=3, taken=3)
    assert said(table, table.gm, thug) == ["Out of the fight", "Harm taken 3/3"]


# --- TOTE: injuries, out of the fight, engagement ---------------------------------------------------


def test_tote_injuries_show_as_a_bar_and_the_worst_one_by_name(client):
    table = Table.create(client, system="tote")
    ann = table.join("Ann")
    kai = table.character("Kai", ann)
    track = ("5", "4", "3", "U")
    table.ok(table.gm, "tote.hero", participant=kai, resolve=10, block=1, resist=1, track=track, skills={})
    assert said(table, ann, kai) == ["Injuries 0/4"]
    table.ok(table.gm, "tote.adjust", participant=kai, injuries=2)
    assert said(table, ann, kai) == ["No 4, 5 on skill dice", "Injuries 2/4"]
    table.ok(table.gm, "tote.adjust", participant=kai, injuries=4)
    assert said(table, ann, kai) == ["Unconscious", "No 3, 4, 5 on skill dice", "Injuries 4/4"]
    enemy = table.character("Brute", kind="npc")
    table.ok(
        table.gm,
        "tote.enemy",
        participant=enemy,
        resolve=5,
        block=1,
        resist=1,
        rating=1,
        injuries=1,
        track=track,
    )
    assert said(table, table.gm, enemy) == ["No 5 on skill dice", "Injuries 1/4"]
    assert enemy not in marks(table, ann)["badges"]  # an enemy's sheet is the GM's


# --- Triptycho: conditions, incanting, charges -------------------------------------------------------


def test_triptycho_conditions_and_charges_and_the_charges_are_the_owners(client):
    table = Table.create(client, system="triptycho")
    ann, bob = table.join("Ann"), table.join("Bob")
    mage = table.character("Mage", ann)
    table.ok(table.gm, "triptycho.setup", participant=mage, side="party", health=10)
    fighter = table.character("Fighter", bob)
    table.ok(table.gm, "triptycho.setup", participant=fighter, side="party", health=12)
    assert said(table, ann, mage) == ["Damage 0/10"]
    table.ok(table.gm, "triptycho.condition", participant=mage, condition="vulnerable")
    table.ok(table.gm, "triptycho.damage", participant=mage, amount=3)
    table.ok(table.gm, "triptycho.charge", participant=mage, charges=2)
    assert said(table, ann, mage) == ["Vulnerable", "Incantation charges 2", "Damage 3/10"]
    assert "Incantation charges 2" in said(table, table.gm, mage)
    # Off the section map, Bob's fighter cannot see the mage (TP-I-6): nothing of it in his marks.
    assert mage not in marks(table, bob)["badges"]


# --- 5x5: damaged abilities, Unconscious -------------------------------------------------------------


def test_fivebyfive_damaged_abilities_and_unconscious(client):
    table = Table.create(client, system="fivebyfive")
    ann = table.join("Ann")
    rook = table.character("Rook", ann)
    sheet = {"participant": rook, "rage": 3, "grace": 2, "precognition": 2}
    table.ok(table.gm, "fivebyfive.setup", **sheet)
    assert said(table, ann, rook) == []
    table.ok(table.gm, "fivebyfive.setup", **sheet, current={"rage": 1, "grace": 2, "precognition": 2})
    assert said(table, ann, rook) == ["Rage damaged 1"]
    assert marks(table, ann)["badges"][rook] == [
        {"label": "Rage damaged", "kind": "condition", "value": 1, "max": 3}
    ]
    table.ok(table.gm, "fivebyfive.setup", **sheet, current={"rage": 1, "grace": 0, "precognition": 2})
    assert said(table, ann, rook) == ["Unconscious", "Rage damaged 1", "Grace damaged 0"]


# --- whose turn, by each game's own notion ----------------------------------------------------------


def pid(table: Table, name: str) -> str:
    return next(p["id"] for p in table.view(table.gm)["participants"] if p["name"] == name)


def test_tote_marks_the_declaring_combatant_then_the_next_and_shows_engagement(client):
    table = ogre_bridge(client)
    roll_tote_initiative(table)
    ann = table.players["Ann"]
    ogre, tahoma = pid(table, "Ogre"), pid(table, "Tahoma")
    assert marks(table, table.gm)["turn"] == ogre == marks(table, ann)["turn"]  # lowest declares first
    table.ok(table.gm, "tote.declare", participant="Ogre", action="attack", target="Tahoma")
    assert marks(table, ann)["turn"] == tahoma
    ben = table.players["Ben"]
    table.ok(ben, "tote.declare", participant="Tahoma", action="defend")
    table.ok(ann, "tote.declare", participant="Aiyana", action="attack", target="Ogre", weapon=0)
    aiyana = pid(table, "Aiyana")
    assert marks(table, ben)["turn"] == aiyana  # highest resolves first
    resolving = table.view(ann)["system"]["fight"]["resolving"]
    table.ok(ann, "tote.resolve", declaration=resolving, dice=[5, 1, 3])  # a hit: the pair is engaged
    assert "Engaged with Ogre" in said(table, ann, aiyana)
    assert "Engaged with Aiyana" in said(table, table.gm, ogre)
    assert marks(table, ann)["turn"] == ogre  # Tahoma's Defend resolved by itself: the Ogre is next


def test_triptycho_marks_the_entity_whose_turn_it_is(hall):  # noqa: F811
    table, ann, ben = hall
    brick = pid(table, "Brick")
    assert marks(table, table.gm)["turn"] == brick == marks(table, ben)["turn"] == marks(table, ann)["turn"]


def test_fivebyfive_marks_the_fighter_whose_turn_it_is(client):
    table = Table.create(client, system="fivebyfive", dice="manual")
    ann, _, ids = rooftop(table)
    assert marks(table, ann)["turn"] is None
    table.ok(table.gm, "fivebyfive.roll_initiative", dice=[3, 1, 3])  # Aria first
    assert marks(table, table.gm)["turn"] == ids["Aria"] == marks(table, ann)["turn"]
