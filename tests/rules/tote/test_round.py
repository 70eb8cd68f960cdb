"""Initiative and rounds (TO-I-*), Distance (TO-R-*) and engagement (TO-E-*)."""

from __future__ import annotations

import pytest

from app.rules.errors import Forbidden, InputError
from tests.rules.tote.table import Table

# --- TO-I-1 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TO-I-1")
def test_TO_I_1_a_hero_starts_with_plan_successes_plus_hawk(t: Table):
    t.start()
    t.do("ann", "tote.roll_initiative", [4, 2, 3], participant="Aiyana")  # 4 + Paragon 3 = 7: fail
    assert t.initiative("Aiyana") == 2  # 0 successes + Hawk 2
    t.do("ben", "tote.roll_initiative", [6, 2, 3], participant="Tahoma")  # 6 + 3 = 9, a Bonus
    assert t.initiative("Tahoma") == 4  # 2 successes + Hawk 2
    rolled = t.last("tote.initiative_rolled").data
    assert rolled["test"]["target"] == 8 and rolled["roll"]["terms"][1]["notation"] == "Paragon d6"


@pytest.mark.rule("TO-I-1")
def test_TO_I_1_an_enemy_starts_with_initiative_test_successes_plus_rating(t: Table):
    t.start()
    t.do("gm", "tote.roll_initiative", [5, 1, 3], participant="Goblin")  # 5 + 3 = 8: one success
    assert t.initiative("Goblin") == 4  # 1 + Rating 3
    # The roll and the value give the Rating away: they are the GM's; the table hears that it rolled.
    rolled = t.last("tote.initiative_rolled")
    assert rolled.audience == "gm" and rolled.data["base"] == 3 and rolled.data["hidden"]
    told = t.last("tote.initiative_secret")
    assert told.audience == "all" and set(told.data) == {"unit", "members", "name"}


@pytest.mark.rule("TO-I-1")
def test_TO_I_1_a_group_of_enemies_rolls_once_and_shares_one_value():
    t = Table()
    t.hero("Aiyana")
    t.enemy("Grey Wolf", rating=2, group="Wolves")
    t.enemy("Black Wolf", rating=2, group="Wolves")
    t.start()
    assert len(t.fight.units) == 2
    t.do("gm", "tote.roll_initiative", [6, 3], participant="Black Wolf")  # 9: 2 successes
    assert t.initiative("Grey Wolf") == t.initiative("Black Wolf") == 4
    t.refused("gm", "tote.roll_initiative", [1, 1], participant="Grey Wolf")


@pytest.mark.rule("TO-I-1")
def test_TO_I_1_the_gm_rolls_every_unrolled_initiative_and_round_one_begins(t: Table):
    t.start()
    t.do("gm", "tote.roll_initiative", [1, 1, 1, 1, 1, 1, 6, 6, 6])
    assert [t.initiative(n) for n in ("Aiyana", "Tahoma", "Goblin")] == [2, 2, 3 + 3]
    assert t.fight.phase == "declare" and t.fight.round == 1
    # Equal heroes: the one listed first wins the tie, so declares later.
    assert t.last("tote.round_started").data["names"] == ["Tahoma", "Aiyana", "Goblin"]


@pytest.mark.rule("TO-I-1")
def test_TO_I_1_players_roll_only_their_own_heroes_and_only_once(t: Table):
    t.start()
    t.refused("ann", "tote.roll_initiative", [1, 1, 1], error=Forbidden, participant="Tahoma")
    t.refused("ann", "tote.roll_initiative", [1, 1, 1], error=Forbidden, participant="Goblin")
    t.do("ann", "tote.roll_initiative", [1, 1, 1], participant="Aiyana")
    error = t.refused("ann", "tote.roll_initiative", [1, 1, 1], participant="Aiyana")
    assert error.rule == "TO-I-1"


# --- TO-I-2 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TO-I-2")
def test_TO_I_2_actions_are_declared_from_the_lowest_initiative(t: Table):
    t.brawl(Aiyana=3, Tahoma=2, Goblin=4)
    assert list(t.fight.order) == [t.pid("Tahoma"), t.pid("Aiyana"), t.pid("Goblin")]
    error = t.refused("ann", "tote.declare", participant="Aiyana", action="defend")
    assert error.rule == "TO-I-2" and "Tahoma declares before Aiyana" in error.message
    t.declare("ben", "Tahoma", "defend")
    t.declare("ann", "Aiyana", "defend")
    assert t.fight.phase == "declare"
    t.declare("gm", "Goblin", "recover")
    assert t.fight.round == 2  # nothing to roll: all resolved, the next round began


