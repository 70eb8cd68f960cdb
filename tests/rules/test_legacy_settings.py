"""Campaigns recorded before a ruling became a setting keep the ruling they were played with.

The settings below are copied from `campaign.created` events as the code wrote them before issue 15 (the
seed's defaults): they lack the new keys, so they are upcast to the older rulings, on every path a
stored campaign is read by (its first event, a later settings change, a snapshot).
"""

from __future__ import annotations

import pytest

from app.rules import registry
from app.rules.system import Event

RECORDED = {
    "fivebyfive": {
        "strike_reach": 1.0,
        "unskilled_ability_minus_one": True,
        "fog_of_war": True,
        "fallen_can_be_targeted": False,
    },
    "tote": {
        "keep_die": "highest",
        "double_six": "critical",
        "armour_adds_to": "resist",
        "short_initiative": "spend_to_zero",
        "defend_responses": "one",
        "enemy_injuries_block_faces": True,
        "show_enemy_numbers": False,
    },
    "trinity": {
        "doubles": True,
        "karma_window": "when_points",
        "luck_per_move": 1,
        "unarmed_harm": 1,
        "default_band": "medium",
    },
}
OLD_RULINGS = {
    "fivebyfive": {
        "unskilled_ability_minus_one": True,
        "twenty_five_always_fails": True,
        "unskilled_focus_forbidden": True,
    },
    "tote": {"double_six": "critical"},
    "trinity": {"bands_carry_over": True, "harm_wake_from_limit": True, "stress_reset_from_limit": True},
}


def created(system: str, settings: dict) -> Event:
    data = {"id": "c1", "name": "Old table", "system": system, "dice_mode": "server", "settings": settings}
    return Event(seq=1, type="campaign.created", data=data, actor=None, batch=1, at="2026-11-20T20:00:00Z")


@pytest.mark.rule("TC-B-1", "TC-H-5", "TC-S-2", "TO-D-4", "FX-D-2", "FX-D-4", "FX-O-1")
@pytest.mark.parametrize("system", sorted(RECORDED))
def test_a_campaign_recorded_before_the_change_keeps_its_old_rulings(system: str):
    game = registry.game(system)
    state = game.replay(None, [created(system, RECORDED[system])])
    parsed = game.system.settings_model.model_validate(state.settings)
    for key, value in OLD_RULINGS[system].items():
        assert getattr(parsed, key) == value, key


@pytest.mark.parametrize("system", sorted(RECORDED))
def test_a_new_campaign_plays_by_the_seed(system: str):
    game = registry.game(system)
    state = game.replay(None, [created(system, game.default_settings())])
    parsed = game.system.settings_model.model_validate(state.settings)
    for key, value in OLD_RULINGS[system].items():
        assert getattr(parsed, key) != value, key


@pytest.mark.parametrize("system", sorted(RECORDED))
def test_an_old_snapshot_and_an_old_settings_change_are_upcast_too(system: str):
    game = registry.game(system)
    state = game.replay(None, [created(system, game.default_settings())])
    snapshot = game.dump(state) | {"settings": RECORDED[system]}
    loaded = game.system.settings_model.model_validate(game.load(snapshot).settings)
    changed = Event(
        seq=2,
        type="campaign.settings_changed",
        data={"settings": RECORDED[system]},
        actor=None,
        batch=2,
        at="2026-11-20T20:01:00Z",
    )
    after = game.system.settings_model.model_validate(game.replay(state, [changed]).settings)
    for key, value in OLD_RULINGS[system].items():
        assert getattr(loaded, key) == value and getattr(after, key) == value, key
