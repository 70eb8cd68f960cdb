"""Issue 31: a change costs what changed. A one-pool change at a table of 50 phones is drawn once for
the phones who see it alike, sent as one message, and each phone's page after it is the page drawn fresh."""

from __future__ import annotations

import asyncio
import re

from app.realtime import decided, hub, narrow, render
from app.realtime.conn import Conn
from app.realtime.hub import Hub, Room
from app.rules import registry
from app.store import log
from tests.helpers import Table

PHONES = 50


class _Socket:
    """A socket that takes every message at once, as `fray serve`'s protocol does when none waits."""

    def __init__(self) -> None:
        self.got: list[str] = []
        self.scope = {"extensions": {"fray.send_now": self._send}}

    def _send(self, message: str) -> bool:
        self.got.append(message)
        return True


def _table(client) -> tuple[Table, list]:
    table = Table.create(client, dice="server")
    table.ok(table.gm, "generic.pool.create", name="Gold", value=3)
    phones = []
    for n in range(PHONES):
        seat = table.join(f"P{n}")
        table.character(f"Hero {n}", owner=seat)
        phones.append(seat)
    return table, phones


def _room(client, table: Table, phones: list) -> tuple[Room, dict[str, _Socket]]:
    fray = client.app.state.fray
    room = Room(Hub(fray.db, fray.states), table.id)
    sockets = {}
    for seat in phones:
        sockets[seat.seat_id] = _Socket()
        room.conns.add(Conn(sockets[seat.seat_id], seat.seat_id, "player", "player", "html"))  # type: ignore[arg-type]
    return room, sockets


def _push(room: Room) -> None:
    async def go() -> None:
        snap = await room._load(None)
        await room._broadcast(snap)

    asyncio.run(go())


def _views_built(monkeypatch) -> list:
    """The viewers whose page context (their whole view) a push builds, as they are built."""
    built: list = []
    page_context = render.page_context

    def counted(game, state, viewer, *args, **kwargs):
        built.append(viewer.key)
        return page_context(game, state, viewer, *args, **kwargs)

    monkeypatch.setattr(render, "page_context", counted)
    monkeypatch.setenv("FRAY_CHECK_PUSH", "0")  # the check builds every view to compare: not counted here
    return built


def test_a_one_pool_change_is_drawn_once_for_the_phones_who_see_it_alike_not_once_per_phone(client):
    table, phones = _table(client)
    room, sockets = _room(client, table, phones)
    _push(room)  # every phone is brought up to date: each its own page
    table.ok(table.gm, "generic.roll", expression="1d6")
    _push(room)
    renders, blocks_per_page = room.memo.renders, len(render.LIVE_BLOCKS["player"])
    table.ok(phones[0], "generic.pool.adjust", pool="Gold", delta=1)
    _push(room)
    drawn = room.memo.renders - renders
    # The pools block, once for all 50 (each phone drawing its whole page would be 50 x 9 renders).
    assert drawn <= 2, f"{drawn} renders for one pool change at a table of {PHONES}"
    assert drawn < PHONES * blocks_per_page
    messages = [socket.got[-1] for socket in sockets.values()]
    assert all(m is messages[0] for m in messages)  # one message, put together once
    message = messages[0]
    assert 'id="pool-' in message and 'id="pools"' not in message  # the row, not the block
    assert message.count("hx-swap-oob") == 3  # the row, the new log line, the seq


