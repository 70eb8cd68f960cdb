"""The command table: every `triptycho.*` command, its decider, and who may send it."""

from __future__ import annotations

from app.rules.system import CommandRow, command_table
from app.rules.triptycho import cmd_combat, cmd_maps, cmd_setup, cmd_turn

# (model, decide, summary, gm_only, rolls)
_TABLE: list[CommandRow] = [
    (cmd_maps.SaveMap, cmd_maps.save_map, "Save a battle map", True, False),
    (cmd_maps.DeleteMap, cmd_maps.delete_map, "Delete a saved map", True, False),
    (cmd_maps.LoadMap, cmd_maps.load_map, "Put a saved map on the table", True, False),
    (cmd_maps.SetSection, cmd_maps.set_section, "Change a section's light or water", True, False),
    (cmd_maps.SetBorder, cmd_maps.set_border, "Change a border", True, False),
    (cmd_setup.SetUp, cmd_setup.setup, "Set a character's sheet and cards", True, False),
    (cmd_setup.AddEntity, cmd_setup.add_entity, "Add a character or adversary with its sheet", True, False),
    (cmd_setup.Import, cmd_setup.import_characters, "Import characters and cards as JSON", True, False),
    (cmd_setup.Place, cmd_setup.place, "Place a character on the map", True, False),
    (cmd_setup.Push, cmd_setup.push, "Push a character", True, True),
    (cmd_setup.SetCondition, cmd_setup.set_condition, "Set or clear a condition", True, False),
    (cmd_setup.Damage, cmd_setup.damage, "Deal damage or heal", True, True),
    (cmd_setup.FarBlock, cmd_setup.far_block, "Block a border at a distance", True, False),
    (cmd_setup.FarUnblock, cmd_setup.far_unblock, "Lower a block at a distance", True, False),
    (cmd_setup.Deal, cmd_setup.deal, "Shuffle the decks and deal hands", True, True),
    (cmd_setup.Charge, cmd_setup.charge, "Grant Incantation charges", True, False),
    (cmd_setup.GrantMove, cmd_setup.grant_move, "Grant a Move", True, False),
    (cmd_setup.Acrobatics, cmd_setup.acrobatics, "Call for an Acrobatics check", True, True),
    (cmd_setup.RollInitiative, cmd_setup.roll_initiative, "Roll initiative", True, True),
    (cmd_turn.Draw, cmd_turn.draw, "Draw to start the turn", False, True),
    (cmd_turn.Strategy, cmd_turn.strategy, "Use the Strategy Phase", False, True),
    (cmd_turn.RaiseBlock, cmd_turn.raise_block, "Block a border", False, False),
    (cmd_turn.LowerBlock, cmd_turn.lower_block, "Lower a block", False, False),
    (cmd_turn.Pass, cmd_turn.pass_phase, "Skip a phase", False, False),
    (cmd_turn.Incant, cmd_turn.incant, "Begin incanting", False, False),
    (cmd_turn.Discard, cmd_turn.discard, "Discard and end the turn", False, False),
    (cmd_turn.Next, cmd_turn.next_turn_cmd, "Move the turn order on", False, False),
    (cmd_turn.Order, cmd_turn.order, "Set the turn order by hand", True, False),
    (cmd_turn.Move, cmd_turn.move, "Move", False, True),
    (cmd_turn.Climb, cmd_turn.climb, "Climb", False, True),
    (cmd_turn.LetGo, cmd_turn.let_go, "Let go while climbing", False, True),
    (cmd_turn.Dive, cmd_turn.dive, "Dive or surface", False, False),
    (cmd_combat.Act, cmd_combat.act, "Play an Action", False, True),
    (cmd_combat.React, cmd_combat.react, "Choose a Reaction", False, True),
    (cmd_combat.Intercept, cmd_combat.intercept, "Intercept an attack", False, True),
]

COMMANDS = command_table(_TABLE)
