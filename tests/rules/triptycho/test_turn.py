"""The turn, decks and initiative (TP-T-1); incantations (TP-N-1..5); swimming (TP-W-1..4)."""

from __future__ import annotations

import pytest

from app.rules.events import upcast
from app.rules.system import Event
from app.rules.triptycho.board import grid_map
from app.rules.triptycho.state import ext_of

from .conftest import BOW, DASH, DODGE, GAME, PARRY, SLASH, SPEAR, Table, card

ROW = grid_map("row", "Row", 4, 1)
RALLY = card("rally", kind="strategy", move=1, text="Move 1.")
BOLT = card("bolt", range=3, incantation=1, hit="1d6", damage="1d6", hostile=True)
STORM = card("storm", range=3, incantation=2, hit="1d8", damage="1d8", hostile=True)


def decked(hand: int = 5, deck=("bow", "dash", "dodge", "slash")) -> Table:
    t = Table()
    t.do("gm", "campaign.settings", settings={"starting_hand": hand, "hand_size": 3})
    t.add("Aria", "ann", cards=[BOW, DASH, DODGE, SLASH, RALLY], deck=list(deck))
    t.add("Gob", None, kind="npc", cards=[SLASH, DODGE])
    t.board(ROW)
    t.place("Aria", "c0r0")
    t.place("Gob", "c2r0")
    return t


# --- TP-T-1: initiative ----------------------------------------------------------------------------


@pytest.mark.rule("TP-T-1")
def test_TP_T_1_initiative_is_highest_first_and_pcs_win_ties():
    """TP-T-1: Gob and Aria both roll 4, Brick 6: Brick, then Aria (PC) before Gob."""
    t = Table()
    t.add("Gob", None, kind="npc", initiative="1d6")
    t.add("Aria", "ann", initiative="1d6")
    t.add("Brick", "ben", initiative="1d8")
    t.board(ROW)
    for name in ("Gob", "Aria", "Brick"):
        t.place(name, "c0r0")
    events = t.do("gm", "triptycho.initiative", [4, 4, 6])
    assert events[-1].type == "generic.initiative_set"
    order = [t.state.participant(e.participant).name for e in t.state.initiative.entries]
    assert order == ["Brick", "Aria", "Gob"]


# --- TP-T-1: decks ---------------------------------------------------------------------------------


@pytest.mark.rule("TP-T-1")
def test_TP_T_1_dealing_shuffles_with_the_roller_and_records_the_order_for_the_gm_only():
    """TP-T-1: Fisher-Yates with faces 1, 3, 1 on bow, dash, dodge, slash gives dash, slash, dodge, bow;
    the order and faces are in a GM-only event; Aria's starting hand is the top two."""
    t = decked(hand=2)
    shuffled, drawn, dealt = t.do("gm", "triptycho.deal", [1, 3, 1])
    assert shuffled.audience == "gm"
    assert shuffled.data["order"] == ["dash#1", "slash#1", "dodge#1", "bow#1"] and shuffled.data["faces"] == [
        1,
        3,
        1,
    ]
    assert drawn.audience == f"p:{t.pid('Aria')}" and drawn.data["cards"] == ["dash#1", "slash#1"]
    assert dealt.audience == "all" and dealt.data["count"] == 2
    assert t.ent("Aria").hand == ("dash#1", "slash#1") and t.ent("Aria").deck == ("dodge#1", "bow#1")


@pytest.mark.rule("TP-T-1")
def test_TP_T_1_the_discard_pile_reshuffles_when_the_deck_runs_out():
    """TP-T-1: with one card left, drawing two takes it, then shuffles the discards into a new deck."""
    t = decked(hand=3)
    t.do("gm", "triptycho.deal", [4, 3, 2])  # every swap in place: bow, dash, dodge | slash
    aria = t.ent("Aria")
    assert aria.hand == ("bow#1", "dash#1", "dodge#1") and aria.deck == ("slash#1",)
    t.start("Aria", faces=())  # draws the last card
    assert t.ent("Aria").deck == ()
    t.do("ann", "triptycho.pass", participant="Aria")
    t.do("ann", "triptycho.act", participant="Aria", card="dash")
    assert t.ent("Aria").discard == ("dash#1",)
    events = t.do("ann", "triptycho.discard", participant="Aria", cards=[])
    assert events[0].type == "triptycho.turn_ended"
    t.start("Aria")  # the deck is empty: the one discard becomes the deck (no roll for one card)
    types = [e.type for e in t.events[-4:]]
    assert "triptycho.deck_shuffled" in types and "triptycho.discard_reshuffled" in types
    assert "dash#1" in t.ent("Aria").hand and t.ent("Aria").discard == ()


