"""FX-O-1 (reach and sight for each Offensive Action) and FX-O-2 (a hit calls for the paired defence)."""

from __future__ import annotations

import pytest

from app.rules.errors import Forbidden, RuleError
from tests.rules.fivebyfive.harness import GOBLIN, Table, d5

WALL = {"name": "Wall", "rect": {"x": 7, "y": 3, "width": 1, "height": 4}}


def brick_first(t: Table) -> Table:
    t.round(Aria=1, Brick=4, Goblin=2)
    assert t.turn == "Brick"
    return t


# --- FX-O-1 ------------------------------------------------------------------------------------------


@pytest.mark.rule("FX-O-1")
def test_FX_O_1_strike_needs_an_adjacent_target_and_out_of_reach_is_refused_naming_the_rule(t: Table):
    brick_first(t)
    error = t.refused("ben", "fivebyfive.strike", faces=d5(1, 1), target="Goblin")
    assert error.rule == "FX-O-1"
    assert str(error) == "Goblin is out of reach: 4.2 inches away, and a Strike reaches 1 inch. (FX-O-1)"
    option = t.options("ben")[f"strike-{t.pid('Goblin')}"]
    assert (option.enabled, option.odds) == (False, ())
    assert option.reason.endswith("(FX-O-1)")
    # Move in within 1 inch and the Strike is legal.
    t.do("ben", "fivebyfive.move", x=6.5, y=5)
    assert t.options("ben")[f"strike-{t.pid('Goblin')}"].enabled
    (attacked, *_) = t.do("ben", "fivebyfive.strike", d5(5, 5), target="Goblin")
    assert attacked.data["result"] == "miss"


@pytest.mark.rule("FX-O-1")
def test_FX_O_1_exactly_one_inch_is_adjacent(t: Table):
    t2 = Table().cast().start(tokens={"Aria": [5, 5], "Goblin": [6, 5], "Brick": [10, 5]})
    t2.round(Aria=3, Brick=1, Goblin=1)
    t2.do("ann", "fivebyfive.strike", d5(5, 5), target="Goblin")


@pytest.mark.rule("FX-O-1")
def test_FX_O_1_aim_needs_a_distant_target_in_sight(t: Table):
    t.round(Aria=3, Brick=1, Goblin=1)
    error = t.refused("ann", "fivebyfive.aim", faces=d5(1, 1), target="Goblin")
    assert error.rule == "FX-O-1" and "too close to Aim" in error.message
    t.do("ann", "fivebyfive.end_turn")
    # Brick, 4.2 inches off, may Aim.
    (attacked, *_) = t.do("ben", "fivebyfive.aim", d5(2, 3), target="Goblin")
    assert (attacked.data["action"], attacked.data["needed"], attacked.data["result"]) == ("aim", 6, "hit")


@pytest.mark.rule("FX-O-1")
def test_FX_O_1_terrain_blocks_aim_and_focus_and_strike():
    t = Table().cast().start(terrain=[WALL])
    brick_first(t)
    for action in ("aim", "focus"):
        error = t.refused("ben", f"fivebyfive.{action}", faces=d5(1, 1), target="Goblin")
        assert str(error) == "Brick cannot see Goblin: terrain is in the way. (FX-O-1)"
    # Round the wall, and it is clear.
    t.do("ben", "fivebyfive.move", x=7.5, y=8)
    (attacked, *_) = t.do("ben", "fivebyfive.focus", d5(5, 5), target="Goblin")
    assert attacked.data["action"] == "focus"


@pytest.mark.rule("FX-O-1")
def test_FX_O_1_a_thin_wall_between_adjacent_tokens_blocks_a_strike():
    wall = {"name": "Door", "rect": {"x": 5.3, "y": 0, "width": 0.2, "height": 10}}
    t = Table().cast().start(terrain=[wall])
    t.round(Aria=3, Brick=1, Goblin=1)
    error = t.refused("ann", "fivebyfive.strike", faces=d5(1, 1), target="Goblin")
    assert error.rule == "FX-O-1" and "cannot see" in error.message


@pytest.mark.rule("FX-O-1")
def test_FX_O_1_focus_reaches_any_visible_target_and_may_be_tried_unskilled(t: Table):
    t.round(Aria=3, Brick=1, Goblin=1)
    option = t.options("ann")[f"focus-{t.pid('Goblin')}"]
    assert option.enabled is True and option.hint.startswith("Focus unskilled: 0 x Precognition")
    (attacked, *_) = t.do("ann", "fivebyfive.focus", d5(6, 1), target="Goblin")  # a 0: the seed's only hit
    assert (attacked.data["needed"], attacked.data["result"]) == (0, "hit")
    t.do("gm", "campaign.undo")
    t.do("ann", "fivebyfive.end_turn")
    (attacked, *_) = t.do("ben", "fivebyfive.focus", d5(2, 3), target="Goblin")  # 4.2 inches: fine
    assert (attacked.data["needed"], attacked.data["result"]) == (6, "hit")


@pytest.mark.rule("FX-O-1")
def test_FX_O_1_under_the_older_ruling_focus_cannot_be_used_unskilled():
    t = Table(settings={"unskilled_focus_forbidden": True}).cast()
    t.start().round(Aria=3, Brick=1, Goblin=1)
    error = t.refused("ann", "fivebyfive.focus", faces=d5(1, 1), target="Goblin")
    assert str(error) == "Aria has no Focus Rank, and this table does not allow Focus unskilled. (FX-O-1)"
    assert t.options("ann")[f"focus-{t.pid('Goblin')}"].enabled is False


