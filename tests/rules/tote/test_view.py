"""What each seat sees and may do: hidden stat blocks, options with exact odds, the log, undo, docs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

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
        assert (t.last("tote.initiative_rolled").data["base"] is None) is not show
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
    entries = t.game.log_entries(t.state, t.events, t.viewer("ann"))
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
        "double_six": "critical",
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
