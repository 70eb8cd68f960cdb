"""The command table of `fivebyfive.*`: the GM's set-up, the round, and the answers to prompts."""

from __future__ import annotations

from app.rules.fivebyfive import combat, hits, importer, sheets
from app.rules.system import CommandRow, command_table

# (model, decide, summary, gm_only, rolls)
_TABLE: list[CommandRow] = [
    (sheets.SetSheet, sheets.set_sheet, "Set a character's 5x5 sheet", True, False),
    (sheets.SetShift, sheets.set_shift, "Shift a Rank for circumstances", True, False),
    (sheets.SetBoard, sheets.set_board, "Set the tabletop's size", True, False),
    (sheets.AddTerrain, sheets.add_terrain, "Place terrain", True, False),
    (sheets.RemoveTerrain, sheets.remove_terrain, "Remove terrain", True, False),
    (sheets.Place, sheets.place, "Place a token", True, False),
    (importer.ImportTable, importer.import_table, "Import characters, the table and terrain", True, False),
    (combat.RollInitiative, combat.roll_initiative, "Roll Initiative for the round", True, True),
    (combat.Move, combat.move, "Move", False, False),
    (combat.Strike, combat.attack, "Strike", False, True),
    (combat.Aim, combat.attack, "Aim", False, True),
    (combat.Focus, combat.attack, "Focus", False, True),
    (combat.EndTurn, combat.end_turn, "End the turn", False, False),
    (hits.Control, hits.control, "Control the Hit", False, True),
    (hits.Damage, hits.damage, "Choose the Ability a hit reduces", False, False),
    (hits.VictoryRush, hits.victory_rush, "Take the Victory Rush", False, False),
]

COMMANDS = command_table(_TABLE)
