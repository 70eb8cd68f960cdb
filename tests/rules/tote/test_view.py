"""What each seat sees and may do: hidden stat blocks, options with exact odds, the log, undo, docs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.realtime.log import log_entries
from app.rules.errors import Forbidden
from app.rules.tote import SYSTEM, odds
from app.rules.tote.model import Settings
from tests.rules.tote.table import SEATS, Table

ROOT = Path(__file__).resolve().parents[3]
SECRET_BLOCK = 13  # numbers only the Goblin's stat block has
SECRET_RESIST = 11


def secret_table(**settings) -> Table:
    t = Table(**settings)
    t.hero("Aiyana")
    t.hero("Tahoma", owner="ben")
    t.enemy("Goblin", block=SECRET_BLOCK, resist=SECRET_RESIST, rating=3)
    return t


def test_players_never_see_an_enemys_stat_block():
    t = secret_table()
    t.brawl(Tahoma=4, Aiyana=3, Goblin=2)
    t.declare("gm", "Goblin", "recover")
    t.declare("ann", "Aiyana", "recover")
    t.declare("ben", "Tahoma", "attack", "Goblin")
    t.resolve("ben", [5, 1, 1, 3])  # 8 vs Block 13: a miss
    for who in ("ann", "ben", "spec"):
        view = t.view(who)["system"]
        assert view["enemies"] == [] and "Goblin" not in [h["name"] for h in view["heroes"]]
        goblin = next(c for c in view["fight"]["combatants"] if c["name"] == "Goblin")
        assert not {"resolve", "track", "block", "resist", "rating"} & set(goblin)
        events = json.dumps([e.data for e in t.game.visible(t.events, t.viewer(who))])
        assert not re.search(rf"\b({SECRET_BLOCK}|{SECRET_RESIST})\b", events)
    gm = t.view("gm")["system"]
    assert gm["enemies"][0]["block"] == SECRET_BLOCK and gm["enemies"][0]["rating"] == 3


def test_enemy_numbers_stay_out_of_public_events_unless_the_setting_shows_them():
    for show in (False, True):
        t = secret_table(show_enemy_numbers=show)
        assert t.last("tote.enemy_set").audience == "gm"
        t.start()
        t.do("gm", "tote.roll_initiative", [1, 1, 1], participant="Goblin")
        assert (t.last("tote.initiative_rolled").audience == "all") is show
        t.melee("Aiyana", "Tahoma", "Goblin")
        t.ready(Aiyana=3, Tahoma=4)
        t.declare("gm", "Goblin", "recover")
        t.declare("ann", "Aiyana", "recover")
        t.declare("ben", "Tahoma", "attack", "Goblin")
        t.resolve("ben", [6, 6, 1, 1])  # 6 + 1 vs 13: miss
        attacked = t.last("tote.attacked")
        assert attacked.audience == "all"
        assert (attacked.data["test"]["target"] == SECRET_BLOCK) is show
        public = json.dumps([e.data for e in t.game.visible(t.events, t.viewer("ann"))])
        assert "tote.enemy_set" not in [e.type for e in t.game.visible(t.events, t.viewer("ann"))]
        assert '"block": 13' not in public  # never the stat block itself


def test_a_hidden_enemy_stays_out_of_the_fight_and_the_players_views():
    t = Table()
    t.hero("Aiyana")
    t.add("Lurker", kind="npc", hidden=True)
    t.enemy("Lurker")
    t.enemy("Goblin")
    t.start("Aiyana", "Lurker", "Goblin")
    assert t.pid("Lurker") not in {c.id for c in t.fight.combatants}
    assert "Lurker" not in json.dumps(t.view("ann"))
    error = t.refused("gm", "tote.join", participant="Lurker")
    assert "hidden" in error.message
    t.do("gm", "campaign.set_hidden", participant="Lurker", hidden=False)
    t.do("gm", "tote.join", participant="Lurker", band="far")
    assert t.combatant("Lurker").band == "far"
    t.do("gm", "tote.roll_initiative", [1, 1, 1, 1, 1, 1, 1, 1, 1])
    assert t.fight.round == 1


def test_players_get_options_only_for_their_own_characters_when_it_is_their_turn(t: Table):
    t.brawl(Aiyana=3, Tahoma=2, Goblin=4)
    assert [o for o in t.options("ann") if o.group == "declare"] == []
    assert {o.participant for o in t.options("ben") if o.group == "declare"} == {t.pid("Tahoma")}
    assert t.options("spec") == []
    t.refused("ann", "tote.declare", error=Forbidden, participant="Tahoma", action="defend")


def test_option_odds_are_the_exact_to_hit_distribution_against_the_foes_block():
    t = secret_table()
    t.do("gm", "tote.adjust", participant="Tahoma", injuries=1)  # 5 crossed out
    t.brawl(Tahoma=4, Aiyana=3, Goblin=2)
    t.declare("gm", "Goblin", "recover")
    t.declare("ann", "Aiyana", "recover")
    option = next(o for o in t.options("ben") if o.command.get("action") == "attack")
    expected = odds.hit_bands(odds.hero_outcomes(3, frozenset({5}), 0, SECRET_BLOCK, "highest", "critical"))
    assert option.odds == expected and option.enabled
    assert "5 unusable" in option.hint


def test_an_undo_takes_a_resolution_back(t: Table):
    t.brawl(Tahoma=4, Aiyana=3, Goblin=2)
    t.declare("gm", "Goblin", "recover")
    t.declare("ann", "Aiyana", "recover")
    t.declare("ben", "Tahoma", "attack", "Goblin")
    before = t.state.ext
    t.resolve("ben", [5, 1, 1, 3])
    assert t.state.ext != before
    t.do("gm", "campaign.undo")
    assert t.state.ext == before and t.fight.phase == "resolve"


def test_snapshots_round_trip(t: Table):
    t.brawl(Tahoma=4, Aiyana=3, Goblin=2)
    t.declare("gm", "Goblin", "attack", "Tahoma")
    assert t.game.load(json.loads(json.dumps(t.game.dump(t.state)))) == t.state


def test_every_event_reads_as_a_sentence_in_the_log(t: Table):
    t.brawl(Tahoma=4, Aiyana=3, Goblin=2)
    t.declare("gm", "Goblin", "attack", "Tahoma")
    t.declare("ann", "Aiyana", "recover")
    t.declare("ben", "Tahoma", "assault", "Goblin")
    t.resolve("ben", [6, 1, 1, 5])
    t.do("gm", "tote.answer", [5, 4, 1], prompt=t.state.prompts[0].id, choice="return")
    for event in t.events:
        if event.type.startswith("tote."):
            text = t.game.describe(event)
            assert text != event.type and text.endswith("."), text
    entries = log_entries(t.game, t.state, t.events, t.viewer("ann"))
    shown = [r for e in entries for r in e["rolls"]]
    assert any(r["terms"][-1]["notation"] == "Paragon d6" for r in shown)


def test_the_demo_script_runs():
    t = Table()
    seats = {"Ann": SEATS["ann"][0], "Ben": SEATS["ben"][0]}

    def fill(value):
        if isinstance(value, str) and value.startswith("@"):
            return seats[value[1:]]
        if isinstance(value, dict):
            return {k: fill(v) for k, v in value.items()}
        if isinstance(value, list):
            return [fill(v) for v in value]
        return value

    for command in SYSTEM.demo.commands:
        payload = fill(command)
        t.do("gm", payload.pop("type"), **payload)
    assert t.fight.phase == "initiative" and len(t.fight.units) == 4  # the two wolves share one
    assert t.sheet("Aiyana").encumbrance == 2 and t.sheet("Tahoma").encumbrance == 8


def test_settings_have_the_catalogues_rulings_as_defaults():
    assert Settings().model_dump() == {
        "keep_die": "highest",
        "double_six": "bonuses",
        "armour_adds_to": "resist",
        "short_initiative": "spend_to_zero",
        "defend_responses": "one",
        "enemy_injuries_block_faces": True,
        "show_enemy_numbers": False,
    }


def test_the_rules_page_names_every_command_setting_and_rule_id():
    page = (ROOT / "docs" / "rules" / "tote.md").read_text()
    missing = [c for c in SYSTEM.commands if f"`{c}`" not in page]
    assert not missing, missing
    catalogue = Path("/work/shared/rules/tote.md")
    ids = re.findall(r"\*\*(TO-[A-Z]+-\d+)\*\*", catalogue.read_text()) if catalogue.exists() else []
    assert all(i in page for i in ids), [i for i in ids if i not in page]
    assert all(f"`{name}`" in page for name in Settings.model_fields)


def test_every_rule_id_is_named_by_a_test():
    here = Path(__file__).parent
    text = "".join(p.read_text() for p in here.glob("test_*.py"))
    catalogue = Path("/work/shared/rules/tote.md")
    if not catalogue.exists():
        pytest.skip("the shared rule catalogue is not here")
    ids = re.findall(r"\*\*(TO-[A-Z]+-\d+)\*\*", catalogue.read_text())
    assert len(ids) == 31
    missing = [i for i in ids if f'"{i}"' not in text]
    assert not missing, missing


# --- the GM answers for a player who stepped away -------------------------------------------------


def defended(t: Table) -> None:
    """The Goblin attacks Ben's Defending Tahoma and hits: Tahoma is asked to answer (TO-DF-1)."""
    t.brawl(Tahoma=1, Aiyana=2, Goblin=4)
    t.declare("ben", "Tahoma", "defend")
    t.declare("ann", "Aiyana", "recover")
    t.declare("gm", "Goblin", "attack", "Tahoma")
    t.resolve("gm", [5, 4, 1])  # 5 + 4 = 9 vs Block 8: a hit


