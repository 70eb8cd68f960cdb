"""Rolls (TC-R-*), range bands (TC-B-*), weapons (TC-W-*) and advantage (TC-A-*)."""

from __future__ import annotations

import pytest

from app.rules.errors import InputError, RuleError
from app.rules.trinity.moves import result_of
from tests.rules.trinity.conftest import KNIFE, PISTOL, RIFLE, Table


def last(t: Table, type_: str):
    return next(e for e in reversed(t.events) if e.type == type_)


def mods_of(t: Table) -> dict[str, int]:
    return {m["key"]: m["value"] for m in last(t, "trinity.move_rolled").data["mods"]}


def fire(t: Table, faces, weapon="pistol", opponent="Cultist", move="open_fire"):
    t.move("ann", "Aria", move, opponent, faces=faces, weapon=weapon)
    return last(t, "trinity.move_rolled").data


# --- rolls ----------------------------------------------------------------------------------------


@pytest.mark.rule("TC-R-1")
@pytest.mark.parametrize(
    ("total", "band"), [(2, "miss"), (6, "miss"), (7, "weak"), (9, "weak"), (10, "strong")]
)
def test_TC_R_1_three_bands(total: int, band: str):
    assert result_of(total) == band


@pytest.mark.rule("TC-R-1")
def test_TC_R_1_a_move_rolls_2d6_plus_the_stat_and_the_log_shows_the_faces(fight: Table):
    data = fire(fight, (3, 2))
    assert data["roll"]["terms"][0]["faces"] == [3, 2]
    assert data["roll"]["expression"] == "2d6+2"
    assert data["total"] == 7 and data["result"] == "weak"
    assert "2d6 [3, 2] +2 (Quickness) = 7 (7-9)" in fight.texts([last(fight, "trinity.move_rolled")])[0]


@pytest.mark.rule("TC-R-2")
@pytest.mark.parametrize("value", [-2, 4])
def test_TC_R_2_stats_run_from_minus_one_to_plus_three(table: Table, value: int):
    message = table.refused("gm", "trinity.setup_character", InputError, character="Brick", power=value)
    assert "Power must be" in message


@pytest.mark.rule("TC-R-2")
def test_TC_R_2_the_four_stats(table: Table):
    table.do("gm", "trinity.setup_character", character="Brick", power=3, quickness=-1, cool=2, wits=0)
    brick = table.char("Brick")
    assert (brick.power, brick.quickness, brick.cool, brick.wits) == (3, -1, 2, 0)


@pytest.mark.rule("TC-R-3")
def test_TC_R_3_every_modifier_is_listed_part_by_part(table: Table):
    t = table.fight(advantage="team", aria_cultist="close")
    t.do("gm", "trinity.add_karma", pool="good", amount=2)
    t.do("gm", "trinity.add_karma", pool="bad", amount=1)
    t.do("gm", "trinity.inflict", character="Aria", harm=6, armour=False)  # wounded
    t.do("gm", "trinity.shift", character="Aria", value=-1)
    # an opening from Brick
    t.move("ben", "Brick", "press_home", "Ghoul")
    t.answer("ben", "karma", "0")
    t.answer("gm", "karma", "0", faces=(5, 6))
    t.keep_luck("ben")
    t.answer("ben", "effect", f"opening:{t.pid('Aria')}")
    t.move("ann", "Aria", "open_fire", "Cultist", weapon="pistol")
    t.answer("ann", "karma", "2")
    t.answer("gm", "karma", "1", faces=(4, 5))
    data = last(t, "trinity.move_rolled").data
    assert [(m["key"], m["value"]) for m in data["mods"]] == [
        ("stat", 2),
        ("advantage", 1),
        ("good_karma", 2),
        ("bad_karma", -1),
        ("wounded", -1),
        ("close_tag", -1),
        ("opening", 1),
        ("shift", -1),
    ]
    assert data["total"] == 9 + 2
    assert data["roll"]["modifier"] == 2


@pytest.mark.rule("TC-R-3")
def test_TC_R_3_traumatised_weighs_on_cool_and_wits_not_on_power(table: Table):
    t = table.fight()
    t.do("gm", "trinity.inflict", character="Brick", stress=2)
    t.move("ben", "Brick", "go_toe_to_toe", "Ghoul", faces=(3, 3))
    assert "traumatised" not in mods_of(t)
    assert "traumatised" in t.char("Brick").conditions


# --- doubles (TC-R-4) -----------------------------------------------------------------------------


