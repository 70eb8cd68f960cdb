"""The command table and the encounter set-up of the Trinity Code."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.rules.campaign.state import CampaignState
from app.rules.contract.commands import CommandSpec, command, command_table
from app.rules.contract.validation import explain
from app.rules.errors import InputError, RuleError
from app.rules.trinity import care, gm, setup
from app.rules.trinity import commands as mv
from app.rules.trinity.state import RangeBand, ext

_TABLE: list[CommandSpec] = [
    command(mv.DeclareMove, mv.declare, "Make a combat move", rolls=True),
    command(mv.Karma, mv.karma, "Grab karma or pass", rolls=True),
    command(mv.Luck, mv.luck, "Spend Luck or keep the result", rolls=True),
    command(mv.Effect, mv.effect, "Pick a 10+ effect"),
    command(mv.BandMove, mv.band_move, "Move an opponent one band", gm_only=True),
    command(mv.CheatDeath, mv.cheat_death, "Cheat death", rolls=True),
    command(mv.FaceDemons, mv.face_demons, "Face your demons", rolls=True),
    command(mv.Tag, mv.tag, "Add an environment tag"),
    command(mv.Cancel, mv.cancel, "Call off a move before its roll", gm_only=True),
    command(mv.Reload, mv.reload, "Reload a weapon"),
    command(mv.SpendGood, mv.spend_good, "Spend a Good karma point on a special effect"),
    command(gm.SetupCharacter, gm.setup_character, "Set up a character's sheet", gm_only=True),
    command(gm.SetupOpponent, gm.setup_opponent, "Set up an opponent", gm_only=True),
    command(gm.SetBand, gm.set_band, "Set a range band", gm_only=True),
    command(gm.SetAdvantage, gm.set_advantage, "Set advantage", gm_only=True),
    command(gm.Shift, gm.shift, "Shift a character's next move", gm_only=True),
    command(gm.AddKarma, gm.add_karma, "Add karma to a pool", gm_only=True),
    command(gm.Inflict, gm.inflict, "Inflict harm or stress", gm_only=True),
    command(gm.SetCondition, gm.set_condition, "Mark or clear dead or lost", gm_only=True),
    command(care.TimePasses, care.time_passes, "Let time pass", gm_only=True),
    command(care.Safe, care.safe, "Declare a character safe", gm_only=True),
    command(care.NewInvestigation, care.new_investigation, "Start a new Investigation", gm_only=True),
    command(gm.GrantLuck, gm.grant_luck, "Grant Luck", gm_only=True),
    command(gm.RepairArmour, gm.repair_armour, "Repair armour", gm_only=True),
    command(gm.RemoveTag, gm.remove_tag, "Remove an environment tag", gm_only=True),
    command(care.UseItem, care.use_item, "Use an item"),
    command(setup.GiveWeapon, setup.give_weapon, "Give a character a weapon", gm_only=True),
    command(setup.GiveArmour, setup.give_armour, "Give a character armour", gm_only=True),
    command(setup.GiveItem, setup.give_item, "Give a character an item", gm_only=True),
    command(setup.DropGear, setup.drop_gear, "Take a weapon, item or armour away", gm_only=True),
    command(setup.Import, setup.import_sheets, "Import characters and opponents from JSON", gm_only=True),
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