def answers(t: Table, who: str) -> dict[str, object]:
    return {o.id: o for o in t.options(who) if o.group == "answer"}


@pytest.mark.rule("TO-DF-1")
def test_the_gm_gets_the_players_answer_buttons_with_the_same_odds_and_the_player_keeps_them(t: Table):
    defended(t)
    (prompt,) = t.state.prompts
    ben, gm = answers(t, "ben"), answers(t, "gm")
    assert set(ben) == set(gm) == {f"answer-{prompt.id}-{k}" for k in ("strike", "grapple", "pass")}
    for key, option in ben.items():
        assert gm[key].odds == option.odds and gm[key].hint == option.hint and gm[key].rolls == option.rolls
        assert gm[key].command == option.command and gm[key].participant == t.pid("Tahoma")
    assert gm[f"answer-{prompt.id}-strike"].odds and gm[f"answer-{prompt.id}-strike"].rolls  # odds, dice box
    assert answers(t, "ann") == {} and t.options("spec") == []
    # The GM's console says whose answer it is; Ben's phone is his own question.
    (mine,) = t.view("ben")["system"]["fight"]["questions"]
    (theirs,) = t.view("gm")["system"]["fight"]["questions"]
    assert mine == {**theirs, "on_behalf": False, "player": None}
    assert theirs["on_behalf"] and theirs["to_name"] == "Tahoma" and theirs["player"] == "Ben"
    assert theirs["text"] == prompt.text and t.view("ann")["system"]["fight"]["questions"] == []
    assert t.view("spec")["system"]["fight"]["questions"] == []
    # The GM answers for Ben: the Strike rolls Tahoma's dice, the round goes on, Ben's buttons go.
    t.do("gm", "tote.answer", [1, 1, 1, 1], prompt=prompt.id, choice="strike")
    assert t.last("tote.attacked").data["kind"] == "response" and t.state.prompts == ()
    assert answers(t, "ben") == {} and answers(t, "gm") == {}


