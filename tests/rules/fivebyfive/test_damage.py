"""FX-H-1..3 (taking a hit, damaged rolls, unconsciousness and death), FX-C-1 (Double Hit),
FX-C-2 (Blocked the Hit), FX-K-1 (Instant KO) and FX-V-1 (Victory Rush)."""

from __future__ import annotations

import pytest

from app.rules.errors import Forbidden, InputError
from tests.rules.fivebyfive.harness import ARIA, GOBLIN, Table, d5


def goblin_hits_aria(t: Table, attack=(1, 2), control=(5, 5)) -> None:
    """The Goblin (Strike 2 x Rage 2: 4) Strikes Aria (Parry 2 x Rage 3: 6)."""
    t.round(Aria=1, Brick=2, Goblin=3)
    t.do("gm", "fivebyfive.strike", d5(*attack), target="Aria")
    t.do("ann", "fivebyfive.control", d5(*control), prompt=t.prompt("control").id)


def aria_hits_goblin(t: Table, attack=(1, 2), control=(5, 5)) -> None:
    """Aria (Strike 2 x Rage 3: 6) Strikes the Goblin (Parry 1 x Rage 2: 2)."""
    t.round(Aria=3, Brick=1, Goblin=2)
    t.do("ann", "fivebyfive.strike", d5(*attack), target="Goblin")
    t.do("gm", "fivebyfive.control", d5(*control), prompt=t.prompt("control").id)


# --- FX-H-1 ------------------------------------------------------------------------------------------


@pytest.mark.rule("FX-H-1")
def test_FX_H_1_an_uncontrolled_hit_lets_the_attacker_choose(t: Table):
    goblin_hits_aria(t, control=(5, 5))
    prompt = t.prompt("damage")
    assert prompt.to == t.pid("Goblin")
    assert prompt.text == "Aria did not Control the Hit: choose which of Aria's Abilities drops by 1."
    assert [(c.key, c.hint) for c in prompt.choices] == [
        ("rage", "3 → 2"),
        ("grace", "2 → 1"),
        ("precognition", "2 → 1"),
    ]
    t.refused("ann", "fivebyfive.damage", Forbidden, prompt=prompt.id, choice="grace")
    (damaged, *_) = t.do("gm", "fivebyfive.damage", prompt=prompt.id, choice="precognition")
    assert damaged.data | {"from": 2, "to": 1, "controlled": False} == damaged.data
    assert t.current("Aria") == {"rage": 3, "grace": 2, "precognition": 1}
    assert t.game.describe(damaged) == "Aria's Precognition 2 → 1."
    assert t.turn == "Brick"


@pytest.mark.rule("FX-H-1")
def test_FX_H_1_a_controlled_hit_lets_the_defender_choose(t: Table):
    goblin_hits_aria(t, control=(2, 3))  # 6: Controlled
    prompt = t.prompt("damage")
    assert prompt.to == t.pid("Aria")
    assert prompt.text == "Aria Controlled the Hit: choose which of your Abilities drops by 1."
    options = t.options("ann")
    assert {o.command["choice"] for o in options.values() if o.command.get("prompt") == prompt.id} == {
        "rage",
        "grace",
        "precognition",
    }
    t.refused("gm", "fivebyfive.damage", faces=(), prompt="nope", choice="rage")
    (damaged, *_) = t.do("ann", "fivebyfive.damage", prompt=prompt.id, choice="rage")
    assert damaged.data["controlled"] is True
    assert t.current("Aria")["rage"] == 2


@pytest.mark.rule("FX-H-1")
def test_FX_H_1_the_pc_attacker_picks_an_npcs_ability_without_seeing_its_values(t: Table):
    aria_hits_goblin(t)
    prompt = t.prompt("damage")
    assert prompt.to == t.pid("Aria")
    assert [c.hint for c in prompt.choices] == ["", "", ""]
    events = t.do("ann", "fivebyfive.damage", prompt=prompt.id, choice="grace")
    (damaged, note) = events[:2]
    assert "from" not in damaged.data and damaged.audience == "all"
    assert (note.type, note.audience, note.data["text"]) == (
        "fivebyfive.gm_note",
        "gm",
        "Goblin's Grace: 3 → 2.",
    )
    assert t.current("Goblin")["grace"] == 2


