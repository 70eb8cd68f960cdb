"""Harm (TC-H-*), stress (TC-S-*), healing and time (TC-HE-*)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.rules.errors import Forbidden
from tests.rules.trinity.conftest import Table


def last(t: Table, type_: str):
    return next(e for e in reversed(t.events) if e.type == type_)


def hurt(t: Table, name: str, harm: int = 0, stress: int = 0) -> Table:
    t.do("gm", "trinity.inflict", character=name, harm=harm, stress=stress, armour=False)
    return t


def finish_cheat(t: Table, faces, choice: str = "roll") -> None:
    t.answer("ben", "cheat_death", choice, faces=faces)
    t.keep_luck("ben")


# --- harm -----------------------------------------------------------------------------------------


@pytest.mark.rule("TC-H-1")
def test_TC_H_1_harm_limit_seven_and_opponents_out_at_their_own_limit(fight: Table):
    assert fight.char("Brick").harm_limit == 7
    fight.do("gm", "trinity.inflict", character="Cultist", harm=3)
    assert fight.opp("Cultist").out
    assert "Cultist is out of the fight." in fight.texts(fight.events[-1:])
    message = fight.refused(
        "ann", "trinity.move", character="Aria", move="open_fire", opponent="Cultist", weapon="pistol"
    )
    assert "out of the fight" in message and "TC-H-1" in message
    assert next(o for o in fight.view("ann")["system"]["opponents"] if o["name"] == "Cultist")["out"]


@pytest.mark.rule("TC-H-1")
def test_TC_H_1_an_improvement_raises_the_limit(table: Table):
    table.do("gm", "trinity.setup_character", character="Brick", power=2, harm_limit=9)
    hurt(table, "Brick", harm=8)
    assert table.char("Brick").conditions == ("wounded",)


@pytest.mark.rule("TC-H-2")
def test_TC_H_2_armour_absorbs_its_rating_and_wears_one_threshold_per_hit(table: Table):
    table.do(
        "gm",
        "trinity.setup_character",
        character="Aria",
        armour={"name": "vest", "armour": 2, "threshold": 2},
    )
    table.do("gm", "trinity.inflict", character="Aria", harm=3)
    assert (table.char("Aria").harm, table.char("Aria").armour.threshold) == (1, 1)
    table.do("gm", "trinity.inflict", character="Aria", harm=1)
    assert (table.char("Aria").harm, table.char("Aria").armour.threshold) == (1, 0)
    table.do("gm", "trinity.inflict", character="Aria", harm=2)  # worn out: no protection
    assert (table.char("Aria").harm, table.char("Aria").armour.threshold) == (3, 0)
    table.do("gm", "trinity.repair_armour", character="Aria", threshold=6)
    table.do("gm", "trinity.inflict", character="Aria", harm=2)
    assert (table.char("Aria").harm, table.char("Aria").armour.threshold) == (3, 5)


@pytest.mark.rule("TC-H-2")
def test_TC_H_2_threshold_infinite_never_wears_and_the_gm_may_bypass_armour(table: Table):
    table.do("gm", "trinity.setup_character", character="Aria", armour={"name": "aegis", "armour": 1})
    for _ in range(5):
        table.do("gm", "trinity.inflict", character="Aria", harm=1)
    assert table.char("Aria").harm == 0 and table.char("Aria").armour.threshold is None
    assert "never wears" in table.refused("gm", "trinity.repair_armour", character="Aria", threshold=3)
    table.do("gm", "trinity.inflict", character="Aria", harm=2, armour=False)
    assert table.char("Aria").harm == 2


@pytest.mark.rule("TC-H-2")
def test_TC_H_2_opponent_armour_and_its_numbers_are_the_gms(fight: Table):
    fight.move("ben", "Brick", "go_toe_to_toe", "Ghoul", faces=(2, 4))
    fight.keep_luck("ben")
    harmed = last(fight, "trinity.opponent_harmed")
    assert harmed.audience == "gm" and harmed.data["absorbed"] == 1
    assert "trinity.opponent_harmed" not in [
        e.type for e in fight.game.visible(fight.events, fight.viewer("ann"))
    ]


@pytest.mark.rule("TC-H-3")
def test_TC_H_3_four_harm_wounds_minus_one_on_power_and_quickness(fight: Table):
    hurt(fight, "Brick", harm=4)
    assert "wounded" in fight.char("Brick").conditions
    option = fight.option("ben", f"go_toe_to_toe-{fight.pid('Brick')}-{fight.pid('Ghoul')}-w1")
    assert "wounded -1" in option.hint
    # +2 Power -1 wounded: 2d6+1
    assert [b.chance for b in option.odds] == [Fraction(10, 36), Fraction(16, 36), Fraction(10, 36)]
    fight.move("ben", "Brick", "go_toe_to_toe", "Ghoul", faces=(3, 4))
    assert last(fight, "trinity.move_rolled").data["total"] == 8


@pytest.mark.rule("TC-H-3")
def test_TC_H_3_three_harm_is_not_wounded(fight: Table):
    hurt(fight, "Brick", harm=3)
    assert "wounded" not in fight.char("Brick").conditions


@pytest.mark.rule("TC-H-4")
@pytest.mark.parametrize(("harm", "condition"), [(7, "unconscious"), (8, "dying"), (9, "dead"), (12, "dead")])
def test_TC_H_4_at_the_limit_unconscious_one_past_dying_two_past_dead(
    fight: Table, harm: int, condition: str
):
    hurt(fight, "Brick", harm=harm)
    brick = fight.char("Brick")
    assert condition in brick.conditions
    assert brick.harm == min(harm, 9)
    message = fight.refused("ben", "trinity.move", character="Brick", move="go_toe_to_toe", opponent="Ghoul")
    assert {"unconscious": "TC-H-4", "dying": "TC-H-6", "dead": "TC-H-7"}[condition] in message


@pytest.mark.rule("TC-H-4")
def test_TC_H_4_harm_that_reaches_the_limit_in_a_fight_knocks_out(fight: Table):
    hurt(fight, "Brick", harm=4)
    fight.move("ben", "Brick", "go_toe_to_toe", "Ghoul", faces=(1, 1))
    fight.keep_luck("ben")
    assert fight.char("Brick").unconscious


@pytest.mark.rule("TC-H-5")
@pytest.mark.parametrize(
    ("older_ruling", "limit", "wakes_with"), [(False, 7, 6), (False, 9, 6), (True, 7, 6), (True, 9, 8)]
)
def test_TC_H_5_the_unconscious_wake_within_an_hour_with_6_harm(
    older_ruling: bool, limit: int, wakes_with: int
):
    """The seed: six harm whatever the limit; the older ruling (a setting) woke them at the limit - 1."""
    table = Table(settings={"harm_wake_from_limit": older_ruling}).cast()
    table.do("gm", "trinity.setup_character", character="Brick", power=2, harm_limit=limit)
    hurt(table, "Brick", harm=limit)
    table.do("gm", "trinity.time_passes", hours=1)
    brick = table.char("Brick")
    assert brick.harm == wakes_with and "unconscious" not in brick.conditions


# --- cheat death ----------------------------------------------------------------------------------


@pytest.fixture
def dying(fight: Table) -> Table:
    hurt(fight, "Brick", harm=8)
    return fight


@pytest.mark.rule("TC-H-6")
def test_TC_H_6_a_dying_character_is_asked_to_cheat_death_with_its_odds(dying: Table):
    prompt = dying.prompt("cheat_death")
    assert prompt.to == dying.pid("Brick")
    option = dying.option("ben", f"{prompt.id}-roll")
    assert [b.label for b in option.odds] == ["dead", "still dying", "unconscious", "conscious (double 6)"]
    # +2 Power -1 wounded = 2d6+1; a double 6 is its own result
    assert [b.chance for b in option.odds] == [
        Fraction(10, 36),
        Fraction(16, 36),
        Fraction(9, 36),
        Fraction(1, 36),
    ]
    assert option.rolls


@pytest.mark.rule("TC-H-6")
def test_TC_H_6_six_or_less_dead(dying: Table):
    finish_cheat(dying, (1, 2))
    assert dying.char("Brick").dead and not dying.has_prompt("cheat_death")


@pytest.mark.rule("TC-H-6")
def test_TC_H_6_seven_to_nine_still_dying_and_asked_again(dying: Table):
    finish_cheat(dying, (3, 4))
    brick = dying.char("Brick")
    assert brick.dying and not brick.dead
    assert dying.has_prompt("cheat_death")
    finish_cheat(dying, (5, 4))
    assert dying.char("Brick").unconscious


@pytest.mark.rule("TC-H-6")
def test_TC_H_6_ten_plus_unconscious_instead_of_dying(dying: Table):
    finish_cheat(dying, (4, 5))
    brick = dying.char("Brick")
    assert brick.unconscious and brick.harm == 7 and not brick.dying


@pytest.mark.rule("TC-H-6")
def test_TC_H_6_double_six_conscious_with_six_harm(dying: Table):
    dying.answer("ben", "cheat_death", "roll", faces=(6, 6))
    dying.keep_luck("ben")
    brick = dying.char("Brick")
    assert brick.harm == 6 and "unconscious" not in brick.conditions and "dying" not in brick.conditions


@pytest.mark.rule("TC-H-5")
@pytest.mark.rule("TC-H-6")
@pytest.mark.parametrize(("older_ruling", "harm"), [(False, 6), (True, 8)])
def test_TC_H_5_a_cheat_death_double_6_leaves_6_harm_whatever_the_limit(older_ruling: bool, harm: int):
    table = Table(settings={"harm_wake_from_limit": older_ruling}).cast().fight()
    table.do("gm", "trinity.setup_character", character="Brick", power=2, harm_limit=9)
    hurt(table, "Brick", harm=10)
    assert table.char("Brick").dying
    table.answer("ben", "cheat_death", "roll", faces=(6, 6))
    table.keep_luck("ben")
    brick = table.char("Brick")
    assert brick.harm == harm and "dying" not in brick.conditions and "unconscious" not in brick.conditions


@pytest.mark.rule("TC-H-6")
def test_TC_H_6_luck_twelve_is_unconscious_not_the_double_six(dying: Table):
    dying.answer("ben", "cheat_death", "roll", faces=(1, 2))
    dying.answer("ben", "luck", "twelve")
    assert dying.char("Brick").unconscious


@pytest.mark.rule("TC-H-6")
def test_TC_H_6_cheat_death_goes_through_the_karma_window(dying: Table):
    dying.do("gm", "trinity.add_karma", pool="bad", amount=2)
    dying.answer("ben", "cheat_death", "roll")
    dying.answer("gm", "karma", "2", faces=(4, 5))  # 9 + 2 - 1 - 2 = 8
    assert dying.t.move.result == "weak"
    assert (dying.t.good, dying.t.bad) == (2, 0)


@pytest.mark.rule("TC-H-6")
def test_TC_H_6_the_cheat_death_prompt_survives_the_start_and_end_of_an_encounter(table: Table):
    hurt(table, "Brick", harm=8)
    table.fight()
    assert table.prompt("cheat_death").to == table.pid("Brick")
    table.do("gm", "campaign.encounter.end")
    assert table.has_prompt("cheat_death")


@pytest.mark.rule("TC-H-7")
def test_TC_H_7_dead_stays_dead_until_the_gm_removes_it(dying: Table):
    finish_cheat(dying, (1, 1))
    dying.do("gm", "campaign.encounter.end")
    dying.do("gm", "trinity.time_passes", hours=100)
    dying.do("gm", "trinity.new_investigation")
    assert dying.char("Brick").dead
    message = dying.refused(
        "ann", "trinity.use_item", character="Aria", item="healing potion", target="Brick"
    )
    assert "dead" in message
    dying.refused("ben", "trinity.set_condition", Forbidden, character="Brick", condition="dead", on=False)
    dying.do("gm", "trinity.set_condition", character="Brick", condition="dead", on=False)
    assert not dying.char("Brick").dead


# --- stress ---------------------------------------------------------------------------------------


@pytest.mark.rule("TC-S-1")
def test_TC_S_1_two_stress_traumatises_minus_one_on_cool_and_wits(table: Table):
    assert table.char("Aria").stress_limit == 5
    hurt(table, "Aria", stress=1)
    assert "traumatised" not in table.char("Aria").conditions
    hurt(table, "Aria", stress=1)
    assert "traumatised" in table.char("Aria").conditions
    hurt(table, "Aria", stress=3)
    table.answer("ann", "face_demons", "cool", faces=(3, 3))
    mods = {m["key"]: m["value"] for m in last(table, "trinity.move_rolled").data["mods"]}
    assert mods == {"stat": 1, "traumatised": -1}


@pytest.fixture
def brink(table: Table) -> Table:
    return hurt(table, "Aria", stress=7)


@pytest.mark.rule("TC-S-2")
def test_TC_S_2_at_the_limit_on_the_brink_and_asked_to_face_the_demons(brink: Table):
    aria = brink.char("Aria")
    assert aria.stress == 5 and aria.on_the_brink
    prompt = brink.prompt("face_demons")
    assert [c.key for c in prompt.choices] == ["cool", "wits"]
    option = brink.option("ann", f"{prompt.id}-wits")
    assert [b.label for b in option.odds][-1] == "stress to 3 (double 6)"
    brink.fight()
    message = brink.refused(
        "ann", "trinity.move", character="Aria", move="open_fire", opponent="Cultist", weapon="pistol"
    )
    assert "face their demons first" in message


@pytest.mark.rule("TC-S-2")
@pytest.mark.parametrize(
    ("faces", "stress", "lost", "still"),
    [
        ((1, 2), 5, True, False),
        ((3, 5), 5, False, True),
        ((5, 6), 4, False, False),
        ((6, 6), 3, False, False),
    ],
)
def test_TC_S_2_face_your_demons_every_band(brink: Table, faces, stress: int, lost: bool, still: bool):
    brink.answer("ann", "face_demons", "wits", faces=faces)  # Wits 0, traumatised -1
    brink.keep_luck("ann")
    aria = brink.char("Aria")
    assert (aria.stress, aria.lost, aria.on_the_brink) == (stress, lost, still)
    assert brink.has_prompt("face_demons") == still
    if lost:
        assert "lost" in aria.conditions
        assert "lost to their demons" in brink.refused(
            "ann", "trinity.reload", character="Aria", weapon="pistol"
        )


@pytest.mark.rule("TC-S-2")
@pytest.mark.parametrize(
    ("older_ruling", "faces", "stress"),
    [(False, (5, 6), 4), (False, (6, 6), 3), (True, (5, 6), 6), (True, (6, 6), 5)],
)
def test_TC_S_2_with_a_stress_limit_of_7_demons_faced_leave_4_or_3(older_ruling: bool, faces, stress: int):
    """The seed: 4 on 10+, 3 on a double 6, whatever the limit; the older ruling counted from the limit."""
    table = Table(settings={"stress_reset_from_limit": older_ruling}).cast()
    table.do("gm", "trinity.setup_character", character="Aria", cool=2, stress_limit=7)
    hurt(table, "Aria", stress=7)
    table.answer("ann", "face_demons", "cool", faces=faces)
    table.keep_luck("ann")
    aria = table.char("Aria")
    assert (aria.stress, aria.on_the_brink, aria.lost) == (stress, False, False)


@pytest.mark.rule("TC-S-3")
def test_TC_S_3_the_gm_inflicts_stress(table: Table):
    events = table.do("gm", "trinity.inflict", character="Brick", stress=1, reason="failed face danger")
    assert table.char("Brick").stress == 1
    assert "failed face danger" in table.texts(events)[0]
    table.refused("ben", "trinity.inflict", Forbidden, character="Brick", stress=1)
    assert "not stress" in table.refused("gm", "trinity.inflict", character="Ghoul", stress=1)


# --- healing and time -----------------------------------------------------------------------------


@pytest.mark.rule("TC-HE-1")
def test_TC_HE_1_an_instant_heal_item_removes_harm_and_runs_out(table: Table):
    hurt(table, "Aria", harm=5)
    table.do("ann", "trinity.use_item", character="Aria", item="healing potion")
    assert table.char("Aria").harm == 3 and table.char("Aria").item("healing potion").uses == 1
    table.do("ann", "trinity.use_item", character="Aria", item="healing potion")
    assert table.char("Aria").harm == 1 and table.char("Aria").item("healing potion") is None


@pytest.mark.rule("TC-HE-1")
def test_TC_HE_1_an_item_can_treat_a_teammate_and_is_refused_when_useless(table: Table):
    assert "nothing for the healing potion" in table.refused(
        "ann", "trinity.use_item", character="Aria", item="healing potion"
    )
    hurt(table, "Brick", harm=8)
    table.do("ann", "trinity.use_item", character="Aria", item="healing potion", target="Brick")
    assert table.char("Brick").harm == 6 and not table.has_prompt("cheat_death")
    table.refused("ben", "trinity.use_item", Forbidden, character="Aria", item="healing potion")


@pytest.mark.rule("TC-HE-1")
def test_TC_HE_1_a_delayed_item_acts_when_the_character_is_safe(table: Table):
    table.do(
        "gm",
        "trinity.setup_character",
        character="Aria",
        items=[{"name": "medikit", "heal": 2, "timing": "delayed", "consumable": 1}],
    )
    hurt(table, "Aria", harm=3)
    table.do("ann", "trinity.use_item", character="Aria", item="medikit")
    assert table.char("Aria").harm == 3 and table.char("Aria").item("medikit") is None
    table.do("gm", "trinity.safe", character="Aria")
    assert table.char("Aria").harm == 1 and table.char("Aria").delayed == ()


@pytest.mark.rule("TC-HE-2")
def test_TC_HE_2_a_calm_item_removes_stress(table: Table):
    table.do(
        "gm",
        "trinity.setup_character",
        character="Aria",
        items=[
            {"name": "sedative", "calm": 1, "timing": "delayed", "consumable": 1},
            {"name": "tea", "calm": 2},
        ],
    )
    hurt(table, "Aria", stress=3)
    table.do("ann", "trinity.use_item", character="Aria", item="tea")
    assert table.char("Aria").stress == 1 and table.char("Aria").item("tea").uses is None  # not consumable
    table.do("ann", "trinity.use_item", character="Aria", item="sedative")
    table.do("gm", "trinity.safe", character="Aria")
    assert table.char("Aria").stress == 0


@pytest.mark.rule("TC-HE-3")
def test_TC_HE_3_one_harm_a_day_and_one_stress_an_hour(table: Table):
    hurt(table, "Aria", harm=3, stress=4)
    table.do("gm", "trinity.time_passes", hours=10)
    assert (table.char("Aria").harm, table.char("Aria").stress) == (3, 0)
    table.do("gm", "trinity.time_passes", hours=14)  # 24 hours in all
    assert table.char("Aria").harm == 2
    table.do("gm", "trinity.time_passes", hours=48)
    assert table.char("Aria").harm == 0 and table.t.hours == 72


@pytest.mark.rule("TC-HE-3")
def test_TC_HE_3_the_dying_and_those_on_the_brink_do_not_mend_by_waiting(table: Table):
    hurt(table, "Brick", harm=8)
    hurt(table, "Aria", stress=5)
    table.do("gm", "trinity.time_passes", hours=48)
    assert table.char("Brick").dying and table.char("Aria").on_the_brink


@pytest.mark.rule("TC-HE-4")
def test_TC_HE_4_a_new_investigation_clears_harm_stress_and_pools(table: Table):
    hurt(table, "Aria", harm=3, stress=2)
    table.do("gm", "trinity.add_karma", pool="bad", amount=2)
    table.do("gm", "trinity.new_investigation")
    aria = table.char("Aria")
    assert (aria.harm, aria.stress, table.t.bad) == (0, 0, 0)
    table.fight()
    assert "End the encounter" in table.refused("gm", "trinity.new_investigation")
