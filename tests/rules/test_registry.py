"""Systems plug in through the `fray.systems` entry points, built-in and outside alike."""

import tomllib
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from app.rules import registry
from app.rules.errors import InputError


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch):
    """Stand in for the installed distributions' entry points, with fresh caches before and after."""

    def install(*points: EntryPoint) -> None:
        monkeypatch.setattr(registry, "entry_points", lambda group: [p for p in points if p.group == group])
        registry.systems.cache_clear()
        registry.game.cache_clear()

    yield install
    registry.systems.cache_clear()
    registry.game.cache_clear()


def _point(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=registry.GROUP)


def test_an_outside_package_adds_a_game_as_a_built_in_one_does(installed):
    installed(
        *(_point(k, v) for k, v in registry.BUILT_IN.items()),
        _point("outside", "tests.rules.outside_game:SYSTEM"),
    )
    assert list(registry.systems()) == ["generic", "outside", "tote", "trinity", "triptycho", "fivebyfive"]
    game = registry.game("outside")
    assert "outside.wave" in game.commands and "generic.roll" in game.commands


def test_the_built_in_games_load_when_the_installed_metadata_lacks_the_group(installed):
    installed()  # an editable install made before the group existed
    assert set(registry.systems()) == set(registry.BUILT_IN)
    with pytest.raises(InputError, match="There is no game system 'outside'"):
        registry.game("outside")


def test_an_entry_point_that_is_not_a_system_of_its_name_is_refused(installed):
    installed(_point("wrong", "tests.rules.outside_game:SYSTEM"))
    with pytest.raises(TypeError, match="not a SystemPart keyed wrong"):
        registry.systems()


def test_the_built_ins_the_registry_knows_are_the_ones_pyproject_installs():
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert pyproject["project"]["entry-points"][registry.GROUP] == registry.BUILT_IN
