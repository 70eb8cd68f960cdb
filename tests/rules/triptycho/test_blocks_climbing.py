"""Blocks (TP-BL-1..4), Acrobatics (TP-A-1) and climbing (TP-CL-1..3)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.rules.triptycho.board import grid_map
from app.rules.triptycho.samples import CLIFF

from .conftest import DASH, SLASH, Table, card

HALL = grid_map("hall", "Hall", 4, 1, light={"c3r0": "dark"})
WINGS = card("wings", name="Wings", fly=2)
FIRE = card("fire", area="all", range=1, hit="1d6", damage="1d4", hostile=True)
BOLT = card("bolt", range=2, incantation=1, hit="1d6", damage="1d6", hostile=True)


def scene(m=HALL) -> Table:
    t = Table()
    t.add("Aria", "ann", cards=[SLASH, DASH, WINGS, FIRE, BOLT], uses_deck=False, acrobatics="1d6")
    t.add("Brick", "ben", cards=[SLASH, DASH], uses_deck=False)
    t.add("Gob", None, kind="npc", cards=[SLASH, DASH, FIRE])
    t.board(m)
    return t


def gob_blocks(t: Table, at: str, toward: str) -> None:
    t.place("Gob", at)
    t.start("Gob")
    t.do("gm", "triptycho.block", participant="Gob", toward=toward)


# --- TP-BL-1 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TP-BL-1")
def test_TP_BL_1_a_block_stops_enemies_leaving_across_it_but_not_entering_or_allies():
    """TP-BL-1: Gob blocks c1 -> c2: Aria in c1 cannot leave that way; Brick enters c1 freely."""
    t = scene()
    t.place("Aria", "c1r0")
    t.place("Brick", "c0r0")
    gob_blocks(t, "c1r0", "c2r0")
    assert t.ext.turn.phase == "action"  # the block spent the Strategy Phase
    assert t.ent("Gob").block.model_dump() == {"section": "c1r0", "toward": "c2r0"}
    t.start("Aria")
    assert t.refused("ann", "triptycho.move", "TP-BL-1", participant="Aria", to="c2r0") == (
        "An enemy blocks leaving across that border."
    )
    t.do("ann", "triptycho.move", participant="Aria", to="c0r0")  # another border is open
    t.start("Brick")
    t.do("ben", "triptycho.move", participant="Brick", to="c1r0")  # entering is always allowed


@pytest.mark.rule("TP-BL-1")
def test_TP_BL_1_blocking_takes_the_strategy_phase_and_a_border_of_ones_own_section():
    """TP-BL-1: only in the Strategy Phase, only a border of the blocker's section."""
    t = scene()
    t.place("Gob", "c1r0")
    t.to_action("Gob")
    t.refused("gm", "triptycho.block", "TP-T-1", participant="Gob", toward="c2r0")
    t.start("Gob")
    t.refused("gm", "triptycho.block", "TP-BL-1", participant="Gob", toward="c3r0")


# --- TP-BL-2 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TP-BL-2")
def test_TP_BL_2_the_block_ends_when_the_blocker_leaves_or_lowers_it_for_free():
    """TP-BL-2: moving out lowers it; lowering it is free, any time."""
    t = scene()
    gob_blocks(t, "c1r0", "c2r0")
    t.do("gm", "triptycho.move", participant="Gob", to="c0r0")
    assert t.ent("Gob").block is None
    t2 = scene()
    gob_blocks(t2, "c1r0", "c2r0")
    (_lowered,) = t2.do("gm", "triptycho.lower_block", participant="Gob")
    assert t2.ent("Gob").block is None and t2.ext.turn.phase == "action"


@pytest.mark.rule("TP-BL-2")
@pytest.mark.parametrize("condition", ["immobilized", "defenseless"])
def test_TP_BL_2_the_block_falls_when_the_blocker_is_immobilized_or_defenseless(condition):
    """TP-BL-2: becoming Immobilized or Defenseless lowers the block by itself."""
    t = scene()
    gob_blocks(t, "c1r0", "c2r0")
    (changed,) = t.do("gm", "triptycho.condition", participant="Gob", condition=condition)
    assert changed.data["lowers_block"] and t.ent("Gob").block is None


# --- TP-BL-3 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TP-BL-3")
def test_TP_BL_3_fly_passes_a_block():
    """TP-BL-3: Phase, Fly and Teleport are not impeded: Aria flies out past Gob's block."""
    t = scene()
    t.place("Aria", "c1r0")
    gob_blocks(t, "c1r0", "c2r0")
    t.to_action("Aria")
    t.do("ann", "triptycho.act", participant="Aria", card="wings")
    t.do("ann", "triptycho.move", participant="Aria", to="c2r0", move=t.ext.turn.moves[0].id)
    assert t.ent("Aria").section == "c2r0"


