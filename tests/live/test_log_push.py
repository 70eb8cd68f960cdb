"""A push compares each view's log by its lines and draws the whole log block only when a page needs it
(app/realtime/hub.py, `Room._send_html`): what every socket gets is still exactly the fresh render."""

from __future__ import annotations

import asyncio

from app.realtime import render
from app.realtime.hub import Conn, Room
from app.rules import registry
from app.rules.system import Viewer
from tests.helpers import Table


class Phone:
    """A socket that takes each message at once (as `fray serve`'s protocol does) and keeps it."""

    def __init__(self) -> None:
        self.got: list[str] = []
        self.scope = {"extensions": {"fray.send_now": lambda text: self.got.append(text) or True}}


def _fresh(client, table: Table, page: str, viewer: Viewer) -> tuple[dict[str, str], str]:
    """Every live block of this view drawn afresh, without a memo, and the seq marker."""
    hub = client.app.state.hub
    snap = hub.load(table.id, None)
    context = render.page_context(registry.game("generic"), snap.state, viewer, snap.recent, page)
    return render.render_live(page, context), render.seq_marker(snap.state.seq)


def test_pushed_logs_are_appends_whole_blocks_or_nothing_each_exactly_as_drawn_afresh(client):
    table = Table.create(client, dice="server")
    ann, ben = table.join("Ann"), table.join("Ben")
    table.character("Aria", owner=ann)
    hub = client.app.state.hub
    room = Room(hub, table.id)
    phones: dict[str, Phone] = {}

    def connect(name: str, seat_id: str) -> Conn:
        phones[name] = Phone()
        conn = Conn(phones[name], seat_id, "player", "player", "html")  # type: ignore[arg-type]
        room.conns.add(conn)
        return conn

    def connect_gm() -> None:
        phones["gm"] = Phone()
        room.conns.add(Conn(phones["gm"], table.gm.seat_id, "gm", "gm", "html"))  # type: ignore[arg-type]

    def gm_blocks() -> tuple[dict[str, str], str]:
        state = hub.load(table.id, None).state
        return _fresh(client, table, "gm", state.viewer_for(table.gm.seat_id, "gm"))

    def push() -> None:
        asyncio.run(room._broadcast(hub.load(table.id, None)))

    def whole(seat_id: str) -> str:
        state = hub.load(table.id, None).state
        blocks, marker = _fresh(client, table, "player", state.viewer_for(seat_id, "player"))
        return "".join(blocks.values()) + marker

    def fresh_log(seat_id: str) -> str:
        state = hub.load(table.id, None).state
        return _fresh(client, table, "player", state.viewer_for(seat_id, "player"))[0]["log"]

    connect("ann", ann.seat_id)
    connect_gm()
    push()  # a page that is behind gets every block, the whole log among them, in the page's order
    assert phones["ann"].got == [whole(ann.seat_id)]
    gm_shown, marker = gm_blocks()
    assert phones["gm"].got == ["".join(gm_shown.values()) + marker]

    table.ok(ann, "generic.roll", expression="1d6", label="first")
    connect("ben", ben.seat_id)
    push()
    to_ann, to_ben = phones["ann"].got[-1], phones["ben"].got[-1]
    assert to_ben == whole(ben.seat_id)  # new here: everything, the whole log too
    assert 'id="log"' not in to_ann and to_ann.count('class="entry') == 1  # in step: the new line alone
    assert 'hx-swap-oob="afterbegin:#log-list"' in to_ann

    table.ok(table.gm, "generic.roll", expression="1d6", label="secret", hidden=True)
    push()  # a roll the players may not see: their log is the same, so no log at all goes to them
    gm_shown = gm_blocks()[0]
    assert "entry" not in phones["ann"].got[-1] and 'id="log"' not in phones["ann"].got[-1]
    assert "secret" not in phones["ben"].got[-1]

    table.ok(table.gm, "campaign.undo")  # the hidden roll is undone: still nothing for the players
    table.ok(table.gm, "campaign.undo")  # the first roll is struck through: an older line changed
    push()
    to_ann = phones["ann"].got[-1]
    assert fresh_log(ann.seat_id) in to_ann  # the whole block, as drawn afresh
    assert 'class="entry undone"' in fresh_log(ann.seat_id)
    assert "afterbegin" not in to_ann
    # The GM's page: each block that changed since its last message, the whole log in its place among
    # them (on the GM's page other blocks come after the log: the undo button's changed too).
    gm_now, marker = gm_blocks()
    changed = [name for name, html in gm_now.items() if html != gm_shown[name]]
    assert "log" in changed[:-1]
    assert phones["gm"].got[-1] == "".join(gm_now[name] for name in changed) + marker


def test_a_page_whose_log_block_reads_more_than_its_lines_is_refused_at_start(monkeypatch):
    monkeypatch.setattr(render, "LOG_MENTIONS", frozenset({"log", "oob"}))  # as if the block read `ui` too
    try:
        render.warm([])
    except RuntimeError as refused:
        assert "log block" in str(refused)
    else:
        raise AssertionError("warm accepted a log block that reads more than its lines")


def test_the_whole_log_block_of_a_page_with_a_systems_blocks_draws_the_log_alone_and_in_its_place(client):
    from app.realtime.blocks import BlockMemo
    from tests.helpers import demo_table

    table, seats = demo_table(client, "tote")
    hub = client.app.state.hub
    snap = hub.load(table.id, None)
    seat = next(iter(seats.values()))
    viewer = snap.state.viewer_for(seat.seat_id, "player")
    context = render.page_context(registry.game("tote"), snap.state, viewer, snap.recent, "player")
    fresh = render.render_live("player", context)
    assert any(name.startswith("system:") for name in fresh)  # the page has a system's blocks
    memo = BlockMemo()
    assert render.log_block("player", context, memo) == fresh["log"]
    assert memo.renders == 1  # the log's block, and none of the system's
    without = render.render_live("player", context, leave_out=render.LOG_ONLY)
    assert "".join(render.in_page_order("player", without, fresh["log"])) == "".join(fresh.values())
