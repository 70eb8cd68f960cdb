"""Hits and damage (TO-H-*), the three critical types (TO-C-*) and the injury track (TO-J-*).

Tahoma strikes with 3 skill dice + the Paragon die against the Goblin (Block 8, Resist 6,
Resolve 6, Encumbrance 0 unless set). Effect dice follow the to-hit dice.
"""

from __future__ import annotations

import pytest

from app.realtime.log import log_entries
from app.rules.tote.combat import damage_marks
from tests.rules.tote.table import AXE, CLUB, SPEAR, Table


def strike(weapon: dict, faces: list[int], goblin: dict | None = None, **settings) -> Table:
    """Round 1: Tahoma (Initiative 4) attacks the Goblin, Aiyana Recovers, the Goblin backs off."""
    t = Table(**settings)
    t.hero("Aiyana")
    t.hero("Tahoma", owner="ben", weapons=[weapon])
    t.enemy("Goblin", **(goblin or {}))
    t.brawl(Tahoma=4, Aiyana=3, Goblin=2)
    t.declare("gm", "Goblin", "move", direction="further")  # resolves last, if still unengaged
    t.declare("ann", "Aiyana", "recover")
    t.declare("ben", "Tahoma", "attack", "Goblin")
    t.resolve("ben", faces)
    return t


def hit(t: Table) -> dict:
    return t.hit()


# --- TO-H-1 / TO-H-2 ------------------------------------------------------------------------------


@pytest.mark.rule("TO-H-1")
def test_TO_H_1_the_to_hit_test_is_against_the_foes_block():
    t = strike(AXE, [5, 1, 1, 2], goblin={"block": 7})  # 7 vs Block 7
    assert hit(t)["how"] == "hit"
    t = strike(AXE, [5, 1, 1, 2], goblin={"block": 8})
    assert hit(t)["how"] == "miss" and hit(t)["damage"] == 0


@pytest.mark.rule("TO-H-1")
def test_TO_H_1_each_success_is_one_chance_to_do_damage():
    """With a Pierce Critical of 3 successes (a double 6 read as a Critical), three Effect tests."""
    t = strike(SPEAR, [6, 1, 1, 6, 6, 1, 1, 1, 1, 1, 5, 1, 1], double_six="critical")
    assert hit(t)["test"]["successes"] == 3 and len(hit(t)["effects"]) == 3


@pytest.mark.rule("TO-H-2")
def test_TO_H_2_a_hit_does_the_weapons_base_damage():
    t = strike(AXE, [5, 1, 1, 3])
    assert hit(t)["damage"] == 3 and t.sheet("Goblin").resolve == 3


# --- TO-H-3 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TO-H-3")
def test_TO_H_3_one_bonus_and_a_passed_effect_test_add_base_damage():
    t = strike(AXE, [6, 1, 1, 2, 3, 4])  # 6 + 2 = 8, a Bonus; Effect 3 + 4 = 7 vs Resist 6
    assert hit(t)["effects"][0]["passed"] and hit(t)["damage"] == 6
    entry = next(
        e for e in log_entries(t.game, t.state, t.events, t.viewer("ben")) if e["type"] == "tote.attacked"
    )
    assert [r["terms"][0]["faces"] for r in entry["rolls"]] == [[6, 1, 1], [3, 4]]


@pytest.mark.rule("TO-H-3")
def test_TO_H_3_a_failed_effect_test_adds_nothing():
    t = strike(AXE, [6, 1, 1, 2, 1, 2])
    assert not hit(t)["effects"][0]["passed"] and hit(t)["damage"] == 3


@pytest.mark.rule("TO-H-3")
def test_TO_H_3_two_bonuses_and_a_passed_effect_test_add_twice_base_damage():
    """Reachable when the GM's setting counts a double 6 as two Bonuses rather than a Critical."""
    t = strike(AXE, [6, 1, 1, 6, 3, 4], double_six="bonuses")
    assert hit(t)["how"] == "hit" and hit(t)["damage"] == 3 + 2 * 3
    t = strike(AXE, [6, 1, 1, 6, 1, 1], double_six="bonuses")
    assert hit(t)["damage"] == 3


@pytest.mark.rule("TO-H-3")
def test_TO_H_3_the_effect_test_is_against_resist_which_armour_raises():
    t = Table()
    t.hero("Aiyana", armour=["Iron Chain"], resist=2)
    t.enemy("Goblin")
    t.brawl(Aiyana=1, Goblin=3)
    t.declare("ann", "Aiyana", "recover")
    t.declare("gm", "Goblin", "attack", "Aiyana")
    t.resolve("gm", [6, 3, 1, 4, 3])  # 9 with a Bonus; Effect 7 vs Resist 2 + Iron Chain 5
    assert hit(t)["effects"][0]["target"] == 7 and hit(t)["effects"][0]["passed"]
    assert t.sheet("Aiyana").encumbrance == 10  # the armour table's Encumbrance