@pytest.mark.rule("TC-R-4")
@pytest.mark.parametrize(("face", "value"), [(2, -2), (3, -1), (4, 1), (5, 2)])
def test_TC_R_4_doubles_change_the_next_move_if_it_is_the_same(fight: Table, face: int, value: int):
    fire(fight, (face, face))
    fight.keep_luck("ann")
    if fight.has_prompt("effect"):
        fight.answer("ann", "effect", "harm_minus")
    if fight.has_prompt("band"):
        fight.answer("gm", "band", "stay")
    assert fight.char("Aria").follow_up.value == value
    fire(fight, (1, 3))
    assert mods_of(fight)["doubles"] == value
    assert fight.char("Aria").follow_up is None


@pytest.mark.rule("TC-R-4")
def test_TC_R_4_a_different_next_move_gets_nothing_and_the_follow_up_is_gone(fight: Table):
    fire(fight, (5, 5))
    fight.keep_luck("ann")
    fight.answer("ann", "effect", "harm_plus")
    fight.move("ann", "Aria", "go_toe_to_toe", "Ghoul", faces=(1, 3))
    assert "doubles" not in mods_of(fight)
    assert fight.char("Aria").follow_up is None


@pytest.mark.rule("TC-R-4")
def test_TC_R_4_double_ones_let_the_gm_add_a_negative_tag(fight: Table):
    fire(fight, (1, 1))
    fight.keep_luck("ann")
    fight.answer("gm", "band", "stay")
    prompt = fight.prompt("tag")
    assert prompt.to == "gm"
    fight.do("gm", "trinity.tag", prompt=prompt.id, choice="add", text="slick-floor")
    assert [(x.text, x.positive) for x in fight.t.tags] == [("slick-floor", False)]
    assert not fight.has_prompt("tag")


@pytest.mark.rule("TC-R-4")
def test_TC_R_4_double_sixes_let_the_player_add_a_positive_tag(fight: Table):
    fire(fight, (6, 6))
    fight.keep_luck("ann")
    fight.answer("ann", "effect", "harm_plus")
    prompt = fight.prompt("tag")
    assert prompt.to == fight.pid("Aria")
    fight.do("ann", "trinity.tag", prompt=prompt.id, choice="add", text="high-ground")
    assert [(x.text, x.positive) for x in fight.t.tags] == [("high-ground", True)]
    fight.do("gm", "trinity.remove_tag", tag="high-ground")
    assert fight.t.tags == ()


@pytest.mark.rule("TC-R-4")
def test_TC_R_4_a_tag_may_be_skipped(fight: Table):
    fire(fight, (6, 6))
    fight.keep_luck("ann")
    fight.answer("ann", "effect", "harm_plus")
    fight.answer("ann", "tag", "skip")
    assert fight.t.tags == () and not fight.has_prompt("tag")


@pytest.mark.rule("TC-R-4")
def test_TC_R_4_doubles_are_a_setting(table: Table):
    t = Table(settings={"doubles": False}).cast().fight()
    fire(t, (2, 2))
    t.keep_luck("ann")
    t.answer("gm", "band", "stay")
    assert t.char("Aria").follow_up is None
    fire(t, (1, 3))
    assert "doubles" not in mods_of(t)


# --- 12+ (TC-R-5) ---------------------------------------------------------------------------------


@pytest.mark.rule("TC-R-5")
def test_TC_R_5_twelve_plus_is_ten_plus_for_combat_moves(table: Table):
    t = table.fight(advantage="team")
    t.move("ann", "Aria", "aim", "Cultist", faces=(6, 5), weapon="rifle")  # 11 + 3 = 14
    data = last(t, "trinity.move_rolled").data
    assert data["total"] == 14 and data["result"] == "strong"
    t.keep_luck("ann")
    assert t.prompt("effect").text.startswith("Aim 10+")


# --- range bands ----------------------------------------------------------------------------------


@pytest.mark.rule("TC-B-1")
def test_TC_B_1_each_player_has_their_own_band_to_each_opponent(fight: Table):
    board = {
        (b["character_name"], b["opponent_name"]): b["band"] for b in fight.view("ann")["system"]["board"]
    }
    assert board == {
        ("Aria", "Cultist"): "medium",
        ("Aria", "Ghoul"): "close",
        ("Brick", "Cultist"): "long",
        ("Brick", "Ghoul"): "close",
    }


@pytest.mark.rule("TC-B-1")
def test_TC_B_1_the_gm_sets_a_band_and_unset_pairs_take_the_default(table: Table):
    table.do("gm", "campaign.encounter.prepare", name="Alley", participants=["Aria", "Cultist"])
    table.do("gm", "campaign.encounter.start", encounter="Alley")
    assert table.view("ann")["system"]["board"][0]["band"] == "medium"
    table.do("gm", "trinity.set_band", character="Aria", opponent="Cultist", band="long")
    assert table.view("ann")["system"]["board"][0]["band"] == "long"
    assert "already" in table.refused(
        "gm", "trinity.set_band", character="Aria", opponent="Cultist", band="long"
    )