@pytest.mark.rule("TP-T-1")
def test_TP_T_1_a_turn_is_draw_strategy_action_discard_in_that_order():
    """TP-T-1: no Action before the Strategy Phase is done; one Action only; discard down to hand size;
    then the next turn."""
    t = decked(hand=2)
    t.do("gm", "triptycho.deal", [4, 3, 2])  # bow, dash, dodge, slash stay in order
    t.turn_of("Aria")
    t.refused("ann", "triptycho.act", "TP-T-1", participant="Aria", card="dash")  # before the draw
    t.do("ann", "triptycho.draw", participant="Aria")
    assert t.ent("Aria").hand == ("bow#1", "dash#1", "dodge#1")
    t.refused("ann", "triptycho.act", "TP-T-1", participant="Aria", card="dash")  # Strategy Phase first
    (used, _drawn) = t.do("ann", "triptycho.strategy", participant="Aria", choice="draw")
    assert used.type == "triptycho.strategy_used" and len(t.ent("Aria").hand) == 4
    t.refused("ann", "triptycho.strategy", "TP-T-1", participant="Aria", choice="gear")
    t.do("ann", "triptycho.act", participant="Aria", card="dash")
    assert t.refused("ann", "triptycho.act", "TP-T-1", participant="Aria", card="bow", target="Gob") == (
        "The Action Phase is over: one Action a turn."
    )
    hand = t.ent("Aria").hand
    assert len(hand) == 3
    assert t.refused("ann", "triptycho.discard", "TP-T-1", participant="Aria", cards=[hand[0]]) == (
        "Your hand is within 3 cards: keep them all."
    )
    t.do("gm", "campaign.settings", settings={"hand_size": 2})
    assert t.refused("ann", "triptycho.discard", "TP-T-1", participant="Aria", cards=[]) == (
        "Discard 1 card to come down to 2."
    )
    events = t.do("ann", "triptycho.discard", participant="Aria", cards=[hand[0]])
    assert [e.type for e in events] == [
        "triptycho.discarded",
        "triptycho.turn_ended",
        "generic.turn_advanced",
    ]
    assert t.ext.turn.entity == t.pid("Gob") and t.ext.turn.phase == "draw"


@pytest.mark.rule("TP-T-1")
def test_TP_T_1_a_repertoire_has_no_hand_to_discard_from():
    """TP-T-1: Gob plays from a repertoire (no deck): naming a card to discard is refused, not a crash."""
    t = Table()
    t.add("Gob", None, kind="npc", cards=[SLASH, DODGE], uses_deck=False)
    t.board(ROW)
    t.place("Gob", "c2r0")
    t.to_action("Gob")
    assert t.refused("gm", "triptycho.discard", "TP-T-1", participant="Gob", cards=["slash"]) == (
        "Gob has no hand to discard from."
    )
    assert t.do("gm", "triptycho.discard", participant="Gob", cards=[])[0].type == "triptycho.turn_ended"


@pytest.mark.rule("TP-T-1")
def test_TP_T_1_the_strategy_phase_may_play_a_strategy_card_or_swap_gear():
    """TP-T-1: Rally (a Strategy card with Move 1) is played from the hand into the discard pile."""
    t = decked(hand=5, deck=("rally", "bow"))
    t.do("gm", "triptycho.deal", [1])
    t.start("Aria")
    used, granted = t.do("ann", "triptycho.strategy", participant="Aria", choice="card", card="rally")
    assert used.data["card"] == "Rally" and granted.data["move"]["n"] == 1
    assert t.ent("Aria").discard == ("rally#1",) and t.ext.turn.phase == "action"
    assert t.refused("ann", "triptycho.strategy", "TP-T-1", participant="Aria", choice="gear")
    t2 = decked(hand=5, deck=("rally", "bow"))
    t2.do("gm", "triptycho.deal", [1])
    t2.start("Aria")
    t2.do("ann", "triptycho.strategy", participant="Aria", choice="gear", note="draws her dagger")
    assert t2.ext.turn.phase == "action"


