"""The command table of `generic.*`."""

from app.rules.contract.commands import CommandSpec, command, command_table
from app.rules.generic.commands import CreatePreset, RemovePreset, Roll, create_preset, remove_preset, roll
from app.rules.generic.counters import (
    AdjustPool,
    AdjustTrack,
    CreatePool,
    CreateTrack,
    RemovePool,
    RemoveTrack,
    SetPool,
    SetTrack,
    adjust_pool,
    adjust_track,
    create_pool,
    create_track,
    remove_pool,
    remove_track,
    set_pool,
    set_track,
)
from app.rules.generic.initiative import (
    AddInitiative,
    ClearInitiative,
    NextTurn,
    RemoveInitiative,
    RollInitiative,
    SetInitiative,
    add_initiative,
    clear_initiative,
    next_turn,
    remove_initiative,
    roll_initiative,
    set_initiative,
)

_TABLE: list[CommandSpec] = [
    command(Roll, roll, "Roll dice", rolls=True),
    command(CreatePreset, create_preset, "Add a roll button", gm_only=True),
    command(RemovePreset, remove_preset, "Remove a roll button", gm_only=True),
    command(CreatePool, create_pool, "Create a pool", gm_only=True),
    command(AdjustPool, adjust_pool, "Adjust a pool"),
    command(SetPool, set_pool, "Set a pool", gm_only=True),
    command(RemovePool, remove_pool, "Remove a pool", gm_only=True),
    command(CreateTrack, create_track, "Create a track", gm_only=True),
    command(AdjustTrack, adjust_track, "Adjust a track"),
    command(SetTrack, set_track, "Set a track"),
    command(RemoveTrack, remove_track, "Remove a track", gm_only=True),
    command(SetInitiative, set_initiative, "Set the initiative order", gm_only=True),
    command(AddInitiative, add_initiative, "Add to the initiative order", gm_only=True),
    command(RemoveInitiative, remove_initiative, "Take out of the initiative order", gm_only=True),
    command(RollInitiative, roll_initiative, "Roll initiative", gm_only=True, rolls=True),
    command(NextTurn, next_turn, "Move to the next turn"),
    command(ClearInitiative, clear_initiative, "Clear the initiative order", gm_only=True),
]

COMMANDS = command_table(_TABLE)

__all__ = ["COMMANDS"]
