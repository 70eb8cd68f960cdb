"""This process's sockets, grouped in rooms per campaign.

When a campaign moves on, its room loads the new state once, renders each distinct view once
(viewers with the same key see the same thing) and queues the result on every socket of that view.
HTML sockets get only the blocks that changed since their last message; JSON sockets get the events
they may see. A socket that fell behind (reconnect, broker outage) gets everything it missed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.realtime import decided as deciding
from app.realtime import log as log_of
from app.realtime import quiet_gc, render
from app.realtime.conn import Conn
from app.realtime.log import log_entries
from app.realtime.push import IdCounts, Push
from app.rules import registry
from app.rules.campaign.state import CampaignState
from app.rules.game import Game
from app.rules.map import signals
from app.rules.system import Event, Viewer
from app.store import log
from app.store.db import Database
from app.store.states import StateCache

logger = logging.getLogger("fray.hub")

# A push gives the loop back after holding it this long (between two views): another table's step waits
# at most about this much for each slice of a big table's push.
HOLD_LOOP_S = 0.001
# A push's first views go out before it gives the loop back at all: a table of eight is pushed in one
# go (about 2-3 ms), not queued behind other work once per millisecond.
VIEWS_BEFORE_YIELD = 8
# A push's sockets after its first view's are written this many together, back to back (`_broadcast`).
WRITTEN_TOGETHER = 8
PEOPLE_KEPT = 16  # lists of the others a room keeps (one per distinct sight of the latest states)
MAX_CATCHUP = 500  # events a JSON socket is sent on resume; further behind, it is told to reload


@dataclass
class Snap:
    state: CampaignState
    game: Game
    recent: list[Event]
    events: list[Event]  # after the oldest JSON socket's seq, for catch-up
    since: int
    described: dict = field(default_factory=dict)  # each event's log line, worded once for every view


@dataclass
class Groups:
    """A room's sockets by view, as a push goes through them: kept while the sockets, the characters (a
    viewer is made of them) and the seats (one may be revoked) are the same objects, so a push at a table
    of 64 phones does not work out 64 viewers and keys again before its first phone's write."""

    conns: frozenset[Conn]
    participants: object
    seats: object
    html: list[tuple[tuple, Viewer, list[Conn]]]  # (view key, its viewer, its sockets)
    data: list[tuple[tuple, Viewer, Conn]]  # the JSON sockets, grouped by what they hold at each push


def _seq_of(conn: Conn) -> int:
    return conn.seq


def _seq_of_due(due: tuple[int, tuple, Viewer, list[Conn]]) -> int:
    return due[0]


