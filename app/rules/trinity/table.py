"""The command table and the encounter set-up of the Trinity Code."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.rules.campaign.state import CampaignState
from app.rules.errors import InputError, RuleError
from app.rules.system import CommandRow, command_table, explain
from app.rules.trinity import care, gm, setup
from app.rules.trinity import commands as mv
from app.rules.trinity.state import RangeBand, ext

# (model, decide, summary, gm_only, rolls)
_TABLE: list[CommandRow] = [
    (mv.DeclareMove, mv.declare, "Make a combat move", False, True),
    (mv.Karma, mv.karma, "Grab karma or pass", False, True),
    (mv.Luck, mv.luck, "Spend Luck or keep the result", False, True),
    (mv.Effect, mv.effect, "Pick a 10+ effect", False, False),
    (mv.BandMove, mv.band_move, "Move an opponent one band", True, False),
    (mv.CheatDeath, mv.cheat_death, "Cheat death", False, True),
    (mv.FaceDemons, mv.face_demons, "Face your demons", False, True),
    (mv.Tag, mv.tag, "Add an environment tag", False, False),
    (mv.Cancel, mv.cancel, "Call off a move before its roll", True, False),
    (mv.Reload, mv.reload, "Reload a weapon", False, False),
    (mv.SpendGood, mv.spend_good, "Spend a Good karma point on a special effect", False, False),
    (gm.SetupCharacter, gm.setup_character, "Set up a character's sheet", True, False),
    (gm.SetupOpponent, gm.setup_opponent, "Set up an opponent", True, False),
    (gm.SetBand, gm.set_band, "Set a range band", True, False),
    (gm.SetAdvantage, gm.set_advantage, "Set advantage", True, False),
    (gm.Shift, gm.shift, "Shift a character's next move", True, False),
    (gm.AddKarma, gm.add_karma, "Add karma to a pool", True, False),
    (gm.Inflict, gm.inflict, "Inflict harm or stress", True, False),
    (gm.SetCondition, gm.set_condition, "Mark or clear dead or lost", True, False),
    (care.TimePasses, care.time_passes, "Let time pass", True, False),
    (care.Safe, care.safe, "Declare a character safe", True, False),
    (care.NewInvestigation, care.new_investigation, "Start a new Investigation", True, False),
    (gm.GrantLuck, gm.grant_luck, "Grant Luck", True, False),
    (gm.RepairArmour, gm.repair_armour, "Repair armour", True, False),
    (gm.RemoveTag, gm.remove_tag, "Remove an environment tag", True, False),
    (care.UseItem, care.use_item, "Use an item", False, False),
    (setup.GiveWeapon, setup.give_weapon, "Give a character a weapon", True, False),
    (setup.GiveArmour, setup.give_armour, "Give a character armour", True, False),
    (setup.GiveItem, setup.give_item, "Give a character an item", True, False),
    (setup.DropGear, setup.drop_gear, "Take a weapon, item or armour away", True, False),
    (setup.Import, setup.import_sheets, "Import characters and opponents from JSON", True, False),
]

COMMANDS = command_table(_TABLE)


class _BandIn(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    character: str
    opponent: str
    band: RangeBand


class EncounterSetup(BaseModel):
    """TC-B-1 and TC-A-1: the bands the GM sets at the start, and who starts with advantage."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    advantage: Literal["none", "team", "enemy"] = "none"
    bands: tuple[_BandIn, ...] = Field(default=(), max_length=400)


def parse_setup(state: CampaignState, setup: dict[str, Any]) -> dict[str, Any]:
    try:
        parsed = EncounterSetup.model_validate(setup)
    except ValidationError as error:
        raise InputError(explain(error, prefix="Set-up: ")) from None
    t = ext(state)
    bands = []
    for item in parsed.bands:
        c, o = state.participant(item.character), state.participant(item.opponent)
        if t.character(c.id) is None:
            raise RuleError(f"{c.name} has no character sheet: set one up before giving them a band.")
        if t.opponent(o.id) is None:
            raise RuleError(f"{o.name} has no opponent sheet: set one up before giving it a band.")
        bands.append({"character": c.id, "opponent": o.id, "band": item.band})
    return {"advantage": parsed.advantage, "bands": bands}
