"""Every action of the seed's table: Assault, Attack, Grapple, Intimidate, Shoot, Defend, Recover.

Dice are typed in: a hero's skill dice then the Paragon die, an enemy's Rating dice, then any
Effect dice. Heroes: Strike 3, Brawl 2, Shoot 2, Impress 2, Hawk 2, Stag 2, Block 8, Resist 6,
Resolve 8. The Goblin: Rating 3, Block 8, Resist 6, Resolve 6, Fangs (2 damage, Effect 2, Slash).
"""

from __future__ import annotations

import pytest

from app.rules.errors import Forbidden
from tests.rules.tote.table import AXE, BOW, CLUB, Table


def table(**tahoma) -> Table:
    t = Table()
    t.hero("Aiyana")
    t.hero("Tahoma", owner="ben", **tahoma)
    t.enemy("Goblin")
    return t


# --- TO-AS-1 --------------------------------------------------------------------------------------


@pytest.mark.rule("TO-AS-1")
def test_TO_AS_1_a_hit_uses_the_critical_type_instead_of_normal_damage():
    """A Bash Assault does no Resolve damage; its one Effect test fails, so nothing else happens."""
    t = table(weapons=[CLUB])
    t.brawl(Tahoma=4, Aiyana=3, Goblin=2)
    t.declare("gm", "Goblin", "recover")
    t.declare("ann", "Aiyana", "recover")
    t.declare("ben", "Tahoma", "assault", "Goblin")
    t.resolve("ben", [5, 2, 1, 4, 2, 3])  # 5 + 4 = 9: hit; Effect 2 + 3 = 5 vs Resist 6: fails
    hit = t.last("tote.attacked").data
    assert hit["how"] == "assault" and hit["damage"] == 0 and len(hit["effects"]) == 1
    assert not hit["knocked_down"] and t.sheet("Goblin").resolve == 6
    assert t.initiative("Tahoma") == 2


@pytest.mark.rule("TO-AS-1")
def test_TO_AS_1_a_slash_assault_does_base_damage_per_success():
    t = table()
    t.brawl(Tahoma=4, Aiyana=3, Goblin=2)
    t.declare("gm", "Goblin", "recover")
    t.declare("ann", "Aiyana", "recover")
    t.declare("ben", "Tahoma", "assault", "Goblin")
    t.resolve("ben", [6, 2, 1, 5])  # 6 + 5 = 11, a Bonus: 2 successes x Axe 3; no Effect dice
    hit = t.last("tote.attacked").data
    assert hit["damage"] == 6 and hit["effects"] == [] and t.sheet("Goblin").resolve == 0


@pytest.mark.rule("TO-AS-1")
def test_TO_AS_1_a_foe_that_has_not_acted_may_return_an_attack_as_its_action():
    t = table()
    t.brawl(Tahoma=4, Aiyana=3, Goblin=2)
    t.declare("gm", "Goblin", "attack", "Aiyana")
    t.declare("ann", "Aiyana", "recover")
    t.declare("ben", "Tahoma", "assault", "Goblin")
    t.resolve("ben", [1, 1, 1, 1])  # a miss: the Goblin may still return an attack
    (prompt,) = t.state.prompts
    assert prompt.to == t.pid("Goblin") and [c.key for c in prompt.choices] == ["return", "pass"]
    t.refused("ben", "tote.answer", error=Forbidden, prompt=prompt.id, choice="return")
    t.do("gm", "tote.answer", [5, 4, 1], prompt=prompt.id, choice="return")  # 9 vs Tahoma's Block 8
    back = t.last("tote.attacked").data
    assert back["kind"] == "return" and back["target"] == t.pid("Tahoma") and back["damage"] == 2
    assert t.sheet("Tahoma").resolve == 6
    goblin = next(d for d in t.fight.declarations if d.actor == t.pid("Goblin") and d.round == 1)
    assert goblin.state == "returned"
    assert t.initiative("Goblin") == 2  # no Initiative cost
    assert t.fight.round == 2  # the Goblin's declared Attack never resolved


