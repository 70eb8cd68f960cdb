"""Movement, height and falling, blocks, Acrobatics and climbing: TP-M-2..5, TP-BL-*, TP-A-1, TP-CL-*."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.triptycho.board import Border, grid_map, index
from app.rules.triptycho.samples import CHASM, CLIFF

from .conftest import DASH, SLASH, Table, card

HALL = grid_map("hall", "Hall", 5, 1, borders=(Border(a="c3r0", b="c4r0", kind="hard"),))
LEAP = card("leap", move=1, height=2)
PHASE = card("phasewalk", name="Phase Walk", phase=2)
FLY = card("wings", name="Wings", fly=2)
BLINK = card("blink", teleport=3)


def scene(m=HALL, aria_at="c0r0", gob_at=None, **aria) -> Table:
    t = Table()
    t.add("Aria", "ann", cards=[SLASH, DASH, LEAP, PHASE, FLY, BLINK], uses_deck=False, **aria)
    t.add("Gob", None, kind="npc", cards=[SLASH])
    t.board(m)
    t.place("Aria", aria_at)
    if gob_at:
        t.place("Gob", gob_at)
    return t


def grant(t: Table, name: str, card_id: str) -> str:
    """Play a movement card in the Action Phase; the id of the Move it grants."""
    t.do(t.who_for(name), "triptycho.act", participant=name, card=card_id)
    return t.ext.turn.moves[-1].id


# --- TP-M-2 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TP-M-2")
def test_TP_M_2_the_innate_move_1_crosses_one_soft_border_once_between_draw_and_discard():
    """TP-M-2: Move 1 once a turn after the draw; not before, not twice."""
    t = scene()
    t.turn_of("Aria")
    t.refused("ann", "triptycho.move", "TP-M-2", participant="Aria", to="c1r0")  # before the draw
    t.do("ann", "triptycho.draw", participant="Aria")
    t.refused("ann", "triptycho.move", "TP-M-2", participant="Aria", to="c2r0")  # two borders
    (moved,) = t.do("ann", "triptycho.move", participant="Aria", to="c1r0")
    assert moved.data["path"] == ["c0r0", "c1r0"] and t.ent("Aria").section == "c1r0"
    assert t.refused("ann", "triptycho.move", "TP-M-2", participant="Aria", to="c2r0") == (
        "You have used your innate Move this turn."
    )


@pytest.mark.rule("TP-M-2")
def test_TP_M_2_moves_from_cards_do_not_count_against_the_innate_move():
    """TP-M-2: Dash (Move 3) crosses three soft borders, and the innate Move is still there after it."""
    t = scene()
    t.to_action("Aria")
    dash = grant(t, "Aria", "dash")
    t.do("ann", "triptycho.move", participant="Aria", to="c3r0", move=dash)
    assert t.ent("Aria").section == "c3r0"
    t.do("ann", "triptycho.move", participant="Aria", to="c2r0", move="innate")
    assert t.ent("Aria").section == "c2r0"
    assert t.ext.turn.moves == ()


@pytest.mark.rule("TP-M-2")
def test_TP_M_2_a_move_does_not_cross_a_hard_border_and_options_offer_only_reachable_sections():
    """TP-M-2: soft borders only; the options highlight exactly the reachable sections."""
    t = scene(aria_at="c3r0")
    t.start("Aria")
    offered = {o["command"]["to"] for o in t.options("ann") if o["group"] == "move"}
    assert offered == {"c2r0"}
    assert t.refused("ann", "triptycho.move", "TP-M-3", participant="Aria", to="c4r0") == (
        "A wall stands in the way: only Phase passes walls."
    )


@pytest.mark.rule("TP-M-2")
def test_TP_M_2_an_immobilized_entity_cannot_move():
    """TP-M-2 with TP-T-5: Immobilized allows no Move."""
    t = scene()
    t.do("gm", "triptycho.condition", participant="Aria", condition="immobilized")
    t.start("Aria")
    t.refused("ann", "triptycho.move", "TP-T-5", participant="Aria", to="c1r0")
    assert [o for o in t.options("ann") if o["group"] == "move"] == []


# --- TP-M-3 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TP-M-3")
def test_TP_M_3_phase_crosses_hard_borders():
    """TP-M-3: Phase 2 passes the wall into the last section."""
    t = scene(aria_at="c2r0")
    t.to_action("Aria")
    phase = grant(t, "Aria", "phasewalk")
    t.do("ann", "triptycho.move", participant="Aria", to="c4r0", move=phase)
    assert t.ent("Aria").section == "c4r0"


@pytest.mark.rule("TP-M-3")
def test_TP_M_3_fly_ignores_height_and_does_not_fall():
    """TP-M-3: Fly 2 crosses the chasm (-6 then +6) with no fall and no climb."""
    t = scene(CHASM, aria_at="near")
    t.to_action("Aria")
    fly = grant(t, "Aria", "wings")
    (moved,) = t.do("ann", "triptycho.move", participant="Aria", to="far", move=fly)
    assert moved.data["path"] == ["near", "chasm", "far"] and moved.data["falls"] == []


@pytest.mark.rule("TP-M-3")
def test_TP_M_3_teleport_goes_straight_there_ignoring_walls_and_blocks():
    """TP-M-3: Teleport 3 lands beyond the wall, passing an enemy's block."""
    t = scene(aria_at="c1r0", gob_at="c1r0")
    t.start("Gob")
    t.do("gm", "triptycho.block", participant="Gob", toward="c2r0")
    t.start("Aria")
    t.refused("ann", "triptycho.move", "TP-BL-1", participant="Aria", to="c2r0")
    t.do("ann", "triptycho.pass", participant="Aria")
    blink = grant(t, "Aria", "blink")
    (moved,) = t.do("ann", "triptycho.move", participant="Aria", to="c4r0", move=blink)
    assert moved.data["path"] == ["c1r0", "c4r0"] and moved.data["kind"] == "teleport"