# --- FX-H-2 ------------------------------------------------------------------------------------------


@pytest.mark.rule("FX-H-2")
def test_FX_H_2_rolls_use_the_current_damaged_abilities(t: Table):
    goblin_hits_aria(t)
    t.do("gm", "fivebyfive.damage", prompt=t.prompt("damage").id, choice="rage")  # Rage 3 -> 2
    t.do("ben", "fivebyfive.end_turn")
    assert t.turn == "Aria"
    option = t.options("ann")[f"strike-{t.pid('Goblin')}"]
    assert option.hint.startswith("Strike 2 x Rage 2: 4 or less")
    (attacked, *_) = t.do("ann", "fivebyfive.strike", d5(1, 5), target="Goblin")
    assert (attacked.data["needed"], attacked.data["result"]) == (4, "miss")


# --- FX-H-3 ------------------------------------------------------------------------------------------


@pytest.mark.rule("FX-H-3")
def test_FX_H_3_an_ability_at_0_is_unconscious_and_the_character_is_skipped():
    t = Table().cast(aria=ARIA | {"grace": 1}).start()
    goblin_hits_aria(t)
    (damaged, *_rest) = t.do("gm", "fivebyfive.damage", prompt=t.prompt("damage").id, choice="grace")
    assert damaged.data["status"] == "unconscious"
    assert t.game.describe(damaged) == "Aria's Grace 1 → 0. Aria is Unconscious!"
    assert t.char("Aria").status == "unconscious"
    t.do("ben", "fivebyfive.end_turn")
    # Next round Aria rolls no Initiative; she could not act.
    t.do("gm", "fivebyfive.roll_initiative", d5(4, 2))
    assert [e.participant for e in t.five.fight.order] == [t.pid("Brick"), t.pid("Goblin")]


@pytest.mark.rule("FX-H-3")
def test_FX_H_3_an_unconscious_character_is_skipped_in_the_current_round():
    t = Table().cast(goblin=GOBLIN | {"rage": 1}).start()
    t.round(Aria=3, Brick=1, Goblin=2)
    t.do("ann", "fivebyfive.strike", d5(1, 2), target="Goblin")
    t.do("gm", "fivebyfive.control", d5(5, 5), prompt=t.prompt("control").id)
    events = t.do("ann", "fivebyfive.damage", prompt=t.prompt("damage").id, choice="rage")
    assert events[0].data["status"] == "unconscious"
    assert t.types(events)[-1] == "fivebyfive.combat_won"  # the only NPC is down


@pytest.mark.rule("FX-H-3")
def test_FX_H_3_an_ability_below_0_is_death():
    t = Table().cast(aria=ARIA | {"grace": 1}).start()
    goblin_hits_aria(t)
    t.do("gm", "fivebyfive.damage", prompt=t.prompt("damage").id, choice="grace")  # 1 -> 0: unconscious
    assert t.char("Aria").status == "unconscious"
    t.do("gm", "campaign.encounter.end")
    # In a later fight, with fallen characters as targets, a hit on her 0 Grace kills her.
    t.do("gm", "campaign.settings", settings={"fallen_can_be_targeted": True})
    t.start(name="Alley")
    t.do("gm", "fivebyfive.roll_initiative", d5(2, 3))
    assert t.turn == "Goblin"
    events = t.do("gm", "fivebyfive.strike", d5(1, 2), target="Aria")
    # Unconscious: she cannot Control the Hit, so the attacker chooses at once.
    controls = [e for e in events if e.type == "fivebyfive.hit_controlled"]
    assert [e.data["result"] for e in controls] == ["uncontrolled"]
    assert t.game.describe(controls[0]) == "Aria is unconscious and cannot Control the Hit."
    (damaged, *_) = t.do("gm", "fivebyfive.damage", prompt=t.prompt("damage").id, choice="grace")
    assert damaged.data["status"] == "dead"
    assert t.current("Aria")["grace"] == -1
    assert t.char("Aria").status == "dead"


