"""The GM's set-up helpers: the JSON import (FX-A-1 limits, places on the tabletop) and terrain typed
into a form (flat rectangle fields, corners as text)."""

from __future__ import annotations

import pytest

from app.rules.errors import InputError, RuleError
from tests.rules.fivebyfive.harness import ARIA, GOBLIN, Table

WALL = {"name": "Wall", "rect": {"x": 12, "y": 0, "width": 1, "height": 24}}


def test_FX_A_1_import_makes_characters_with_sheets_places_and_the_table_in_one_go():
    t = Table()
    events = t.do(
        "gm",
        "fivebyfive.import",
        board={"width": 30, "height": 20},
        terrain=[WALL, {"name": "Smoke", "points": [[2, 2], [6, 2], [4, 5]], "solid": False}],
        characters=[
            {"name": "Aria", "player": "Ann", **ARIA, "at": [5, 5]},
            {
                "name": "Goblin",
                "kind": "npc",
                **GOBLIN,
                "at": [20, 5],
                "current": {"rage": 1, "grace": 3, "precognition": 1},
            },
        ],
    )
    aria, goblin = t.state.participant("Aria"), t.state.participant("Goblin")
    assert aria.owner == "seat-ann" and aria.kind == "pc" and goblin.kind == "npc"
    assert t.current("Goblin") == {"rage": 1, "grace": 3, "precognition": 1}
    assert t.char("Goblin").damaged() == ("rage",)
    board = t.five.board
    assert (board.width, board.height) == (30, 20)
    assert [x.name for x in board.terrain] == ["Wall", "Smoke"] and not board.terrain[1].solid
    assert {tok.participant: tok.at for tok in board.tokens} == {aria.id: (5, 5), goblin.id: (20, 5)}
    # Fog of war: the Goblin, behind the wall, reaches the players by no event at all.
    assert not [e for e in t.game.visible(events, t.viewer("ann")) if "Goblin" in str(e.data)]
    assert "Goblin" not in t.dump("ann")
    # Importing again sets the sheets of the characters the table already knows.
    t.do("gm", "fivebyfive.import", characters=[{"name": "aria", **ARIA, "rage": 4}])
    assert t.char("Aria").scores.rage == 4 and len(t.state.participants) == 2


@pytest.mark.parametrize(
    ("rows", "sentence"),
    [
        ([{"name": "Aria", **ARIA, "rage": 5}], "A PC's Ability Scores run from 1 to 4."),
        ([{"name": "Aria", **ARIA, "strike": 5}], "A PC's Combat Ranks run from 0 (unskilled) to 4"),
        ([{"name": "Aria", **ARIA, "at": [40, 5]}], "Aria: (40, 5) is off the 36 x 24 inch table."),
        ([{"name": "Aria", **ARIA, "at": [12.5, 5]}], "Aria cannot stand inside Wall."),
        ([{"name": "Aria", **ARIA}, {"name": "ARIA", **ARIA}], "Aria is listed twice."),
        ([{"name": "Aria", "player": "Zed", **ARIA}], "Aria: there is no player called 'Zed' at this table."),
    ],
)
def test_FX_A_1_a_bad_import_is_refused_whole(rows, sentence):
    t = Table()
    error = t.refused("gm", "fivebyfive.import", terrain=[WALL], characters=rows)
    assert sentence in error.message


def test_an_import_with_nothing_in_it_or_from_a_player_is_refused():
    t = Table()
    assert "Nothing to import" in t.refused("gm", "fivebyfive.import").message
    with pytest.raises(InputError, match="is given twice"):
        t.do(
            "gm",
            "fivebyfive.import",
            table={"board": {"width": 9, "height": 9}},
            board={"width": 9, "height": 9},
        )
    with pytest.raises(InputError, match="JSON object"):
        t.do("gm", "fivebyfive.import", table=[1, 2])


def test_new_terrain_may_not_swallow_a_token_and_a_shrunk_table_may_not_drop_one():
    t = Table().cast().start()
    assert (
        "Aria stands where"
        in t.refused(
            "gm", "fivebyfive.import", terrain=[{"rect": {"x": 4, "y": 4, "width": 2, "height": 2}}]
        ).message
    )
    assert "would fall off" in t.refused("gm", "fivebyfive.import", board={"width": 6, "height": 6}).message


def test_terrain_typed_into_the_gm_form_as_flat_fields_or_corner_text():
    t = Table()
    t.do("gm", "fivebyfive.terrain", name="Van", x="10", y="4", width="6", height="3", solid="true")
    t.do("gm", "fivebyfive.terrain", name="Smoke", corners="2,2 6,2 4,5", solid="false")
    t.do("gm", "fivebyfive.terrain", name="Rock", corners="20 20; 22 20; 21 23")
    van, smoke, rock = t.five.board.terrain
    assert van.points == ((10, 4), (16, 4), (16, 7), (10, 7)) and van.solid
    assert smoke.points == ((2, 2), (6, 2), (4, 5)) and not smoke.solid
    assert rock.points == ((20, 20), (22, 20), (21, 23)) and rock.solid
    with pytest.raises(InputError, match="one number is missing"):
        t.do("gm", "fivebyfive.terrain", corners="1,1 2,2 3")
    with pytest.raises(InputError, match="either as rect or as x"):
        t.do("gm", "fivebyfive.terrain", rect={"x": 1, "y": 1, "width": 1, "height": 1}, x=3)
    with pytest.raises(RuleError):
        t.do("ann", "fivebyfive.terrain", x=1, y=1, width=1, height=1)
