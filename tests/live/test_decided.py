"""A push decided from what changed (app/realtime/decided.py): which games may, and the check that every
test push runs (a decider that lies is caught, not shipped)."""

from __future__ import annotations

import dataclasses
import sys
from typing import Any

import pytest

from app.demo import _with_seats
from app.realtime import decided, render
from app.realtime.conn import Conn
from app.realtime.hub import Hub, Room
from app.rules import registry
from app.rules.contract.deciders import TABLE_FIELDS
from app.rules.game import Game
from tests.helpers import Table
from tests.live.test_push_cost import _push, _room, _Socket, _table, _views_built


def test_every_game_decides_every_key_its_own_by_every_field_but_the_generic_tables():
    for key in ("generic", "trinity", "tote", "triptycho", "fivebyfive"):
        deciders = registry.game(key).deciders
        assert deciders is not None
        assert {"pools", "tracks", "participants", "map", "me", "options", "undo"} <= set(deciders)
    for key in ("trinity", "tote", "triptycho", "fivebyfive"):  # their own part and buttons
        deciders = registry.game(key).deciders
        assert deciders is not None
        own = deciders["system"]
        assert {"ext", "participants", "prompts", "settings", "encounters", "initiative"} <= own.looks_at
        assert not own.looks_at & TABLE_FIELDS
        assert deciders["options"].looks_at >= own.looks_at


def test_in_a_game_that_conceals_characters_the_keys_drawn_from_them_are_decided_by_what_is_concealed():
    """Triptycho's sight and 5x5's fog of war hide characters from players: the core's, the table's and
    the map's keys are drawn from the campaign as each viewer sees it, so what is concealed from the
    viewer decides them too (and the fields that decide it move them)."""
    for key in ("triptycho", "fivebyfive"):
        game = registry.game(key)
        assert game.sight is not None and game.deciders is not None
        for name in ("participants", "pools", "initiative", "map"):
            assert game.sight.looks_at <= game.deciders[name].looks_at, (key, name)
        assert "ext" in game.sight.looks_at and not game.sight.looks_at & TABLE_FIELDS
    assert registry.game("trinity").sight is None and registry.game("generic").sight is None


def test_a_decider_that_leaves_out_a_field_it_reads_is_caught_by_the_check(client, monkeypatch):
    game = registry.game("generic")
    assert game.deciders is not None
    lying = dataclasses.replace(game.deciders["pools"], looks_at=frozenset())
    monkeypatch.setattr(game, "deciders", {**game.deciders, "pools": lying})
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


def _demo_room(client, system: str) -> tuple[Table, Room, list[_Socket]]:
    """A game's demo table played through, its GM's and players' pages open and pushed at every step
    (none decided otherwise than drawn whole)."""
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
    return table, room, sockets


@pytest.mark.parametrize("system", ["generic", "trinity", "tote", "triptycho", "fivebyfive"])
def test_every_step_of_a_games_demo_is_decided_as_its_pages_draw_it(client, system):
    """A game's own part of the view (`system`) moves with its own fields: a step that changes them
    redraws what reads it (the game's key in the context has the same name, and must not be taken for
    it). Every page of the GM and the players, checked at every step of the demo."""
    _, _, sockets = _demo_room(client, system)
    assert all(len(socket.got) > 1 for socket in sockets)


@pytest.mark.parametrize("system", ["trinity", "tote", "triptycho", "fivebyfive"])
def test_a_roll_or_a_pool_change_in_a_game_builds_no_pages_view(client, system, monkeypatch):
    """Most of a session's pushes are rolls and pool changes: they leave a game's sheets, fight and
    buttons as every page holds them, so a push decides each page from what changed and builds no page's
    whole view: the pools card and the GM's undo button are drawn from the parts of the view they read."""
    table, room, sockets = _demo_room(client, system)
    table.ok(table.gm, "generic.pool.create", name="Grit", value=2)
    _push(room)
    built = _views_built(monkeypatch)
    for command, fields, views in (
        ("generic.roll", {"expression": "2d6"}, 0),
        ("generic.pool.adjust", {"pool": "Grit", "delta": -1}, 0),
    ):
        built.clear()
        table.ok(table.gm, command, **fields)
        _push(room)
        assert len(built) == views, (command, built)
        assert all(socket.got[-1].count('data-seq="') >= 1 for socket in sockets), command