def _second_fight(table: Table) -> None:
    table.do("gm", "campaign.encounter.end")
    table.do(
        "gm", "campaign.encounter.prepare", name="Docks", participants=["Aria", "Brick", "Cultist", "Ghoul"]
    )
    table.do("gm", "campaign.encounter.start", encounter="Docks")


def _bands(table: Table) -> dict[tuple[str, str], str]:
    return {(b["character_name"], b["opponent_name"]): b["band"] for b in table.view("gm")["system"]["board"]}


@pytest.mark.rule("TC-B-1")
def test_TC_B_1_a_new_combat_never_inherits_the_last_ones_bands(table: Table):
    table.fight()
    table.do("gm", "trinity.set_band", character="Aria", opponent="Ghoul", band="long")
    _second_fight(table)
    assert set(_bands(table).values()) == {"medium"}  # every pair at the default band, none left at long


@pytest.mark.rule("TC-B-1")
def test_TC_B_1_bands_set_between_fights_and_by_the_set_up_start_the_next_one(table: Table):
    table.fight()
    table.do("gm", "campaign.encounter.end")
    table.do("gm", "trinity.set_band", character="Brick", opponent="Ghoul", band="long")  # preparing
    setup = {"bands": [{"character": "Aria", "opponent": "Cultist", "band": "close"}]}
    table.do(
        "gm",
        "campaign.encounter.prepare",
        name="Docks",
        participants=["Aria", "Brick", "Cultist", "Ghoul"],
        setup=setup,
    )
    table.do("gm", "campaign.encounter.start", encounter="Docks")
    bands = _bands(table)
    assert bands[("Brick", "Ghoul")] == "long" and bands[("Aria", "Cultist")] == "close"
    assert bands[("Aria", "Ghoul")] == bands[("Brick", "Cultist")] == "medium"


@pytest.mark.rule("TC-B-1")
def test_TC_B_1_under_the_older_ruling_the_bands_carry_over():
    table = Table(settings={"bands_carry_over": True}).cast().fight()
    table.do("gm", "trinity.set_band", character="Aria", opponent="Ghoul", band="long")
    _second_fight(table)
    assert _bands(table)[("Aria", "Ghoul")] == "long" and _bands(table)[("Brick", "Cultist")] == "long"


@pytest.mark.rule("TC-B-1")
def test_TC_B_1_a_set_up_naming_a_stranger_is_refused(table: Table):
    message = table.refused(
        "gm",
        "campaign.encounter.prepare",
        name="X",
        setup={"bands": [{"character": "Cultist", "opponent": "Ghoul", "band": "close"}]},
    )
    assert "no character sheet" in message
    bad = table.refused(
        "gm", "campaign.encounter.prepare", InputError, name="X", setup={"bands": [{"band": "near"}]}
    )
    assert bad.startswith("Set-up:")


@pytest.mark.rule("TC-B-2")
def test_TC_B_2_melee_moves_need_the_close_band(fight: Table):
    message = fight.refused("ann", "trinity.move", character="Aria", move="go_toe_to_toe", opponent="Cultist")
    assert "close band" in message and "TC-B-2" in message
    option = fight.option("ann", f"go_toe_to_toe-{fight.pid('Aria')}-{fight.pid('Cultist')}-none")
    assert not option.enabled and "TC-B-2" in option.reason


@pytest.mark.rule("TC-B-2")
def test_TC_B_2_a_melee_move_takes_a_melee_weapon_or_none(fight: Table):
    message = fight.refused(
        "ann", "trinity.move", character="Aria", move="go_toe_to_toe", opponent="Ghoul", weapon="pistol"
    )
    assert "melee weapon" in message
    fight.move("ann", "Aria", "go_toe_to_toe", "Ghoul", faces=(2, 4))  # unarmed: harm 1 (setting)
    fight.keep_luck("ann")
    assert last(fight, "trinity.opponent_harmed").data["incoming"] == 1


@pytest.mark.rule("TC-B-3")
def test_TC_B_3_a_move_is_exactly_one_band(fight: Table):
    fight.move("ben", "Brick", "go_toe_to_toe", "Ghoul", faces=(1, 1))
    fight.keep_luck("ben")
    assert [c.key for c in fight.prompt("band").choices] == ["further", "stay"]  # close: no closer
    fight.answer("gm", "band", "further")
    assert fight.t.band(fight.pid("Brick"), fight.pid("Ghoul"), "long") == "medium"


