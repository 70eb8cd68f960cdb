"""What a command may hold before it is parsed (app/rules/system.py `check_json`): text PostgreSQL and
SQLite can store and read back, at any depth, in keys as in values."""

from __future__ import annotations

import pytest

from app.rules.system import MAX_DEPTH, InputError, check_json

REFUSED = ["\x00", "\x01", "\x08", "\x0b", "\x0c", "\x0e", "\x1f", "\x7f"]
ALLOWED = ["\t", "\n", "\r", "é", "\x80", "\u2028", "🎲", ""]


@pytest.mark.parametrize("char", REFUSED, ids=[f"U+{ord(c):04X}" for c in REFUSED])
def test_a_control_character_anywhere_is_refused(char: str) -> None:
    for payload in (
        {"name": f"Bad{char}Name"},
        {"setup": {"notes": ["fine", f"{char}"]}},
        {f"key{char}": 1},
    ):
        with pytest.raises(InputError, match="control character"):
            check_json(payload)


@pytest.mark.parametrize("char", ALLOWED, ids=[f"U+{ord(c):04X}" if c else "empty" for c in ALLOWED])
def test_line_breaks_tabs_and_any_other_text_pass(char: str) -> None:
    check_json({"name": f"A{char}B", "setup": {"notes": [char], char: char}})


def test_a_lone_surrogate_and_nesting_past_the_limit_are_refused() -> None:
    with pytest.raises(InputError, match="not valid Unicode"):
        check_json({"note": "\ud800"})
    deep: object = "x"
    for _ in range(MAX_DEPTH):
        deep = [deep]
    check_json(deep)
    with pytest.raises(InputError, match="nested more than"):
        check_json([deep])
