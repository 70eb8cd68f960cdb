"""A push decided from what changed (app/realtime/decided.py): which games may, and the check that every
test push runs (a decider that lies is caught, not shipped)."""

from __future__ import annotations

import dataclasses

import pytest

from app.demo import _with_seats
from app.realtime import decided
from app.realtime.conn import Conn
from app.realtime.hub import Hub, Room
from app.rules import registry
from tests.helpers import Table
from tests.live.test_push_cost import _push, _room, _Socket, _table


def test_games_that_conceal_characters_decide_nothing_by_parts_the_others_name_the_core_and_generic_keys():
    for key in ("generic", "trinity", "tote"):
        deciders = registry.game(key).deciders
        assert deciders is not None and {"pools", "tracks", "participants", "map", "me"} <= set(deciders)
    for key in ("triptycho", "fivebyfive"):  # what a viewer sees of the characters is their sight
        assert registry.game(key).deciders is None
    assert "options" in registry.game("generic").deciders  # type: ignore[operator]
    assert "options" not in registry.game("trinity").deciders  # type: ignore[operator]  # its own buttons


def test_a_decider_that_leaves_out_a_field_it_reads_is_caught_by_the_check(client, monkeypatch):
    game = registry.game("generic")
    assert game.deciders is not None
    lying = dataclasses.replace(game.deciders["pools"], looks_at=frozenset())
    monkeypatch.setitem(game.deciders, "pools", lying)
    table, phones = _table(client)
    room, _ = _room(client, table, phones[:3])
    _push(room)
    table.ok(phones[0], "generic.pool.adjust", pool="Gold", delta=1)
    _push(room)
    found, decided.MISMATCHES[:] = list(decided.MISMATCHES), []
    assert found and all("pools" in line for line in found)


def test_the_decided_page_is_the_page_drawn_whole_through_a_session_of_changes(client):
    table, phones = _table(client)
    room, sockets = _room(client, table, phones[:4])
    _push(room)
    hero = table.view(table.gm)["participants"][1]["id"]
    steps = [
        (table.gm, "generic.pool.create", {"name": "Grit", "value": 1, "owner": hero}),
        (phones[1], "generic.pool.adjust", {"pool": "Grit", "delta": 1}),
        (table.gm, "generic.track.create", {"name": "Harm", "total": 4, "owner": hero}),
        (table.gm, "campaign.set_hidden", {"participant": hero, "hidden": True}),
        (phones[0], "generic.roll", {"expression": "2d6"}),
        (table.gm, "campaign.set_hidden", {"participant": hero, "hidden": False}),
        (table.gm, "generic.pool.adjust", {"pool": "Gold", "delta": -2}),
    ]
    for seat, command, fields in steps:
        table.ok(seat, command, **fields)
        _push(room)
        assert not decided.MISMATCHES, (command, decided.MISMATCHES)
    assert all(socket.got for socket in sockets.values())


@pytest.mark.parametrize("system", ["generic", "trinity", "tote"])
def test_every_step_of_a_games_demo_is_decided_as_its_pages_draw_it(client, system):
    """A game's own part of the view (`system`, no decider) is the viewer's own at every push: a step
    that changes it redraws what reads it (the game's key in the context has the same name, and must not
    be taken for it). Every page of the GM and the players, checked at every step of the demo."""
    demo = registry.game(system).system.demo
    assert demo is not None
    table = Table.create(client, name="Demo", system=system, dice="server")
    seats = {name: table.join(name) for name in demo.players}
    ids = {name: seat.seat_id for name, seat in seats.items()}
    fray = client.app.state.fray
    room = Room(Hub(fray.db, fray.states), table.id)
    sockets = []
    for seat_id, role in [(table.gm.seat_id, "gm"), *((s.seat_id, "player") for s in seats.values())]:
        sockets.append(_Socket())
        room.conns.add(Conn(sockets[-1], seat_id, role, role, "html"))  # type: ignore[arg-type]
    _push(room)
    for command in demo.commands:
        fields = dict(_with_seats(command, ids))
        table.ok(table.gm, fields.pop("type"), **fields)
        _push(room)
        assert not decided.MISMATCHES, (command, decided.MISMATCHES)
    assert all(len(socket.got) > 1 for socket in sockets)
