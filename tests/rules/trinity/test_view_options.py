"""What each viewer sees and may do: legal moves with exact odds, reasons, hidden stat blocks, undo, demo."""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.rules.dice import ManualRoller
from app.rules.system import PLAYERS, Ctx
from app.rules.trinity import SYSTEM
from app.rules.trinity.reducers import REDUCERS
from tests.rules.trinity.conftest import SECRET, Table


def moves(t: Table, who: str) -> dict[str, object]:
    return {o.id: o for o in t.options(who) if o.group == "move"}


@pytest.mark.rule("TC-A-3")
def test_only_legal_moves_are_offered_and_the_others_say_why(fight: Table):
    aria, cultist, ghoul = fight.pid("Aria"), fight.pid("Cultist"), fight.pid("Ghoul")
    offered = moves(fight, "ann")
    enabled = sorted(k for k, o in offered.items() if o.enabled)
    assert enabled == sorted(
        [
            f"open_fire-{aria}-{cultist}-w1",  # pistol at medium
            f"open_fire-{aria}-{cultist}-w2",  # rifle at medium
            f"go_toe_to_toe-{aria}-{ghoul}-none",  # unarmed at close
            f"open_fire-{aria}-{ghoul}-w1",  # pistol at close (-1)
        ]
    )
    reasons = {k: o.reason for k, o in offered.items() if not o.enabled}
    assert "TC-A-3" in reasons[f"aim-{aria}-{cultist}-w1"]
    assert "TC-W-1" in reasons[f"open_fire-{aria}-{ghoul}-w2"]
    assert "TC-B-2" in reasons[f"go_toe_to_toe-{aria}-{cultist}-none"]
    assert all(o.reason for o in offered.values() if not o.enabled)


@pytest.mark.rule("TC-R-3")
def test_every_move_carries_its_exact_odds_after_every_modifier(fight: Table):
    aria, ghoul = fight.pid("Aria"), fight.pid("Ghoul")
    option = moves(fight, "ann")[f"open_fire-{aria}-{ghoul}-w1"]
    assert option.hint == "close · Quickness +2, pistol at close range -1"
    # 2d6+1
    assert [(b.label, b.chance) for b in option.odds] == [
        ("6-", Fraction(10, 36)),
        ("7-9", Fraction(16, 36)),
        ("10+", Fraction(10, 36)),
    ]
    for o in fight.options("ann"):
        if o.odds:
            assert sum(b.chance for b in o.odds) == 1


def test_a_player_is_offered_only_their_own_characters(fight: Table):
    brick = fight.pid("Brick")
    assert all(o.participant != brick for o in fight.options("ann"))
    assert fight.options("spec") == []
    gm_moves = moves(fight, "gm")
    assert gm_moves == {}  # both PCs have players


def test_while_a_move_is_made_the_others_wait(fight: Table):
    fight.do("gm", "trinity.add_karma", pool="bad", amount=1)
    fight.move("ann", "Aria", "open_fire", "Cultist", weapon="pistol")
    brick = moves(fight, "ben")
    assert not any(o.enabled for o in brick.values())
    assert "Wait until" in next(iter(brick.values())).reason
    gm = [o for o in fight.options("gm") if o.group == "prompt-karma"]
    assert [o.label for o in gm] == ["Pass", "Grab 1"]


def test_players_never_see_opponent_stat_blocks(fight: Table):
    for who in ("ann", "ben", "spec"):
        dump = fight.dump(who)
        assert SECRET not in dump
        for o in fight.view(who)["system"]["opponents"]:
            assert set(o) == {"id", "name", "attack", "out"}
    gm = {o["name"]: o for o in fight.view("gm")["system"]["opponents"]}
    assert gm["Ghoul"]["harm_limit"] == 5 and gm["Ghoul"]["armour"]["value"] == 1
    visible = fight.game.visible(fight.events, fight.viewer("ann"))
    assert "trinity.opponent_set" not in [e.type for e in visible]


