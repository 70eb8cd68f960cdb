"""FX-I-1 (Initiative), FX-M-1 (movement on the tabletop) and FX-R-1 (the round and the end of combat)."""

from __future__ import annotations

import pytest

from app.rules.errors import Forbidden, InputError, RuleError
from tests.rules.fivebyfive.harness import GOBLIN, Table, d5

WALL = {"name": "Wall", "rect": {"x": 7, "y": 0, "width": 1, "height": 10}}


def order(t: Table) -> list[str]:
    return [t.state.participant(e.participant).name for e in t.five.fight.order]


# --- FX-I-1 ------------------------------------------------------------------------------------------


@pytest.mark.rule("FX-I-1")
def test_FX_I_1_everyone_rolls_1d5_and_turns_go_highest_first(t: Table):
    events = t.round(Aria=2, Brick=5, Goblin=4)
    assert t.types(events) == ["fivebyfive.round_started", "fivebyfive.turn_started"]
    started = events[0].data
    assert [(r["name"], r["value"], r["roll"]["terms"][0]["faces"]) for r in started["rolls"]] == [
        ("Aria", 2, [2]),
        ("Brick", 5, [5]),
        ("Goblin", 4, [4]),
    ]
    assert order(t) == ["Brick", "Goblin", "Aria"]
    assert t.turn == "Brick"
    assert t.game.describe(events[0]) == "Round 1 Initiative (1d5): Aria 2, Brick 5, Goblin 4."
    # The generic initiative list shows the same order.
    assert [e["name"] for e in t.view("ann")["initiative"]["entries"]] == ["Brick", "Goblin", "Aria"]
    assert t.view("ben")["initiative"]["my_turn"] is True


@pytest.mark.rule("FX-I-1")
def test_FX_I_1_a_six_counts_as_zero_and_goes_last(t: Table):
    t.do("gm", "fivebyfive.roll_initiative", [6, 1, 2])
    assert order(t) == ["Goblin", "Brick", "Aria"]
    assert t.five.fight.initiative_of(t.pid("Aria")) == 0


@pytest.mark.rule("FX-I-1")
def test_FX_I_1_on_a_tie_pcs_act_before_npcs(t: Table):
    (started, _) = t.round(Aria=3, Brick=1, Goblin=3)
    assert order(t) == ["Aria", "Goblin", "Brick"]
    assert started.data["ties"] == []


@pytest.mark.rule("FX-I-1")
def test_FX_I_1_other_ties_go_in_random_order_from_the_dice_and_are_shown(t: Table):
    # Aria and Brick tie on 4: a d6 each settles it (Aria 2, Brick 5), written into the event.
    (started, _) = t.do("gm", "fivebyfive.roll_initiative", [*d5(4, 4, 4), 2, 5])
    assert order(t) == ["Brick", "Aria", "Goblin"]
    assert started.data["ties"] == [
        {"participants": [t.pid("Aria"), t.pid("Brick")], "names": ["Aria", "Brick"], "faces": [2, 5]}
    ]
    assert "Ties settled by a d6: tie Aria 2, Brick 5." in t.game.describe(started)
    entries = {e["name"]: e["tiebreak"] for e in t.view("spec")["system"]["fight"]["order"]}
    assert entries == {"Brick": [5], "Aria": [2], "Goblin": []}


@pytest.mark.rule("FX-I-1")
def test_FX_I_1_a_tie_rolled_again_when_the_tie_breakers_tie():
    t = Table().cast()
    t.do("gm", "campaign.add_participant", name="Ogre", kind="npc")
    t.do("gm", "fivebyfive.setup", participant="Ogre", **GOBLIN)
    t.start(tokens={"Aria": [5, 5], "Goblin": [5.8, 5], "Brick": [10, 5], "Ogre": [20, 20]})
    # Goblin and Ogre tie on 2 (NPCs): d6s 3, 3 tie again; then 1, 6: Ogre first.
    (started, _) = t.do("gm", "fivebyfive.roll_initiative", [*d5(5, 1, 2, 2), 3, 3, 1, 6])
    assert order(t) == ["Aria", "Ogre", "Goblin", "Brick"]
    assert [tie["faces"] for tie in started.data["ties"]] == [[3, 3], [1, 6]]
    # Not enough dice typed for the tie: the GM is told how many.
    t2 = Table().cast().start()
    with pytest.raises(InputError, match="Not enough dice"):
        t2.do("gm", "fivebyfive.roll_initiative", d5(4, 4, 1))


@pytest.mark.rule("FX-I-1")
def test_FX_I_1_only_the_gm_rolls_and_not_while_a_round_is_going(t: Table):
    t.refused("ann", "fivebyfive.roll_initiative", Forbidden, faces=d5(1, 2, 3))
    t.round(Aria=3, Brick=1, Goblin=2)
    error = t.refused("gm", "fivebyfive.roll_initiative", faces=d5(1, 2, 3))
    assert str(error) == "Round 1 is still going: it is Aria's turn. (FX-R-1)"