# --- TP-M-4 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TP-M-4")
def test_TP_M_4_going_up_needs_a_move_with_enough_height():
    """TP-M-4: the cave floor to the ledge rises 1: the plain Move cannot, Leap (Height 2) can."""
    t = scene(CLIFF, aria_at="floor")
    t.start("Aria")
    message = t.refused("ann", "triptycho.move", "TP-M-4", participant="Aria", to="ledge")
    assert message.startswith("That border rises 1: climb it, or use a Move with Height 1")
    t.do("ann", "triptycho.pass", participant="Aria")
    leap = grant(t, "Aria", "leap")
    t.do("ann", "triptycho.move", participant="Aria", to="ledge", move=leap)
    assert t.ent("Aria").section == "ledge"


@pytest.mark.rule("TP-M-4")
def test_TP_M_4_phase_and_teleport_need_a_range_at_least_the_height():
    """TP-M-4: Phase 2 cannot rise the chasm's 6; Teleport 3 cannot either."""
    t = scene(CHASM, aria_at="chasm")
    t.to_action("Aria")
    phase = grant(t, "Aria", "phasewalk")
    t.refused("ann", "triptycho.move", "TP-M-4", participant="Aria", to="far", move=phase)
    t2 = scene(CHASM, aria_at="chasm")
    t2.to_action("Aria")
    blink = grant(t2, "Aria", "blink")
    t2.refused("ann", "triptycho.move", "TP-M-4", participant="Aria", to="far", move=blink)


# --- TP-M-5 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TP-M-5")
def test_TP_M_5_moving_down_a_height_border_falls_1d4_per_height():
    """TP-M-5: stepping off the near ledge into the chasm falls 6: 6d4 damage, faces in the log."""
    t = scene(CHASM, aria_at="near")
    t.start("Aria")
    moved, fell, damaged = t.do("ann", "triptycho.move", [1, 2, 3, 4, 4, 4], participant="Aria", to="chasm")
    assert moved.data["falls"] == [6]
    assert fell.data["roll"]["terms"][0]["faces"] == [1, 2, 3, 4, 4, 4]
    assert fell.data["damage"] == 18 and damaged.data["amount"] == 18
    assert t.ent("Aria").damage == 18