class Room:
    def __init__(self, hub: Hub, campaign_id: str):
        self.hub = hub
        self.campaign_id = campaign_id
        self.conns: set[Conn] = set()
        self.seq = 0
        self.rendered: dict[tuple, dict[str, str]] = {}
        self.logs: dict[tuple, list[str]] = {}  # each view's log lines as last sent, for appends
        self.decisions: dict[tuple, dict[str, Any]] = {}  # what decided each view's last render
        self.pushed: CampaignState | None = None  # the state of the last whole push
        self.recent: list[Event] = []  # the log's last page, kept so a push reads only the new events
        self.public_log: log_of.PublicLog | None = None  # the last push's log as whoever sees all of it
        self.memo = render.BlockMemo()  # each distinct block rendered once, whichever views share it
        self.id_counts: IdCounts = {}  # how often a narrowed element's id is in each block (push.py)
        # The players' list of the others, by the state tuples it reads (render.shared_people): kept
        # from push to push, so a phone's next push finds it the same object, not an equal one.
        self.people: dict[Any, Any] = {}
        # The newest seq the broker announced: a push comes from memory when this process's cache has
        # reached it. After a broker outage (or before the first read) the cache may lag other
        # processes' writes, so the next push reads the database.
        self.announced = 0
        self.read_database = True
        self.lock = asyncio.Lock()
        self.groups: Groups | None = None
        # A push's messages after its first view, written a few at a time (`_broadcast`); None: at once.
        self.outbox: list[tuple[Conn, str]] | None = None
        self.wake = asyncio.Event()
        self.task: asyncio.Task | None = None

    def poke(self) -> None:
        self.hub.busy()
        self.wake.set()
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._loop())

    async def _loop(self) -> None:
        while self.conns:
            await self.wake.wait()
            self.wake.clear()
            await self._refresh()

    async def _refresh(self) -> None:
        try:
            async with self.lock:
                announced = None if self.read_database else self.announced
                self.read_database = False
                snap = await self._load(self._json_since(), announced)
                if snap.state.seq > self.seq:
                    await self._broadcast(snap)
                    quiet_gc.after_push()
        except Exception:
            logger.exception("room %s failed to refresh", self.campaign_id)

    async def push_here(self) -> None:
        """The push of a change made in this process, run in the task that made it when the room is idle:
        its first phones are written to before that task gives the loop back, not after the room's own
        task is woken (about 60 µs of the first phone's wait on an idle server). Busy, the room's task
        pushes it as it would any change. Cut short (the caller cancelled), its task finishes it."""
        if self.lock.locked() or not self.conns:
            self.poke()
            return
        self.hub.busy()
        try:
            await self._refresh()
        except asyncio.CancelledError:
            self.poke()
            raise

    def _json_since(self) -> int | None:
        seqs = [c.seq for c in self.conns if c.fmt == "json"]
        return min(seqs) if seqs else None

    async def _load(self, since: int | None, announced: int | None = None) -> Snap:
        snap = self.hub.from_memory(self.campaign_id, since, self.recent, announced)
        if snap is None:
            snap = await self.hub.db.run_read(self.hub.load, self.campaign_id, since, self.recent)
        self.recent = snap.recent
        return snap

    async def _broadcast(self, snap: Snap) -> None:
        """Each distinct view rendered once and queued on its sockets, yielding to the event loop after
        each millisecond of views (past the first eight) so that a table of 200 seats never holds up
        another table's push, and a table of eight goes out in one go. A newer change announced
        meanwhile makes the rest of this push stale: it stops, and the next push (already poked) brings
        those sockets straight to the newest state, the most behind first. The sockets' grouping by view
        is kept from push to push (`Groups`): a pool change goes to its first phone without asking all.

        The first view's sockets are written at once, the next ones `WRITTEN_TOGETHER` at a time, back to
        back (and all that waits before the push gives the loop back, or stops). A write to a socket whose
        reader is on this host (a proxy in front of Fray, the bench's client) wakes that reader; written
        between two views, each found it asleep again (64 phones: writes 22-31 µs apart, 16-17 together).
        Not all at the end of the push: the first reader, woken onto this core, then waited it out."""
        state = snap.state
        groups = self._groups(state)
        data: dict[tuple, tuple[Viewer, list[Conn]]] = {}  # by view key and the seq its sockets hold
        for key, viewer, conn in groups.data:
            if conn.seq < state.seq:
                data.setdefault((key, conn.seq), (viewer, []))[1].append(conn)
        due: list[tuple[int, tuple, Viewer, list[Conn]]] = []  # (the lowest seq its sockets hold, ...)
        for key, viewer, conns in groups.html:
            if len(conns) == 1:  # a phone's own view, most of a table's: no list made
                if conns[0].seq < state.seq:
                    due.append((conns[0].seq, key, viewer, conns))
                continue
            behind_ones = [c for c in conns if c.seq < state.seq]
            if behind_ones:
                due.append((min(map(_seq_of, behind_ones)), key, viewer, behind_ones))
        for (_, since), (viewer, conns) in data.items():
            self._send_json(snap, viewer, since, conns)
        due.sort(key=_seq_of_due)  # the most behind first
        push = Push(state.seq, self.id_counts)
        last = self.pushed
        decided = None
        if snap.game.deciders is not None and last is not None and last.seq == self.seq and due:
            decided = deciding.Decided(snap.game, last, state, self.memo)
        if len(self.people) > PEOPLE_KEPT:
            self.people.clear()
        # The log grows on top of the last push's: each view's entries and lines are found from it.
        snap.described[log_of.BEFORE] = self.public_log
        held = time.perf_counter()
        try:
            for n, (_, key, viewer, conns) in enumerate(due):
                if n >= VIEWS_BEFORE_YIELD and time.perf_counter() - held > HOLD_LOOP_S:
                    self._write_out()
                    await asyncio.sleep(0)
                    self.hub.busy()  # a push of 200 seats goes on for longer than the watch lingers
                    held = time.perf_counter()
                    if self.announced > state.seq:
                        return
                self._send_html(snap, key, conns, viewer, push, decided)
                if self.outbox is None:
                    self.outbox = []  # the first view went out at once; the next ones, a few together
                elif len(self.outbox) >= WRITTEN_TOGETHER:
                    self._write_out()
        finally:
            self._write_out()
            self.outbox = None
        self.seq = state.seq
        self.pushed = state
        self.public_log = snap.described.get(log_of.PUBLIC)

    def _out(self, conn: Conn, message: str) -> None:
        if self.outbox is None:
            conn.push(message)
        else:
            self.outbox.append((conn, message))

    def _write_out(self) -> None:
        outbox = self.outbox
        if outbox:
            for conn, message in outbox:
                conn.push(message)
            outbox.clear()

    def _groups(self, state: CampaignState) -> Groups:
        """The sockets by view key (`Groups`), worked out again when a socket came or went, the characters
        changed or the seats did; a socket whose seat is gone is closed and left out."""
        conns = frozenset(self.conns)
        kept = self.groups
        if (
            kept is not None
            and kept.participants is state.participants
            and kept.seats is state.seats
            and kept.conns == conns
        ):
            return kept
        html: dict[tuple, tuple[Viewer, list[Conn]]] = {}
        data: list[tuple[tuple, Viewer, Conn]] = []
        for conn in conns:
            seat = state.seat(conn.seat_id)
            if seat is None or seat.revoked:
                conn.close(4403, "This seat was removed from the table.")
                continue
            viewer, key = conn.seen(state)
            if conn.fmt != "html":
                data.append((key, viewer, conn))
            else:
                html.setdefault(key, (viewer, []))[1].append(conn)
        views = [(key, viewer, conns) for key, (viewer, conns) in html.items()]
        self.groups = Groups(conns, state.participants, state.seats, views, data)
        return self.groups

    def _send_html(
        self,
        snap: Snap,
        key: tuple,
        conns: list[Conn],
        viewer: Viewer,
        push: Push,
        decided: deciding.Decided | None = None,
    ) -> None:
        """One view's message: the blocks that changed since what its sockets hold (each the one element
        of it that changed, when that is one), put together once for every view that sends the same."""
        if (
            decided is not None
            and key in self.decisions
            and key in self.rendered
            and key in self.logs
            and all(c.synced_key == key and c.seq == decided.old_seq for c in conns)
        ):
            self._send_decided(snap, key, conns, viewer, push, decided)
            return
        state = snap.state
        page = key[0]
        context = render.page_context(
            snap.game, state, viewer, snap.recent, page, snap.described, people_kept=self.people
        )
        # The log is compared by its lines and its block drawn only when a page needs it whole.
        blocks = render.render_live(page, context, self.memo, key, render.LOG_ONLY)
        lines = render.log_items(context, self.memo)
        old, old_lines = self.rendered.get(key), self.logs.get(key)
        self.rendered[key], self.logs[key] = blocks, lines
        whole_log: str | None = None
        diff = None
        if old is not None and old_lines is not None:
            changed = {
                name: push.part(name, old.get(name), html, blocks)
                for name, html in blocks.items()
                if old.get(name) is not html and old.get(name) != html
            }
            log = None
            if lines is not old_lines and lines != old_lines:
                log = push.log_append(old_lines, lines)
                if log is None:  # an older line changed, or the page showed no line yet
                    log = whole_log = render.log_block(page, context, self.memo, key)
            diff = push.message(render.in_page_order(page, changed, log))
        full = None
        for conn in conns:
            if diff is not None and conn.synced_key == key:
                self._out(conn, diff)
            else:
                if full is None:
                    if whole_log is None:
                        whole_log = render.log_block(page, context, self.memo, key)
                    full = push.message(render.in_page_order(page, blocks, whole_log))
                self._out(conn, full)
            conn.seq = state.seq
            conn.synced_key = key
        if snap.game.deciders is not None:
            self.decisions[key] = deciding.decisions_of(snap.game, state, viewer)

    def _send_decided(
        self, snap: Snap, key: tuple, conns: list[Conn], viewer: Viewer, push: Push, decided: deciding.Decided
    ) -> None:
        """`_send_html` for sockets that hold the last push's render of this view: the blocks decided
        from what changed (app/realtime/decided.py), the view built only when a block needs drawing."""
        state, page = snap.state, key[0]
        built: list[dict[str, Any]] = []

        def context_of() -> dict[str, Any]:
            if not built:
                built.append(
                    render.page_context(
                        snap.game, state, viewer, snap.recent, page, snap.described, people_kept=self.people
                    )
                )
            return built[0]

        held, old_lines = self.rendered[key], self.logs[key]
        changed, self.decisions[key] = decided.page(viewer, page, self.decisions[key], held, context_of)
        blocks = {**held, **changed} if changed else held
        entries = log_entries(snap.game, state, snap.recent, viewer, snap.described)
        public = snap.described.get(log_of.PUBLIC)
        lines = decided.lines(entries, snap.described.get(log_of.BEFORE))
        if public is not None and public.entries is entries:
            public.lines = lines  # drawn: the next push's public log shares them
        log = None
        if lines is not old_lines and lines != old_lines:
            log = push.log_append(old_lines, lines)
            if log is None:  # an older line changed, or the page showed no line yet
                log = render.log_block(page, context_of(), self.memo, key)
        if decided.check:
            deciding.check(page, context_of(), blocks, str(key))
        self.rendered[key], self.logs[key] = blocks, lines
        parts = {name: push.part(name, held.get(name), html, blocks) for name, html in changed.items()}
        diff = push.diff(page, parts, log)
        for conn in conns:
            self._out(conn, diff)
            conn.seq = state.seq

    def _send_json(self, snap: Snap, viewer: Viewer, since: int, conns: list[Conn]) -> None:
        missed = [e for e in snap.events if e.seq > since]
        if since < snap.since or len(missed) > MAX_CATCHUP:
            message: dict[str, Any] = {"seq": snap.state.seq, "events": [], "reset": True}
        else:
            message = {
                "seq": snap.state.seq,
                "events": [e.public() for e in snap.game.visible(missed, viewer, snap.state, snap.described)],
            }
        text = json.dumps(message)
        for conn in conns:
            conn.push(text)
            conn.seq = snap.state.seq

    async def add(self, conn: Conn, after: int) -> None:
        async with self.lock:
            conn.seq = max(0, after)
            others = self._json_since()
            since = others if conn.fmt != "json" else conn.seq if others is None else min(conn.seq, others)
            snap = await self._load(since)
            self.conns.add(conn)
            if conn.seq > snap.state.seq:
                # A page from a future this table no longer has (a restored backup, another database):
                # bring it to today with everything, rather than wait for a seq that will mean otherwise.
                conn.seq = snap.state.seq - 1 if conn.fmt == "html" else snap.state.seq
                conn.synced_key = None
            elif conn.seq == snap.state.seq and conn.fmt == "html":
                # The page is as new as the state: it shows the render of this view, if there is one.
                conn.seq = snap.state.seq
                key = conn.key(snap.state)
                conn.synced_key = key if key in self.rendered and self.seq == snap.state.seq else None
            await self._broadcast(snap)

    def remove(self, conn: Conn) -> None:
        self.conns.discard(conn)
        self.groups = None  # regrouped at the next push; the socket gone is not held until then
        live = {c.synced_key for c in self.conns}
        for key in [k for k in self.rendered if k not in live]:
            del self.rendered[key]
            self.logs.pop(key, None)
            self.decisions.pop(key, None)