@pytest.mark.rule("FX-I-1")
def test_FX_I_1_acting_out_of_turn_is_refused(t: Table):
    error = t.refused("ann", "fivebyfive.move", x=5, y=6)
    assert error.rule == "FX-I-1"  # nobody's turn before Initiative
    t.round(Aria=1, Brick=3, Goblin=2)
    error = t.refused("ann", "fivebyfive.move", Forbidden, x=5, y=6)
    assert error.message == "It is Brick's turn, and Brick is not your character."
    error = t.refused("ben", "fivebyfive.move", participant="Aria", x=5, y=6)
    assert str(error) == "It is Brick's turn, not Aria's. (FX-I-1)"
    t.refused("spec", "fivebyfive.end_turn", Forbidden)


# --- FX-M-1 ------------------------------------------------------------------------------------------


@pytest.mark.rule("FX-M-1")
def test_FX_M_1_a_character_moves_up_to_their_initiative_in_inches(t: Table):
    t.round(Aria=3, Brick=1, Goblin=1)
    (moved,) = t.do("ann", "fivebyfive.move", x=5, y=7)
    assert t.game.describe(moved) == "Aria moves 2 in (2.00 of 3)."
    assert (moved.data["distance"], moved.data["moved"], moved.data["allowance"]) == (2, 2, 3)
    assert t.five.board.token(t.pid("Aria")).at == (5, 7)
    assert t.view("ann")["system"]["fight"]["turn"]["circle"] == {"x": 5, "y": 7, "r": 1}
    # The rest of the allowance, in another step.
    t.do("ann", "fivebyfive.move", x=5, y=8)
    assert t.five.fight.moved == 3
    assert t.options("ann")["move"].enabled is False


@pytest.mark.rule("FX-M-1")
def test_FX_M_1_a_move_too_far_is_refused_naming_the_rule(t: Table):
    t.round(Aria=3, Brick=1, Goblin=1)
    error = t.refused("ann", "fivebyfive.move", x=5, y=8.5)
    assert error.rule == "FX-M-1"
    assert str(error) == (
        "Too far: Aria may move 3 inches this turn; that spot is 3.50 inches away (3.00 left). (FX-M-1)"
    )
    t.do("ann", "fivebyfive.move", x=5, y=7)
    error = t.refused("ann", "fivebyfive.move", x=5, y=9)
    assert "has moved 2.00" in error.message and error.rule == "FX-M-1"


@pytest.mark.rule("FX-M-1")
def test_FX_M_1_with_initiative_0_a_character_still_moves_1_inch(t: Table):
    t.round(Aria=0, Brick=5, Goblin=4)
    t.do("ben", "fivebyfive.end_turn")
    t.do("gm", "fivebyfive.end_turn")
    assert t.turn == "Aria"
    assert t.view("ann")["system"]["fight"]["turn"]["allowance"] == 1
    t.refused("ann", "fivebyfive.move", x=5, y=6.1)
    (moved,) = t.do("ann", "fivebyfive.move", x=5, y=6)
    assert moved.data["allowance"] == 1


@pytest.mark.rule("FX-M-1")
def test_FX_M_1_moves_stay_on_the_table_and_go_around_solid_terrain():
    t = (
        Table()
        .cast()
        .start(
            terrain=[WALL, {"name": "Fog", "rect": {"x": 0, "y": 0, "width": 3, "height": 3}, "solid": False}]
        )
    )
    t.round(Aria=5, Brick=1, Goblin=1)
    assert t.refused("ann", "fivebyfive.move", x=-1, y=5).rule == "FX-M-1"
    t.do("ann", "fivebyfive.move", x=6.5, y=5)
    error = t.refused("ann", "fivebyfive.move", x=8.5, y=5)
    assert str(error) == "Wall is in the way: go around it. (FX-M-1)"
    assert t.refused("ann", "fivebyfive.move", x=7.5, y=5).rule == "FX-M-1"  # inside the wall
    t.do("ann", "fivebyfive.move", x=6.5, y=4)
    t2 = (
        Table()
        .cast()
        .start(terrain=[{"name": "Fog", "rect": {"x": 0, "y": 0, "width": 3, "height": 3}, "solid": False}])
    )
    t2.round(Aria=5, Brick=1, Goblin=1)
    t2.do("ann", "fivebyfive.move", x=2, y=2)  # fog blocks sight, not feet