@pytest.mark.rule("TO-I-2")
def test_TO_I_2_heroes_win_ties_so_the_enemy_declares_first(t: Table):
    t.brawl(Aiyana=3, Tahoma=1, Goblin=3)
    assert list(t.fight.order) == [t.pid("Tahoma"), t.pid("Goblin"), t.pid("Aiyana")]


@pytest.mark.rule("TO-I-2")
def test_TO_I_2_actions_resolve_from_the_highest_spending_initiative(t: Table):
    t.brawl(Aiyana=3, Tahoma=2, Goblin=4)
    t.declare("ben", "Tahoma", "attack", "Goblin")
    t.declare("ann", "Aiyana", "attack", "Goblin")
    t.declare("gm", "Goblin", "attack", "Tahoma")
    assert t.fight.phase == "resolve"
    error = t.refused("ben", "tote.resolve", [1, 1, 1, 1], declaration=t.pending_for("Tahoma").id)
    assert error.rule == "TO-I-2" and "Goblin acts first" in error.message
    t.resolve("gm", [1, 1, 1])  # Goblin misses Tahoma
    assert t.initiative("Goblin") == 3
    t.resolve("ann", [1, 1, 1, 1])  # Aiyana (3) before Tahoma (2)
    assert t.initiative("Aiyana") == 2
    t.resolve("ben", [1, 1, 1, 1])
    assert t.fight.round == 2 and t.initiative("Tahoma") == 1


@pytest.mark.rule("TO-I-2")
def test_TO_I_2_the_order_follows_initiative_as_it_changes(t: Table):
    """Intimidate lowers the Goblin below Tahoma during resolution: Tahoma now acts first."""
    t.brawl(Aiyana=5, Tahoma=3, Goblin=4)
    t.declare("ben", "Tahoma", "attack", "Goblin")
    t.declare("gm", "Goblin", "attack", "Tahoma")
    t.declare("ann", "Aiyana", "intimidate", "Goblin")
    t.resolve("ann", [6, 1, 5])  # Impress 6 + 5 = 11 vs 10: 2 successes
    assert t.initiative("Goblin") == 2
    assert t.next_pending().actor == t.pid("Tahoma")


@pytest.mark.rule("TO-I-2")
def test_TO_I_2_only_the_actor_or_the_gm_resolves_and_not_during_declaration(t: Table):
    t.brawl(Aiyana=3, Tahoma=2, Goblin=4)
    t.declare("ben", "Tahoma", "attack", "Goblin")
    error = t.refused("ben", "tote.resolve", [1], declaration=t.pending_for("Tahoma").id)
    assert error.rule == "TO-I-2"
    t.declare("ann", "Aiyana", "attack", "Goblin")
    t.declare("gm", "Goblin", "recover")
    t.refused("ann", "tote.resolve", [1, 1, 1, 1], error=Forbidden, declaration=t.pending_for("Tahoma").id)


@pytest.mark.rule("TO-I-2")
def test_TO_I_2_each_combatant_declares_once_a_round(t: Table):
    t.brawl(Aiyana=3, Tahoma=2, Goblin=4)
    t.declare("ben", "Tahoma", "defend")
    error = t.refused("ben", "tote.declare", participant="Tahoma", action="recover")
    assert error.rule == "TO-I-2" and "already declared Defend" in error.message


# --- TO-I-3 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TO-I-3")
def test_TO_I_3_an_unaffordable_action_cannot_be_declared(t: Table):
    t.brawl(Aiyana=3, Tahoma=1, Goblin=4)
    error = t.refused("ben", "tote.declare", participant="Tahoma", action="assault", target="Goblin")
    assert error.rule == "TO-I-3" and error.message == "Assault costs 2 Initiative and Tahoma has 1."
    option = next(o for o in t.options("ben") if o.id.startswith(f"declare-{t.pid('Tahoma')}-assault"))
    assert not option.enabled and "TO-I-3" in option.reason