def test_a_pool_change_builds_no_phones_view_it_is_decided_from_what_changed(client, monkeypatch):
    """Issue 31's view contract by parts: a push of one pool's change decides each phone's page from
    the fields that changed (app/realtime/decided.py). The pools card is drawn once, from one phone's
    view; no other phone's view is built, and every other block is left as each phone holds it."""
    table, phones = _table(client)
    room, sockets = _room(client, table, phones)
    _push(room)
    table.ok(table.gm, "generic.roll", expression="1d6")
    _push(room)
    built = _views_built(monkeypatch)
    renders = room.memo.renders
    table.ok(phones[0], "generic.pool.adjust", pool="Gold", delta=1)
    _push(room)
    # The pools card is drawn from the part of one phone's view that makes the pools (`Game.view_parts`):
    # nobody's whole view is built.
    assert built == [], f"{len(built)} phones' views built for one pool change"
    assert room.memo.renders - renders <= 1
    messages = {id(socket.got[-1]) for socket in sockets.values()}
    assert len(messages) == 1 and 'id="pool-' in sockets[phones[0].seat_id].got[-1]
    # A phone's own pool moves its own sheet and no one else's: that phone's view is built (its sheet
    # reads the whole of it), and no other phone's.
    hero = next(p["id"] for p in table.view(table.gm)["participants"] if p["name"] == "Hero 3")
    table.ok(table.gm, "generic.pool.create", name="Grit", value=1, owner=hero)
    _push(room)
    table.ok(phones[3], "generic.pool.adjust", pool="Grit", delta=1)
    built.clear()
    _push(room)
    assert len(built) == 1 and phones[3].seat_id in built[0], built
    mine = sockets[phones[3].seat_id].got[-1]
    assert 'class="pool" id="pool-' in mine and "Grit" in mine  # the row on its own sheet
    assert 'hx-swap-oob="morph"' not in sockets[phones[4].seat_id].got[-1]  # the log's new line alone


def test_a_pool_change_works_out_a_phones_own_sheet_only_where_its_characters_moved(client, monkeypatch):
    """`$mine` (a phone's own sheet) moves with every pool change; it is asked only of the phones whose
    characters' sheets are not what they were, once a push for the rest (app/realtime/decided.py)."""
    table, phones = _table(client)
    room, sockets = _room(client, table, phones)
    hero = next(p["id"] for p in table.view(table.gm)["participants"] if p["name"] == "Hero 3")
    table.ok(table.gm, "generic.pool.create", name="Grit", value=1, owner=hero)
    _push(room)
    table.ok(table.gm, "generic.roll", expression="1d6")
    _push(room)
    asked: list[str | None] = []
    own = decided._own

    def counted(state, viewer):
        asked.append(viewer.seat_id)
        return own(state, viewer)

    monkeypatch.setattr(decided, "_own", counted)
    table.ok(phones[0], "generic.pool.adjust", pool="Gold", delta=1)  # the table's: no one's sheet
    _push(room)
    assert asked == []
    table.ok(phones[3], "generic.pool.adjust", pool="Grit", delta=1)  # Hero 3's: phone 3's sheet
    _push(room)
    assert asked == [phones[3].seat_id]
    assert 'class="pool" id="pool-' in sockets[phones[3].seat_id].got[-1]  # its own sheet's row
    assert 'class="pool" id="pool-' not in sockets[phones[4].seat_id].got[-1]  # the log's line alone


def _pool_change_asking(client, monkeypatch, method: str) -> tuple[Table, list, Room, dict, list[str]]:
    """A table of phones pushed once, then a pool change pushed: with the seats of the sockets whose
    `Conn.<method>(state)` was called from the first push on, in order (and on, as the test goes)."""
    table, phones = _table(client)
    room, sockets = _room(client, table, phones)
    _push(room)
    asked: list[str] = []
    original = getattr(Conn, method)

    def counted(conn, state):
        asked.append(conn.seat_id)
        return original(conn, state)

    monkeypatch.setattr(Conn, method, counted)
    table.ok(phones[0], "generic.pool.adjust", pool="Gold", delta=1)
    _push(room)
    return table, phones, room, sockets, asked


def test_a_push_works_a_sockets_viewer_out_again_only_when_the_characters_changed(client, monkeypatch):
    table, phones, room, sockets, asked = _pool_change_asking(client, monkeypatch, "viewer")
    assert asked == []  # the same characters: each socket's viewer as it was
    table.ok(table.gm, "campaign.add_participant", name="Hireling", owner=phones[1].seat_id)
    _push(room)
    assert sorted(asked) == sorted(seat.seat_id for seat in phones)  # new characters: each asked once
    mine = sockets[phones[1].seat_id].got[-1]
    assert "Hireling" in mine and 'id="mine"' in mine  # phone 1's own sheet now has its new character


