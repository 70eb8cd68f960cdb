"""Karma (TC-K-*) and Luck (TC-L-*)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.rules.errors import Forbidden, InputError
from app.rules.system import PLAYERS
from tests.rules.trinity.conftest import Table


def last(t: Table, type_: str):
    return next(e for e in reversed(t.events) if e.type == type_)


def pools(t: Table) -> tuple[int, int, int, int]:
    return t.t.good, t.t.bad, t.t.aside_good, t.t.aside_bad


def karma(t: Table, good: int, bad: int) -> Table:
    if good:
        t.do("gm", "trinity.add_karma", pool="good", amount=good)
    if bad:
        t.do("gm", "trinity.add_karma", pool="bad", amount=bad)
    return t


# --- karma ----------------------------------------------------------------------------------------


@pytest.mark.rule("TC-K-1")
def test_TC_K_1_two_pools_both_empty_at_the_start(fight: Table):
    assert fight.view("ann")["system"]["karma"] == {"good": 0, "bad": 0, "aside_good": 0, "aside_bad": 0}


@pytest.mark.rule("TC-K-1")
def test_TC_K_1_a_new_investigation_empties_both_pools(table: Table):
    karma(table, 2, 3)
    table.do("gm", "trinity.new_investigation")
    assert pools(table) == (0, 0, 0, 0)
    assert table.t.investigation == 2


@pytest.mark.rule("TC-K-2")
def test_TC_K_2_the_karma_window_opens_on_both_sides_before_the_dice(fight: Table):
    karma(fight, 2, 1)
    events = fight.move("ann", "Aria", "open_fire", "Cultist", weapon="pistol")
    assert fight.types(events) == ["trinity.move_declared"]  # no dice yet
    good, bad = fight.prompt("karma", players=True), fight.prompt("karma", to="gm")
    assert good.to == PLAYERS and [c.key for c in good.choices] == ["0", "1", "2"]
    assert [c.key for c in bad.choices] == ["0", "1"]
    fight.answer("ann", "karma", "2")
    assert pools(fight) == (0, 1, 2, 0)  # grabbed points are set aside
    assert fight.t.move.total is None
    fight.answer("gm", "karma", "0", faces=(3, 3))
    assert fight.t.move.total == 3 + 3 + 2 + 2


@pytest.mark.rule("TC-K-2")
def test_TC_K_2_any_player_grabs_good_karma_and_only_the_gm_grabs_bad(fight: Table):
    karma(fight, 1, 1)
    fight.move("ann", "Aria", "open_fire", "Cultist", weapon="pistol")
    good, bad = fight.prompt("karma", players=True), fight.prompt("karma", to="gm")
    assert any(o.id == f"{good.id}-1" for o in fight.options("ben"))  # Ben plays Brick, not Aria
    assert not any(o.id.startswith(good.id) for o in fight.options("gm"))
    fight.refused("gm", "trinity.karma", Forbidden, prompt=good.id, choice="1")
    fight.refused("ben", "trinity.karma", Forbidden, prompt=bad.id, choice="1")
    fight.do("ben", "trinity.karma", prompt=good.id, choice="1")
    assert pools(fight) == (0, 1, 1, 0)


@pytest.mark.rule("TC-K-2")
def test_TC_K_2_the_side_answering_first_rolls_no_dice_and_the_last_one_does(fight: Table):
    karma(fight, 1, 1)
    fight.move("ann", "Aria", "open_fire", "Cultist", weapon="pistol")
    assert not fight.option("gm", fight.prompt("karma", to="gm").id + "-0").rolls
    with pytest.raises(InputError):
        fight.answer("gm", "karma", "1", faces=(3, 3))
    fight.answer("gm", "karma", "1")
    option = fight.option("ann", fight.prompt("karma").id + "-1")
    assert option.rolls
    assert [b.label for b in option.odds] == ["6-", "7-9", "10+"]
    # +2 Quickness, +1 Good, -1 Bad: 2d6+2
    assert [b.chance for b in option.odds] == [Fraction(6, 36), Fraction(15, 36), Fraction(15, 36)]
    with pytest.raises(InputError):
        fight.answer("ann", "karma", "1")  # the roll needs dice
    fight.answer("ann", "karma", "1", faces=(4, 4))


@pytest.mark.rule("TC-K-2")
def test_TC_K_2_no_points_no_window_unless_the_setting_says_always(table: Table):
    t = Table(settings={"karma_window": "always"}).cast().fight()
    t.move("ann", "Aria", "open_fire", "Cultist", weapon="pistol")
    assert [c.key for c in t.prompt("karma", to="gm").choices] == ["0"]
    t.answer("ann", "karma", "0")
    t.answer("gm", "karma", "0", faces=(2, 5))
    assert t.t.move.total == 9
    plain = table.fight()
    events = plain.move("ann", "Aria", "open_fire", "Cultist", faces=(2, 5), weapon="pistol")
    assert "trinity.move_rolled" in plain.types(events)


@pytest.mark.rule("TC-K-2")
def test_TC_K_2_only_the_addressee_answers_and_only_what_the_pool_holds(fight: Table):
    karma(fight, 1, 2)
    fight.move("ann", "Aria", "open_fire", "Cultist", weapon="pistol")
    good = fight.prompt("karma", players=True)
    fight.refused("spec", "trinity.karma", Forbidden, prompt=good.id, choice="1")
    fight.refused("gm", "trinity.karma", Forbidden, prompt=good.id, choice="1")
    fight.refused("ann", "trinity.karma", InputError, prompt=good.id, choice="2")
    bad = fight.prompt("karma", to="gm")
    fight.refused("ann", "trinity.karma", Forbidden, prompt=bad.id, choice="1")


@pytest.mark.rule("TC-K-3")
def test_TC_K_3_the_worked_example(fight: Table):
    """Good 1, Bad 3; the GM grabs 3, the players grab 1; karma -2; afterwards Bad 1, Good 3."""
    karma(fight, 1, 3)
    assert (fight.t.good, fight.t.bad) == (1, 3)
    fight.move("ann", "Aria", "open_fire", "Cultist", weapon="pistol")
    fight.answer("gm", "karma", "3")
    fight.answer("ann", "karma", "1", faces=(4, 5))
    data = last(fight, "trinity.move_rolled").data
    karma_mods = sum(m["value"] for m in data["mods"] if m["key"] in ("good_karma", "bad_karma"))
    assert karma_mods == -2
    assert data["total"] == 9 + 2 - 2
    assert (fight.t.bad, fight.t.good) == (1, 3)
    assert (fight.t.aside_good, fight.t.aside_bad) == (0, 0)
    returned = last(fight, "trinity.karma_returned").data
    assert (returned["to_good"], returned["to_bad"]) == (3, 1)


@pytest.mark.rule("TC-K-4")
def test_TC_K_4_a_good_point_spent_on_a_special_effect_goes_straight_to_bad(fight: Table):
    karma(fight, 2, 0)
    events = fight.do("ann", "trinity.spend_good", character="Aria", reason="cancelling a misfire")
    assert (fight.t.good, fight.t.bad) == (1, 1)
    assert "cancelling a misfire" in fight.texts(events)[0]
    fight.do("ann", "trinity.spend_good", character="Aria")
    assert "pool is empty" in fight.refused("ann", "trinity.spend_good", character="Aria")
    assert not fight.option("ann", f"spend-good-{fight.pid('Aria')}").enabled


@pytest.mark.rule("TC-K-5")
def test_TC_K_5_the_gm_adds_points_to_either_pool_players_cannot(fight: Table):
    karma(fight, 2, 5)
    assert (fight.t.good, fight.t.bad) == (2, 5)
    fight.refused("ann", "trinity.add_karma", Forbidden, pool="good", amount=1)
    assert "has only 2" in fight.refused("gm", "trinity.add_karma", pool="good", amount=-3)


@pytest.mark.rule("TC-K-5")
def test_TC_K_5_luck_results_add_points_to_a_pool(fight: Table):
    fight.move("ann", "Aria", "open_fire", "Cultist", faces=(1, 2), weapon="pistol")
    fight.answer("ann", "luck", "no_harm")
    assert (fight.t.good, fight.t.bad) == (0, 1)


@pytest.mark.rule("TC-K-6")
def test_TC_K_6_a_move_leaves_pools_plus_aside_unchanged(fight: Table):
    karma(fight, 3, 4)
    total = fight.t.karma_total
    fight.move("ann", "Aria", "open_fire", "Cultist", weapon="pistol")
    fight.answer("ann", "karma", "2")
    assert fight.t.karma_total == total
    fight.answer("gm", "karma", "4", faces=(5, 6))
    assert fight.t.karma_total == total
    assert pools(fight) == (1 + 4, 4 - 4 + 2, 0, 0)


@pytest.mark.rule("TC-K-6")
def test_TC_K_6_a_move_called_off_gives_the_grabbed_points_back(fight: Table):
    karma(fight, 3, 4)
    fight.move("ann", "Aria", "open_fire", "Cultist", weapon="pistol")
    fight.answer("ann", "karma", "2")
    fight.refused("ann", "trinity.cancel", Forbidden)
    fight.do("gm", "trinity.cancel")
    assert pools(fight) == (3, 4, 0, 0) and fight.t.move is None and not fight.state.prompts


@pytest.mark.rule("TC-K-6")
def test_TC_K_6_ending_the_encounter_mid_window_gives_the_points_back(fight: Table):
    karma(fight, 3, 4)
    fight.move("ann", "Aria", "open_fire", "Cultist", weapon="pistol")
    fight.answer("gm", "karma", "4")
    fight.do("gm", "campaign.encounter.end")
    assert pools(fight) == (3, 4, 0, 0) and fight.t.move is None


# --- luck -----------------------------------------------------------------------------------------


@pytest.mark.rule("TC-L-1")
def test_TC_L_1_luck_comes_from_the_playbook_and_is_not_regained(fight: Table):
    assert fight.char("Aria").luck == 8
    fight.move("ann", "Aria", "open_fire", "Cultist", faces=(1, 2), weapon="pistol")
    fight.answer("ann", "luck", "reroll", faces=(1, 1))
    assert fight.char("Aria").luck == 7
    fight.answer("gm", "band", "stay")
    fight.do("gm", "campaign.encounter.end")
    fight.do("gm", "trinity.new_investigation")
    fight.do("gm", "trinity.time_passes", hours=200)
    assert fight.char("Aria").luck == 7
    fight.refused("ann", "trinity.grant_luck", Forbidden, character="Aria", amount=1)
    fight.do("gm", "trinity.grant_luck", character="Aria", amount=1)
    assert fight.char("Aria").luck == 8


@pytest.mark.rule("TC-L-2")
def test_TC_L_2_luck_is_offered_only_once_the_modified_result_is_known(fight: Table):
    karma(fight, 1, 0)
    fight.move("ann", "Aria", "open_fire", "Cultist", weapon="pistol")
    assert not fight.has_prompt("luck")
    fight.answer("ann", "karma", "0", faces=(2, 3))
    prompt = fight.prompt("luck")
    assert "7 (7-9)" in prompt.text
    assert [c.key for c in prompt.choices] == ["reroll", "twelve", "no_harm", "keep"]  # nothing negative


@pytest.mark.rule("TC-L-2")
def test_TC_L_2_ignore_the_negative_modifiers_adds_a_good_point(table: Table):
    t = table.fight(advantage="enemy")
    t.do("gm", "trinity.shift", character="Aria", value=-2)
    t.move("ann", "Aria", "take_cover", "Cultist", faces=(3, 4))  # 7 + 2 - 1 - 2 = 6
    assert t.t.move.result == "miss"
    option = t.option("ann", t.prompt("luck").id + "-ignore")
    assert [(b.label, b.chance) for b in option.odds] == [("7-9", 1)]
    t.answer("ann", "luck", "ignore")
    assert last(t, "trinity.luck_spent").data["total"] == 9 and t.t.good == 1
    assert t.t.advantage == "none" and t.char("Aria").luck == 7  # take cover 7-9 (TC-TC-2)


@pytest.mark.rule("TC-L-2")
def test_TC_L_2_roll_again_and_take_the_new_result_adds_a_good_point(fight: Table):
    fight.move("ann", "Aria", "open_fire", "Cultist", faces=(4, 4), weapon="pistol")  # 10
    option = fight.option("ann", fight.prompt("luck").id + "-reroll")
    assert option.rolls and [b.chance for b in option.odds] == [
        Fraction(6, 36),
        Fraction(15, 36),
        Fraction(15, 36),
    ]
    events = fight.answer("ann", "luck", "reroll", faces=(1, 2))  # worse: 5, and it stands
    assert last(fight, "trinity.luck_spent").data["roll"]["terms"][0]["faces"] == [1, 2]
    assert fight.t.move.result == "miss" and fight.t.good == 1
    assert fight.t.advantage == "enemy"
    assert "Aria spends Luck and rolls again: 5 (6-)." in fight.texts(events)


@pytest.mark.rule("TC-L-2")
def test_TC_L_2_replace_the_result_by_twelve_adds_a_bad_point_and_doubles_do_not_apply(fight: Table):
    fight.move("ann", "Aria", "open_fire", "Cultist", faces=(2, 2), weapon="pistol")  # 6, doubles
    fight.answer("ann", "luck", "twelve")
    assert fight.t.move.total == 12 and fight.t.move.result == "strong" and fight.t.bad == 1
    fight.answer("ann", "effect", "harm_plus")
    assert fight.char("Aria").follow_up is None
    assert fight.opp("Cultist").out


@pytest.mark.rule("TC-L-2")
def test_TC_L_2_suffer_no_harm_adds_a_bad_point(fight: Table):
    fight.move("ben", "Brick", "go_toe_to_toe", "Ghoul", faces=(1, 2))
    fight.answer("ben", "luck", "no_harm")
    assert fight.char("Brick").harm == 0 and fight.t.bad == 1
    assert (
        "no_harm" in last(fight, "trinity.move_resolved").data
        and last(fight, "trinity.move_resolved").data["no_harm"]
    )


@pytest.mark.rule("TC-L-2")
def test_TC_L_2_one_luck_point_per_roll_unless_the_setting_allows_more(table: Table):
    table.fight()
    table.move("ann", "Aria", "open_fire", "Cultist", faces=(1, 2), weapon="pistol")
    table.answer("ann", "luck", "reroll", faces=(1, 3))
    assert not table.has_prompt("luck")
    t = Table(settings={"luck_per_move": 2}).cast().fight()
    t.move("ann", "Aria", "open_fire", "Cultist", faces=(1, 2), weapon="pistol")
    t.answer("ann", "luck", "reroll", faces=(1, 3))
    t.answer("ann", "luck", "twelve")
    assert t.char("Aria").luck == 6 and (t.t.good, t.t.bad) == (1, 1)


@pytest.mark.rule("TC-L-2")
def test_TC_L_2_twelve_is_not_offered_on_a_ten_plus_nor_no_harm_when_nothing_hurts(table: Table):
    t = table.fight(advantage="team")
    t.move("ann", "Aria", "aim", "Cultist", faces=(4, 5), weapon="rifle")
    assert t.choices("luck") == ["reroll", "keep"]


@pytest.mark.rule("TC-L-3")
def test_TC_L_3_at_zero_luck_the_sheet_shows_the_out_of_luck_effect(fight: Table):
    fight.do(
        "gm",
        "trinity.setup_character",
        character="Aria",
        quickness=2,
        luck=1,
        out_of_luck="No one calls back.",
    )
    sheet = next(c for c in fight.view("ben")["system"]["characters"] if c["name"] == "Aria")
    assert sheet["out_of_luck_effect"] is None
    fight.move("ann", "Aria", "go_toe_to_toe", "Ghoul", faces=(1, 2))
    fight.answer("ann", "luck", "no_harm")
    sheet = next(c for c in fight.view("ben")["system"]["characters"] if c["name"] == "Aria")
    assert sheet["out_of_luck_effect"] == "No one calls back." and "out-of-luck" in sheet["conditions"]
    fight.answer("gm", "band", "stay")
    fight.move("ann", "Aria", "go_toe_to_toe", "Ghoul")
    fight.answer("gm", "karma", "0", faces=(1, 2))  # the Luck spent put a point in the Bad pool
    assert not fight.has_prompt("luck")  # nothing left to spend