# --- TO-H-4 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TO-H-4")
def test_TO_H_4_damage_leaving_resolve_under_encumbrance_marks_one_injury():
    t = strike(AXE, [5, 1, 1, 3], goblin={"encumbrance": 4})  # Resolve 6 -> 3, under 4
    assert hit(t)["marks"] == 1 and hit(t)["marked"] == ["5"] and t.sheet("Goblin").injuries == 1


@pytest.mark.rule("TO-H-4")
def test_TO_H_4_no_mark_while_resolve_stays_at_or_above_encumbrance():
    t = strike(AXE, [5, 1, 1, 3], goblin={"encumbrance": 3})
    assert hit(t)["marks"] == 0


@pytest.mark.rule("TO-H-4")
def test_TO_H_4_once_resolve_is_exhausted_every_point_of_damage_is_marked():
    t = strike(AXE, [5, 1, 1, 3], goblin={"current_resolve": 1})
    assert hit(t)["absorbed"] == 1 and hit(t)["marks"] == 2 and t.sheet("Goblin").resolve == 0
    t = strike(AXE, [5, 1, 1, 3], goblin={"current_resolve": 0})
    assert hit(t)["marks"] == 3 and hit(t)["marked"] == ["5", "4", "3"]


@pytest.mark.rule("TO-H-4")
def test_TO_H_4_damage_marks_arithmetic():
    assert damage_marks(6, 0, 0) == (0, 0)
    assert damage_marks(6, 4, 3) == (3, 1)
    assert damage_marks(6, 3, 3) == (3, 0)
    assert damage_marks(2, 0, 5) == (2, 3)
    assert damage_marks(0, 10, 2) == (0, 2)
    assert damage_marks(3, 0, 3) == (3, 0)  # exactly spent: exhausted from the next hit


# --- TO-C-1 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TO-C-1")
def test_TO_C_1_a_bash_critical_that_passes_an_effect_test_knocks_the_foe_down():
    t = strike(CLUB, [4, 1, 1, 4, 5, 2])  # 4 + 4: a Critical; Effect 5 + 2 = 7 vs 6
    data = hit(t)
    assert data["how"] == "critical" and data["damage"] == 2 and data["knocked_down"]
    assert t.fight.engaged == ()  # knocked down: the pair is no longer engaged
    assert t.fight.round == 2 and t.pid("Goblin") not in t.fight.order
    assert t.last("tote.round_started").data["knocked_down"] == [t.pid("Goblin")]
    t.declare("ben", "Tahoma", "recover")
    t.declare("ann", "Aiyana", "recover")
    assert t.fight.round == 3 and t.pid("Goblin") in t.fight.order


@pytest.mark.rule("TO-C-1")
def test_TO_C_1_a_knocked_down_foe_cannot_declare_in_the_next_round():
    t = Table()
    t.hero("Tahoma", owner="ben", weapons=[CLUB])
    t.enemy("Goblin")
    t.enemy("Orc")
    t.brawl(Tahoma=4, Goblin=2, Orc=1)
    t.declare("gm", "Orc", "recover")
    t.declare("gm", "Goblin", "recover")
    t.declare("ben", "Tahoma", "attack", "Goblin")
    t.resolve("ben", [4, 1, 1, 4, 5, 2])
    error = t.refused("gm", "tote.declare", participant="Goblin", action="recover")
    assert error.rule == "TO-C-1"


@pytest.mark.rule("TO-C-1")
def test_TO_C_1_one_effect_test_per_success_and_any_pass_knocks_down():
    t = strike(CLUB, [6, 1, 1, 6, 1, 1, 1, 2, 4, 3], double_six="critical")  # 3 successes: fail, fail, pass
    assert len(hit(t)["effects"]) == 3 and hit(t)["knocked_down"]


@pytest.mark.rule("TO-C-1")
def test_TO_C_1_no_passed_effect_test_no_knock_down():
    t = strike(CLUB, [4, 1, 1, 4, 1, 2])
    assert not hit(t)["knocked_down"] and hit(t)["engage"]