@pytest.mark.rule("TO-I-3")
def test_TO_I_3_a_group_cannot_declare_more_than_its_shared_initiative():
    t = Table()
    t.hero("Aiyana")
    t.enemy("Grey Wolf", rating=2, group="Wolves")
    t.enemy("Black Wolf", rating=2, group="Wolves")
    t.brawl(Aiyana=1, **{"Grey Wolf": 2})
    t.declare("ann", "Aiyana", "defend")
    t.declare("gm", "Grey Wolf", "assault", "Aiyana")
    error = t.refused("gm", "tote.declare", participant="Black Wolf", action="attack", target="Aiyana")
    assert error.rule == "TO-I-3" and "has 0" in error.message
    t.declare("gm", "Black Wolf", "grapple", "Aiyana")


@pytest.mark.rule("TO-I-3")
def test_TO_I_3_initiative_never_drops_below_zero_and_the_action_still_resolves(t: Table):
    t.brawl(Aiyana=5, Tahoma=0, Goblin=2)
    t.declare("ben", "Tahoma", "defend")
    t.declare("gm", "Goblin", "assault", "Tahoma")
    t.declare("ann", "Aiyana", "intimidate", "Goblin")
    t.resolve("ann", [6, 6, 5])  # 11 vs 10 with 1 Bonus: 2 successes, Goblin 2 -> 0
    assert t.initiative("Goblin") == 0
    t.resolve("gm", [1, 1, 1])  # the Assault resolves; 0 stays 0
    assert t.initiative("Goblin") == 0
    assert t.last("tote.attacked").data["spend"] == 0


@pytest.mark.rule("TO-I-3")
def test_TO_I_3_the_setting_can_make_a_short_action_lost_instead():
    t = Table(short_initiative="lost")
    t.hero("Aiyana")
    t.hero("Tahoma", owner="ben")
    t.enemy("Goblin")
    t.brawl(Aiyana=5, Tahoma=0, Goblin=2)
    t.declare("ben", "Tahoma", "defend")
    t.declare("gm", "Goblin", "assault", "Tahoma")
    t.declare("ann", "Aiyana", "intimidate", "Goblin")
    t.resolve("ann", [6, 6, 5])
    lost = t.last("tote.action_lost").data
    assert lost["action"] == "assault" and "TO-I-3" in lost["reason"]


@pytest.mark.rule("TO-I-3")
def test_TO_I_3_initiative_carries_over_to_the_next_round(t: Table):
    t.brawl(Aiyana=3, Tahoma=2, Goblin=4)
    t.declare("ben", "Tahoma", "recover")
    t.declare("ann", "Aiyana", "recover")
    t.declare("gm", "Goblin", "assault", "Aiyana")
    t.resolve("gm", [1, 1, 1])  # a miss; Aiyana has not acted: she may return an attack
    t.do("ann", "tote.answer", prompt=t.state.prompts[0].id, choice="pass")
    assert t.fight.round == 2
    assert (t.initiative("Aiyana"), t.initiative("Tahoma"), t.initiative("Goblin")) == (3, 2, 2)


# --- TO-R-1 / TO-R-2 / TO-MV-1 --------------------------------------------------------------------


@pytest.mark.rule("TO-R-1")
def test_TO_R_1_the_gm_sets_the_starting_distance(t: Table):
    t.start(distance="far")
    assert {c.band for c in t.fight.combatants} == {"far"}
    with pytest.raises(InputError, match="Distance"):
        t.do("gm", "campaign.encounter.prepare", name="Bad", setup={"distance": "next door"})


@pytest.mark.rule("TO-R-1")
def test_TO_R_1_in_a_distance_round_heroes_may_only_move_or_shoot(t: Table):
    t.start(distance="close")
    t.ready(Aiyana=4, Tahoma=3, Goblin=2)
    t.declare("gm", "Goblin", "move", direction="closer")
    error = t.refused("ben", "tote.declare", participant="Tahoma", action="attack", target="Goblin")
    assert error.rule == "TO-R-1"
    enabled = {o.command["action"] for o in t.options("ben") if o.group == "declare" and o.enabled}
    assert enabled == {"move", "shoot"}
    t.declare("ben", "Tahoma", "shoot", "Goblin")


@pytest.mark.rule("TO-R-2")
def test_TO_R_2_move_steps_one_range_closer_or_further(t: Table):
    t.start(distance="close")
    t.ready(Aiyana=4, Tahoma=3, Goblin=2)
    t.declare("gm", "Goblin", "move", direction="further")
    t.declare("ben", "Tahoma", "move", direction="closer")
    t.declare("ann", "Aiyana", "move", direction="closer")
    assert t.combatant("Aiyana").band == "melee" and t.combatant("Tahoma").band == "melee"
    assert t.combatant("Goblin").band == "far"
    assert t.fight.round == 2