@pytest.mark.rule("FX-H-3")
def test_FX_H_3_two_abilities_at_0_at_once_is_death():
    t = Table().cast(aria=ARIA | {"grace": 1, "precognition": 1}).start()
    t.do("gm", "campaign.settings", settings={"fallen_can_be_targeted": True})
    goblin_hits_aria(t)
    t.do("gm", "fivebyfive.damage", prompt=t.prompt("damage").id, choice="grace")
    assert t.char("Aria").status == "unconscious"
    t.do("ben", "fivebyfive.end_turn")
    t.do("gm", "fivebyfive.roll_initiative", d5(1, 3))
    t.do("gm", "fivebyfive.strike", d5(1, 2), target="Aria")
    (damaged, *_) = t.do("gm", "fivebyfive.damage", prompt=t.prompt("damage").id, choice="precognition")
    assert damaged.data["status"] == "dead"
    assert t.game.describe(damaged) == "Aria's Precognition 1 → 0. Aria is Dead!"


@pytest.mark.rule("FX-H-3")
def test_FX_H_3_the_fallen_are_not_targets_by_default_and_a_sheet_sets_status():
    t = Table().cast().start()
    t.do(
        "gm",
        "fivebyfive.setup",
        participant="Brick",
        **{"rage": 2, "grace": 3, "precognition": 3},
        current={"rage": 0, "grace": 3, "precognition": 3},
    )
    assert t.char("Brick").status == "unconscious"
    t.do("gm", "fivebyfive.place", participant="Brick", x=6.5, y=5)
    t.round(Aria=1, Goblin=3)
    error = t.refused("gm", "fivebyfive.strike", faces=d5(1, 1), target="Brick")
    assert str(error) == "Brick is unconscious and out of the fight. (FX-H-3)"
    assert f"strike-{t.pid('Brick')}" not in t.options("gm")


# --- FX-C-1 ------------------------------------------------------------------------------------------


@pytest.mark.rule("FX-C-1")
def test_FX_C_1_a_double_hit_means_two_control_rolls_each_resolved(t: Table):
    t.round(Aria=1, Brick=2, Goblin=3)
    (attacked, note) = t.do("gm", "fivebyfive.strike", d5(2, 2), target="Aria")  # 4, doubles
    assert (note.audience, note.data["text"]) == ("gm", "Goblin's Strike: Strike 2 x Rage 2: 4 or less.")
    assert (attacked.data["result"], attacked.data["hits"]) == ("double_hit", 2)
    prompt = t.prompt("control")
    assert prompt.choices[0].label == "Roll Parry twice"
    # A Double Hit takes both rolls' faces.
    t.refused(
        "ann",
        "fivebyfive.control",
        faces=d5(2, 3),
        prompt=prompt.id,
        error=InputError,
    )
    events = t.do("ann", "fivebyfive.control", d5(2, 3, 5, 5), prompt=prompt.id)
    controls = [e.data for e in events if e.type == "fivebyfive.hit_controlled"]
    assert [(c["hit"], c["of"], c["result"]) for c in controls] == [
        (1, 2, "controlled"),
        (2, 2, "uncontrolled"),
    ]
    first = t.prompt("damage")
    assert (first.to, first.data["hit"]) == (t.pid("Aria"), 1)
    t.do("ann", "fivebyfive.damage", prompt=first.id, choice="grace")
    second = t.prompt("damage")
    assert (second.to, second.data["hit"]) == (t.pid("Goblin"), 2)
    assert "(hit 2 of 2)" in second.text
    t.do("gm", "fivebyfive.damage", prompt=second.id, choice="precognition")
    assert t.current("Aria") == {"rage": 3, "grace": 1, "precognition": 1}
    assert t.turn == "Brick"


# --- FX-C-2 ------------------------------------------------------------------------------------------