@pytest.mark.rule("TC-B-3")
def test_TC_B_3_from_long_there_is_no_further(fight: Table):
    fight.do("gm", "trinity.add_karma", pool="good", amount=0 + 1)
    fight.do("gm", "trinity.set_band", character="Aria", opponent="Cultist", band="long")
    fight.do(
        "gm", "trinity.setup_character", character="Aria", quickness=2, weapons=[{**RIFLE, "tags": ["long"]}]
    )
    fight.move("ann", "Aria", "open_fire", "Cultist", weapon="rifle")
    fight.answer("ann", "karma", "0", faces=(4, 6))
    fight.keep_luck("ann")
    assert fight.choices("effect") == ["harm_plus", "harm_minus", "closer"]


# --- weapons --------------------------------------------------------------------------------------


@pytest.mark.rule("TC-W-1")
@pytest.mark.parametrize(("weapon", "opponent"), [("rifle", "Ghoul"), ("pistol", "Cultist")])
def test_TC_W_1_a_weapon_fires_only_in_the_bands_it_has_a_tag_for(fight: Table, weapon: str, opponent: str):
    fight.do("gm", "trinity.set_band", character="Aria", opponent="Cultist", band="long")
    message = fight.refused(
        "ann", "trinity.move", character="Aria", move="open_fire", opponent=opponent, weapon=weapon
    )
    assert "cannot be used at" in message and "TC-W-1" in message


@pytest.mark.rule("TC-W-1")
def test_TC_W_1_a_ranged_move_needs_a_ranged_weapon(fight: Table):
    message = fight.refused("ben", "trinity.move", character="Brick", move="open_fire", opponent="Ghoul")
    assert "ranged weapon" in message
    option = fight.option("ben", f"open_fire-{fight.pid('Brick')}-{fight.pid('Ghoul')}-none")
    assert not option.enabled and "ranged weapon" in option.reason
    bad = fight.refused(
        "ben", "trinity.move", character="Brick", move="open_fire", opponent="Ghoul", weapon="knife"
    )
    assert "ranged weapon" in bad


@pytest.mark.rule("TC-W-2")
def test_TC_W_2_the_close_tag_at_close_range_is_minus_one_on_open_fire(fight: Table):
    fire(fight, (3, 4), opponent="Ghoul")
    assert mods_of(fight)["close_tag"] == -1


@pytest.mark.rule("TC-W-2")
def test_TC_W_2_a_character_may_ignore_the_close_tag(table: Table):
    table.do(
        "gm",
        "trinity.setup_character",
        character="Aria",
        quickness=2,
        weapons=[PISTOL],
        ignores_close_penalty=True,
    )
    t = table.fight()
    fire(t, (3, 4), opponent="Ghoul")
    assert "close_tag" not in mods_of(t)


@pytest.mark.rule("TC-W-2")
def test_TC_W_2_the_penalty_is_on_open_fire_only_not_aim(table: Table):
    t = table.fight(advantage="team")
    fire(t, (3, 4), opponent="Ghoul", move="aim")
    assert "close_tag" not in mods_of(t)


@pytest.mark.rule("TC-W-3")
@pytest.mark.parametrize("move", ["open_fire", "aim"])
@pytest.mark.parametrize("faces", [(1, 2), (2, 3), (3, 5)])
def test_TC_W_3_every_shot_spends_one_ammo_on_every_band(table: Table, move: str, faces):
    t = table.fight(advantage="team")
    fire(t, faces, move=move)
    t.keep_luck("ann")
    if t.has_prompt("effect"):
        t.answer("ann", "effect", "harm_plus")
    assert t.char("Aria").weapon("pistol").ammo == 5


@pytest.fixture
def empty() -> Table:
    t = Table().cast()
    t.do(
        "gm",
        "trinity.setup_character",
        character="Aria",
        quickness=2,
        weapons=[{**PISTOL, "ammo": 1, "capacity": 6, "spares": 1}, {**RIFLE, "ammo": 0, "spares": 0}],
    )
    return t.fight()


@pytest.mark.rule("TC-W-4")
def test_TC_W_4_an_empty_weapon_with_spares_must_be_reloaded(empty: Table):
    fire(empty, (3, 4))
    empty.keep_luck("ann")
    assert empty.char("Aria").weapon("pistol").ammo == 0
    message = empty.refused(
        "ann", "trinity.move", character="Aria", move="open_fire", opponent="Cultist", weapon="pistol"
    )
    assert "reload first" in message and "TC-W-4" in message
    aria = empty.pid("Aria")
    assert empty.option("ann", f"reload-{aria}-w1").enabled
    empty.do("ann", "trinity.reload", character="Aria", weapon="pistol")
    pistol = empty.char("Aria").weapon("pistol")
    assert (pistol.ammo, pistol.spares) == (6, 0)
    assert empty.option("ann", f"open_fire-{aria}-{empty.pid('Cultist')}-w1").enabled