@pytest.mark.rule("TO-AS-1")
def test_TO_AS_1_the_round_waits_for_the_answer(t: Table):
    t.brawl(Tahoma=4, Aiyana=3, Goblin=2)
    t.declare("gm", "Goblin", "attack", "Aiyana")
    t.declare("ann", "Aiyana", "attack", "Goblin")
    t.declare("ben", "Tahoma", "assault", "Goblin")
    t.resolve("ben", [1, 1, 1, 1])
    error = t.refused("ann", "tote.resolve", [1, 1, 1, 1], declaration=t.pending_for("Aiyana").id)
    assert "Waiting for Goblin" in error.message
    assert t.view("ann")["system"]["fight"]["waiting_for"] == t.pid("Goblin")
    assert [o.id for o in t.options("gm") if o.group == "answer"]


@pytest.mark.rule("TO-AS-1")
def test_TO_AS_1_a_foe_that_has_already_acted_cannot_return_an_attack(t: Table):
    t.brawl(Tahoma=2, Aiyana=3, Goblin=4)
    t.declare("ben", "Tahoma", "assault", "Goblin")
    t.declare("ann", "Aiyana", "recover")
    t.declare("gm", "Goblin", "recover")
    t.resolve("ben", [1, 1, 1, 1])
    assert t.state.prompts == () and t.fight.round == 2


# --- TO-AT-1 --------------------------------------------------------------------------------------


@pytest.mark.rule("TO-AT-1")
def test_TO_AT_1_attack_costs_one_and_tests_strike_against_block(t: Table):
    t.brawl(Tahoma=4, Aiyana=3, Goblin=2)
    t.declare("gm", "Goblin", "recover")
    t.declare("ann", "Aiyana", "recover")
    t.declare("ben", "Tahoma", "attack", "Goblin")
    t.resolve("ben", [5, 1, 1, 3])  # Strike: 5 + Paragon 3 = 8 vs Block 8
    hit = t.hit()
    assert hit["how"] == "hit" and hit["damage"] == 3 and hit["test"]["target"] is None
    assert hit["absorbed"] == 3 and t.initiative("Tahoma") == 3
    assert t.sheet("Goblin").resolve == 3 + 2  # then the Goblin's Recover


@pytest.mark.rule("TO-AT-1")
def test_TO_AT_1_a_miss_does_nothing_but_still_costs(t: Table):
    t.brawl(Tahoma=4, Aiyana=3, Goblin=2)
    t.declare("gm", "Goblin", "recover")
    t.declare("ann", "Aiyana", "recover")
    t.declare("ben", "Tahoma", "attack", "Goblin")
    t.resolve("ben", [4, 1, 1, 3])  # 7
    assert t.last("tote.attacked").data["how"] == "miss" and t.sheet("Goblin").resolve == 6
    assert t.initiative("Tahoma") == 3 and t.fight.engaged == ()


@pytest.mark.rule("TO-AT-1")
def test_TO_AT_1_attack_needs_a_melee_weapon_and_refuses_a_bow():
    t = table(weapons=[BOW])
    t.brawl(Tahoma=4, Aiyana=3, Goblin=2)
    t.declare("gm", "Goblin", "recover")
    t.declare("ann", "Aiyana", "recover")
    error = t.refused("ben", "tote.declare", participant="Tahoma", action="attack", target="Goblin", weapon=0)
    assert error.rule == "TO-H-1"
    t.declare("ben", "Tahoma", "attack", "Goblin")  # bare hands
    assert t.pending_for("Tahoma").weapon == -1


# --- TO-GR-1 --------------------------------------------------------------------------------------


@pytest.mark.rule("TO-GR-1")
def test_TO_GR_1_grapple_is_a_free_brawl_attack(t: Table):
    t.brawl(Tahoma=4, Aiyana=3, Goblin=2)
    t.declare("gm", "Goblin", "recover")
    t.declare("ann", "Aiyana", "recover")
    t.declare("ben", "Tahoma", "grapple", "Goblin")
    t.resolve("ben", [5, 1, 3])  # Brawl 2 dice: 5 + 3 = 8
    hit = t.last("tote.attacked").data
    assert hit["weapon"]["name"] == "Unarmed" and hit["damage"] == 1 and hit["engage"]
    assert t.initiative("Tahoma") == 4


