"""Reaching a target and rolling the attack: TP-D-2, TP-D-4..7, TP-M-6, TP-M-7, TP-T-2..5."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from app.rules.triptycho.board import Border, grid_map
from app.rules.triptycho.cards import parse_dice, shift
from app.rules.triptycho.odds import hit_chance

from .conftest import BOW, DODGE, KNIFE, PARRY, SLASH, SPEAR, Table, card

ROW = grid_map("row", "Row", 5, 1)
BLAST = card("blast", area="all", hit="1d6", damage="1d4", hostile=True)
NOVA = card("nova", area="enemies", range=2, hit="1d6", damage="1d4", hostile=True)
SHIELD_BASH = card("bash", name="Shield Bash", exclude_self=True, area="all", hit="1d4", hostile=True)
BOLT = card("bolt", range=3, incantation=1, hit="1d6", damage="1d6", hostile=True)
AXE = card("axe", hit="1d6", damage="2d6", piercing=1, hostile=True, gear="weapon")
HEAL = card("heal", range=1, text="Heal an ally 1d6.")
PUNCH = card("punch", hit="1d4", damage="1d4")  # not Hostile: no Reaction


def scene(m=ROW, aria_at="c0r0", gob_at="c2r0", **gob) -> Table:
    t = Table()
    t.add(
        "Aria",
        "ann",
        cards=[SLASH, BOW, SPEAR, KNIFE, BLAST, NOVA, SHIELD_BASH, BOLT, AXE, HEAL, PUNCH, DODGE],
    )
    t.do("gm", "triptycho.setup", participant="Aria", uses_deck=False, cards=t_cards())
    t.add("Brick", "ben", cards=[SLASH, PARRY], uses_deck=False)
    t.add("Gob", None, kind="npc", cards=gob.pop("cards", [SLASH, BOW, DODGE]), **gob)
    t.board(m)
    t.place("Aria", aria_at)
    t.place("Gob", gob_at)
    return t


def t_cards():
    return [SLASH, BOW, SPEAR, KNIFE, BLAST, NOVA, SHIELD_BASH, BOLT, AXE, HEAL, PUNCH, DODGE]


def aria_acts(t: Table, card_id: str, faces=(), **fields):
    if t.ext.turn.entity != t.pid("Aria") or t.ext.turn.phase != "action":
        t.to_action("Aria")
    return t.do("ann", "triptycho.act", faces, participant="Aria", card=card_id, **fields)


def refused_act(t: Table, card_id: str, rule: str, **fields) -> str:
    if t.ext.turn.entity != t.pid("Aria") or t.ext.turn.phase != "action":
        t.to_action("Aria")
    return t.refused("ann", "triptycho.act", rule, participant="Aria", card=card_id, **fields)


# --- TP-D-2 ------------------------------------------------------------------------------------------


@pytest.mark.rule("TP-D-2")
def test_TP_D_2_range_must_cover_the_distance():
    """TP-D-2: Bow (Range 3) reaches 3 borders, not 4."""
    t = scene(gob_at="c4r0")
    assert refused_act(t, "bow", "TP-D-2", target="Gob") == "c4r0 is 4 away; Bow reaches 3."
    t.place("Gob", "c3r0")
    (_played, declared, _asked) = aria_acts(t, "bow", target="Gob")
    assert declared.data["attack"]["route"] == ["c0r0", "c1r0", "c2r0", "c3r0"]


@pytest.mark.rule("TP-D-2")
def test_TP_D_2_without_range_an_action_is_melee_and_reaches_only_its_own_section():
    """TP-D-2: Slash strikes only in Aria's section; Thrown 2 and Reach 1 cross borders."""
    t = scene(gob_at="c1r0")
    assert refused_act(t, "slash", "TP-D-2", target="Gob") == (
        "Slash has no Range, Thrown or Reach: it reaches only your own section."
    )
    aria_acts(t, "spear", target="Gob")  # Reach 1
    t2 = scene(gob_at="c2r0")
    aria_acts(t2, "knife", target="Gob")  # Thrown 2
    t3 = scene(gob_at="c0r0")
    aria_acts(t3, "slash", target="Gob")