@pytest.mark.rule("TC-W-4")
def test_TC_W_4_reload_only_when_empty(empty: Table):
    assert "still has 1 ammo" in empty.refused("ann", "trinity.reload", character="Aria", weapon="pistol")


@pytest.mark.rule("TC-W-4")
def test_TC_W_4_empty_with_no_spares_cannot_fire(empty: Table):
    message = empty.refused(
        "ann", "trinity.move", character="Aria", move="open_fire", opponent="Cultist", weapon="rifle"
    )
    assert "no spare ammo" in message
    assert "no spare ammo" in empty.refused("ann", "trinity.reload", character="Aria", weapon="rifle")
    option = empty.option("ann", f"reload-{empty.pid('Aria')}-w2")
    assert not option.enabled


# --- advantage ------------------------------------------------------------------------------------


@pytest.mark.rule("TC-A-1")
def test_TC_A_1_nobody_has_advantage_at_the_start_unless_the_gm_says(fight: Table):
    assert fight.t.advantage == "none"
    t = Table().cast().fight(advantage="team")
    assert t.t.advantage == "team"
    t.do("gm", "trinity.set_advantage", advantage="enemy")
    assert t.t.advantage == "enemy"
    t.do("gm", "campaign.encounter.end")
    assert t.t.advantage == "none"
    assert "start an encounter" in t.refused("gm", "trinity.set_advantage", advantage="team")


@pytest.mark.rule("TC-A-2")
@pytest.mark.parametrize(("advantage", "value"), [("team", 1), ("enemy", -1)])
def test_TC_A_2_advantage_is_plus_or_minus_one_on_every_player_move(table: Table, advantage: str, value: int):
    t = table.fight(advantage=advantage)
    t.move("ben", "Brick", "go_toe_to_toe", "Ghoul", faces=(3, 4))
    assert mods_of(t)["advantage"] == value


@pytest.mark.rule("TC-A-2")
def test_TC_A_2_no_advantage_no_modifier(fight: Table):
    fire(fight, (3, 4))
    assert "advantage" not in mods_of(fight)


@pytest.mark.rule("TC-A-3")
@pytest.mark.parametrize(("who", "character", "move", "opponent", "weapon"), [
    ("ben", "Brick", "press_home", "Ghoul", None), ("ann", "Aria", "aim", "Cultist", "rifle")])  # fmt: skip
def test_TC_A_3_press_home_and_aim_need_team_advantage(fight: Table, who, character, move, opponent, weapon):
    fields = {"character": character, "move": move, "opponent": opponent}
    if weapon:
        fields["weapon"] = weapon
    message = fight.refused(who, "trinity.move", **fields)
    assert "team to have advantage" in message and "TC-A-3" in message


@pytest.mark.rule("TC-A-3")
@pytest.mark.parametrize(("who", "character", "move", "opponent"), [
    ("ben", "Brick", "stand_ground", "Ghoul"), ("ann", "Aria", "take_cover", "Cultist")])  # fmt: skip
def test_TC_A_3_stand_ground_and_take_cover_need_enemy_advantage(
    fight: Table, who, character, move, opponent
):
    message = fight.refused(who, "trinity.move", character=character, move=move, opponent=opponent)
    assert "enemy has advantage" in message


@pytest.mark.rule("TC-A-3")
def test_TC_A_3_stand_ground_answers_melee_and_take_cover_ranged(table: Table):
    t = table.fight(advantage="enemy", aria_cultist="close")
    assert "melee attack" in t.refused(
        "ann", "trinity.move", character="Aria", move="stand_ground", opponent="Cultist"
    )
    assert "ranged attack" in t.refused(
        "ann", "trinity.move", character="Aria", move="take_cover", opponent="Ghoul"
    )


def test_a_knife_is_a_melee_weapon_without_tags():
    t = Table().cast()
    bad = t.refused(
        "gm", "trinity.setup_character", InputError, character="Brick", weapons=[{**KNIFE, "tags": ["close"]}]
    )
    assert "melee weapon" in bad
    assert "range tag" in t.refused(
        "gm", "trinity.setup_character", InputError, character="Brick", weapons=[{"name": "bow", "harm": 1}]
    )
    with pytest.raises(RuleError):
        t.do("gm", "trinity.setup_opponent", opponent="Aria")