@pytest.mark.rule("TP-BL-3")
def test_TP_BL_3_a_block_does_not_stop_an_enemy_the_blocker_cannot_see():
    """TP-BL-3: in the dark, Gob cannot see Aria leave, so his block does not hold her."""
    t = scene(grid_map("dark", "Dark", 3, 1, light={"c1r0": "dark"}))
    t.place("Aria", "c1r0")
    gob_blocks(t, "c1r0", "c2r0")
    t.start("Aria")
    t.do("ann", "triptycho.move", participant="Aria", to="c2r0")
    assert t.ent("Aria").section == "c2r0"


# --- TP-BL-4 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TP-BL-4")
def test_TP_BL_4_a_block_at_a_distance_works_both_ways_unseen_and_survives_immobilized():
    """TP-BL-4: Gob's spell blocks c1|c2 from afar: nobody of Aria's side crosses either way, in the dark
    too; Gob being Immobilized does not end it; the GM lowers it."""
    t = scene(grid_map("dark", "Dark", 4, 1, light={"c1r0": "dark", "c2r0": "dark"}))
    t.place("Gob", "c3r0")
    t.place("Aria", "c1r0")
    t.place("Brick", "c2r0")
    (raised,) = t.do("gm", "triptycho.far_block", a="c1r0", b="c2r0", by="Gob", note="Web")
    t.do("gm", "triptycho.condition", participant="Gob", condition="immobilized")
    t.start("Aria")
    t.refused("ann", "triptycho.move", "TP-BL-4", participant="Aria", to="c2r0")
    t.start("Brick")
    t.refused("ben", "triptycho.move", "TP-BL-4", participant="Brick", to="c1r0")
    t.do("gm", "triptycho.far_unblock", block=raised.data["block"]["id"])
    t.do("ben", "triptycho.move", participant="Brick", to="c1r0")


# --- TP-A-1 -----------------------------------------------------------------------------------------


@pytest.mark.rule("TP-A-1")
@pytest.mark.parametrize(("mine", "gm", "success"), [(3, 3, True), (4, 2, True), (2, 5, False)])
def test_TP_A_1_acrobatics_is_opposed_and_a_tie_succeeds(mine, gm, success):
    """TP-A-1: Aria's Acrobatics against the GM's roll: a tie or better succeeds."""
    t = scene()
    t.place("Aria", "c0r0")
    (rolled,) = t.do("gm", "triptycho.acrobatics", [mine, gm], participant="Aria", gm_dice="1d6", label="ice")
    assert rolled.data["success"] is success
    assert (rolled.data["roll"]["terms"][0]["faces"], rolled.data["gm_roll"]["terms"][0]["faces"]) == (
        [mine],
        [gm],
    )


# --- TP-CL-1 ----------------------------------------------------------------------------------------


def climber() -> Table:
    t = scene(CLIFF)
    t.place("Aria", "ledge")
    t.place("Gob", "top")
    return t


@pytest.mark.rule("TP-CL-1")
def test_TP_CL_1_each_successful_check_climbs_height_1_and_the_border_is_crossed_at_its_height():
    """TP-CL-1: ledge -> top rises 2 (the GM rolls the border's 1d8): success, failure, success."""
    t = climber()
    t.start("Aria")
    option = next(o for o in t.options("ann") if o["command"]["type"] == "triptycho.climb")
    p = Fraction(option["odds"][0]["exact"])
    assert p == Fraction(sum(1 for a in range(1, 7) for b in range(1, 9) if a >= b), 48)
    (climbed,) = t.do("ann", "triptycho.climb", [5, 5], participant="Aria", toward="top")
    assert (climbed.data["success"], climbed.data["progress"], climbed.data["done"]) == (True, 1, False)
    assert t.ent("Aria").climbing.model_dump() == {"frm": "ledge", "to": "top", "progress": 1}
    t.do("ann", "triptycho.pass", participant="Aria")
    t.do("ann", "triptycho.act", participant="Aria", card="dash")
    dash = t.ext.turn.moves[0].id
    (slipped,) = t.do("ann", "triptycho.climb", [1, 6], participant="Aria", move=dash)
    assert slipped.data["progress"] == 1 and not slipped.data["success"]
    t.start("Aria")
    (top,) = t.do("ann", "triptycho.climb", [6, 2], participant="Aria")
    assert top.data["done"] and t.ent("Aria").section == "top" and t.ent("Aria").climbing is None


@pytest.mark.rule("TP-CL-1")
def test_TP_CL_1_only_rising_soft_borders_of_ones_own_section_are_climbed():
    """TP-CL-1: a border that does not rise is walked, not climbed."""
    t = climber()
    t.start("Aria")
    t.refused("ann", "triptycho.climb", "TP-CL-1", participant="Aria", toward="mouth")
    t.refused("ann", "triptycho.climb", "TP-CL-1", participant="Aria", toward="pool")


# --- TP-CL-2 ----------------------------------------------------------------------------------------