@pytest.mark.rule("TP-T-1")
def test_TP_T_1_the_phone_walks_the_player_through_the_turn():
    """TP-T-1: the options follow the phases: draw; then strategy choices and moves; then actions."""
    t = decked(hand=2)
    t.do("gm", "triptycho.deal", [1, 1, 1])
    t.turn_of("Aria")

    def mine(who: str) -> list[dict]:
        return [o for o in t.options(who) if o["command"]["type"].startswith("triptycho.")]

    assert [o["label"] for o in mine("ann")] == ["Draw a card"]
    assert mine("ben") == []
    t.do("ann", "triptycho.draw", participant="Aria")
    assert {o["group"] for o in mine("ann")} == {"strategy", "move", "end"}
    t.do("ann", "triptycho.pass", participant="Aria")
    assert {o["group"] for o in mine("ann")} == {"action", "move", "end"}


# --- TP-N ----------------------------------------------------------------------------------------------


def caster() -> Table:
    t = Table()
    t.add("Aria", "ann", cards=[BOLT, STORM, DASH, BOW], uses_deck=False)
    t.add("Gob", None, kind="npc", cards=[SLASH])
    t.board(ROW)
    t.place("Aria", "c0r0")
    t.place("Gob", "c2r0")
    return t


def incant_turn(t: Table) -> None:
    t.to_action("Aria")
    t.do("ann", "triptycho.incant", participant="Aria")
    t.do("ann", "triptycho.discard", participant="Aria")


@pytest.mark.rule("TP-N-1")
def test_TP_N_1_incanting_takes_the_action_phase_and_the_next_turn_starts_with_a_charge_to_spend_free():
    """TP-N-1: Aria incants; next turn she gains 1 charge and plays Bolt at once, free; she still has her
    Action Phase for the Bow."""
    t = caster()
    t.to_action("Aria")
    (_began,) = t.do("ann", "triptycho.incant", participant="Aria")
    assert t.ent("Aria").incanting and t.ext.turn.phase == "discard"
    t.do("ann", "triptycho.discard", participant="Aria")
    t.turn_of("Aria")
    (turn_began,) = t.do("ann", "triptycho.draw", participant="Aria")
    assert turn_began.data["charge_gained"] == 1 and t.ent("Aria").charges == 1
    bolt = next(o for o in t.options("ann") if o["label"] == "Bolt at Gob")
    assert bolt["enabled"]
    t.do("ann", "triptycho.act", [3], participant="Aria", card="bolt", target="Gob")  # Gob cannot react
    assert t.ext.turn.phase == "strategy" and t.ent("Aria").charges == 0
    t.do("ann", "triptycho.pass", participant="Aria")
    t.do("ann", "triptycho.act", [2], participant="Aria", card="bow", target="Gob")


@pytest.mark.rule("TP-N-1")
def test_TP_N_1_an_incantation_action_needs_its_charges():
    """TP-N-1: Storm needs 2 charges; with 1 it is refused and shown disabled."""
    t = caster()
    incant_turn(t)
    t.start("Aria")
    assert t.refused("ann", "triptycho.act", "TP-N-1", participant="Aria", card="storm", target="Gob") == (
        "Storm needs 2 Incantation charges; Aria has 1."
    )


@pytest.mark.rule("TP-N-2")
def test_TP_N_2_playing_an_incantation_spends_every_charge():
    """TP-N-2: two charges built up; Bolt (Incantation 1) leaves none."""
    t = caster()
    incant_turn(t)
    t.to_action("Aria")
    t.do("ann", "triptycho.incant", participant="Aria")
    t.do("ann", "triptycho.discard", participant="Aria")
    t.start("Aria")
    assert t.ent("Aria").charges == 2
    (played, *_rest) = t.do("ann", "triptycho.act", [1], participant="Aria", card="bolt", target="Gob")
    assert played.data["charges_spent"] == 2 and t.ent("Aria").charges == 0


