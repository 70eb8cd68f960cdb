"""Every rule of the catalogue is tested and documented; every command is documented; the demo runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.rules.fivebyfive import SYSTEM
from tests.rules.fivebyfive.harness import GAME, Table

ROOT = Path(__file__).resolve().parents[3]
CATALOGUE = ROOT.parent / "shared" / "rules" / "fivebyfive.md"
DOCS = ROOT / "docs" / "rules" / "fivebyfive.md"
RULE_IDS = [
    "FX-D-1", "FX-D-2", "FX-D-3", "FX-D-4", "FX-A-1", "FX-I-1", "FX-M-1", "FX-O-1", "FX-O-2", "FX-R-1",
    "FX-H-1", "FX-H-2", "FX-H-3", "FX-C-1", "FX-C-2", "FX-K-1", "FX-V-1",
]  # fmt: skip


def test_the_rule_list_matches_the_catalogue():
    if not CATALOGUE.exists():
        pytest.skip("the shared catalogue is not beside this checkout")
    assert re.findall(r"\*\*(FX-[A-Z]-\d+)\*\*", CATALOGUE.read_text()) == RULE_IDS


@pytest.mark.parametrize("rule", RULE_IDS)
def test_every_rule_is_named_by_a_test(rule: str):
    here = Path(__file__).parent
    text = "".join(p.read_text() for p in here.glob("test_*.py") if p.name != Path(__file__).name)
    assert f'@pytest.mark.rule("{rule}")' in text
    assert f"test_{rule.replace('-', '_')}_" in text


@pytest.mark.parametrize("rule", RULE_IDS)
def test_every_rule_is_explained_in_the_docs(rule: str):
    assert f"**{rule}**" in DOCS.read_text()


def test_every_command_is_named_in_the_docs():
    page = DOCS.read_text()
    missing = [t for t in SYSTEM.commands if f"`{t}`" not in page]
    assert not missing, missing
    assert SYSTEM.docs == "rules/fivebyfive.md"


def test_every_setting_is_explained_in_the_docs():
    page = DOCS.read_text()
    assert [name for name in SYSTEM.settings_model.model_fields if f"`{name}`" not in page] == []


def test_every_event_type_reads_in_the_log():
    own = [t for t in SYSTEM.reducers if t.startswith("fivebyfive.")]
    assert [t for t in own if t not in SYSTEM.describers] == []


def test_the_demo_script_runs():
    t = Table()
    seats = {"Ann": "seat-ann", "Ben": "seat-ben"}
    for command in SYSTEM.demo.commands:
        fields = {
            k: seats.get(v[1:], v) if isinstance(v, str) and v.startswith("@") else v
            for k, v in command.items()
        }
        t.do("gm", fields.pop("type"), **fields)
    assert t.state.active.name == "Rooftop"
    assert len(t.five.board.tokens) == 4
    aria = t.char("Aria")
    assert (aria.ranks.strike * aria.current.rage, aria.ranks.resist * aria.current.precognition) == (6, 2)
    assert "roll-initiative" in t.options("gm")
    assert GAME.key == "fivebyfive"