def test_a_push_groups_the_sockets_by_view_again_only_when_sockets_characters_or_seats_changed(
    client, monkeypatch
):
    table, phones, room, sockets, asked = _pool_change_asking(client, monkeypatch, "seen")
    assert asked == []  # the same sockets, characters and seats: the groups as they were
    assert all(socket.got[-1].count("Gold") for socket in sockets.values())  # and every phone sent to
    late = table.join("Late")
    late_socket = _Socket()
    room.conns.add(Conn(late_socket, late.seat_id, "player", "player", "html"))  # type: ignore[arg-type]
    table.ok(phones[0], "generic.pool.adjust", pool="Gold", delta=1)
    _push(room)
    assert sorted(asked) == sorted([late.seat_id, *(seat.seat_id for seat in phones)])
    assert 'id="mine"' in late_socket.got[-1]  # the new socket gets its whole page
    asked.clear()
    revoked = phones[2]
    r = table.http.post(f"/api/campaigns/{table.id}/seats/{revoked.seat_id}/revoke", headers=table.gm.auth)
    assert r.status_code == 204
    before = len(sockets[revoked.seat_id].got)
    table.ok(phones[0], "generic.pool.adjust", pool="Gold", delta=1)
    _push(room)
    # The seats changed: grouped again, every socket but the revoked seat's, which is closed.
    assert len(asked) == PHONES and revoked.seat_id not in asked
    closed = [c for c in room.conns if c.seat_id == revoked.seat_id]
    assert closed[0].closed and len(sockets[revoked.seat_id].got) == before
    assert "Gold" in sockets[phones[3].seat_id].got[-1]


def test_a_socket_that_holds_the_newest_state_is_not_sent_it_again_beside_one_of_its_view_behind(client):
    table, phones = _table(client)
    room, sockets = _room(client, table, phones[:1])
    twin = _Socket()
    room.conns.add(Conn(twin, phones[0].seat_id, "player", "player", "html"))  # type: ignore[arg-type]
    _push(room)
    table.ok(phones[0], "generic.pool.adjust", pool="Gold", delta=1)
    first = sockets[phones[0].seat_id]
    held = len(first.got)
    twin_conn = next(c for c in room.conns if c.ws is twin)
    twin_conn.seq = client.app.state.fray.states.get(table.id).seq  # as if it had just joined at the newest
    _push(room)
    assert len(first.got) == held + 1 and "Gold" in first.got[-1]
    assert len(twin.got) == 1  # its first page only


class _Timeline:
    """What a push did, in order: each view it began ("view") and each socket it wrote (its seat)."""

    def __init__(self, monkeypatch, room: Room) -> None:
        self.steps: list[str] = []
        for conn in room.conns:
            conn.send_now = self._writer(conn.ws, conn.seat_id)  # type: ignore[arg-type]
        send_html = Room._send_html

        def viewed(room, *args, **kwargs):
            self.steps.append("view")
            return send_html(room, *args, **kwargs)

        monkeypatch.setattr(Room, "_send_html", viewed)

    def _writer(self, socket, seat_id: str):
        def write(message: str) -> bool:
            self.steps.append(seat_id)
            return socket._send(message)

        return write

    def runs_of_writes(self) -> list[int]:
        runs = [0]
        for step in self.steps:
            if step == "view":
                if runs[-1]:
                    runs.append(0)
            else:
                runs[-1] += 1
        return [n for n in runs if n]


def test_a_push_writes_its_first_view_at_once_and_the_next_ones_a_few_together(client, monkeypatch):
    table, phones = _table(client)
    room, sockets = _room(client, table, phones)
    _push(room)
    monkeypatch.setattr("app.realtime.hub.HOLD_LOOP_S", 60.0)  # one go, whatever this machine's speed
    timeline = _Timeline(monkeypatch, room)
    table.ok(phones[0], "generic.pool.adjust", pool="Gold", delta=1)
    _push(room)
    first, then, second = timeline.steps[:3]
    assert (first, second) == ("view", "view") and then in sockets  # the first phone before any other view
    assert sorted(s for s in timeline.steps if s != "view") == sorted(sockets)  # each phone written once
    runs = timeline.runs_of_writes()
    assert runs[0] == 1 and all(n == hub.WRITTEN_TOGETHER for n in runs[1:-1]), runs
    assert 0 < runs[-1] <= hub.WRITTEN_TOGETHER and sum(runs) == PHONES
    assert all("Gold" in socket.got[-1] for socket in sockets.values())


