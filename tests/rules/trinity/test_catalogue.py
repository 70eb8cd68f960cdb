"""Every rule ID of the catalogue has a test and a line in the GM's rules page; every command is named."""

from __future__ import annotations

import re
from pathlib import Path

from app.rules.trinity import SYSTEM

HERE = Path(__file__).parent
DOC = HERE.parents[2] / "docs" / "rules" / "trinity.md"

_GROUPS = {"R": 5, "B": 3, "W": 4, "A": 3, "GT": 3, "OF": 3, "PH": 3, "AI": 3, "SG": 3, "TC": 3, "MV": 1}
_GROUPS |= {"OP": 1, "K": 6, "L": 3, "H": 7, "S": 3, "HE": 4}
RULE_IDS = [f"TC-{group}-{n}" for group, count in _GROUPS.items() for n in range(1, count + 1)]


def test_every_rule_id_is_named_by_a_test():
    text = "\n".join(p.read_text() for p in HERE.glob("test_*.py") if p.name != "test_catalogue.py")
    marked = set(re.findall(r'rule\("(TC-[A-Z]+-\d)"\)', text))
    named = {f"TC-{g}-{n}" for g, n in re.findall(r"def test_TC_([A-Z]+)_(\d)_", text)}
    missing = [r for r in RULE_IDS if r not in marked | named]
    assert not missing, missing


def test_the_rules_page_explains_every_rule_and_names_every_command():
    page = DOC.read_text()
    assert not [r for r in RULE_IDS if r not in page]
    assert not [t for t in SYSTEM.commands if f"`{t}`" not in page]
    settings = SYSTEM.settings_model.model_fields
    assert not [s for s in settings if f"`{s}`" not in page]
