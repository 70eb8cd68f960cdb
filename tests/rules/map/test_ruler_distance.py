"""The ruler's distance has one rule, the server's (issue 32, item 6: it was written twice, in the page's
script and in geometry.py): a ruler signal carries it, shared or only measured for its holder."""

from __future__ import annotations

import pytest

from app.rules.errors import Forbidden
from app.rules.map import signals
from app.rules.map.geometry import ruler_text
from app.rules.map.state import Grid
from tests.rules.map.test_commands import _scene, _table


@pytest.mark.parametrize(
    ("grid", "to", "text"),
    [
        ({"type": "square", "size": 50}, (375, 225), "30 ft"),  # 6 across, 3 down: 6 cells at 5-5-5
        ({"type": "square", "size": 50, "diagonals": "5-10-5"}, (375, 225), "35 ft"),  # every 2nd diagonal x2
        ({"type": "square", "size": 50, "diagonals": "straight"}, (175, 175), "14.1 ft"),
        ({"type": "none", "size": 50}, (100, 75), "2.5 ft"),
        ({"type": "hex", "size": 50, "unit": "m", "per_cell": 1.5}, (225, 75), "4.5 m"),
    ],
)
def test_the_ruler_reads_the_grids_own_rule_to_a_tenth(grid, to, text):
    assert ruler_text(Grid(**grid), (75, 75), to) == text


def test_a_ruler_signal_carries_the_servers_distance_and_a_private_one_is_for_its_holder_alone():
    t = _table()
    scene = _scene(t, grid={"type": "square", "size": 50})
    shared = signals.build(t.state, t.viewer("gm"), "GM", {"map.ruler": {"from": [75, 75], "to": [375, 225]}})
    assert shared["map.ruler"]["distance"] == "30 ft" and "private" not in shared["map.ruler"]
    assert shared["map.ruler"]["scene"] == scene
    with pytest.raises(Forbidden):
        signals.build(t.state, t.viewer("ann"), "Ann", {"map.ruler": {"from": [75, 75], "to": [175, 75]}})
    mine = signals.build(
        t.state, t.viewer("ann"), "Ann", {"map.ruler": {"from": [75, 75], "to": [175, 75], "share": False}}
    )
    assert mine["map.ruler"]["distance"] == "10 ft" and mine["map.ruler"]["private"] is True
