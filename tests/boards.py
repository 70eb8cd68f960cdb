"""A Triptycho table for the tests of boards in the map frame: Ann's Aria, who sees in low light."""

from __future__ import annotations

from tests.helpers import Table

CLAWS = {"id": "claws", "name": "Claws", "hit": "1d6", "damage": "1d6", "hostile": True}


def aria_table(http) -> Table:
    """Ann's Aria set up, no map on the table yet."""
    table = Table.create(http, system="triptycho")
    ann = table.join("Ann")
    table.ok(table.gm, "campaign.add_participant", name="Aria", kind="pc", owner=ann.seat_id)
    table.ok(table.gm, "triptycho.setup", participant="Aria", low_light=True, uses_deck=False, cards=[CLAWS])
    return table


def in_the_cave(table: Table) -> Table:
    """The cliff map on the table, Aria in its shadowy cave mouth (the dark sections beyond her sight)."""
    table.ok(table.gm, "triptycho.map.load", map="cliff")
    table.ok(table.gm, "triptycho.place", participant="Aria", sections=["mouth"])
    return table


def centre_of(table: Table, seat, seen: bool) -> list[float]:
    """The centre of a section the seat's characters see (or do not)."""
    sections = table.view(seat)["system"]["board"]["sections"]
    return next(s["centre"] for s in sections if s["seen"] is seen)
