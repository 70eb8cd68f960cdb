"""The command table: every `triptycho.*` command, its decider, and who may send it."""

from __future__ import annotations

from app.rules.contract.commands import CommandSpec, command, command_table
from app.rules.triptycho import cmd_combat, cmd_gm, cmd_maps, cmd_move, cmd_setup, cmd_turn

_TABLE: list[CommandSpec] = [
    command(cmd_maps.SaveMap, cmd_maps.save_map, "Save a battle map", gm_only=True),
    command(cmd_maps.DeleteMap, cmd_maps.delete_map, "Delete a saved map", gm_only=True),
    command(cmd_maps.LoadMap, cmd_maps.load_map, "Put a saved map on the table", gm_only=True),
    command(cmd_maps.SetSection, cmd_maps.set_section, "Change a section's light or water", gm_only=True),
    command(cmd_maps.SetBorder, cmd_maps.set_border, "Change a border", gm_only=True),
    command(cmd_setup.SetUp, cmd_setup.setup, "Set a character's sheet and cards", gm_only=True),
    command(
        cmd_setup.AddEntity, cmd_setup.add_entity, "Add a character or adversary with its sheet", gm_only=True
    ),
    command(
        cmd_setup.Import, cmd_setup.import_characters, "Import characters and cards as JSON", gm_only=True
    ),
    command(cmd_gm.Place, cmd_gm.place, "Place a character on the map", gm_only=True),
    command(cmd_gm.Push, cmd_gm.push, "Push a character", gm_only=True, rolls=True),
    command(cmd_gm.SetCondition, cmd_gm.set_condition, "Set or clear a condition", gm_only=True),
    command(cmd_gm.Damage, cmd_gm.damage, "Deal damage or heal", gm_only=True, rolls=True),
    command(cmd_gm.FarBlock, cmd_gm.far_block, "Block a border at a distance", gm_only=True),
    command(cmd_gm.FarUnblock, cmd_gm.far_unblock, "Lower a block at a distance", gm_only=True),
    command(cmd_gm.Deal, cmd_gm.deal, "Shuffle the decks and deal hands", gm_only=True, rolls=True),
    command(cmd_gm.Charge, cmd_gm.charge, "Grant Incantation charges", gm_only=True),
    command(cmd_gm.GrantMove, cmd_gm.grant_move, "Grant a Move", gm_only=True),
    command(cmd_gm.Acrobatics, cmd_gm.acrobatics, "Call for an Acrobatics check", gm_only=True, rolls=True),
    command(cmd_gm.RollInitiative, cmd_gm.roll_initiative, "Roll initiative", gm_only=True, rolls=True),
    command(cmd_turn.Draw, cmd_turn.draw, "Draw to start the turn", rolls=True),
    command(cmd_turn.Strategy, cmd_turn.strategy, "Use the Strategy Phase", rolls=True),
    command(cmd_turn.RaiseBlock, cmd_turn.raise_block, "Block a border"),
    command(cmd_turn.LowerBlock, cmd_turn.lower_block, "Lower a block"),
    command(cmd_turn.Pass, cmd_turn.pass_phase, "Skip a phase"),
    command(cmd_turn.Incant, cmd_turn.incant, "Begin incanting"),
    command(cmd_turn.Discard, cmd_turn.discard, "Discard and end the turn"),
    command(cmd_turn.Next, cmd_turn.next_turn_cmd, "Move the turn order on"),
    command(cmd_turn.Order, cmd_turn.order, "Set the turn order by hand", gm_only=True),
    command(cmd_move.Move, cmd_move.move, "Move", rolls=True),
    command(cmd_move.Climb, cmd_move.climb, "Climb", rolls=True),
    command(cmd_move.LetGo, cmd_move.let_go, "Let go while climbing", rolls=True),
    command(cmd_move.Dive, cmd_move.dive, "Dive or surface"),
    command(cmd_combat.Act, cmd_combat.act, "Play an Action", rolls=True),
    command(cmd_combat.React, cmd_combat.react, "Choose a Reaction", rolls=True),
    command(cmd_combat.Intercept, cmd_combat.intercept, "Intercept an attack", rolls=True),
]

COMMANDS = command_table(_TABLE)
