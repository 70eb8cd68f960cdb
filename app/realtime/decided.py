"""A push that decides a viewer's page from what changed, without building the viewer's view.

A push changes a few of the campaign's fields (a pool: `pools`). Each key of a view and each name of a
page's context has a `Decider` (app/rules/contract/deciders.py): the fields it reads and what of the viewer
it reads. A block that read nothing whose fields changed (the block memo keeps every key a block's renders
ever read, `BlockMemo.reads_ever`) is what every viewer holds: no work for any of them. A block that did is
found by what decides it for this viewer: the same as last push for a key decided by the viewer's own
objects alone (a phone's sheet when another's pool moved), else the render of another viewer of this push
who is decided alike (every phone's pools card after a change of the party's gold), else drawn for this
viewer from its view, built then, as before. Per viewer, a push is then a few small keys and look-ups.

Sound as the deciders are: with `FRAY_CHECK_PUSH=1` (the test suite sets it) every page decided here is
also drawn whole from the viewer's view and compared, and a difference is recorded in `MISMATCHES`.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Hashable
from functools import cache
from typing import Any, NamedTuple

from app.realtime import render
from app.realtime.blocks import BlockMemo
from app.realtime.log import PublicLog
from app.realtime.sources import EVERY_NAME, names_read
from app.realtime.tracked import NotInView
from app.rules.campaign.state import CampaignState
from app.rules.contract.deciders import Decider, decider, gm_or_not, nobody, role_and_characters, whole_viewer
from app.rules.contract.frozen import kept
from app.rules.game import Game
from app.rules.system import Viewer

logger = logging.getLogger("fray.decided")

TOUCHED_KEPT = 64  # kinds of push a room keeps its pages' touched blocks for
MISMATCHES: list[str] = []  # pages decided here that differ from their view's (under FRAY_CHECK_PUSH)

FIELDS = tuple(CampaignState.model_fields)
MISSING = object()
UNKNOWN = "\0unknown"  # what a block never drawn here reads: no decider has it, so it is the viewer's own


def _sheets(state: CampaignState) -> dict[str, tuple[Any, ...]]:
    """Each character's part of a sheet: where it stands, itself, its seat, its pools, its tracks. Built
    once per change of those tuples, for every phone of the push."""
    chars, seats, pools, tracks = state.participants, state.seats, state.pools, state.tracks

    def build() -> dict[str, tuple[Any, ...]]:
        owned: dict[str | None, tuple[list[Any], list[Any]]] = {}
        for pool in pools:
            owned.setdefault(pool.owner, ([], []))[0].append(pool)
        for track in tracks:
            owned.setdefault(track.owner, ([], []))[1].append(track)
        none: tuple[list[Any], list[Any]] = ([], [])
        return {
            p.id: (n, p, state.seat(p.owner) if p.owner else None, *map(tuple, owned.get(p.id, none)))
            for n, p in enumerate(chars)
        }

    return kept(state, "_sheets", (chars, seats, pools, tracks), build)


def _own(state: CampaignState, viewer: Viewer) -> Hashable:
    """What a phone's `mine` is made of: its characters (where they stand), their seats, pools and tracks."""
    mine = viewer.participants
    if not mine:
        return (viewer.role, viewer.seat_id)
    sheets = _sheets(state)
    return (viewer.role, viewer.seat_id, *sorted(sheets.get(pid, (-1, pid)) for pid in mine))


def _sheets_moved(old: CampaignState, new: CampaignState) -> frozenset[str]:
    """The characters whose part of a sheet is not what it was: a phone none of whose characters is among
    them has the `mine` it had (`_own` of each state is made of equal parts), worked out once a push
    instead of once a phone."""
    if old.participants is new.participants and old.seats is new.seats:
        pools, tracks = _owners_moved(old.pools, new.pools), _owners_moved(old.tracks, new.tracks)
        if pools is not None and tracks is not None:
            return frozenset(owner for owner in pools | tracks if owner is not None)
    before, after = _sheets(old), _sheets(new)
    return frozenset(pid for pid in before.keys() | after.keys() if before.get(pid) != after.get(pid))