def test_a_card_played_recorded_at_v1_upcasts_to_v2_and_replays_to_the_same_table():
    """triptycho.card_played v1 named the charges spent `spends_charges`; v2 calls them `charges_spent`.
    A log recorded before the change means what it meant: the same charges spent, the same table."""
    t = caster()
    incant_turn(t)
    t.to_action("Aria")
    t.do("ann", "triptycho.incant", participant="Aria")
    t.do("ann", "triptycho.discard", participant="Aria")
    t.start("Aria")
    t.do("ann", "triptycho.act", [1], participant="Aria", card="bolt", target="Gob")
    played = next(e for e in t.events if e.type == "triptycho.card_played")
    assert played.version == 2 and played.payload.charges_spent == 2

    def as_v1(e: Event) -> Event:
        if e.type != "triptycho.card_played":
            return e
        data = {("spends_charges" if k == "charges_spent" else k): v for k, v in e.data.items()}
        record = {**e.model_dump(), "data": data, "version": 1}
        assert "charges_spent" not in record["data"]
        return Event.model_validate(record)  # as a stored v1 row or exported file is read

    old = [as_v1(e) for e in t.events]
    again = next(e for e in old if e.type == "triptycho.card_played")
    assert again.version == 2 and again.data == played.data
    replayed = GAME.replay(None, old)
    assert replayed.model_dump(mode="json") == t.state.model_dump(mode="json")
    assert ext_of(replayed).entity(t.pid("Aria")).charges == 0
    assert upcast("triptycho.card_played", 1, {"spends_charges": 0}) == (2, {"charges_spent": 0})


@pytest.mark.rule("TP-N-3")
def test_TP_N_3_charges_are_kept_only_by_incanting_again_before_the_turn_ends():
    """TP-N-3: Aria holds her charge but does not incant again: it is gone when her turn ends."""
    t = caster()
    incant_turn(t)
    t.to_action("Aria")
    assert t.ent("Aria").charges == 1 and not t.ent("Aria").incanting
    (ended, _next) = t.do("ann", "triptycho.discard", participant="Aria")
    assert ended.data["charges_lost"] == 1 and t.ent("Aria").charges == 0


@pytest.mark.rule("TP-N-3")
def test_TP_N_3_charges_accumulate_across_consecutive_turns():
    """TP-N-3: incanting three turns running builds 1, then 2 charges."""
    t = caster()
    incant_turn(t)
    incant_turn(t)
    assert t.ent("Aria").charges == 1 and t.ent("Aria").incanting
    t.start("Aria")
    assert t.ent("Aria").charges == 2


@pytest.mark.rule("TP-N-4")
def test_TP_N_4_charges_gained_before_the_action_phase_pay_an_action_that_costs_the_action_phase():
    """TP-N-4: an ally's effect gives Aria a charge in her Strategy Phase: she may fire Bolt in the Action
    Phase, and that is her Action."""
    t = caster()
    t.start("Aria")
    (charged,) = t.do("gm", "triptycho.charge", participant="Aria", charges=1)
    assert charged.data["before_action"]
    t.refused("ann", "triptycho.act", "TP-T-1", participant="Aria", card="bolt", target="Gob")
    t.do("ann", "triptycho.pass", participant="Aria")
    (played, *_rest) = t.do("ann", "triptycho.act", [1], participant="Aria", card="bolt", target="Gob")
    assert played.data["free"] is False and t.ext.turn.phase == "discard"


@pytest.mark.rule("TP-N-5")
@pytest.mark.parametrize("holding", ["incanting", "charges"])
def test_TP_N_5_damage_stops_the_incantation_and_loses_every_charge(holding):
    """TP-N-5: hurt while incanting, or while holding charges, Aria loses it all."""
    t = caster()
    incant_turn(t)
    if holding == "charges":
        t.start("Aria")
        assert t.ent("Aria").charges == 1 and not t.ent("Aria").incanting
    (damaged,) = t.do("gm", "triptycho.damage", participant="Aria", amount=1)
    assert damaged.data["stops_incanting"]
    assert t.ent("Aria").charges == 0 and not t.ent("Aria").incanting


# --- TP-W ----------------------------------------------------------------------------------------------

POOL = grid_map("pool", "Pool", 4, 1, water=frozenset({"c1r0"}))


def swimmers(**aria) -> Table:
    t = Table()
    t.add("Aria", "ann", cards=[SLASH, SPEAR, BOW, DASH, PARRY], uses_deck=False, **aria)
    t.add("Gob", None, kind="npc", cards=[SLASH, {**PARRY}])
    t.board(POOL)
    t.place("Aria", "c1r0")
    t.place("Gob", "c1r0")
    return t


