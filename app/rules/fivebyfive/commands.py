"""The command table of `fivebyfive.*`: the GM's set-up, the round, and the answers to prompts."""

from __future__ import annotations

from app.rules.contract.commands import CommandSpec, command, command_table
from app.rules.fivebyfive import combat, hits, importer, sheets

_TABLE: list[CommandSpec] = [
    command(sheets.SetSheet, sheets.set_sheet, "Set a character's 5x5 sheet", gm_only=True),
    command(sheets.SetShift, sheets.set_shift, "Shift a Rank for circumstances", gm_only=True),
    command(sheets.SetBoard, sheets.set_board, "Set the tabletop's size", gm_only=True),
    command(sheets.AddTerrain, sheets.add_terrain, "Place terrain", gm_only=True),
    command(sheets.RemoveTerrain, sheets.remove_terrain, "Remove terrain", gm_only=True),
    command(sheets.Place, sheets.place, "Place a token", gm_only=True),
    command(
        importer.ImportTable, importer.import_table, "Import characters, the table and terrain", gm_only=True
    ),
    command(
        combat.RollInitiative,
        combat.roll_initiative,
        "Roll Initiative for the round",
        gm_only=True,
        rolls=True,
    ),
    command(combat.Move, combat.move, "Move"),
    command(combat.Strike, combat.attack, "Strike", rolls=True),
    command(combat.Aim, combat.attack, "Aim", rolls=True),
    command(combat.Focus, combat.attack, "Focus", rolls=True),
    command(combat.EndTurn, combat.end_turn, "End the turn"),
    command(hits.Control, hits.control, "Control the Hit", rolls=True),
    command(hits.Damage, hits.damage, "Choose the Ability a hit reduces"),
    command(hits.VictoryRush, hits.victory_rush, "Take the Victory Rush"),
]

COMMANDS = command_table(_TABLE)