@pytest.mark.rule("FX-M-1")
def test_FX_M_1_movement_comes_before_the_offensive_action(t: Table):
    t.round(Aria=3, Brick=1, Goblin=2)
    t.do("ann", "fivebyfive.move", x=5, y=5.5)
    t.do("ann", "fivebyfive.strike", d5(1, 2), target="Goblin")
    # The Goblin's prompt is open; Aria cannot move on after her Offensive Action.
    assert t.refused("ann", "fivebyfive.move", x=5, y=4.5).rule == "FX-O-2"
    assert "move" not in t.options("ann")
    t.do("gm", "fivebyfive.control", d5(1, 1), prompt=t.prompt("control").id)  # Blocked
    assert t.turn == "Goblin"
    # A miss ends the turn at once.
    t.do("gm", "fivebyfive.strike", d5(5, 5), target="Aria")
    assert t.turn == "Brick"


# --- FX-R-1 ------------------------------------------------------------------------------------------


@pytest.mark.rule("FX-R-1")
def test_FX_R_1_when_everyone_has_had_a_turn_the_round_ends_and_initiative_is_rolled_again(t: Table):
    t.round(Aria=3, Brick=1, Goblin=2)
    t.do("ann", "fivebyfive.end_turn")
    t.do("gm", "fivebyfive.end_turn")
    events = t.do("ben", "fivebyfive.end_turn")
    assert t.types(events) == ["fivebyfive.turn_ended", "fivebyfive.round_ended"]
    assert t.turn is None
    assert "roll-initiative" in t.options("gm")
    assert t.options("gm")["roll-initiative"].label == "Roll Initiative for round 2"
    t.round(Aria=1, Brick=2, Goblin=3)
    assert (t.five.fight.round, t.turn) == (2, "Goblin")


@pytest.mark.rule("FX-R-1")
def test_FX_R_1_combat_goes_on_until_one_side_is_all_eliminated():
    weak = GOBLIN | {"rage": 1, "grace": 1, "precognition": 1}
    t = Table().cast(goblin=weak).start()
    t.round(Aria=3, Brick=1, Goblin=2)
    t.do("ann", "fivebyfive.strike", d5(1, 2), target="Goblin")
    t.do("gm", "fivebyfive.control", d5(5, 5), prompt=t.prompt("control").id)
    events = t.do("ann", "fivebyfive.damage", prompt=t.prompt("damage").id, choice="grace")
    assert t.types(events)[-2:] == ["fivebyfive.turn_ended", "fivebyfive.combat_won"]
    assert events[-1].data == {"winner": "pc", "names": ["Aria", "Brick"]}
    assert t.five.fight.winner == "pc"
    assert "roll-initiative" not in t.options("gm")
    error = t.refused("gm", "fivebyfive.roll_initiative", faces=d5(1, 1))
    assert str(error) == "The fight is over: The PCs won. The GM ends the encounter. (FX-R-1)"
    t.do("gm", "campaign.encounter.end")
    assert t.five.fight is None
    assert t.char("Goblin").status == "unconscious"  # what the fight did stays


@pytest.mark.rule("FX-R-1")
def test_FX_R_1_a_fight_needs_both_sides():
    t = Table().cast()
    t.do("gm", "campaign.encounter.prepare", name="Spar", participants=["Aria", "Brick"])
    t.do("gm", "campaign.encounter.start", encounter="Spar")
    assert t.refused("gm", "fivebyfive.roll_initiative", faces=d5(1, 1)).rule == "FX-R-1"
    t2 = Table().cast()
    error = t2.refused("gm", "fivebyfive.roll_initiative", faces=d5(1))
    assert error.message == "No fight is under way: the GM starts an encounter first."
    assert isinstance(error, RuleError)


@pytest.mark.rule("FX-R-1")
def test_FX_R_1_a_character_removed_mid_round_leaves_the_order(t: Table):
    t.round(Aria=3, Brick=1, Goblin=2)
    t.do("gm", "campaign.remove_participant", participant="Goblin")
    assert order(t) == ["Aria", "Brick"]
    t.do("ann", "fivebyfive.end_turn")
    assert t.turn == "Brick"
    t.do("gm", "campaign.remove_participant", participant="Brick")
    assert (order(t), t.turn) == (["Aria"], None)


@pytest.mark.rule("FX-H-3")
def test_FX_H_3_a_character_knocked_out_by_the_gm_on_their_turn_can_only_end_it(t: Table):
    t.round(Aria=3, Brick=1, Goblin=2)
    aria = {"rage": 3, "grace": 2, "precognition": 2}
    t.do(
        "gm",
        "fivebyfive.setup",
        participant="Aria",
        **aria,
        current={"rage": 3, "grace": 0, "precognition": 2},
    )
    assert t.refused("ann", "fivebyfive.move", x=5, y=6).rule == "FX-H-3"
    assert t.options("ann") == {
        k: v for k, v in t.options("ann").items() if not k.startswith(("move", "strike"))
    }
    t.do("ann", "fivebyfive.end_turn")
    assert t.turn == "Goblin"