@pytest.mark.rule("TO-AS-1")
def test_the_gm_may_take_an_assault_return_for_a_players_hero():
    t = Table()
    t.hero("Tahoma", owner="ben")
    t.enemy("Goblin")
    t.brawl(Tahoma=1, Goblin=4)
    t.declare("ben", "Tahoma", "attack", "Goblin")
    t.declare("gm", "Goblin", "assault", "Tahoma")
    t.resolve("gm", [5, 4, 1])  # a hit: Fangs slash for 2
    gm = answers(t, "gm")
    (prompt,) = t.state.prompts
    assert f"answer-{prompt.id}-return" in gm and gm.keys() == answers(t, "ben").keys()
    assert gm[f"answer-{prompt.id}-return"].odds == answers(t, "ben")[f"answer-{prompt.id}-return"].odds
    t.do("gm", "tote.answer", [1, 1, 1, 1], prompt=prompt.id, choice="return")
    assert t.last("tote.attacked").data["kind"] == "return"
    tahoma = next(d for d in t.fight.declarations if d.actor == t.pid("Tahoma"))
    assert tahoma.state == "returned"  # the return attack was Tahoma's action for the round


# --- an action lost because its character fell ---------------------------------------------------


@pytest.mark.rule("TO-J-2")
def test_an_action_lost_because_its_character_fell_is_listed_last_as_lost(t: Table):
    t.do("gm", "tote.adjust", participant="Tahoma", resolve=0, injuries=5)  # only the U is left
    t.brawl(Tahoma=1, Aiyana=2, Goblin=4)
    t.declare("ben", "Tahoma", "recover")
    t.declare("ann", "Aiyana", "attack", "Goblin")
    t.declare("gm", "Goblin", "attack", "Tahoma")
    t.resolve("gm", [5, 4, 1])  # Tahoma falls before his Recover comes up
    by_actor = {d.actor: d.id for d in t.fight.declarations}
    fallen = by_actor[t.pid("Tahoma")]
    for who in ("gm", "ann", "spec"):
        f = t.view(who)["system"]["fight"]
        assert f["resolution_order"] == [by_actor[t.pid("Goblin")], by_actor[t.pid("Aiyana")], fallen]
        lost = next(d for d in f["declarations"] if d["id"] == fallen)
        assert lost["state"] == "lost" and lost["finished"] is None and lost["why"] == "unconscious"
    # Once Aiyana has acted the round ends; until then the lost Recover stays at the end.
    t.resolve("ann", [1, 1, 1, 1])
    assert t.fight.round == 2