@pytest.mark.rule("TP-D-2")
def test_TP_D_2_targets_offered_are_exactly_those_in_reach_with_exact_odds():
    """TP-D-2: the phone offers Bow at Gob (in range) with the exact chance of 1d8 beating 1d4."""
    t = scene(gob_at="c3r0")
    t.to_action("Aria")
    labels = {o["label"] for o in t.options("ann") if o["group"] == "action"}
    assert "Bow at Gob" in labels and "Slash at Gob" not in labels and "Knife at Gob" not in labels
    (bow,) = [o for o in t.options("ann") if o["label"] == "Bow at Gob"]
    expected = Fraction(sum(1 for h, m in product(range(1, 9), range(1, 5)) if h > m), 32)
    assert Fraction(bow["odds"][0]["exact"]) == expected == Fraction(11, 16)
    assert bow["hint"].startswith("Hit 1d8 vs Miss 1d4 · Damage 1d6 (avg 3.5 on a hit)")


# --- TP-D-3 (through the command) ----------------------------------------------------------------------


@pytest.mark.rule("TP-D-3")
def test_TP_D_3_a_chosen_route_must_be_straight_and_is_used_when_it_is():
    """TP-D-3: on a 3x3 field Aria may shoot along her chosen straight route; a bent one is refused."""
    t = scene(grid_map("f", "Field", 3, 3), aria_at="c0r0", gob_at="c2r1")
    aria_acts(t, "bow", target="Gob", route=["c0r0", "c1r0", "c1r1", "c2r1"])
    assert t.ext.attacks[0].route == ("c0r0", "c1r0", "c1r1", "c2r1")
    t2 = scene(grid_map("f", "Field", 3, 3), aria_at="c0r0", gob_at="c0r1")
    message = refused_act(t2, "bow", "TP-D-3", target="Gob", route=["c0r0", "c1r0", "c1r1", "c0r1"])
    assert message == "No straight line crosses those borders in that order: attacks do not curve."


# --- TP-D-4 -------------------------------------------------------------------------------------------


@pytest.mark.rule("TP-D-4")
def test_TP_D_4_no_range_action_with_an_enemy_in_your_section_but_thrown_and_reach_may():
    """TP-D-4: Gob beside Aria: her Bow is refused; her thrown Knife and Reach Spear are fine."""
    t = scene(gob_at="c0r0")
    t.place("Brick", "c2r0")
    assert refused_act(t, "bow", "TP-D-4", target="Gob") == (
        "A Range Action cannot be made while an enemy is in your section."
    )
    bow = next(o for o in t.options("ann") if o["id"].endswith("act-bow"))
    assert not bow["enabled"] and "TP-D-4" in bow["reason"]
    aria_acts(t, "knife", target="Gob")
    t2 = scene(gob_at="c0r0")
    aria_acts(t2, "spear", target="Gob")


@pytest.mark.rule("TP-D-4")
def test_TP_D_4_an_incantation_checks_for_enemies_only_when_it_begins():
    """TP-D-4: Aria begins incanting alone; Gob walks in; her Bolt still fires. Begun beside Gob, it
    cannot."""
    t = scene(gob_at="c3r0")
    t.to_action("Aria")
    t.do("ann", "triptycho.incant", participant="Aria")
    t.do("ann", "triptycho.discard", participant="Aria")
    t.place("Gob", "c0r0")
    t.start("Aria")
    assert t.ent("Aria").charges == 1
    events = t.do("ann", "triptycho.act", participant="Aria", card="bolt", target="Gob")
    assert events[0].data["free"] is True
    t2 = scene(gob_at="c0r0")
    t2.to_action("Aria")
    t2.do("ann", "triptycho.incant", participant="Aria")
    t2.do("ann", "triptycho.discard", participant="Aria")
    t2.start("Aria")
    assert t2.refused(
        "ann", "triptycho.act", "TP-D-4", participant="Aria", card="bolt", target="Gob"
    ).startswith("An enemy shared your section when you began incanting")


# --- TP-D-5 -------------------------------------------------------------------------------------------