@pytest.mark.rule("TO-GR-1")
def test_TO_GR_1_a_grapple_that_holds_engages_even_without_damage():
    net = {"name": "Net", "base": 0, "effect": 1, "critical": "bash", "brawl": True}
    t = table(weapons=[net])
    t.brawl(Tahoma=4, Aiyana=3, Goblin=2)
    t.declare("gm", "Goblin", "recover")
    t.declare("ann", "Aiyana", "recover")
    t.declare("ben", "Tahoma", "grapple", "Goblin")
    t.resolve("ben", [5, 1, 3])
    hit = t.last("tote.attacked").data
    assert hit["damage"] == 0 and hit["engage"] and t.fight.engaged


# --- TO-IM-1 --------------------------------------------------------------------------------------


@pytest.mark.rule("TO-IM-1")
def test_TO_IM_1_each_success_bonuses_included_takes_one_initiative(t: Table):
    t.brawl(Tahoma=4, Aiyana=5, Goblin=3)
    t.declare("gm", "Goblin", "recover")
    t.declare("ben", "Tahoma", "recover")
    t.declare("ann", "Aiyana", "intimidate", "Goblin")
    t.resolve("ann", [6, 1, 5])  # Impress 6 + 5 = 11 vs 7 + Rating 3: 2 successes
    done = t.last("tote.intimidated").data
    assert done["lost"] == 2 and done["test"]["target"] is None  # the Rating stays the GM's
    assert t.initiative("Goblin") == 1 and t.initiative("Aiyana") == 4


@pytest.mark.rule("TO-IM-1")
def test_TO_IM_1_a_failed_intimidation_changes_nothing(t: Table):
    t.brawl(Tahoma=4, Aiyana=5, Goblin=3)
    t.declare("gm", "Goblin", "recover")
    t.declare("ben", "Tahoma", "recover")
    t.declare("ann", "Aiyana", "intimidate", "Goblin")
    t.resolve("ann", [4, 1, 5])  # 9 vs 10
    assert t.last("tote.intimidated").data["lost"] == 0 and t.initiative("Goblin") == 3


@pytest.mark.rule("TO-IM-1")
def test_TO_IM_1_an_enemy_intimidates_against_seven_plus_the_heros_stag(t: Table):
    t.brawl(Tahoma=2, Aiyana=1, Goblin=5)
    t.declare("ann", "Aiyana", "recover")
    t.declare("ben", "Tahoma", "recover")
    t.declare("gm", "Goblin", "intimidate", "Tahoma")
    t.resolve("gm", [5, 4, 1])  # 9 vs 7 + Stag 2
    done = t.last("tote.intimidated").data
    assert done["test"]["target"] == 9 and done["lost"] == 1 and t.initiative("Tahoma") == 1


@pytest.mark.rule("TO-IM-1")
def test_TO_IM_1_the_options_show_the_odds_of_each_initiative_loss(t: Table):
    t.brawl(Tahoma=4, Aiyana=5, Goblin=3)
    t.declare("gm", "Goblin", "recover")
    t.declare("ben", "Tahoma", "recover")
    (option,) = [o for o in t.options("ann") if o.command.get("action") == "intimidate"]
    assert option.odds[0].label == "No effect"
    assert sum(b.chance for b in option.odds) == 1


# --- TO-SH-1 --------------------------------------------------------------------------------------


def engaged_goblin_and_tahoma(t: Table) -> None:
    t.brawl(Aiyana=4, Tahoma=3, Goblin=2)
    t.declare("gm", "Goblin", "attack", "Tahoma")
    t.declare("ben", "Tahoma", "recover")
    t.declare("ann", "Aiyana", "recover")
    t.resolve("gm", [5, 4, 1])
    assert t.fight.round == 2 and t.fight.engaged