# --- enemy numbers: Initiative and Resolve --------------------------------------------------------


def initiative_table(**settings) -> Table:
    t = secret_table(**settings)
    t.start()
    t.do("ann", "tote.roll_initiative", [4, 2, 3], participant="Aiyana")  # fail: Hawk 2
    t.do("ben", "tote.roll_initiative", [6, 2, 3], participant="Tahoma")  # a Bonus: 2 + Hawk 2 = 4
    t.do("gm", "tote.roll_initiative", [6, 6, 1], participant="Goblin")  # 3 successes + Rating 3 = 6
    return t


@pytest.mark.rule("TO-I-1")
def test_players_and_the_table_see_an_enemys_place_in_the_order_but_not_its_initiative():
    t = initiative_table()
    for who in ("ann", "spec"):
        f = t.view(who)["system"]["fight"]
        goblin, tahoma, aiyana = f["units"]  # highest first: the order is the table's
        assert goblin["hidden"] and goblin["rolled"] and goblin["name"] == "Goblin"
        assert goblin["value"] is goblin["start"] is goblin["bar"] is goblin["start_bar"] is None
        # The heroes' bars are scaled on the heroes' values: the Goblin's 6 shows nowhere.
        assert (tahoma["value"], tahoma["bar"], aiyana["bar"]) == (4, 100, 50)
        token = next(c for c in f["combatants"] if c["name"] == "Goblin")
        assert token["initiative"] is None and token["initiative_hidden"]
        assert f["last"] == {
            "seq": f["last"]["seq"],
            "type": "initiative_rolled",
            "name": "Goblin",
            "hidden": True,
        }
        seen = t.game.visible(t.events, t.viewer(who))
        assert "tote.initiative_rolled" not in [e.type for e in seen if e.data.get("name") == "Goblin"]
        log = log_entries(t.game, t.state, t.events, t.viewer(who))
        told = next(e for e in log if e["type"] == "tote.initiative_secret")
        assert told["text"] == "Goblin rolls Initiative (the GM keeps the number)." and told["rolls"] == []
    f = t.view("gm")["system"]["fight"]
    goblin = f["units"][0]
    assert (goblin["value"], goblin["hidden"], goblin["bar"]) == (6, False, 100)
    assert f["last"]["value"] == 6 and f["last"]["base"] == 3 and f["last"]["test"]["faces"] == [6, 6, 1]
    assert next(c for c in f["combatants"] if c["name"] == "Goblin")["initiative"] == 6
    # A GM who shows enemy numbers shows these too.
    shown = initiative_table(show_enemy_numbers=True)
    assert shown.view("ann")["system"]["fight"]["units"][0]["value"] == 6
    assert shown.last("tote.initiative_rolled").audience == "all"