@pytest.mark.rule("TP-D-5")
def test_TP_D_5_an_area_attack_without_range_strikes_its_own_section_attacker_included():
    """TP-D-5: Blast (no range) hits everyone in Aria's section, Aria too; Gob cannot react (no cards)."""
    t = scene(gob_at="c0r0", cards=[SLASH])
    t.place("Brick", "c0r0")
    events = aria_acts(t, "blast", section="c0r0")
    declared = next(e for e in events if e.type == "triptycho.attack_declared")
    assert declared.data["attack"]["targets"] == [t.pid("Aria"), t.pid("Brick"), t.pid("Gob")]
    # Each target answers in turn; Gob has no Reaction and is resolved at once after Brick.
    assert t.state.prompts[0].to == t.pid("Aria")
    t.do("ann", "triptycho.react", [2], prompt=t.state.prompts[0].id, choice="none")
    assert t.state.prompts[0].to == t.pid("Brick")
    events = t.do("ben", "triptycho.react", [1, 3], prompt=t.state.prompts[0].id, choice="none")
    assert [e.type for e in events] == [
        "triptycho.attack_resolved",
        "triptycho.damaged",
        "triptycho.attack_resolved",
        "triptycho.damaged",
        "triptycho.attack_finished",
    ]
    assert (t.ent("Aria").damage, t.ent("Brick").damage, t.ent("Gob").damage) == (2, 1, 3)
    assert refused_act(scene(), "blast", "TP-D-2", section="c1r0").endswith("reaches only your own section.")


@pytest.mark.rule("TP-D-5")
def test_TP_D_5_area_attacks_may_strike_only_enemies_or_leave_out_the_attacker():
    """TP-D-5: Nova (enemies only, Range 2) on Gob's section spares Brick; Shield Bash spares Aria."""
    t = scene(gob_at="c2r0")
    t.place("Brick", "c2r0")
    events = aria_acts(t, "nova", section="c2r0")
    declared = next(e for e in events if e.type == "triptycho.attack_declared")
    assert declared.data["attack"]["targets"] == [t.pid("Gob")]
    t2 = scene(gob_at="c0r0")
    t2.place("Brick", "c0r0")
    events = aria_acts(t2, "bash", section="c0r0")
    declared = next(e for e in events if e.type == "triptycho.attack_declared")
    assert t2.pid("Aria") not in declared.data["attack"]["targets"]


# --- TP-D-6 -------------------------------------------------------------------------------------------


def intercept_scene() -> Table:
    t = scene(aria_at="c2r0", gob_at="c0r0")
    t.place("Brick", "c1r0")
    t.start("Brick")
    t.do("ben", "triptycho.block", participant="Brick", toward="c0r0")
    t.to_action("Gob")
    t.do("gm", "triptycho.act", participant="Gob", card="bow", target="Aria")
    return t


@pytest.mark.rule("TP-D-6")
def test_TP_D_6_a_blocker_whose_border_the_shot_crosses_may_intercept_and_becomes_the_target():
    """TP-D-6: Gob shoots Aria across the border Brick blocks; Brick intercepts and must react instead."""
    t = intercept_scene()
    (prompt,) = t.state.prompts
    assert prompt.to == t.pid("Brick") and prompt.kind == "intercept"
    intercepted, asked = t.do("ben", "triptycho.intercept", prompt=prompt.id, choice="yes")
    assert intercepted.data["accepted"] and asked.type == "triptycho.reaction_asked"
    (react,) = t.state.prompts
    assert react.to == t.pid("Brick")
    events = t.do("ben", "triptycho.react", [8, 1, 6, 1], prompt=react.id, choice="parry")
    assert events[0].data["target"] == t.pid("Brick") and events[0].data["damage"] == 5


@pytest.mark.rule("TP-D-6")
def test_TP_D_6_a_blocker_may_let_the_shot_pass():
    """TP-D-6: Brick declines; Aria gets her Reaction prompt."""
    t = intercept_scene()
    t.do("ben", "triptycho.intercept", prompt=t.state.prompts[0].id, choice="no")
    (react,) = t.state.prompts
    assert react.to == t.pid("Aria") and react.kind == "reaction"
    assert [c.key for c in react.choices] == ["base", "dodge", "none"]


# --- TP-D-7 -------------------------------------------------------------------------------------------


@pytest.mark.rule("TP-D-7")
def test_TP_D_7_a_ranged_attack_through_a_border_blocked_at_a_distance_misses():
    """TP-D-7: a Web blocks c1|c2 from afar: Aria's Bow at Gob misses without a roll."""
    t = scene(gob_at="c3r0")
    t.do("gm", "triptycho.far_block", a="c1r0", b="c2r0", note="Web")
    events = aria_acts(t, "bow", target="Gob")
    assert [e.type for e in events] == ["triptycho.card_played", "triptycho.attack_missed"]
    assert t.ext.attacks == () and t.state.prompts == ()