@pytest.mark.rule("TO-SH-1")
def test_TO_SH_1_shoot_costs_two(t: Table):
    t.brawl(Tahoma=4, Aiyana=3, Goblin=2)
    t.declare("gm", "Goblin", "recover")
    t.declare("ann", "Aiyana", "recover")
    t.declare("ben", "Tahoma", "shoot", "Goblin")
    t.resolve("ben", [5, 1, 4])
    hit = t.last("tote.attacked").data
    assert hit["weapon"]["name"] == "Bow" and hit["damage"] == 2 and t.initiative("Tahoma") == 2


@pytest.mark.rule("TO-SH-1")
def test_TO_SH_1_an_engaged_character_cannot_shoot(t: Table):
    engaged_goblin_and_tahoma(t)
    t.declare("gm", "Goblin", "recover")
    error = t.refused("ben", "tote.declare", participant="Tahoma", action="shoot", target="Goblin")
    assert error.rule == "TO-SH-1" and "engaged" in error.message
    shoot = next(o for o in t.options("ben") if o.command.get("action") == "shoot")
    assert not shoot.enabled and "TO-SH-1" in shoot.reason


@pytest.mark.rule("TO-SH-1")
def test_TO_SH_1_shooting_at_an_engaged_foe_takes_two(t: Table):
    engaged_goblin_and_tahoma(t)
    t.declare("gm", "Goblin", "recover")
    t.declare("ben", "Tahoma", "attack", "Goblin")
    option = next(o for o in t.options("ann") if o.command.get("action") == "shoot")
    assert "-2, engaged target" in option.hint
    t.declare("ann", "Aiyana", "shoot", "Goblin")
    t.resolve("ann", [5, 1, 4])  # 9 - 2 = 7 vs 8
    shot = t.last("tote.attacked").data
    assert shot["test"]["modifier"] == -2 and shot["how"] == "miss"


@pytest.mark.rule("TO-SH-1")
def test_TO_SH_1_shoot_needs_a_ranged_weapon():
    t = table(weapons=[AXE])
    t.brawl(Tahoma=4, Aiyana=3, Goblin=2)
    t.declare("gm", "Goblin", "recover")
    t.declare("ann", "Aiyana", "recover")
    error = t.refused("ben", "tote.declare", participant="Tahoma", action="shoot", target="Goblin")
    assert error.rule == "TO-SH-1"


# --- TO-DF-1 --------------------------------------------------------------------------------------


@pytest.mark.rule("TO-DF-1")
def test_TO_DF_1_a_defender_who_is_attacked_may_answer_with_a_strike(t: Table):
    t.brawl(Tahoma=3, Aiyana=1, Goblin=4)
    t.declare("ann", "Aiyana", "recover")
    t.declare("ben", "Tahoma", "defend")
    t.declare("gm", "Goblin", "attack", "Tahoma")
    t.resolve("gm", [1, 1, 1])  # a miss still counts as an attack
    (prompt,) = t.state.prompts
    assert prompt.to == t.pid("Tahoma") and [c.key for c in prompt.choices] == ["strike", "grapple", "pass"]
    answer = next(o for o in t.options("ben") if o.id == f"answer-{prompt.id}-strike")
    assert answer.odds and answer.rolls
    t.do("ben", "tote.answer", [5, 1, 1, 4], prompt=prompt.id, choice="strike")
    back = t.last("tote.attacked").data
    assert back["kind"] == "response" and back["target"] == t.pid("Goblin") and back["damage"] == 3
    assert t.initiative("Tahoma") == 3  # no +2: Tahoma was attacked
    assert t.fight.round == 2


@pytest.mark.rule("TO-DF-1")
def test_TO_DF_1_a_defender_may_answer_with_a_grapple(t: Table):
    t.brawl(Tahoma=3, Aiyana=1, Goblin=4)
    t.declare("ann", "Aiyana", "recover")
    t.declare("ben", "Tahoma", "defend")
    t.declare("gm", "Goblin", "attack", "Tahoma")
    t.resolve("gm", [1, 1, 1])
    t.do("ben", "tote.answer", [5, 1, 3], prompt=t.state.prompts[0].id, choice="grapple")
    back = t.last("tote.attacked").data
    assert back["action"] == "grapple" and back["engage"]