def test_a_push_cut_short_by_a_newer_change_writes_what_it_drew_and_the_next_brings_the_rest(
    client, monkeypatch
):
    table, phones = _table(client)
    room, sockets = _room(client, table, phones)
    _push(room)
    monkeypatch.setattr("app.realtime.hub.HOLD_LOOP_S", 0.0)  # give the loop back after every view past 8
    timeline = _Timeline(monkeypatch, room)
    table.ok(phones[0], "generic.pool.adjust", pool="Gold", delta=1)
    newest = client.app.state.fray.states.get(table.id).seq
    room.announced = newest + 1  # a newer change is on its way: this push stops at its first yield
    _push(room)
    written = [s for s in timeline.steps if s != "view"]
    drawn = timeline.steps.count("view")
    assert len(written) == hub.VIEWS_BEFORE_YIELD == drawn  # every view it drew was written, no more
    assert all(c.seq == newest for c in room.conns if c.seat_id in written)
    assert all(c.seq < newest for c in room.conns if c.seat_id not in written)
    room.announced = newest
    _push(room)
    assert all(c.seq == newest for c in room.conns)  # the next push brings the rest
    assert all("Gold" in socket.got[-1] for socket in sockets.values())


def test_the_pages_read_the_campaign_without_its_seq_the_json_view_keeps_it(client):
    table, _ = _table(client)
    view = table.view(table.gm)
    assert view["campaign"]["seq"] >= 1
    paged = render.pages_view(view)
    assert "seq" not in paged["campaign"] and paged["campaign"]["name"] == view["campaign"]["name"]
    assert view["campaign"]["seq"] >= 1  # the view itself is not changed
    later = {**view, "campaign": {**view["campaign"], "seq": view["campaign"]["seq"] + 1}}
    assert (
        render.pages_view(later)["campaign"] is paged["campaign"]
    )  # one object for every push that reads alike
    renamed = {**later, "campaign": {**later["campaign"], "name": "Elsewhere"}}
    assert render.pages_view(renamed)["campaign"]["name"] == "Elsewhere"
    settings = {**view["campaign"], "settings": {**view["campaign"]["settings"]}}  # equal, another object
    assert render.pages_view({**view, "campaign": settings})["campaign"] == paged["campaign"]


def _apply(page: str, message: str) -> str:
    """What the page's script does with a message's elements that morph by id: each replaces the
    element of its id (the log's append and the seq marker are the log's own tests)."""
    for found in re.finditer(r'<([a-z]+)\b[^>]*hx-swap-oob="morph"[^>]*>', message):
        tag = found.group(1)
        end = narrow._end_of(message, found.start(), tag)
        assert end is not None
        element = message[found.start() : end].replace(' hx-swap-oob="morph"', "", 1)
        ident = re.search(r'\sid="([^"]+)"', found.group(0)).group(1)  # type: ignore[union-attr]
        assert page.count(f'id="{ident}"') == 1, ident
        at = page.index(f'id="{ident}"')
        start = page.rindex("<", 0, at)
        stop = narrow._end_of(page, start, tag)
        assert stop is not None
        page = page[:start] + element + page[stop:]
    return page


def _fresh(client, table: Table, seat) -> str:
    fray = client.app.state.fray
    game = registry.game("generic")
    with fray.db.read() as session:
        state = fray.states.current(session, game, table.id)
        recent = log.recent(session, table.id, 40)
    viewer = state.viewer_for(seat.seat_id, "player")
    context = render.page_context(game, state, viewer, recent, "player")
    blocks = render.render_live("player", context, leave_out=render.LOG_ONLY)
    return "".join(blocks.values()).replace(' hx-swap-oob="morph"', "")