# --- TP-M-6 / TP-M-7 through the command -------------------------------------------------------------


def heights(*rises):
    return grid_map(
        "h",
        "H",
        3,
        1,
        borders=tuple(Border(a=f"c{i}r0", b=f"c{i + 1}r0", height=h) for i, h in enumerate(rises)),
    )


@pytest.mark.rule("TP-M-6")
def test_TP_M_6_melee_cannot_cross_a_height_border_but_reach_can():
    """TP-M-6: Gob is one up in the next section: Slash cannot; the Spear (Reach 1) can."""
    t = scene(heights(1, 0), gob_at="c1r0")
    assert refused_act(t, "slash", "TP-M-6", target="Gob") == (
        "A melee Action cannot cross a height border without Reach."
    )
    aria_acts(t, "spear", target="Gob")


@pytest.mark.rule("TP-M-7")
@pytest.mark.parametrize(
    ("rises", "reach", "ok", "says"),
    [
        ((1, 2), 2, False, "c2r0 is 3 up: Bow needs range 3 and reaches 2."),
        ((1, 2), 3, True, None),
        ((-6, 6), 2, True, None),
        ((1, -2), 6, False, "Higher ground between you and c2r0 blocks the line."),
        ((-2, -1), 2, False, "c2r0 is 3 down: Bow needs range 3 and reaches 2."),
        ((-2, -1), 3, True, None),
    ],
)
def test_TP_M_7_the_seeds_examples_as_attacks(rises, reach, ok, says):
    """TP-M-7: the four worked examples, played as Bow shots with the range given."""
    t = scene(heights(*rises), gob_at="c2r0")
    bow = {**BOW, "range": reach}
    t.do("gm", "triptycho.setup", participant="Aria", uses_deck=False, cards=[bow])
    if ok:
        aria_acts(t, "bow", target="Gob")
        assert t.ext.attacks[0].route == ("c0r0", "c1r0", "c2r0")
    else:
        assert refused_act(t, "bow", "TP-M-7", target="Gob") == says


# --- TP-T-2 -------------------------------------------------------------------------------------------


@pytest.mark.rule("TP-T-2")
def test_TP_T_2_a_hostile_action_lets_the_target_react_and_no_reaction_is_an_automatic_hit():
    """TP-T-2: Gob may Dodge; choosing no Reaction means hit, with only the Damage rolled."""
    t = scene(gob_at="c0r0")
    aria_acts(t, "slash", target="Gob")
    (prompt,) = t.state.prompts
    assert prompt.to == t.pid("Gob") and [c.key for c in prompt.choices] == ["dodge", "none"]
    resolved, damaged, _finished = t.do("gm", "triptycho.react", [4], prompt=prompt.id, choice="none")
    assert resolved.data["hit"] and resolved.data["why"] == "no Reaction was played (TP-T-2)"
    assert damaged.data["amount"] == 4 and t.state.prompts == () and t.ext.attacks == ()


@pytest.mark.rule("TP-T-2")
def test_TP_T_2_a_target_that_cannot_react_is_hit_at_once():
    """TP-T-2: a Defenseless Gob, and a Gob with no Reaction cards, are hit without a prompt."""
    t = scene(gob_at="c0r0")
    t.do("gm", "triptycho.condition", participant="Gob", condition="defenseless")
    events = aria_acts(t, "slash", [5], target="Gob")
    assert [e.type for e in events][-3:] == [
        "triptycho.attack_resolved",
        "triptycho.damaged",
        "triptycho.attack_finished",
    ]
    t2 = scene(gob_at="c0r0", cards=[SLASH])
    events = aria_acts(t2, "slash", [2], target="Gob")
    assert events[-2].data["amount"] == 2


@pytest.mark.rule("TP-T-2")
def test_TP_T_2_an_action_that_is_not_hostile_gives_no_reaction():
    """TP-T-2: Punch has no Hostile entry: it lands without a Reaction prompt."""
    t = scene(gob_at="c0r0")
    events = aria_acts(t, "punch", [3], target="Gob")
    assert t.state.prompts == () and events[-2].data["amount"] == 3