@pytest.mark.rule("TO-C-1")
def test_TO_C_1_a_knocked_down_hero_gets_a_notice():
    t = Table()
    t.hero("Tahoma", owner="ben")
    t.enemy("Goblin", weapons=[CLUB])
    t.brawl(Tahoma=1, Goblin=3)
    t.declare("ben", "Tahoma", "recover")
    t.declare("gm", "Goblin", "attack", "Tahoma")
    t.resolve("gm", [4, 4, 1, 5, 2])
    (notice,) = t.state.prompts
    assert notice.kind == "tote.knocked_down" and notice.to == t.pid("Tahoma")
    assert t.fight.round == 2  # a notice does not hold up the round
    t.do("ben", "tote.answer", prompt=notice.id, choice="ok")
    assert t.state.prompts == ()


# --- TO-C-2 / TO-C-3 / TO-C-4 ---------------------------------------------------------------------


@pytest.mark.rule("TO-C-2")
def test_TO_C_2_a_pierce_critical_marks_one_injury_per_passed_effect_test():
    t = strike(SPEAR, [4, 1, 1, 4, 6, 1, 1])  # a Critical: 1 success; Effect 6 + 1 = 7 vs 6
    data = hit(t)
    assert data["how"] == "critical" and data["damage"] == 2 and data["marks"] == 1
    assert t.sheet("Goblin").injuries == 1


@pytest.mark.rule("TO-C-2")
def test_TO_C_2_failed_pierce_effect_tests_mark_nothing():
    t = strike(SPEAR, [4, 1, 1, 4, 1, 1, 1])
    assert hit(t)["marks"] == 0 and hit(t)["damage"] == 2


@pytest.mark.rule("TO-C-3")
def test_TO_C_3_a_slash_critical_does_base_damage_per_success_without_effect_tests():
    t = strike(AXE, [4, 1, 1, 4])  # no Effect dice are asked for
    data = hit(t)
    assert data["how"] == "critical" and data["effects"] == [] and data["damage"] == 3 + 3


@pytest.mark.rule("TO-C-4")
def test_TO_C_4_a_critical_replaces_the_bonus_damage():
    """Double 6 read as a Critical (the setting): 3 successes. Slash does Base + 3 x Base; no Bonus test."""
    t = strike(AXE, [6, 1, 1, 6], double_six="critical")
    data = hit(t)
    assert data["test"]["bonuses"] == 2 and data["test"]["critical"]
    assert data["effects"] == [] and data["damage"] == 3 + 3 * 3


SEED_SPEAR = {**SPEAR, "effect": 2}  # the example: Base 2, Effect 2, Pierce


@pytest.mark.rule("TO-D-4")
@pytest.mark.rule("TO-H-3")
@pytest.mark.parametrize(("effect", "damage", "resolve_left"), [([5, 3], 6, 4), ([2, 1], 2, 8)])
def test_TO_D_4_a_double_6_is_two_bonuses_one_effect_test_for_twice_base_damage(effect, damage, resolve_left):
    """The seed's spear (Base 2, Effect 2, Pierce) against Block 7, Resist 6, Resolve 10: a double 6 to hit
    is no Critical; one Effect Test, and on a pass twice Base Damage on top of the hit: 6, and no injury."""
    foe = {"block": 7, "resist": 6, "resolve": 10}
    t = strike(SEED_SPEAR, [6, 1, 1, 6, *effect], goblin=foe)
    data = hit(t)
    assert data["test"]["bonuses"] == 2 and not data["test"]["critical"]
    assert data["how"] == "hit" and len(data["effects"]) == 1
    assert data["damage"] == damage and data["marks"] == 0
    assert t.sheet("Goblin").resolve == resolve_left and t.sheet("Goblin").injuries == 0


@pytest.mark.rule("TO-D-4")
def test_TO_D_4_under_the_setting_a_double_6_is_a_critical_with_three_pierce_tests():
    foe = {"block": 7, "resist": 6, "resolve": 10}
    t = strike(SEED_SPEAR, [6, 1, 1, 6, 5, 3, 1, 1, 1, 1], goblin=foe, double_six="critical")
    data = hit(t)
    assert data["how"] == "critical" and len(data["effects"]) == 3 and data["marks"] == 1


@pytest.mark.rule("TO-D-4")
def test_TO_D_4_other_matching_pairs_stay_criticals():
    t = strike(SPEAR, [4, 1, 1, 4, 6, 1, 1])
    assert hit(t)["how"] == "critical"


@pytest.mark.rule("TO-C-4")
def test_TO_C_4_the_critical_still_does_the_base_damage():
    t = strike(CLUB, [4, 1, 1, 4, 1, 1])
    assert hit(t)["damage"] == 2 and t.sheet("Goblin").resolve == 4


# --- TO-J-1 / TO-J-2 ------------------------------------------------------------------------------