def test_a_hidden_opponent_does_not_exist_for_players(table: Table):
    table.do("gm", "campaign.add_participant", name="Lurker", kind="npc", hidden=True)
    table.do("gm", "trinity.setup_opponent", opponent="Lurker", harm=2, attack="melee")
    table.do("gm", "campaign.encounter.prepare", name="Crypt", participants=["Aria", "Lurker", "Ghoul"])
    table.do("gm", "campaign.encounter.start", encounter="Crypt")
    assert "Lurker" not in table.dump("ann")
    assert "Lurker" in table.dump("gm")
    assert "There is no character" in table.refused(
        "ann", "trinity.move", character="Aria", move="go_toe_to_toe", opponent="Lurker"
    )
    assert "Reveal" in table.refused(
        "gm", "trinity.move", character="Aria", move="go_toe_to_toe", opponent="Lurker"
    )
    table.do("gm", "campaign.set_hidden", participant="Lurker", hidden=False)
    assert "Lurker" in table.dump("ann")


def test_undo_takes_back_a_step_of_the_move(fight: Table):
    fight.do("gm", "trinity.add_karma", pool="good", amount=1)
    fight.move("ann", "Aria", "open_fire", "Cultist", weapon="pistol")
    fight.answer("ann", "karma", "1", faces=(1, 2))
    assert fight.t.move.rolled and fight.t.bad == 1
    fight.do("gm", "campaign.undo")
    assert not fight.t.move.rolled and (fight.t.good, fight.t.aside_good, fight.t.bad) == (1, 0, 0)
    assert fight.prompt("karma").to == PLAYERS
    fight.answer("ann", "karma", "0", faces=(5, 5))
    assert fight.t.move.result == "strong"


@pytest.mark.rule("TC-H-7")
def test_a_dead_character_is_offered_nothing(fight: Table):
    fight.do("gm", "trinity.inflict", character="Aria", harm=9, armour=False)
    mine = [
        o for o in fight.options("ann") if o.command["type"].startswith("trinity.") and o.group != "karma"
    ]
    assert mine and not any(o.enabled for o in mine)
    assert "dead" in fight.refused("ann", "trinity.reload", character="Aria", weapon="pistol")


def test_every_event_reads_as_a_sentence(fight: Table):
    fight.do("gm", "trinity.add_karma", pool="good", amount=1)
    fight.do("gm", "trinity.add_karma", pool="bad", amount=1)
    fight.move("ben", "Brick", "go_toe_to_toe", "Ghoul")
    fight.answer("ben", "karma", "1")
    fight.answer("gm", "karma", "0", faces=(1, 1))
    fight.answer("ben", "luck", "reroll", faces=(4, 5))
    fight.answer("ben", "effect", "harm_plus")
    fight.do("ann", "trinity.use_item", character="Aria", item="healing potion", target="Brick")
    fight.do("gm", "trinity.time_passes", hours=2)
    for e in fight.events:
        if e.type.startswith("trinity."):
            text = fight.game.describe(e)
            assert text != e.type and text.endswith("."), (e.type, text)
    assert set(SYSTEM.describers) >= {k for k in REDUCERS if k.startswith("trinity.")}


def test_the_demo_script_runs():
    t = Table()
    seats = {"Ann": "seat-ann", "Ben": "seat-ben"}
    for command in SYSTEM.demo.commands:
        payload = {
            k: (seats[v[1:]] if isinstance(v, str) and v.startswith("@") else v) for k, v in command.items()
        }
        _, cmd = t.game.parse(payload)
        events = t.game.decide(t.state, cmd, Ctx(ManualRoller(()), t.viewer("gm")))
        t._append([(e.type, e.data, e.audience, e.encounter) for e in events], "seat-gm")
    assert (t.t.good, t.t.bad) == (1, 3)
    assert t.state.active is not None
    aria = t.char("Aria")
    assert aria.armour.value == 2 and aria.armour.threshold == 6
    assert aria.weapon("pistol").tags == ("close", "medium") and aria.item("healing potion").uses == 2
