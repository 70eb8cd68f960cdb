"""A system, command or setting that is not documented fails the build (as Datasette's docs tests do)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.rules import registry
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _text(path: Path) -> str:
    assert path.exists(), f"{path.relative_to(ROOT)} is missing"
    return path.read_text()


@pytest.mark.parametrize("key", list(registry.systems()))
def test_every_system_has_a_rules_page_naming_its_commands(key: str):
    page = _text(DOCS / "rules" / f"{key}.md")
    api = _text(DOCS / "api.md")
    game = registry.game(key)
    # The map's commands belong to every campaign and are explained once, in docs/maps.md.
    own = [
        t for t in game.commands if t.startswith(f"{key}.") or (key == "generic" and not t.startswith("map."))
    ]
    missing = [t for t in own if f"`{t}`" not in page]
    assert not missing, f"docs/rules/{key}.md does not name: {missing}"
    maps = _text(DOCS / "maps.md")
    undocumented = [t for t in game.commands if not any(f"`{t}`" in doc for doc in (api, page, maps))]
    assert not undocumented, f"no doc names: {undocumented}"


def test_the_map_guide_names_every_map_command():
    page = _text(DOCS / "maps.md")
    missing = [t for t in registry.game("generic").commands if t.startswith("map.") and f"`{t}`" not in page]
    assert not missing, f"docs/maps.md does not name: {missing}"


def test_every_setting_is_in_the_deploy_guide():
    guide = _text(DOCS / "deploy.md")
    missing = [
        f"FRAY_{name.upper()}" for name in Settings.model_fields if f"FRAY_{name.upper()}" not in guide
    ]
    assert not missing, f"docs/deploy.md does not explain: {missing}"


def test_the_readme_gives_the_two_commands():
    readme = _text(ROOT / "README.md")
    assert "make run" in readme and "make test" in readme
    assert "make test" in _text(ROOT / ".ci" / "run")