def _owners_moved(before: tuple[Any, ...], after: tuple[Any, ...]) -> set[str | None] | None:
    """The owners of the pools (or tracks) not where they were, by place and identity: a sheet holds its
    character's in order, so a character none of whose is among them has the same ones in the same order.
    None when the list grew or shrank (every sheet is compared then). A pool change moves one pool, and
    this looks at the pools rather than build and compare every character's sheet (sixty-four a push at a
    table of sixty-four)."""
    if before is after:
        return set()
    if len(before) != len(after):
        return None
    return {x.owner for was, now in zip(before, after, strict=True) if was is not now for x in (was, now)}


# The names of a page's context (`render.page_context`, `render.live_context`) but the view and the log
# (compared by its lines), and what decides each. Named apart from the view's keys (`$seq`): the context's
# `system` is the game's key, the view's `system` a game's whole part.
_NAMES: dict[str, Decider] = {
    "seq": decider(("seq",), nobody),
    "manual": decider(("dice_mode",), nobody),
    "others": decider(("participants",), role_and_characters),
    "people": decider(("participants", "tracks"), gm_or_not),
    "mine": decider(("participants", "seats", "pools", "tracks"), _own, alone=True),
    **{
        name: decider((), nobody)
        for name in ("page", "system", "campaign_id", "oob", "system_template", "board_template")
    },
}
NAME_DECIDERS = {f"${name}": found for name, found in _NAMES.items()}
MINE = "$mine"
SEEN_NAMES = frozenset({"$others", "$people", MINE})  # built from the campaign as its viewer sees it


@cache
def name_deciders(game: Game) -> dict[str, Decider]:
    """The context's names' deciders in this game: in one that conceals characters, those built from the
    view are decided by what the viewer cannot see, too (`Game.seen_decider`)."""
    return {name: game.seen_decider(d) if name in SEEN_NAMES else d for name, d in NAME_DECIDERS.items()}


Moves = tuple[frozenset[str], tuple[tuple[str, Callable[[CampaignState, Viewer], Hashable]], ...], bool]
# Worked out once for each game's deciders (by identity: a game's deciders are a read-only mapping, so
# another set of them is another object) and kind of change; a few kinds of change a game.
_ALL: dict[int, tuple[Any, dict[str, Decider]]] = {}
_MOVES: dict[tuple[int, frozenset[str]], tuple[Any, Moves]] = {}
MOVES_KEPT = 256


def all_deciders(game: Game) -> dict[str, Decider]:
    """Every key's and name's decider in this game."""
    own = game.deciders
    assert own is not None
    hit = _ALL.get(id(own))
    if hit is None or hit[0] is not own:
        hit = _ALL[id(own)] = (own, {**own, **name_deciders(game)})
    return hit[1]


def _moves(game: Game, changed: frozenset[str]) -> Moves:
    """What a change of these fields moves in this game: the keys and names whose deciders look at any of
    them; what decides each, to ask of every viewer; and whether `$mine` is asked only of the phones whose
    characters' sheets moved (the rest keep theirs), in a game that conceals nothing: elsewhere what a
    phone cannot see moves its page's places too."""
    deciders = all_deciders(game)
    key = (id(deciders), changed)
    hit = _MOVES.get(key)
    if hit is None or hit[0] is not deciders:
        moved = frozenset(n for n, d in deciders.items() if not d.looks_at.isdisjoint(changed))
        by_sheets = MINE in moved and game.sight is None
        moved_of = tuple((name, deciders[name].of) for name in sorted(moved) if name != MINE or not by_sheets)
        if len(_MOVES) >= MOVES_KEPT:
            _MOVES.clear()
        hit = _MOVES[key] = (deciders, (moved, moved_of, by_sheets))
    return hit[1]


# And the log: its own block is compared by its lines; any other block that read it would be the viewer's.
CONTEXT_NAMES = frozenset({*_NAMES, "log"})


class Slot(NamedTuple):
    """A block of a page as a push decides it."""

    template: str
    block: str
    out: str  # its name in the page
    reads: tuple[str, ...]  # every key and name its renders read
    shared: tuple[str, ...]  # those decided alike for viewers alike
    own: bool  # it read a key decided by the viewer alone (or by nothing): drawn for the viewer
    redrawn: bool  # a shared key it read moved, or a key nothing decides: not as held
    compare: tuple[str, ...]  # the viewer's own keys it read that moved: as held if each is as it was
    part: tuple[str, ...] | None  # the view's keys it read, when it read no other name but plain ones


