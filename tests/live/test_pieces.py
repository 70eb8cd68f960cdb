"""A large piece of a board the page holds is sent as a stub (app/realtime/pieces.py): the GM's walls,
unchanged while a token moves, are not sent again on every move, and the page the script fills in is the
page drawn fresh."""

from __future__ import annotations

import re

from app.realtime import narrow, pieces, render
from app.realtime.conn import Conn
from app.realtime.hub import Hub, Room
from app.rules import registry
from app.store import log
from tests.helpers import Table
from tests.live.test_push_cost import _push, _Socket
from tests.mapping import dungeon_png, upload

_PIECE = re.compile(r'<g data-piece="([a-z-]+)">.*?</g><!--/piece-->', re.S)


def filled(held: str, sent: str) -> str:
    """What static/js/fray.js does with a sent board: each stub takes a copy of the piece held."""
    for m in _PIECE.finditer(held):
        stub = f'<g data-piece-kept="{m.group(1)}"></g>'
        sent = sent.replace(stub, m.group(0)[: -len("<!--/piece-->")], 1)
    return sent


def _board(walls: str, token_x: int) -> str:
    piece = f'<g data-piece="walls">{walls}</g><!--/piece-->'
    return f'<div id="map"><svg>{piece}<g class="token" data-x="{token_x}"></g></svg></div>'


WALLS = "".join(f'<g class="wall" data-wall="w{i}"><polyline points="0,{i} 9,{i}"/></g>' for i in range(40))


def test_an_unchanged_large_piece_is_a_stub_and_the_page_fills_it_back():
    old, new = _board(WALLS, 1), _board(WALLS, 2)
    sent = pieces.kept(old, new)
    assert '<g data-piece-kept="walls"></g><!--/piece-->' in sent and "data-wall" not in sent
    assert len(sent) < len(new) / 10
    assert filled(old, sent) == new


def test_a_changed_small_or_new_piece_is_sent_whole():
    old = _board(WALLS, 1)
    one_more = _board(WALLS + '<g class="wall" data-wall="w99"></g>', 1)
    assert pieces.kept(old, one_more) == one_more  # the walls changed
    small = '<g class="wall" data-wall="w1"></g>'
    assert pieces.kept(_board(small, 1), _board(small, 2)) == _board(small, 2)  # too small to stub
    assert pieces.kept("<div id='map'></div>", old) == old  # the page held none
    unclosed = old.replace("<!--/piece-->", "")
    assert pieces.kept(unclosed, unclosed.replace('"1"', '"2"')) == unclosed.replace('"1"', '"2"')


def _gm_page(client, table: Table) -> str:
    fray = client.app.state.fray
    game = registry.game("generic")
    with fray.db.read() as session:
        state = fray.states.current(session, game, table.id)
        recent = log.recent(session, table.id, 40)
    viewer = state.viewer_for(table.gm.seat_id, "gm")
    context = render.page_context(game, state, viewer, recent, "gm")
    return str(render.render_live("gm", context, leave_out=render.LOG_ONLY)["map"])


def test_the_gms_walls_are_sent_once_and_a_move_brings_a_stub_the_page_fills_as_drawn_fresh(client):
    table = Table.create(client)
    r = upload(table, dungeon_png())
    assert r.status_code == 201, r.text
    scene = table.ok(table.gm, "map.scene.create", name="Crypt", asset=r.json()["id"], show=True)["view"]
    scene_id = scene["map"]["scene"]
    for i in range(12):
        table.ok(table.gm, "map.wall.add", scene=scene_id, points=[[10 * i, 10], [10 * i + 5, 290]])
    token = table.ok(table.gm, "map.token.place", scene=scene_id, label="Chest", x=75, y=75)
    token_id = token["events"][0]["data"]["token"]["id"]
    fray = client.app.state.fray
    room = Room(Hub(fray.db, fray.states), table.id)
    socket = _Socket()
    room.conns.add(Conn(socket, table.gm.seat_id, "gm", "gm", "html"))  # type: ignore[arg-type]
    _push(room)
    held = _gm_page(client, table)
    assert 'data-piece="walls"' in held and held.count("data-wall=") == 12
    table.ok(table.gm, "map.token.move", token=token_id, x=175, y=125)
    _push(room)
    message = socket.got[-1]
    start = message.index('<div id="map"')
    end = narrow._end_of(message, start, "div")
    assert end is not None
    sent = message[start:end]
    assert '<g data-piece-kept="walls"></g>' in sent
    assert "data-wall=" not in message  # not one wall sent again
    assert filled(held, sent) == _gm_page(client, table).strip()  # the page as drawn fresh
    table.ok(table.gm, "map.wall.add", scene=scene_id, points=[[0, 150], [400, 150]])
    _push(room)
    assert socket.got[-1].count("data-wall=") == 13  # the walls changed: sent whole