@pytest.mark.rule("TP-M-5")
def test_TP_M_5_a_push_down_a_height_3_border_deals_3d4():
    """TP-M-5: the seed's example: pushed down a height 3 border, 3d4 damage."""
    m = grid_map("drop", "Drop", 2, 1, borders=(Border(a="c0r0", b="c1r0", height=-3),))
    t = scene(m, aria_at="c0r0")
    _, fell, damaged = t.do("gm", "triptycho.push", [4, 1, 2], participant="Aria", to="c1r0")
    assert fell.data["height"] == 3 and damaged.data["amount"] == 7


@pytest.mark.rule("TP-M-5")
def test_TP_M_5_a_move_with_height_steps_down_safely_unless_the_gm_rules_otherwise():
    """TP-M-5 (ruling): Leap (Height 2) steps down the mouth's 1 safely; with the ruling off it falls."""
    t = scene(CLIFF, aria_at="ledge")
    t.to_action("Aria")
    leap = grant(t, "Aria", "leap")
    (moved,) = t.do("ann", "triptycho.move", participant="Aria", to="mouth", move=leap)
    assert moved.data["falls"] == []
    t2 = scene(CLIFF, aria_at="ledge")
    t2.do("gm", "campaign.settings", settings={"descend_with_height": False})
    t2.to_action("Aria")
    leap = grant(t2, "Aria", "leap")
    events = t2.do("ann", "triptycho.move", [3], participant="Aria", to="mouth", move=leap)
    assert [e.type for e in events] == ["triptycho.moved", "triptycho.fell", "triptycho.damaged"]


@pytest.mark.rule("TP-M-5")
def test_TP_M_5_move_options_warn_of_the_fall():
    """TP-M-5: the option to step into the chasm says how far it falls and that it rolls."""
    t = scene(CHASM, aria_at="near")
    t.start("Aria")
    (option,) = [o for o in t.options("ann") if o["group"] == "move"]
    assert option["command"]["to"] == "chasm" and option["hint"] == "falls 6: 6d4 damage" and option["rolls"]


# --- Hypothesis: moves never end across a hard border without Phase or Teleport -------------------


@st.composite
def moves_on_walled_grids(draw):
    cols, rows = draw(st.integers(2, 4)), draw(st.integers(1, 4))
    pairs = [(f"c{c}r{r}", f"c{c + 1}r{r}") for c in range(cols - 1) for r in range(rows)]
    pairs += [(f"c{c}r{r}", f"c{c}r{r + 1}") for c in range(cols) for r in range(rows - 1)]
    walls = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    heights = draw(st.lists(st.integers(-2, 2), min_size=len(pairs), max_size=len(pairs)))
    borders = tuple(
        Border(a=a, b=b, kind="hard" if w else "soft", height=h)
        for (a, b), w, h in zip(pairs, walls, heights, strict=True)
    )
    m = grid_map("w", "W", cols, rows, borders=borders)
    start = draw(st.sampled_from(sorted(index(m).sections)))
    kind = draw(st.sampled_from(["dash", "leap", "phasewalk", "wings", "blink"]))
    return m, start, kind, draw(st.data())


@pytest.mark.rule("TP-M-2")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves_on_walled_grids())
def test_TP_M_2_a_move_never_ends_across_a_hard_border_without_phase_or_teleport(case):
    """TP-M-2/TP-M-3 (Hypothesis): every section offered to a Move, Fly or Leap is reached across soft
    borders only; only Phase and Teleport pass walls."""
    m, start, kind, data = case
    t = scene(m, aria_at=start)
    t.to_action("Aria")
    move_id = grant(t, "Aria", kind)
    offered = [
        o["command"]["to"]
        for o in t.options("ann")
        if o["group"] == "move"
        and o["command"].get("move") == move_id
        and o["command"]["type"] == "triptycho.move"
    ]
    if not offered:
        return
    to = data.draw(st.sampled_from(offered))
    idx = index(m)
    (moved, *_) = t.do("ann", "triptycho.move", "ones", participant="Aria", to=to, move=move_id)
    path = moved.data["path"]
    kinds = {idx.edge(a, b).kind if idx.edge(a, b) else "none" for a, b in pairwise(path)}
    if kind in ("dash", "leap", "wings"):
        assert kinds <= {"soft"}, (kind, path)
    assert t.ent("Aria").section == to