@pytest.mark.rule("TO-R-2")
def test_TO_R_2_moving_further_from_far_flees_the_battle(t: Table):
    t.start(distance="far")
    t.ready(Aiyana=4, Tahoma=3, Goblin=2)
    t.declare("gm", "Goblin", "move", direction="closer")
    t.declare("ben", "Tahoma", "move", direction="further")
    t.declare("ann", "Aiyana", "move", direction="further")
    assert t.combatant("Aiyana").fled and t.combatant("Tahoma").fled
    assert "flees the battle" in t.game.describe(t.last("tote.moved"))
    assert t.fight.phase == "over" and t.fight.winner == "enemies"


@pytest.mark.rule("TO-R-2")
def test_TO_R_2_a_fled_hero_leaves_the_order(t: Table):
    t.start(distance="far")
    t.ready(Aiyana=4, Tahoma=3, Goblin=2)
    t.declare("gm", "Goblin", "move", direction="closer")
    t.declare("ben", "Tahoma", "move", direction="closer")
    t.declare("ann", "Aiyana", "move", direction="further")
    assert t.fight.round == 2
    assert t.pid("Aiyana") not in t.fight.order
    error = t.refused("ann", "tote.declare", participant="Aiyana", action="recover")
    assert "fled" in error.message


@pytest.mark.rule("TO-R-2")
def test_TO_R_2_there_is_no_step_closer_than_melee(t: Table):
    t.brawl(Aiyana=4, Tahoma=3, Goblin=2)
    error = t.refused("gm", "tote.declare", participant="Goblin", action="move", direction="closer")
    assert error.rule == "TO-R-2"
    error = t.refused("gm", "tote.declare", participant="Goblin", action="move")
    assert error.rule == "TO-R-2"


@pytest.mark.rule("TO-R-2")
def test_TO_R_2_melee_actions_reach_only_foes_at_melee(t: Table):
    t.brawl(Aiyana=4, Tahoma=3, Goblin=2)
    t.do("gm", "tote.place", participant="Tahoma", band="close")
    for action in ("attack", "assault", "grapple", "intimidate"):
        error = t.refused("gm", "tote.declare", participant="Goblin", action=action, target="Tahoma")
        assert error.rule == "TO-R-2", action
    t.declare("gm", "Goblin", "attack", "Aiyana")


@pytest.mark.rule("TO-R-2")
def test_TO_R_2_a_melee_action_whose_foe_moved_away_is_lost(t: Table):
    t.brawl(Aiyana=4, Tahoma=3, Goblin=2)
    t.declare("gm", "Goblin", "attack", "Tahoma")
    t.declare("ben", "Tahoma", "move", direction="further")
    t.declare("ann", "Aiyana", "recover")
    lost = t.last("tote.action_lost").data
    assert lost["action"] == "attack" and "TO-R-2" in lost["reason"]
    assert t.initiative("Goblin") == 2 and t.fight.round == 2


@pytest.mark.rule("TO-MV-1")
def test_TO_MV_1_move_costs_nothing(t: Table):
    t.brawl(Aiyana=4, Tahoma=3, Goblin=2)
    t.declare("gm", "Goblin", "recover")
    t.declare("ben", "Tahoma", "move", direction="further")
    t.declare("ann", "Aiyana", "recover")
    assert t.combatant("Tahoma").band == "close" and t.initiative("Tahoma") == 3


def engage_tahoma(t: Table) -> None:
    """Round 1: the Goblin hits Tahoma (who Defends and lets it go); round 2 begins."""
    t.brawl(Aiyana=4, Tahoma=3, Goblin=2)
    t.declare("gm", "Goblin", "attack", "Tahoma")
    t.declare("ben", "Tahoma", "defend")
    t.declare("ann", "Aiyana", "recover")
    t.resolve("gm", [5, 4, 1])  # 9 vs Block 8: hit, 2 damage
    t.do("ben", "tote.answer", prompt=t.state.prompts[0].id, choice="pass")
    assert t.fight.round == 2