def test_a_pool_change_at_a_5x5_table_works_out_no_ones_fog_of_war_again(client, monkeypatch):
    """5x5's fog of war is the party's and reads none of the generic table's fields: a push that moved
    only those finds what each player cannot see as it was, for every phone, without looking again."""
    table, room, _ = _demo_room(client, "fivebyfive")
    table.ok(table.gm, "generic.pool.create", name="Grit", value=2)
    _push(room)
    game = registry.game("fivebyfive")
    conceals = game.system.conceals
    assert conceals is not None
    looked: list[str] = []

    def counted(state, viewer):
        looked.append(viewer.key)
        return conceals(state, viewer)

    monkeypatch.setattr(game, "system", dataclasses.replace(game.system, conceals=counted))
    table.ok(table.gm, "generic.pool.adjust", pool="Grit", delta=-1)
    _push(room)
    assert looked == []
    assert not decided.MISMATCHES
    # A campaign whose characters are another tuple looks again: once for all the players, alike.
    state = client.app.state.fray.states.get(table.id)
    again = state.model_copy(update={"participants": tuple(list(state.participants))})
    viewers = [again.viewer_for(s.id, "player") for s in again.seats if s.role == "player"]
    assert len(viewers) > 1
    found = [game.concealed(again, v) for v in viewers]
    assert len(looked) == 1
    party = conceals(state, viewers[0])
    assert party and found == [party - v.participants for v in viewers]


@pytest.mark.parametrize("system", ["generic", "trinity", "tote", "triptycho", "fivebyfive"])
def test_a_key_of_the_view_built_from_its_parts_alone_is_the_whole_views(client, system):
    """`Game.view_parts`, what a shared block is drawn from: for the GM and every player of a game's
    demo table (Triptycho's and 5x5's sight hiding characters), every key but the buttons' is the whole
    view's, built from only the parts that make it."""
    table, _, _ = _demo_room(client, system)
    game = registry.game(system)
    state = client.app.state.fray.states.get(table.id)
    viewers = [state.viewer_for(seat.id, seat.role) for seat in state.seats if seat.role in ("gm", "player")]
    assert len(viewers) >= 3
    for viewer in viewers:
        whole = game.view(state, viewer)
        alone = state.model_copy()  # no whole view kept on it: the parts are asked
        for key in set(whole) - {"options", "rulings"}:
            assert game.view_parts(alone, viewer, [key]) == {key: whole[key]}, (viewer.key, key)
        assert game.view_parts(alone, viewer, ["pools", "options"]) is None  # the buttons: the whole view
        assert game.view_parts(alone, viewer, ["no such key"]) is None


def test_a_games_view_parts_are_unknown_until_a_whole_view_was_built(client):
    table, _phones = _table(client)
    state = client.app.state.fray.states.get(table.id)
    viewer = state.viewer_for(table.gm.seat_id, "gm")
    fresh = Game(registry.game("generic").system)
    assert fresh.view_parts(state, viewer, ["pools"]) is None
    whole = fresh.view(state, viewer)
    assert fresh.view_parts(state.model_copy(), viewer, ["pools", "tracks"]) == {
        "pools": whole["pools"],
        "tracks": whole["tracks"],
    }


def test_a_block_that_reads_more_than_its_part_is_drawn_from_the_whole_view(client, monkeypatch):
    """A render may read a key no render of its block read before (a branch of its template first
    taken): from a part of the view that lacks it, it is drawn again from the whole view, not left out."""
    table, phones = _table(client)
    room, sockets = _room(client, table, phones[:3])
    _push(room)
    table.ok(table.gm, "generic.roll", expression="1d6")
    _push(room)
    parted: list[tuple[str, ...]] = []
    part_context = render.part_context

    def without_the_keys(game, state, viewer, page, keys):
        parted.append(keys)
        return part_context(game, state, viewer, page, ("campaign",))  # a part that lacks what it reads

    monkeypatch.setattr(render, "part_context", without_the_keys)
    table.ok(phones[0], "generic.pool.adjust", pool="Gold", delta=1)
    _push(room)
    assert parted and all("pools" in keys for keys in parted)
    assert not decided.MISMATCHES
    assert all('id="pool-' in socket.got[-1] and "Gold" in socket.got[-1] for socket in sockets.values())


