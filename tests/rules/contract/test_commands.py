"""A command table's rows say their flags by name; the older positional row still reads the same."""

from typing import Literal

from app.rules.contract.commands import Command, CommandSpec, command, command_table, internal
from app.rules.registry import game, systems


class Shout(Command):
    type: Literal["test.shout"] = "test.shout"


def shout(state: object, command: object, ctx: object) -> list:
    return []


def test_a_row_takes_its_type_from_the_model_and_its_flags_by_name():
    row = command(Shout, shout, "Shout", gm_only=True)
    assert row == CommandSpec(type="test.shout", model=Shout, decide=shout, summary="Shout", gm_only=True)
    assert not row.rolls and not row.internal


def test_a_positional_row_means_model_decide_summary_gm_only_rolls():
    assert command_table([(Shout, shout, "Shout", False, True)]) == {
        "test.shout": command(Shout, shout, "Shout", rolls=True)
    }


def test_an_internal_row_keeps_what_a_client_is_told():
    row = internal(command(Shout, shout, "Shout"), "shout with the megaphone")
    assert command_table([row])["test.shout"].internal == "shout with the megaphone"


def test_every_systems_table_is_keyed_by_its_models_type():
    for system in systems().values():
        for type_, spec in system.commands.items():
            assert spec.type == type_ == spec.model.model_fields["type"].default


def test_only_a_row_that_says_so_is_made_by_a_spectator():
    assert not command(Shout, shout, "Shout").spectators
    assert command(Shout, shout, "Shout", spectators=True).spectators
    takers = [t for key in systems() for t, spec in game(key).commands.items() if spec.spectators]
    assert set(takers) == {"campaign.seat.watch"}