@pytest.mark.rule("TP-CL-2")
def test_TP_CL_2_a_climber_stays_in_the_lower_section_debilitated_vulnerable_and_cannot_incant():
    """TP-CL-2: part-way up, Aria is still on the ledge, Debilitated and Vulnerable, and cannot incant."""
    t = climber()
    t.start("Aria")
    t.do("ann", "triptycho.climb", [5, 1], participant="Aria", toward="top")
    assert t.ent("Aria").sections == ("ledge",)
    (aria,) = [e for e in t.view("ann")["system"]["entities"] if e["name"] == "Aria"]
    assert {"debilitated", "vulnerable"} <= set(aria["conditions"])
    t.do("ann", "triptycho.pass", participant="Aria")
    t.refused("ann", "triptycho.incant", "TP-CL-2", participant="Aria")
    incant = next(o for o in t.options("ann") if o["command"]["type"] == "triptycho.incant")
    assert not incant["enabled"] and "TP-CL-2" in incant["reason"]


@pytest.mark.rule("TP-CL-2")
def test_TP_CL_2_an_area_attack_reaches_a_climber_only_if_its_range_reaches_the_climbers_height():
    """TP-CL-2: Aria is 1 up the cliff: Gob's Fire (range 1) on the ledge strikes her and Brick; the same
    Area Attack with range 0 strikes only Brick."""
    t = climber()
    t.place("Brick", "ledge")
    t.start("Aria")
    t.do("ann", "triptycho.climb", [5, 1], participant="Aria", toward="top")
    from app.rules.triptycho.combat import area_targets

    fire = t.ent("Gob").card("fire")
    names = {t.state.participant(e.id).name for e in area_targets(t.ext, t.ent("Gob"), fire, "ledge")}
    assert names == {"Aria", "Brick"}
    short = fire.model_copy(update={"range": 0})
    names = {t.state.participant(e.id).name for e in area_targets(t.ext, t.ent("Gob"), short, "ledge")}
    assert names == {"Brick"}


# --- TP-CL-3 ----------------------------------------------------------------------------------------


@pytest.mark.rule("TP-CL-3")
def test_TP_CL_3_a_climber_hit_checks_at_once_and_holds_on_when_it_succeeds():
    """TP-CL-3: damaged while climbing: Acrobatics against the border; success keeps the place."""
    t = climber()
    t.start("Aria")
    t.do("ann", "triptycho.climb", [5, 1], participant="Aria", toward="top")
    _damaged, grip = t.do("gm", "triptycho.damage", [4, 4], participant="Aria", amount=2)
    assert grip.type == "triptycho.grip_checked" and grip.data["success"]
    assert t.ent("Aria").climbing.progress == 1


@pytest.mark.rule("TP-CL-3")
def test_TP_CL_3_a_climber_that_fails_the_check_falls_from_its_height():
    """TP-CL-3: failure is an immediate fall: 1d4 for each height climbed (TP-M-5)."""
    t = climber()
    t.start("Aria")
    t.do("ann", "triptycho.climb", [5, 1], participant="Aria", toward="top")
    events = t.do("gm", "triptycho.damage", [1, 8, 3], participant="Aria", amount=2)
    assert [e.type for e in events] == [
        "triptycho.damaged",
        "triptycho.grip_checked",
        "triptycho.fell",
        "triptycho.damaged",
    ]
    assert events[2].data["height"] == 1 and events[3].data["amount"] == 3
    assert t.ent("Aria").climbing is None and t.ent("Aria").damage == 5


@pytest.mark.rule("TP-CL-3")
def test_TP_CL_3_letting_go_is_a_move_and_a_fall():
    """TP-CL-3: a climber may stop by falling, as a Move."""
    t = climber()
    t.start("Aria")
    t.do("ann", "triptycho.climb", [5, 1], participant="Aria", toward="top")
    t.do("ann", "triptycho.pass", participant="Aria")
    t.do("ann", "triptycho.act", participant="Aria", card="dash")
    events = t.do("ann", "triptycho.let_go", [2], participant="Aria")
    assert [e.type for e in events] == ["triptycho.let_go", "triptycho.fell", "triptycho.damaged"]
    assert t.ext.turn.moves == () and t.ent("Aria").climbing is None


@pytest.mark.rule("TP-CL-3")
def test_TP_CL_3_a_climber_does_not_walk_away_it_climbs_on_or_lets_go():
    """TP-CL-3: while climbing, a plain Move is refused: climb on, or let go."""
    t = climber()
    t.start("Aria")
    t.do("ann", "triptycho.climb", [5, 1], participant="Aria", toward="top")
    t.do("ann", "triptycho.pass", participant="Aria")
    t.do("ann", "triptycho.act", participant="Aria", card="dash")
    t.refused("ann", "triptycho.move", "TP-CL-3", participant="Aria", to="mouth")