@pytest.mark.rule("FX-O-1")
def test_FX_O_1_one_offensive_action_a_turn_against_an_enemy(t: Table):
    t.round(Aria=3, Brick=1, Goblin=1)
    error = t.refused("ann", "fivebyfive.aim", faces=d5(1, 1), target="Brick")
    assert error.rule == "FX-O-1" and "not an enemy" in error.message
    t.refused("ann", "fivebyfive.strike", faces=d5(1, 1), target="Nobody")
    t.do("ann", "fivebyfive.strike", d5(5, 5), target="Goblin")
    assert t.turn == "Brick"  # a miss ends the turn; no second action
    error = t.refused("ann", "fivebyfive.strike", Forbidden, faces=d5(1, 1), target="Goblin")
    assert "Brick's turn" in error.message


@pytest.mark.rule("FX-O-1")
def test_FX_O_1_options_list_each_action_on_each_visible_enemy_with_exact_odds(t: Table):
    t.round(Aria=3, Brick=1, Goblin=1)
    goblin = t.pid("Goblin")
    options = t.options("ann")
    assert {"move", f"strike-{goblin}", f"aim-{goblin}", f"focus-{goblin}", "end-turn"} <= set(options)
    strike = options[f"strike-{goblin}"]
    assert strike.rolls and strike.enabled
    assert [(b.label, b.exact) for b in strike.odds] == [
        ("Double Hit", "1/12"),
        ("Hit", "5/9"),
        ("Miss", "13/36"),
    ]
    assert strike.hint == "Strike 2 x Rage 3: 6 or less; Goblin rolls Parry to Control the Hit"
    assert strike.command == {"type": "fivebyfive.strike", "participant": t.pid("Aria"), "target": goblin}
    assert not any(o.startswith(("strike", "aim", "focus")) for o in t.options("ben"))


# --- FX-O-2 ------------------------------------------------------------------------------------------


@pytest.mark.rule("FX-O-2")
@pytest.mark.parametrize(
    ("action", "tokens", "defence"),
    [
        ("strike", {"Aria": [5, 5], "Goblin": [5.8, 5], "Brick": [10, 5]}, "Parry"),
        ("aim", {"Aria": [5, 5], "Goblin": [9, 5], "Brick": [10, 15]}, "Dodge"),
        ("focus", {"Aria": [5, 5], "Goblin": [9, 5], "Brick": [10, 15]}, "Resist"),
    ],
)
def test_FX_O_2_a_hit_asks_the_target_for_the_paired_defence(action, tokens, defence):
    t = Table().cast(aria={"rage": 3, "grace": 2, "precognition": 2, "strike": 2, "aim": 2, "focus": 2})
    t.start(tokens=tokens).round(Aria=3, Brick=1, Goblin=1)
    (attacked,) = t.do("ann", f"fivebyfive.{action}", d5(1, 2), target="Goblin")
    assert attacked.data["result"] == "hit"
    prompt = t.prompt("control")
    assert (prompt.to, prompt.answer) == (t.pid("Goblin"), "fivebyfive.control")
    assert prompt.text == f"Aria Made a Hit with {action.capitalize()}: roll {defence} to Control it."
    (option,) = [o for o in t.options("gm").values() if o.command.get("prompt") == prompt.id]
    assert option.label == f"Roll {defence}" and option.rolls
    # The defender's own odds go to the GM (the Goblin's player), not to Ann.
    assert not [o for o in t.options("ann").values() if o.command.get("prompt") == prompt.id]
    (controlled, *_) = t.do("gm", "fivebyfive.control", d5(5, 5), prompt=prompt.id)
    assert controlled.data["defence"] == defence.lower()


@pytest.mark.rule("FX-O-2")
def test_FX_O_2_seed_example_resist_1_precognition_2_controls_on_2_or_less():
    t = Table().cast(goblin=GOBLIN | {"focus": 2})
    t.start(tokens={"Aria": [5, 5], "Goblin": [9, 5], "Brick": [10, 15]})
    t.round(Aria=1, Brick=2, Goblin=4)
    t.do("gm", "fivebyfive.focus", d5(1, 2), target="Aria")
    prompt = t.prompt("control")
    (option,) = [o for o in t.options("ann").values() if o.command.get("prompt") == prompt.id]
    assert option.hint == "Resist 1 x Precognition 2: 2 or less"
    assert sum(b.chance for b in option.odds[:2]) == pytest.approx(14 / 36)
    (controlled, *_) = t.do("ann", "fivebyfive.control", d5(1, 2), prompt=prompt.id)
    assert (controlled.data["needed"], controlled.data["result"]) == (2, "controlled")
    assert t.prompt("damage").to == t.pid("Aria")


@pytest.mark.rule("FX-O-2")
def test_FX_O_2_a_miss_asks_for_no_defence_and_ends_the_turn(t: Table):
    t.round(Aria=3, Brick=1, Goblin=1)
    events = t.do("ann", "fivebyfive.strike", d5(2, 4), target="Goblin")  # 8 > 6
    assert t.types(events) == ["fivebyfive.attacked", "fivebyfive.turn_ended", "fivebyfive.turn_started"]
    assert events[0].data["result"] == "miss"
    assert t.state.prompts == ()


@pytest.mark.rule("FX-O-2")
def test_FX_O_2_only_the_defender_rolls_to_control_and_only_once(t: Table):
    t.round(Aria=1, Brick=2, Goblin=3)
    t.do("gm", "fivebyfive.strike", d5(1, 2), target="Aria")
    prompt = t.prompt("control")
    t.refused("ben", "fivebyfive.control", Forbidden, faces=d5(1, 1), prompt=prompt.id)
    t.do("ann", "fivebyfive.control", d5(5, 5), prompt=prompt.id)
    error = t.refused("ann", "fivebyfive.control", faces=d5(1, 1), prompt=prompt.id)
    assert error.message == "That choice is no longer open."
    assert isinstance(error, RuleError)