def test_a_push_of_the_kind_of_the_last_finds_its_pages_touched_blocks_kept(client, monkeypatch):
    """Which blocks of a page a push touches is worked out once for each kind of change (the keys it moves,
    and every key each block ever read): a second pool change walks no page's blocks, a roll after it
    does (it moves the log's keys, not the pools), and each page is still the page drawn whole."""
    table, phones = _table(client)
    room, _ = _room(client, table, phones[:3])
    _push(room)
    walked: list[str] = []
    slots = render.live_slots

    def counted(page: str, *args: Any) -> Any:
        if sys._getframe(1).f_code.co_name == "touched":  # not the check's page drawn whole
            walked.append(page)
        return slots(page, *args)

    monkeypatch.setattr(render, "live_slots", counted)
    for command, fields, walks in (
        ("generic.pool.adjust", {"pool": "Gold", "delta": 1}, True),
        ("generic.pool.adjust", {"pool": "Gold", "delta": 1}, False),
        ("generic.roll", {"expression": "2d6"}, True),
        ("generic.pool.adjust", {"pool": "Gold", "delta": -1}, False),
    ):
        walked.clear()
        table.ok(phones[0], command, **fields)
        _push(room)
        assert bool(walked) == walks, (command, walked)
        assert not decided.MISMATCHES, (command, decided.MISMATCHES)


def _sheets_compared(old, new) -> frozenset[str]:
    """The characters whose sheets differ, every sheet built and compared."""
    before, after = decided._sheets(old), decided._sheets(new)
    return frozenset(pid for pid in before.keys() | after.keys() if before.get(pid) != after.get(pid))


def test_the_sheets_a_change_moves_are_found_from_its_pools_and_tracks_as_every_sheet_compared_finds_them():
    from app.rules.campaign.state import CampaignState, Participant, Pool, Track

    heroes = tuple(Participant(id=f"c{n}", name=f"Hero {n}", owner=f"s{n}") for n in range(4))
    gold, luck1, fate1, luck2 = (
        Pool(id="gold", name="Gold", value=3),
        Pool(id="luck1", name="Luck", owner="c1"),
        Pool(id="fate1", name="Fate", owner="c1"),
        Pool(id="luck2", name="Luck", owner="c2"),
    )
    harm, doom = Track(id="harm1", name="Harm", total=4, owner="c1"), Track(id="doom", name="Doom", total=4)
    old = CampaignState(
        id="t", name="T", system="generic", participants=heroes, pools=(gold, luck1, fate1, luck2),
        tracks=(harm, doom),
    )  # fmt: skip

    def with_(**fields) -> CampaignState:
        return old.model_copy(update=fields)

    # Each change, and the characters found moved: those whose sheets differ.
    changes = [
        (with_(pools=(gold.model_copy(update={"value": 4}), luck1, fate1, luck2)), set()),
        (with_(pools=(gold, luck1.model_copy(update={"value": 2}), fate1, luck2)), {"c1"}),
        (with_(pools=(gold, luck1.model_copy(update={"owner": "c3"}), fate1, luck2)), {"c1", "c3"}),
        (with_(pools=(gold, fate1, luck1, luck2)), {"c1"}),  # a hero's two pools in another order
        (with_(pools=(gold, luck1, fate1, luck2, Pool(id="ammo", name="Ammo", owner="c0"))), {"c0"}),
        (with_(tracks=(harm.model_copy(update={"filled": 1}), doom)), {"c1"}),
        (with_(tracks=(harm, doom.model_copy(update={"filled": 2}))), set()),
        (with_(participants=(heroes[0].model_copy(update={"name": "X"}), *heroes[1:])), {"c0"}),
        (with_(seq=5), set()),
    ]
    for new, moved in changes:
        assert decided._sheets_moved(old, new) == _sheets_compared(old, new) == moved, moved
    # Two heroes' pools trading places leave each hero's own as they were: found moved all the same (a
    # phone too many works its sheet out again; none too few).
    traded = with_(pools=(gold, luck2, fate1, luck1))
    assert _sheets_compared(old, traded) == {"c1"} and decided._sheets_moved(old, traded) == {"c1", "c2"}