@pytest.mark.rule("TP-W-1")
def test_TP_W_1_swimming_lowers_hit_damage_and_miss_dice_of_weapons_armour_and_shields():
    """TP-W-1: in the water Aria's Slash is Hit 1d6, Damage 1d4; Gob's swimming Parry is Miss 1d4."""
    t = swimmers()
    t.to_action("Aria")
    t.do("ann", "triptycho.act", participant="Aria", card="slash", target="Gob")
    (resolved, *_rest) = t.do("gm", "triptycho.react", "ones", prompt=t.state.prompts[0].id, choice="parry")
    assert resolved.data["dice"] == {"hit": "1d6", "miss": "1d4", "damage": "1d4", "defense": "1d4"}


@pytest.mark.rule("TP-W-1")
def test_TP_W_1_swimming_stacks_with_debilitated():
    """TP-W-1: Debilitated and swimming: Slash's d8 drops two levels to d4."""
    t = swimmers()
    t.do("gm", "triptycho.condition", participant="Aria", condition="debilitated")
    t.to_action("Aria")
    t.do("ann", "triptycho.act", participant="Aria", card="slash", target="Gob")
    (resolved, *_rest) = t.do("gm", "triptycho.react", "ones", prompt=t.state.prompts[0].id, choice="none")
    assert resolved.data["dice"]["damage"] == "1d2"


@pytest.mark.rule("TP-W-2")
def test_TP_W_2_a_long_move_loses_one_for_each_swimming_section_entered():
    """TP-W-2: from c0, Dash (Move 3) through the pool reaches c2, not c3; Move 1 into the pool is fine."""
    t = swimmers()
    t.place("Aria", "c0r0")
    t.to_action("Aria")
    t.do("ann", "triptycho.act", participant="Aria", card="dash")
    dash = t.ext.turn.moves[0].id
    offered = {o["command"]["to"] for o in t.options("ann") if o["command"].get("move") == dash}
    assert offered == {"c1r0", "c2r0"}
    t.refused("ann", "triptycho.move", "TP-M-2", participant="Aria", to="c3r0", move=dash)
    t.do("ann", "triptycho.move", participant="Aria", to="c1r0", move="innate")


@pytest.mark.rule("TP-W-3")
def test_TP_W_3_aquatic_entities_ignore_the_penalties():
    """TP-W-3: an Aquatic Aria keeps her dice and her full Dash."""
    t = swimmers(aquatic=True)
    t.place("Aria", "c0r0")
    t.to_action("Aria")
    t.do("ann", "triptycho.act", participant="Aria", card="dash")
    offered = {
        o["command"]["to"] for o in t.options("ann") if o["command"].get("move") == t.ext.turn.moves[0].id
    }
    assert "c3r0" in offered
    t2 = swimmers(aquatic=True)
    t2.to_action("Aria")
    t2.do("ann", "triptycho.act", participant="Aria", card="slash", target="Gob")
    (resolved, *_rest) = t2.do("gm", "triptycho.react", "ones", prompt=t2.state.prompts[0].id, choice="none")
    assert resolved.data["dice"]["damage"] == "1d6"


@pytest.mark.rule("TP-W-3")
def test_TP_W_3_daggers_and_spears_ignore_the_hit_and_damage_penalties():
    """TP-W-3: the Spear keeps Hit 1d6 and Damage 1d6 in the water; the defender's shield still suffers."""
    t = swimmers()
    t.to_action("Aria")
    t.do("ann", "triptycho.act", participant="Aria", card="spear", target="Gob")
    (resolved, *_rest) = t.do("gm", "triptycho.react", "ones", prompt=t.state.prompts[0].id, choice="parry")
    assert resolved.data["dice"] == {"hit": "1d6", "miss": "1d4", "damage": "1d6", "defense": "1d4"}


@pytest.mark.rule("TP-W-4")
def test_TP_W_4_ranged_attacks_cannot_reach_underwater_targets():
    """TP-W-4: Gob dives: Aria's Bow from the bank is refused; her Spear (Reach, melee) still reaches."""
    t = swimmers()
    t.place("Aria", "c0r0")
    t.start("Gob")
    t.do("gm", "triptycho.dive", participant="Gob")
    t.to_action("Aria")
    assert t.refused("ann", "triptycho.act", "TP-W-4", participant="Aria", card="bow", target="Gob") == (
        "Ranged attacks cannot reach a target underwater."
    )
    assert not any(o["label"] == "Bow at Gob" for o in t.options("ann"))
    t.do("ann", "triptycho.act", participant="Aria", card="spear", target="Gob")
    t.refused("ann", "triptycho.dive", "TP-W-4", participant="Aria")