@pytest.mark.rule("TO-DF-1")
def test_TO_DF_1_a_defender_left_alone_gains_two_initiative(t: Table):
    t.brawl(Tahoma=3, Aiyana=1, Goblin=4)
    t.declare("ann", "Aiyana", "defend")
    t.declare("ben", "Tahoma", "defend")
    t.declare("gm", "Goblin", "attack", "Tahoma")
    t.resolve("gm", [1, 1, 1])
    t.do("ben", "tote.answer", prompt=t.state.prompts[0].id, choice="pass")
    assert t.initiative("Aiyana") == 3 and t.initiative("Tahoma") == 3
    assert "Aiyana gains 2 Initiative" in t.game.describe(t.last("tote.round_ended"))


@pytest.mark.rule("TO-DF-1")
def test_TO_DF_1_one_answer_a_round_unless_the_setting_allows_every_attack():
    for setting, prompts in (("one", 0), ("every", 1)):
        t = Table(defend_responses=setting)
        t.hero("Tahoma", owner="ben")
        t.enemy("Goblin")
        t.enemy("Orc")
        t.brawl(Tahoma=1, Goblin=4, Orc=3)
        t.declare("ben", "Tahoma", "defend")
        t.declare("gm", "Orc", "attack", "Tahoma")
        t.declare("gm", "Goblin", "attack", "Tahoma")
        t.resolve("gm", [1, 1, 1])
        t.do("ben", "tote.answer", [1, 1, 1, 1], prompt=t.state.prompts[0].id, choice="strike")
        t.resolve("gm", [1, 1, 1])
        assert len(t.state.prompts) == prompts, setting


@pytest.mark.rule("TO-DF-1")
def test_TO_DF_1_being_shot_counts_as_attacked_but_cannot_be_answered():
    t = Table()
    t.hero("Tahoma", owner="ben")
    t.enemy("Goblin", weapons=[BOW])
    t.start(distance="close")
    t.do("gm", "tote.place", participant="Tahoma", band="melee")
    t.ready(Tahoma=3, Goblin=2)
    t.declare("gm", "Goblin", "shoot", "Tahoma")
    t.declare("ben", "Tahoma", "defend")
    t.resolve("gm", [5, 4, 1])
    assert t.last("tote.attacked").data["damage"] == 2
    assert t.state.prompts == () and t.fight.round == 2
    assert t.initiative("Tahoma") == 3


# --- TO-RC-1 --------------------------------------------------------------------------------------


@pytest.mark.rule("TO-RC-1")
def test_TO_RC_1_recover_regains_two_resolve_up_to_the_start(t: Table):
    t.do("gm", "tote.adjust", participant="Aiyana", resolve=5)
    t.do("gm", "tote.adjust", participant="Tahoma", resolve=7)
    t.brawl(Tahoma=3, Aiyana=2, Goblin=4)
    t.declare("ann", "Aiyana", "recover")
    t.declare("ben", "Tahoma", "recover")
    t.declare("gm", "Goblin", "recover")
    assert t.sheet("Aiyana").resolve == 7 and t.sheet("Tahoma").resolve == 8
    assert t.initiative("Aiyana") == 2
    error = t.refused("gm", "tote.adjust", participant="Tahoma", resolve=9)
    assert error.rule == "TO-RC-1"


@pytest.mark.rule("TO-RC-1")
def test_TO_RC_1_recover_makes_no_attack(t: Table):
    t.brawl(Tahoma=3, Aiyana=2, Goblin=4)
    t.declare("ann", "Aiyana", "recover")
    t.declare("ben", "Tahoma", "recover")
    t.declare("gm", "Goblin", "recover")
    assert not any(e.type == "tote.attacked" for e in t.events)