# --- TP-T-3 -------------------------------------------------------------------------------------------


@pytest.mark.rule("TP-T-3")
def test_TP_T_3_dice_levels_run_d2_to_d12_and_a_die_below_d2_is_removed():
    """TP-T-3: one level down turns d4 into d2, d2 into nothing; up stops at d12."""
    assert shift(parse_dice("1d12+1d4+1d2"), -1) == (10, 2)
    assert shift(parse_dice("2d6"), -2) == (2, 2)
    assert shift(parse_dice("1d10"), 3) == (12,)
    with pytest.raises(ValueError, match="not a Triptycho die"):
        parse_dice("1d20")


@pytest.mark.rule("TP-T-3")
def test_TP_T_3_a_side_whose_dice_are_all_removed_fails_automatically():
    """TP-T-3: Hit 1d2 lowered away never hits; Miss lowered away is always hit."""
    assert hit_chance((), (4,)) == 0
    assert hit_chance((6,), ()) == 1
    t = scene(gob_at="c0r0")
    t.do("gm", "triptycho.setup", participant="Aria", uses_deck=False, cards=[{**SLASH, "hit": "1d2"}])
    t.do("gm", "triptycho.condition", participant="Aria", condition="debilitated")
    aria_acts(t, "slash", target="Gob")
    (resolved, _finished) = t.do("gm", "triptycho.react", prompt=t.state.prompts[0].id, choice="dodge")
    assert not resolved.data["hit"] and resolved.data["why"] == "every Hit die was lowered away (TP-T-3)"


@pytest.mark.rule("TP-T-3")
def test_TP_T_3_piercing_lowers_the_defenders_defense_dice():
    """TP-T-3: Axe (Piercing 1) against Brick's Parry (Defense 1d4): Defense becomes 1d2."""
    t = scene(gob_at="c3r0")
    t.place("Brick", "c0r0")
    t.to_action("Aria")
    t.do("gm", "triptycho.setup", participant="Gob", cards=[SLASH])
    t.to_action("Aria")
    # Aria attacks her friend for the test's sake: sides do not matter to the dice.
    t.do("ann", "triptycho.act", participant="Aria", card="axe", target="Brick")
    events = t.do("ben", "triptycho.react", [6, 1, 6, 6, 2], prompt=t.state.prompts[0].id, choice="parry")
    assert events[0].data["dice"] == {"hit": "1d6", "miss": "1d6", "damage": "2d6", "defense": "1d2"}
    assert events[0].data["damage"] == 10


# --- TP-T-4 -------------------------------------------------------------------------------------------


@pytest.mark.rule("TP-T-4")
@pytest.mark.parametrize(
    ("faces", "hit", "damage"),
    [([5, 3, 4, 1], True, 3), ([4, 4], False, 0), ([2, 5], False, 0), ([6, 1, 2, 4], True, 0)],
)
def test_TP_T_4_hit_beats_miss_ties_miss_and_damage_less_defense_is_at_least_0(faces, hit, damage):
    """TP-T-4: Hit 1d6 vs Parry's Miss 1d6; on a hit Damage 1d6 minus Defense 1d4, never below 0."""
    t = scene(gob_at="c3r0")
    t.place("Brick", "c0r0")
    t.do("gm", "triptycho.setup", participant="Aria", uses_deck=False, cards=[{**SLASH, "hit": "1d6"}])
    aria_acts(t, "slash", target="Brick")
    events = t.do("ben", "triptycho.react", faces, prompt=t.state.prompts[0].id, choice="parry")
    assert (events[0].data["hit"], events[0].data["damage"]) == (hit, damage)
    assert t.ent("Brick").damage == damage