@pytest.mark.rule("FX-C-2")
def test_FX_C_2_a_defensive_critical_blocks_the_hit(t: Table):
    goblin_hits_aria(t, control=(2, 2))  # 4 of 6, doubles
    assert t.state.prompts == ()
    blocked = [e for e in t.events if e.type == "fivebyfive.hit_controlled"][-1]
    assert blocked.data["result"] == "blocked"
    assert (
        t.game.describe(blocked)
        == "Aria rolls Parry: 2 x 2 = 4 (needs 6 or less), Blocked the Hit! No damage."
    )
    assert t.current("Aria") == {"rage": 3, "grace": 2, "precognition": 2}
    assert t.turn == "Brick"


@pytest.mark.rule("FX-C-2")
def test_FX_C_2_doubles_on_a_failed_defence_block_nothing(t: Table):
    goblin_hits_aria(t, control=(3, 3))  # 9 > 6
    assert t.prompt("damage").to == t.pid("Goblin")


@pytest.mark.rule("FX-C-2")
def test_FX_C_2_one_hit_of_a_double_blocked_the_other_taken(t: Table):
    t.round(Aria=1, Brick=2, Goblin=3)
    t.do("gm", "fivebyfive.strike", d5(1, 1), target="Aria")
    t.do("ann", "fivebyfive.control", d5(6, 6, 2, 4), prompt=t.prompt("control").id)  # 0,0 blocks; 8 fails
    prompt = t.prompt("damage")
    assert (prompt.to, prompt.data["hit"]) == (t.pid("Goblin"), 2)
    t.do("gm", "fivebyfive.damage", prompt=prompt.id, choice="rage")
    assert t.current("Aria")["rage"] == 2
    assert t.char("Aria").status == "ok"  # one hit only: no Instant KO


# --- FX-K-1 ------------------------------------------------------------------------------------------


@pytest.mark.rule("FX-K-1")
def test_FX_K_1_two_hits_on_one_ability_knock_out_even_above_0(t: Table):
    t.round(Aria=1, Brick=2, Goblin=3)
    t.do("gm", "fivebyfive.strike", d5(1, 1), target="Aria")
    t.do("ann", "fivebyfive.control", d5(5, 5, 5, 4), prompt=t.prompt("control").id)
    t.do("gm", "fivebyfive.damage", prompt=t.prompt("damage").id, choice="rage")
    events = t.do("gm", "fivebyfive.damage", prompt=t.prompt("damage").id, choice="rage")
    assert t.types(events)[:2] == ["fivebyfive.damaged", "fivebyfive.knocked_out"]
    assert t.current("Aria") == {"rage": 1, "grace": 2, "precognition": 2}
    assert t.char("Aria").status == "unconscious"
    assert t.game.describe(events[1]) == "Instant KO! Both hits struck Aria's Rage: Aria is Unconscious."


@pytest.mark.rule("FX-K-1")
def test_FX_K_1_counts_hits_whoever_chose(t: Table):
    t.round(Aria=1, Brick=2, Goblin=3)
    t.do("gm", "fivebyfive.strike", d5(1, 1), target="Aria")
    t.do("ann", "fivebyfive.control", d5(1, 2, 5, 5), prompt=t.prompt("control").id)
    t.do("ann", "fivebyfive.damage", prompt=t.prompt("damage").id, choice="rage")
    events = t.do("gm", "fivebyfive.damage", prompt=t.prompt("damage").id, choice="rage")
    assert "fivebyfive.knocked_out" in t.types(events)


@pytest.mark.rule("FX-K-1")
def test_FX_K_1_two_hits_on_different_abilities_are_no_ko(t: Table):
    t.round(Aria=1, Brick=2, Goblin=3)
    t.do("gm", "fivebyfive.strike", d5(1, 1), target="Aria")
    t.do("ann", "fivebyfive.control", d5(5, 5, 5, 5), prompt=t.prompt("control").id)
    t.do("gm", "fivebyfive.damage", prompt=t.prompt("damage").id, choice="rage")
    events = t.do("gm", "fivebyfive.damage", prompt=t.prompt("damage").id, choice="grace")
    assert "fivebyfive.knocked_out" not in t.types(events)
    assert t.char("Aria").status == "ok"