class Hub:
    def __init__(
        self, db: Database, states: StateCache, log_page: int = 40, busy: Callable[[], None] = lambda: None
    ):
        self.db = db
        self.states = states
        self.log_page = log_page
        self.busy = busy  # told when a push starts and as it goes on (the loop watch ticks meanwhile)
        self.rooms: dict[str, Room] = {}

    def from_memory(
        self, campaign_id: str, since: int | None, known: list[Event], announced: int | None
    ) -> Snap | None:
        """The push from this process's memory when it holds everything up to the announced seq: the
        command that made it ran here (or its events were folded here). None: read the database."""
        state = self.states.get(campaign_id)
        if announced is None or state is None or state.seq < announced or not known:
            return None
        last = known[-1].seq
        fresh = self.states.tail_after(campaign_id, last if since is None else min(since, last), state.seq)
        if fresh is None:
            return None
        recent = [*known, *(e for e in fresh if e.seq > last)][-self.log_page :]
        events = [] if since is None else [e for e in fresh if e.seq > since]
        return Snap(state, registry.game(state.system), recent, events, since or 0)

    def load(self, campaign_id: str, since: int | None, known: list[Event] | None = None) -> Snap:
        """The campaign now, its recent log, and events for JSON catch-up.

        `known` is the recent log the room already has: only what came after it is read.
        """
        with self.db.read() as session:
            system = self.states.get(campaign_id)
            game = registry.game(system.system if system else _system_of(session, campaign_id))
            state = self.states.current(session, game, campaign_id)
            last = known[-1].seq if known else None
            starts = [s for s in (since, last) if s is not None]
            fresh = log.after(session, campaign_id, min(starts), limit=MAX_CATCHUP + 1) if starts else []
            whole = len(fresh) <= MAX_CATCHUP  # everything after the start, not a truncated read
            if known and last is not None and whole:
                recent = [*known, *(e for e in fresh if e.seq > last)][-self.log_page :]
            else:
                recent = log.recent(session, campaign_id, self.log_page)
            if since is None:
                events = []
            elif whole:
                events = [e for e in fresh if e.seq > since]
            else:
                events = log.after(session, campaign_id, since, limit=MAX_CATCHUP + 1)
        return Snap(state, game, recent, events, since or 0)

    async def join(self, campaign_id: str, conn: Conn, after: int) -> None:
        room = self.rooms.get(campaign_id)
        if room is None:
            room = self.rooms[campaign_id] = Room(self, campaign_id)
        conn.sender = asyncio.create_task(conn.send_loop())
        await room.add(conn, after)
        room.poke()

    async def leave(self, campaign_id: str, conn: Conn) -> None:
        conn.closed = True
        if conn.sender:
            conn.sender.cancel()
        room = self.rooms.get(campaign_id)
        if room is None:
            return
        room.remove(conn)
        if not room.conns:
            self.rooms.pop(campaign_id, None)
            if room.task:
                room.task.cancel()

    async def notify(self, campaign_id: str, seq: int, here: bool = False) -> None:
        """A campaign moved on to `seq` (negative: read it from the database). `here`: the change was made
        by the calling task, in this process; its push may run right in it (`Room.push_here`)."""
        room = self.rooms.get(campaign_id)
        if room is not None and (seq < 0 or seq > room.seq):
            if seq < 0:
                room.read_database = True
            room.announced = max(room.announced, seq)
            if here and seq > 0:
                await room.push_here()
            else:
                room.poke()

    async def signal(self, campaign_id: str, message: dict[str, Any]) -> None:
        """An ephemeral map message from the broker: to each socket whose viewer may see it."""
        room = self.rooms.get(campaign_id)
        state = self.states.get(campaign_id)
        if room is None or state is None:
            return
        sender = message.pop("_seat", None)  # the sender draws its own ping: it is not sent back
        text = json.dumps(message)
        for conn in list(room.conns):
            if conn.seat_id != sender and signals.visible_to(state, conn.viewer(state), message):
                conn.push(text)

    async def resync(self) -> None:
        """After a broker outage: every room looks in the database for what it missed."""
        for room in list(self.rooms.values()):
            room.read_database = True
            room.poke()

    async def close(self) -> None:
        for room in list(self.rooms.values()):
            for conn in list(room.conns):
                conn.close(1012, "The server is restarting.")
            if room.task:
                room.task.cancel()
        self.rooms.clear()


def _system_of(session: Any, campaign_id: str) -> str:
    from app.store.models import Campaign

    campaign = session.get(Campaign, campaign_id)
    return campaign.system if campaign else "generic"