def decisions_of(game: Game, state: CampaignState, viewer: Viewer) -> dict[str, Hashable]:
    """What decides every key and name of this viewer's page now (kept for its next push)."""
    assert game.deciders is not None
    return {name: d.of(state, viewer) for name, d in (*game.deciders.items(), *name_deciders(game).items())}


class Decided:
    """One push's decisions, shared by its viewers: which keys moved, and the blocks drawn so far."""

    def __init__(self, game: Game, old: CampaignState, new: CampaignState, memo: BlockMemo) -> None:
        assert game.deciders is not None
        self.check = os.environ.get("FRAY_CHECK_PUSH") == "1"  # see the module's docstring
        self.game = game
        self.old_seq = old.seq
        self.state = new
        self.memo = memo
        self.deciders = all_deciders(game)
        changed = frozenset(f for f in FIELDS if getattr(old, f) is not getattr(new, f))
        self.moved, self._moved_of, by_sheets = _moves(game, changed)
        self._mine_moved = _sheets_moved(old, new) if by_sheets else None
        self._reads: dict[tuple[str, str], tuple[Any, tuple[str, ...], bool]] = {}
        self._drawn: dict[tuple[Any, ...], str] = {}
        self._lines: dict[int, tuple[Any, list[str]]] = {}
        self._touched: dict[str, tuple[int, list[Slot]]] = {}

    def reads(self, template: str, block: str) -> tuple[tuple[str, ...], bool]:
        """Every key and name a block's renders read, and whether any of them moved in this push."""
        slot = (template, block)
        ever = self.memo.reads_ever.get(slot)
        hit = self._reads.get(slot)
        if hit is None or hit[0] is not ever:
            names = names_read(render.ENV, template, block)
            found = CONTEXT_NAMES if names == EVERY_NAME else CONTEXT_NAMES.intersection(names)
            used = {f"${name}" for name in found}
            if ever is None:  # never drawn in this room: its reads are not known, it is the viewer's own
                hit = self._reads[slot] = (ever, (UNKNOWN,), True)
            else:
                reads = tuple(sorted(ever.union(used)))
                moved = any(r not in self.deciders or r in self.moved for r in reads)
                hit = self._reads[slot] = (ever, reads, moved)
        return hit[1], hit[2]

    def touched(self, page: str) -> list[Slot]:
        """The page's blocks that read something that moved in this push, each with how it is decided:
        worked out again only when a render of this push read a key no render of its block had read.
        Kept in the room's memo from push to push, by what it is made of (this game's deciders, the keys
        that moved, every key each block ever read): a push of the same kind as the last finds it there
        (its making was 60 µs of an idle server's first phone, touching every block of the page)."""
        version = self.memo.reads_version
        hit = self._touched.get(page)
        if hit is None or hit[0] != version:
            key = (id(self.deciders), page, self.state.system, self.moved, version)
            kept = self.memo.touched.get(key)
            if kept is None or kept[0] is not self.deciders:
                found = []
                for template, block, out in render.live_slots(page, self.state.system, render.LOG_ONLY):
                    reads, moved = self.reads(template, block)
                    if moved:
                        found.append(self._slot(template, block, out, reads))
                if len(self.memo.touched) >= TOUCHED_KEPT:
                    self.memo.touched.clear()
                kept = self.memo.touched[key] = (self.deciders, found)
            hit = self._touched[page] = (version, kept[1])
        return hit[1]

    def _slot(self, template: str, block: str, out: str, reads: tuple[str, ...]) -> Slot:
        deciders, moved = self.deciders, self.moved
        own = [name for name in reads if name not in deciders or deciders[name].alone]
        shared = tuple(name for name in reads if name in deciders and not deciders[name].alone)
        # Drawn anew whenever it read a shared key that moved or a key nothing decides; else the same as
        # held unless a key decided by the viewer's own objects is not what it was.
        redrawn = any(name not in deciders or (name in moved and not deciders[name].alone) for name in reads)
        compare = tuple(name for name in own if name in deciders and name in moved)
        keys = tuple(name for name in reads if not name.startswith("$"))
        plain = all(name[1:] in render.PLAIN_NAMES for name in reads if name.startswith("$"))
        part = keys if plain and UNKNOWN not in reads else None
        return Slot(template, block, out, reads, shared, bool(own), redrawn, compare, part)

    def lines(self, entries: Any, before: PublicLog | None = None) -> list[str]:
        """The log's lines as drawn, one list for the viewers of this push who see the same log (`before`:
        the last push's public log, whose lines the entries may share)."""
        hit = self._lines.get(id(entries))
        if hit is None or hit[0] is not entries:
            # The entries kept with their lines: their id stays theirs for the push. Each line is found
            # by its entry's identity (`render.log_lines_of`): no digest of the log is needed to find them.
            hit = self._lines[id(entries)] = (entries, render.log_lines_of(entries, before))
        return hit[1]

    def page(
        self,
        viewer: Viewer,
        page: str,
        last: dict[str, Hashable],
        held: dict[str, str],
        context_of: Callable[[], dict[str, Any]],
    ) -> tuple[dict[str, str], dict[str, Hashable]]:
        """The blocks of this viewer's page that differ from what it holds (`held`), and what decided them.

        `last` is what decided this viewer's page last push; `context_of` builds its page's context (its
        view), asked only for a block no viewer of this push was decided alike for."""
        state = self.state
        now = dict(last)
        for name, of in self._moved_of:
            now[name] = of(state, viewer)
        moved = self._mine_moved
        if moved is not None and (MINE not in now or not viewer.participants.isdisjoint(moved)):
            now[MINE] = _own(state, viewer)
        changed: dict[str, str] = {}
        for slot in self.touched(page):
            if not slot.redrawn:
                for name in slot.compare:
                    if now[name] != last.get(name, MISSING):
                        break
                else:
                    continue  # read only what is, for this viewer, as it was
            html = self._draw(viewer, page, slot, now, context_of)
            before = held.get(slot.out)
            if html is not before and html != before:
                changed[slot.out] = html
        return changed, now

    def _alike(self, slot: Slot, viewer: Viewer, now: dict[str, Hashable]) -> tuple[Any, ...]:
        """The key of a block for the viewers of this push decided alike for everything it reads: what
        decides each shared key, and the viewer itself where the block read a key of its own."""
        mine = whole_viewer(self.state, viewer) if slot.own else None
        return (slot.template, slot.block, slot.reads, mine, *[now[name] for name in slot.shared])

    def _draw(
        self,
        viewer: Viewer,
        page: str,
        slot: Slot,
        now: dict[str, Hashable],
        context_of: Callable[[], dict[str, Any]],
    ) -> str:
        alike = self._alike(slot, viewer, now)
        html = self._drawn.get(alike)
        if html is None:
            template, block = slot.template, slot.block
            draw = render.block_drawer(template, block)
            # From the part of the view it reads when it can be (the first phone of a push would build its
            # whole view for a pools card), else, or when it reads more this time, from the whole view.
            ctx = (
                None
                if slot.part is None
                else render.part_context(self.game, self.state, viewer, page, slot.part)
            )
            version = self.memo.reads_version
            if ctx is not None:
                try:
                    html = self.memo.drawn(template, block, ctx, draw)
                except NotInView:
                    html = None
            if html is None:
                ctx = render.live_context(page, context_of())
                html = self.memo.render(render.ENV, template, block, self.memo.prints(ctx), draw)
            # Kept under what it read as known now: a render that read a key no earlier render of the
            # block had read is found only by viewers decided alike for that key too.
            if self.memo.reads_version != version:
                slot = self._slot(template, block, slot.out, self.reads(template, block)[0])
                alike = self._alike(slot, viewer, now)
            self._drawn[alike] = html
        return html


def check(page: str, context: dict[str, Any], blocks: dict[str, str], who: str) -> None:
    """Under FRAY_CHECK_PUSH: the page decided here against the page drawn whole from the viewer's view."""
    fresh = render.render_live(page, context, None, None, render.LOG_ONLY)
    if fresh != blocks:
        differ = sorted(name for name in fresh if fresh.get(name) != blocks.get(name))
        MISMATCHES.append(f"{who} on {page}: {', '.join(differ)}")
        logger.error("a decided push differs from the view's for %s on %s: %s", who, page, differ)