def test_each_phones_page_after_a_narrowed_push_is_the_page_drawn_fresh(client):
    table, phones = _table(client)
    table.ok(table.gm, "generic.track.create", name="Wounds", total=4)
    heroes = {p["owner"]: p["id"] for p in table.view(table.gm)["participants"]}
    table.ok(table.gm, "generic.pool.create", name="Luck", value=1, owner=heroes[phones[1].seat_id])
    room, sockets = _room(client, table, phones[:4])
    _push(room)
    pages = {s.seat_id: _fresh(client, table, s) for s in phones[:4]}
    pools = {p["name"]: p["id"] for p in table.view(table.gm)["pools"]}
    tracks = {t["name"]: t["id"] for t in table.view(table.gm)["tracks"]}
    changes = [
        ("generic.pool.adjust", {"pool": pools["Gold"], "delta": -1}),
        ("generic.pool.adjust", {"pool": pools["Luck"], "delta": 1}),  # one phone's own pool
        ("generic.track.adjust", {"track": tracks["Wounds"], "delta": 1}),
        ("generic.pool.create", {"name": "Doom", "value": 2}),  # a new row: the list around it changes
    ]
    for kind, fields in changes:
        table.ok(table.gm, kind, **fields)
        _push(room)
        if fields.get("pool") == pools["Gold"]:  # a row of its own: sent alone
            assert 'id="pools"' not in sockets[phones[0].seat_id].got[-1]
        for seat in phones[:4]:
            fresh = _fresh(client, table, seat)
            assert _apply(pages[seat.seat_id], sockets[seat.seat_id].got[-1]) == fresh, kind
            pages[seat.seat_id] = fresh


def test_a_change_inside_one_element_with_an_id_is_that_element_and_anything_else_the_whole_block():
    rows = '<li id="pool-a">A <b>1</b></li><li id="pool-b">B</li>'
    old = f'<section id="pools" hx-swap-oob="morph"><ul>{rows}</ul></section>'
    new = old.replace("<b>1</b>", "<b>2</b>")
    assert narrow.narrow(old, new) == '<li hx-swap-oob="morph" id="pool-a">A <b>2</b></li>'
    # Two rows changed: the smallest element with an id holding both is the block itself.
    both = new.replace(">B<", ">C<")
    assert narrow.narrow(old, both) is None
    # A change in the block's own element (no inner element holds it): the whole block.
    assert narrow.narrow(old, old.replace("<ul>", "<ul class='x'>")) is None
    assert narrow.narrow(old, old) is None


def test_a_narrowed_rows_id_is_counted_in_each_phones_own_blocks_once_not_at_every_push(client, monkeypatch):
    from app.realtime import push

    table, phones = _table(client)
    room, _ = _room(client, table, phones[:8])
    _push(room)
    counted: list[str] = []
    missing = push._Counts.__missing__

    def counting(self, html: str) -> int:
        counted.append(html)
        return missing(self, html)

    monkeypatch.setattr(push._Counts, "__missing__", counting)
    table.ok(phones[0], "generic.pool.adjust", pool="Gold", delta=1)
    _push(room)
    first = len(counted)
    assert first >= 8  # each phone's own blocks (its sheet, its roll buttons), and the blocks they share
    counted.clear()
    table.ok(phones[0], "generic.pool.adjust", pool="Gold", delta=1)
    _push(room)
    # Only the new pools card is counted: every other block is the text the last push counted.
    assert counted and all('id="pools"' in html for html in counted), [h[:40] for h in counted]
    # What the room keeps is bounded by the text it holds alive.
    monkeypatch.setattr(push, "ID_COUNTS_CHARS", 10)
    push.Push(1, room.id_counts)
    assert room.id_counts == {}


def test_a_pushs_diff_is_its_parts_in_the_pages_order_put_together_once_for_the_phones_that_send_it():
    from app.realtime.push import Push

    push = Push(7)
    pools, mine, log = '<li id="pool-a">1</li>', '<section id="mine">x</section>', "<ol>new</ol>"
    for page in ("player", "gm"):
        for parts, added in (({"pools": pools}, log), ({"pools": pools, "mine": mine}, None), ({}, log)):
            first = push.diff(page, dict(parts), added)
            assert first == push.message(render.in_page_order(page, parts, added))
            assert first.endswith(render.seq_marker(7))
            assert push.diff(page, dict(parts), added) is first  # another phone sending the same: one string
    # What differs in a part, its place or the log is another message.
    assert push.diff("player", {"pools": pools}, log) != push.diff("player", {"pools": pools + " "}, log)
    assert push.diff("player", {"pools": pools}, log) != push.diff("player", {"pools": pools}, None)