@pytest.mark.rule("FX-K-1")
def test_FX_K_1_a_death_on_the_first_hit_voids_the_second():
    t = Table().cast(aria=ARIA | {"grace": 1}).start()
    t.do(
        "gm",
        "fivebyfive.setup",
        participant="Aria",
        **ARIA | {"grace": 1},
        current={"rage": 3, "grace": 1, "precognition": 2},
    )
    t.round(Aria=1, Brick=2, Goblin=3)
    t.do("gm", "fivebyfive.strike", d5(1, 1), target="Aria")
    t.do("ann", "fivebyfive.control", d5(5, 5, 5, 5), prompt=t.prompt("control").id)
    t.do("gm", "fivebyfive.damage", prompt=t.prompt("damage").id, choice="grace")  # 0: unconscious
    events = t.do("gm", "fivebyfive.damage", prompt=t.prompt("damage").id, choice="grace")  # -1: dead
    assert events[0].data["status"] == "dead"
    assert "fivebyfive.knocked_out" not in t.types(events)
    assert t.current("Aria")["grace"] == -1


# --- FX-V-1 ------------------------------------------------------------------------------------------


def win_with_damage(t: Table, aria_current: dict, brick_current: dict | None = None) -> list:
    t.do("gm", "fivebyfive.setup", participant="Aria", **ARIA, current=aria_current)
    if brick_current:
        brick = {"rage": 2, "grace": 3, "precognition": 3, "strike": 1, "aim": 2, "focus": 2}
        t.do("gm", "fivebyfive.setup", participant="Brick", **brick, current=brick_current)
    t.do(
        "gm",
        "fivebyfive.setup",
        participant="Goblin",
        **GOBLIN,
        current={"rage": 2, "grace": 1, "precognition": 1},
    )
    t.round(Aria=3, Brick=1, Goblin=2)
    t.do("ann", "fivebyfive.strike", d5(1, 2), target="Goblin")
    t.do("gm", "fivebyfive.control", d5(5, 5), prompt=t.prompt("control").id)
    return t.do("ann", "fivebyfive.damage", prompt=t.prompt("damage").id, choice="grace")


@pytest.mark.rule("FX-V-1")
def test_FX_V_1_a_winner_with_one_damaged_ability_regains_it_at_once(t: Table):
    events = win_with_damage(t, {"rage": 2, "grace": 2, "precognition": 2})
    assert t.types(events)[-2:] == ["fivebyfive.combat_won", "fivebyfive.rushed"]
    assert events[-1].data | {"ability": "rage", "from": 2, "to": 3} == events[-1].data
    assert t.current("Aria") == {"rage": 3, "grace": 2, "precognition": 2}
    assert t.game.describe(events[-1]) == "Victory Rush: Aria's Rage 2 → 3."


@pytest.mark.rule("FX-V-1")
def test_FX_V_1_with_several_damaged_abilities_the_winner_chooses(t: Table):
    win_with_damage(t, {"rage": 2, "grace": 1, "precognition": 2})
    prompt = t.prompt("victory_rush")
    assert prompt.to == t.pid("Aria")
    assert [(c.key, c.hint) for c in prompt.choices] == [("rage", "2 → 3 (of 3)"), ("grace", "1 → 2 (of 2)")]
    error = t.refused("ann", "fivebyfive.victory_rush", prompt=prompt.id, choice="precognition")
    assert str(error) == "Aria's Precognition is not Damaged: choose a Damaged Ability. (FX-V-1)"
    t.refused("ben", "fivebyfive.victory_rush", Forbidden, prompt=prompt.id, choice="grace")
    t.do("ann", "fivebyfive.victory_rush", prompt=prompt.id, choice="grace")
    assert t.current("Aria") == {"rage": 2, "grace": 2, "precognition": 2}
    assert t.state.prompts == ()


@pytest.mark.rule("FX-V-1")
def test_FX_V_1_no_rush_for_the_unconscious_the_undamaged_or_the_losers(t: Table):
    events = win_with_damage(
        t,
        {"rage": 3, "grace": 2, "precognition": 2},
        brick_current={"rage": 0, "grace": 3, "precognition": 3},
    )
    assert t.types(events)[-1] == "fivebyfive.combat_won"
    assert t.current("Brick")["rage"] == 0
    assert t.current("Goblin")["grace"] == 0
    assert t.state.prompts == ()