@pytest.mark.rule("TP-T-4")
def test_TP_T_4_every_pc_has_a_base_reaction_with_miss_1d4():
    """TP-T-4: Brick holds no Reaction cards but can still answer with the base Reaction (Miss 1d4)."""
    t = scene(aria_at="c3r0", gob_at="c0r0")
    t.place("Brick", "c0r0")
    t.do("gm", "triptycho.setup", participant="Brick", uses_deck=False, cards=[SLASH])
    t.to_action("Gob")
    t.do("gm", "triptycho.act", participant="Gob", card="slash", target="Brick")
    (prompt,) = t.state.prompts
    assert [(c.key, c.label) for c in prompt.choices] == [
        ("base", "Base Reaction (Miss 1d4)"),
        ("none", "No Reaction"),
    ]
    expected = Fraction(sum(1 for h, m in product(range(1, 9), range(1, 5)) if h > m), 32)
    assert prompt.choices[0].hint == f"hit chance {float(expected) * 100:.1f}%"
    events = t.do("ben", "triptycho.react", [3, 3], prompt=prompt.id, choice="base")
    assert events[0].data["hit"] is False and events[0].data["why"] == "Hit 3 against Miss 3 (ties miss)"


# --- TP-T-5 -------------------------------------------------------------------------------------------


@pytest.mark.rule("TP-T-5")
@pytest.mark.parametrize(
    ("attacker", "target", "dice"),
    [
        ("debilitated", None, {"hit": "1d6", "miss": "1d6", "damage": "1d4", "defense": "1d4"}),
        (None, "vulnerable", {"hit": "1d8", "miss": "1d4", "damage": "1d6", "defense": "1d2"}),
        ("hindered", "hindered", {"hit": "1d6", "miss": "1d4", "damage": "1d6", "defense": "1d4"}),
        ("vulnerable", "debilitated", {"hit": "1d8", "miss": "1d6", "damage": "1d6", "defense": "1d4"}),
    ],
)
def test_TP_T_5_conditions_lower_dice_levels(attacker, target, dice):
    """TP-T-5: Debilitated lowers Hit and Damage; Vulnerable Miss and Defense; Hindered Hit and Miss; each
    only on its own side of the attack."""
    t = scene(gob_at="c3r0")
    t.place("Brick", "c0r0")
    t.do("gm", "triptycho.setup", participant="Aria", uses_deck=False, cards=[SLASH])
    if attacker:
        t.do("gm", "triptycho.condition", participant="Aria", condition=attacker)
    if target:
        t.do("gm", "triptycho.condition", participant="Brick", condition=target)
    aria_acts(t, "slash", target="Brick")
    events = t.do("ben", "triptycho.react", "ones", prompt=t.state.prompts[0].id, choice="parry")
    assert events[0].data["dice"] == dice


@pytest.mark.rule("TP-T-5")
def test_TP_T_5_the_gm_can_change_what_a_condition_does_in_the_settings():
    """TP-T-5 (ruling): with Debilitated set to lower Hit by 2, Slash's d8 becomes a d4."""
    t = scene(gob_at="c0r0")
    t.do("gm", "campaign.settings", settings={"condition_levels": {"debilitated": {"hit": -2}}})
    t.do("gm", "triptycho.condition", participant="Aria", condition="debilitated")
    t.do("gm", "triptycho.condition", participant="Gob", condition="vulnerable")
    aria_acts(t, "slash", target="Gob")
    events = t.do("gm", "triptycho.react", "ones", prompt=t.state.prompts[0].id, choice="dodge")
    assert events[0].data["dice"]["hit"] == "1d4" and events[0].data["dice"]["damage"] == "1d6"
    assert events[0].data["dice"]["miss"] == "1d6"  # Vulnerable keeps the catalogue's level


@pytest.mark.rule("TP-T-5")
def test_TP_T_5_defenseless_allows_no_reaction():
    """TP-T-5: a Defenseless Brick gets no Reaction prompt."""
    t = scene(aria_at="c3r0", gob_at="c0r0")
    t.place("Brick", "c0r0")
    t.do("gm", "triptycho.condition", participant="Brick", condition="defenseless")
    t.to_action("Gob")
    events = t.do("gm", "triptycho.act", [1], participant="Gob", card="slash", target="Brick")
    assert t.state.prompts == () and events[-2].type == "triptycho.damaged"


@pytest.mark.rule("TP-D-2")
def test_TP_D_2_an_attack_card_with_no_target_in_reach_is_shown_disabled_with_the_reason():
    """TP-D-2: Slash with nobody in Aria's section is offered greyed out, saying why."""
    t = scene(gob_at="c4r0")
    t.to_action("Aria")
    (slash,) = [o for o in t.options("ann") if o["id"].endswith("act-slash")]
    assert not slash["enabled"] and slash["reason"] == "No target you can see is in reach (TP-D-2)."