@pytest.mark.rule("TO-MV-1")
def test_TO_MV_1_an_engaged_character_cannot_move(t: Table):
    engage_tahoma(t)
    t.declare("gm", "Goblin", "recover")
    error = t.refused("ben", "tote.declare", participant="Tahoma", action="move", direction="further")
    assert error.rule == "TO-MV-1"


# --- TO-E-1 / TO-E-2 ------------------------------------------------------------------------------


@pytest.mark.rule("TO-E-1")
def test_TO_E_1_melee_damage_engages_the_pair(t: Table):
    engage_tahoma(t)
    assert t.fight.engaged == (tuple(sorted((t.pid("Goblin"), t.pid("Tahoma")))),)
    assert t.view("ann")["system"]["fight"]["engagements"] == [list(t.fight.engaged[0])]


@pytest.mark.rule("TO-E-1")
def test_TO_E_1_an_engaged_character_must_target_that_foe():
    t = Table()
    t.hero("Aiyana")
    t.hero("Tahoma", owner="ben")
    t.enemy("Goblin")
    t.enemy("Orc")
    engage_two(t)
    error = t.refused("ben", "tote.declare", participant="Tahoma", action="attack", target="Orc")
    assert error.rule == "TO-E-1" and "engaged with Goblin" in error.message
    labels = [o.label for o in t.options("ben") if o.group == "declare" and o.enabled]
    assert "Attack (1) Goblin" in labels and "Attack (1) Orc" not in labels
    t.declare("ben", "Tahoma", "attack", "Goblin")


def engage_two(t: Table) -> None:
    t.brawl(Aiyana=5, Tahoma=4, Goblin=3, Orc=1)
    t.declare("gm", "Orc", "recover")
    t.declare("gm", "Goblin", "attack", "Tahoma")
    t.declare("ben", "Tahoma", "recover")
    t.declare("ann", "Aiyana", "recover")
    t.resolve("gm", [5, 4, 1])
    assert t.fight.round == 2
    t.declare("gm", "Orc", "recover")
    t.declare("gm", "Goblin", "recover")


@pytest.mark.rule("TO-E-1")
def test_TO_E_1_a_defeated_foe_frees_the_engaged_character():
    t = Table()
    t.hero("Aiyana")
    t.hero("Tahoma", owner="ben")
    t.enemy("Goblin")
    t.enemy("Orc")
    engage_two(t)
    t.do("gm", "tote.adjust", participant="Goblin", injuries=6)
    assert t.fight.engaged == ()
    t.declare("ben", "Tahoma", "attack", "Orc")


@pytest.mark.rule("TO-E-1")
def test_TO_E_1_shooting_damage_does_not_engage(t: Table):
    t.start(distance="close")
    t.ready(Aiyana=4, Tahoma=3, Goblin=2)
    t.declare("gm", "Goblin", "move", direction="closer")
    t.declare("ben", "Tahoma", "shoot", "Goblin")
    t.declare("ann", "Aiyana", "move", direction="further")
    t.resolve("ben", [5, 1, 4])  # Shoot 2d6: 5 + Paragon 4 = 9: hit, 2 damage
    assert t.last("tote.attacked").data["damage"] == 2
    assert t.fight.engaged == ()


@pytest.mark.rule("TO-E-2")
def test_TO_E_2_disengage_costs_three_and_frees_the_character_next_round(t: Table):
    engage_tahoma(t)
    t.declare("gm", "Goblin", "recover")
    t.declare("ben", "Tahoma", "disengage")
    t.declare("ann", "Aiyana", "recover")
    assert t.fight.round == 3
    assert t.fight.engaged == ()
    assert t.initiative("Tahoma") == 0


@pytest.mark.rule("TO-E-2")
def test_TO_E_2_disengaging_still_counts_as_engaged_in_its_own_round(t: Table):
    engage_tahoma(t)
    t.declare("gm", "Goblin", "attack", "Tahoma")
    t.declare("ben", "Tahoma", "disengage")
    t.declare("ann", "Aiyana", "recover")
    assert t.combatant("Tahoma").disengaging and t.fight.engaged
    t.resolve("gm", [1, 1, 1])
    assert t.fight.round == 3 and t.fight.engaged == ()


@pytest.mark.rule("TO-E-2")
def test_TO_E_2_only_an_engaged_character_can_disengage(t: Table):
    t.brawl(Aiyana=4, Tahoma=3, Goblin=5)
    error = t.refused("ben", "tote.declare", participant="Tahoma", action="disengage")
    assert error.rule == "TO-E-2"