@pytest.mark.rule("TO-H-4")
def test_an_enemys_exact_resolve_loss_is_the_gms_and_the_table_hears_it_is_hurt(t: Table):
    t.brawl(Tahoma=4, Aiyana=3, Goblin=2)
    t.declare("gm", "Goblin", "recover")
    t.declare("ann", "Aiyana", "recover")
    t.declare("ben", "Tahoma", "attack", "Goblin")
    t.resolve("ben", [5, 1, 1, 3])  # a hit: the Axe's 3 damage; the Goblin then Recovers 2
    attacked = t.last("tote.attacked")
    assert attacked.audience == "all" and attacked.data["harm"] == "hurt" and attacked.data["damage"] == 3
    assert not {"absorbed", "marks", "marked"} & set(attacked.data)
    hurt, healed = [e for e in t.events if e.type == "tote.enemy_resolve"]
    assert hurt.audience == healed.audience == "gm"
    assert (hurt.data["change"], hurt.data["resolve"], healed.data["change"], healed.data["resolve"]) == (
        -3,
        3,
        2,
        5,
    )
    assert t.sheet("Goblin").resolve == 5 and t.last("tote.recovered").data["gained"] is None
    texts = {
        who: [e["text"] for e in log_entries(t.game, t.state, t.events, t.viewer(who))]
        for who in ("ann", "gm")
    }
    public = "\n".join(texts["ann"])
    assert "3 damage; Goblin is hurt;" in public and "Resolve lost" not in public
    assert "Goblin recovers Resolve." in public and "Aiyana recovers 0 Resolve." in public
    assert "Goblin: 3 Resolve lost (Resolve 3/6)." in texts["gm"]
    assert "Goblin recovers 2 Resolve (Resolve 5/6)." in texts["gm"]
    last = t.view("ann")["system"]["fight"]["last"]
    assert last["harm"] == "hurt" and "gm" not in last and "absorbed" not in last
    assert t.view("gm")["system"]["fight"]["last"]["absorbed"] == 3


@pytest.mark.rule("TO-H-4")
def test_a_heroes_resolve_loss_and_an_enemy_shown_by_the_setting_stay_public():
    for show in (False, True):
        t = Table(show_enemy_numbers=show)
        t.hero("Tahoma", owner="ben")
        t.enemy("Goblin")
        t.brawl(Tahoma=1, Goblin=4)
        t.declare("ben", "Tahoma", "attack", "Goblin")
        t.declare("gm", "Goblin", "attack", "Tahoma")
        t.resolve("gm", [5, 4, 1])  # the Goblin hits Tahoma: a hero's Resolve is the table's
        assert t.last("tote.attacked").data["absorbed"] == 2
        t.resolve("ben", [5, 1, 1, 3])  # Tahoma hits the Goblin
        data = t.last("tote.attacked").data
        assert ("absorbed" in data) is show and (
            "tote.enemy_resolve" in [e.type for e in t.events]
        ) is not show
