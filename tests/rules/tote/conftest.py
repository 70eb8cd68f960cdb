"""Fixtures: a TOTE table with two heroes (Ann's Aiyana, Ben's Tahoma) and a Goblin."""

from __future__ import annotations

import pytest

from tests.rules.tote.table import Table


@pytest.fixture
def t() -> Table:
    table = Table()
    table.hero("Aiyana", owner="ann")
    table.hero("Tahoma", owner="ben")
    table.enemy("Goblin")
    return table