@pytest.mark.rule("TO-J-1")
def test_TO_J_1_a_heros_track_fills_5_4_3_2_1_U_in_order():
    t = Table()
    t.hero("Tahoma", owner="ben", current_resolve=0)
    t.enemy("Goblin")
    t.brawl(Tahoma=1, Goblin=3)
    t.declare("ben", "Tahoma", "recover")
    t.declare("gm", "Goblin", "attack", "Tahoma")
    t.resolve("gm", [5, 4, 1])  # 2 damage on exhausted Resolve: 2 marks
    assert hit(t)["marked"] == ["5", "4"]
    view = t.view("ben")["system"]["heroes"][0]
    assert [c["label"] for c in view["track"]] == ["5", "4", "3", "2", "1", "U"]
    assert [c["filled"] for c in view["track"]] == [True, True, False, False, False, False]
    assert view["blocked_faces"] == [4, 5]


@pytest.mark.rule("TO-J-1")
def test_TO_J_1_the_filled_numbers_are_crossed_out_on_the_heros_next_test():
    t = Table()
    t.hero("Tahoma", owner="ben", injuries=2)
    t.enemy("Goblin")
    t.brawl(Tahoma=4, Goblin=2)
    t.declare("gm", "Goblin", "recover")
    t.declare("ben", "Tahoma", "attack", "Goblin")
    option = next(o for o in t.options("ben") if o.group == "resolve")
    assert option.odds[0].label == "Miss"
    t.resolve("ben", [5, 4, 3, 4])  # 5 and 4 are unusable: keep 3, + Paragon 4 = 7
    test = hit(t)["test"]
    assert test["counted"] == [3, 4] and test["blocked"] == [4, 5] and not test["passed"]
    assert hit(t)["roll"]["terms"][0]["blocked"] == [True, True, False]


@pytest.mark.rule("TO-J-2")
def test_TO_J_2_filling_u_knocks_a_hero_unconscious_and_out_of_the_order():
    t = Table()
    t.hero("Aiyana")
    t.hero("Tahoma", owner="ben", current_resolve=0, injuries=5)
    t.enemy("Goblin")
    t.brawl(Tahoma=1, Aiyana=2, Goblin=3)
    t.declare("ben", "Tahoma", "recover")
    t.declare("ann", "Aiyana", "recover")
    t.declare("gm", "Goblin", "attack", "Tahoma")
    t.resolve("gm", [5, 4, 1])
    assert hit(t)["out"] == "unconscious" and hit(t)["marked"] == ["U"]
    tahoma = next(d for d in t.fight.declarations if d.actor == t.pid("Tahoma"))
    assert tahoma.state == "lost"
    assert t.fight.round == 2 and t.pid("Tahoma") not in t.fight.order
    assert t.view("ann")["system"]["fight"]["combatants"][1]["status"] == "unconscious"


@pytest.mark.rule("TO-J-2")
def test_TO_J_2_an_enemy_track_may_be_shorter_n_does_nothing_and_u_defeats():
    t = strike(AXE, [5, 1, 1, 3], goblin={"track": ["N", "3", "U"], "current_resolve": 0, "injuries": 0})
    assert hit(t)["marked"] == ["N", "3", "U"] and hit(t)["out"] == "defeated"
    assert t.fight.phase == "over" and t.fight.winner == "heroes"


@pytest.mark.rule("TO-J-2")
def test_TO_J_2_an_n_circle_blocks_no_face_and_a_number_does():
    t = Table()
    t.hero("Tahoma", owner="ben")
    t.enemy("Goblin", track=["N", "6", "U"], injuries=1)
    assert t.sheet("Goblin").injuries == 1
    from app.rules.tote.rules import blocked_faces

    assert blocked_faces(t.state, t.pid("Goblin")) == frozenset()
    t.do("gm", "tote.adjust", participant="Goblin", injuries=2)
    assert blocked_faces(t.state, t.pid("Goblin")) == frozenset({6})


@pytest.mark.rule("TO-J-2")
def test_TO_J_2_the_setting_can_leave_enemy_dice_whole():
    t = Table(enemy_injuries_block_faces=False)
    t.enemy("Goblin", track=["6", "U"], injuries=1)
    from app.rules.tote.rules import blocked_faces

    assert blocked_faces(t.state, t.pid("Goblin")) == frozenset()


@pytest.mark.rule("TO-J-2")
def test_TO_J_2_a_track_must_end_in_u(t: Table):
    from app.rules.errors import InputError

    with pytest.raises(InputError, match="ends with its U circle"):
        t.do(
            "gm", "tote.enemy", participant="Goblin", rating=2, block=7, resist=6, resolve=4, track=["N", "3"]
        )
