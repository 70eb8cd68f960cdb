"""The dice log as a viewer sees it: each event worded once and shared by every view.

Presentation, not rules: what an event says is the game's own words (`Game.describe`, each part's
describers); which events a viewer sees is the rules' (`Game.visible`); this puts them together as the
log's entries, newest first, and keeps each entry with its event (`kept`) from push to push."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from operator import is_
from typing import Any
from weakref import ref

from app.rules.campaign.state import CampaignState
from app.rules.contract.envelope import Event
from app.rules.contract.frozen import Memo
from app.rules.contract.viewer import Viewer
from app.rules.game import Game

# An event's entry is kept on the event (its `__dict__`, beside its fields; see `kept_whole`), under one
# key for undone and one for not: a `Memo` of the event (weakly) and (the seats, the author's name, the
# entry, what decides it).
# The author's name is looked up again only when the state's seats are not the ones it was found in.
_WORDED = ("_log_entry", "_log_entry_undone")


class LogEntries(list[dict[str, Any]]):
    """A view's log entries, with what decides them: an event's entry is a function of the event, its
    undone flag and its author's name, so the block memo fingerprints this short list of tuples instead
    of walking forty entries of dice per view (app/realtime/blocks.py)."""

    def __init__(self) -> None:
        super().__init__()
        self.fingerprint: list[tuple[Any, ...]] = []


def _rolls_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The dice an event shows in the log: its `roll`, and/or each roll in its `rolls`."""
    found = [data["roll"]] if isinstance(data.get("roll"), dict) else []
    rolls = data.get("rolls")
    if isinstance(rolls, list):
        found += [
            r.get("roll", r) for r in rolls if isinstance(r, dict) and isinstance(r.get("roll", r), dict)
        ]
    return [r for r in found if isinstance(r.get("terms"), list)]


Worded = tuple[tuple[Any, ...], str | None, dict[str, Any], tuple[Any, ...]]


def _worded(game: Game, e: Event, seats: tuple[Any, ...], by: str | None, undone: bool) -> Worded:
    entry = {
        "seq": e.seq,
        "type": e.type,
        "text": game.describe(e),
        "by": by,
        "at": e.at,
        "undone": undone,
        "secret": e.audience != "all",
        "rolls": _rolls_of(e.data),
    }
    return (seats, by, entry, (e.seq, e.type, e.at, undone, by))


# Keys of a push's `described` (app/realtime/hub.py): the log of the room's last push as every viewer who
# sees all of it saw it (`BEFORE`), and this push's (`PUBLIC`), kept by the room for its next push.
BEFORE = "log before"
PUBLIC = "public log"


@dataclass(slots=True)
class PublicLog:
    """A push's log as every viewer who sees all of it sees it: its events (oldest first), their entries
    (newest first) and, once drawn, their lines."""

    events: list[Event]
    entries: LogEntries
    seats: tuple[Any, ...]
    lines: list[str] | None = None


def log_entries(
    game: Game,
    state: CampaignState,
    events: Iterable[Event],
    viewer: Viewer,
    described: dict[Any, Any] | None = None,
) -> LogEntries:
    """The dice log as this viewer sees it: newest first, undone entries kept and marked.

    `described` keeps each event's entry for the other viewers of the same events (a push builds
    every view's log from one list of events): a line is worded once a push, not once a view, the
    views share its dict (read-only), and viewers who see the same events share the whole list.
    """
    described = {} if described is None else described
    # Viewers who see the same events see the same log: one list for all of them. When every event
    # is public (most pushes) that is every viewer, known without a pass over the events each. The
    # views of a push pass the same list: it is known by its identity (kept alive below).
    public = ("public", id(events))
    known = described.get(public)
    if known is None or known[0] is not events:
        listed = list(events)
        plain = all(e.audience == "all" and e.type not in game.event_views for e in listed)
        known = described[public] = (events, listed, plain)
    events, everyone = known[1], known[2] and not game.hidden_refs(state, viewer, described)
    if not everyone:
        # One list for the viewers who see the same events (`Game.visible` shares it through `described`,
        # which holds it: its id stays its own for the push).
        events = game.visible(events, viewer, state, described)
    seen = ("log", id(events))
    shared = described.get(seen)
    if shared is not None and shared[0] is events:
        return shared[1]  # type: ignore[no-any-return]  # what this function stored
    before = described.get(BEFORE) if everyone else None
    entries = _appended(game, state, events, before) if before is not None else None
    if entries is None:
        entries = _entries(game, state, events)
    described[seen] = (events, entries)
    if everyone:
        described[PUBLIC] = PublicLog(events, entries, state.seats)
    return entries


def _entries(game: Game, state: CampaignState, events: list[Event]) -> LogEntries:
    undone = {seq for e in events if e.type == "campaign.undone" for seq in e.payload.seqs}
    entries = LogEntries()
    seats = state.seats
    for e in reversed(events):
        worded = _entry(game, state, e, seats, e.seq in undone)
        entries.append(worded[2])
        entries.fingerprint.append(worded[3])
    return entries


def _appended(game: Game, state: CampaignState, events: list[Event], before: PublicLog) -> LogEntries | None:
    """The entries of `events` from the last push's when `events` are its events with new ones after them
    (the oldest may have left the page): the new events' entries, then the last push's own. None when it
    cannot be told so: then every entry is looked up (`_entries`).

    The older entries are as they were: an entry is its event's, its author's name (the same seats) and
    whether it is undone, and only an undo among the new events could undo an older one (an undo is
    always newer than what it undoes, so one that left the page took nothing still on it with it)."""
    old = before.events
    if before.seats is not state.seats or not old:
        return None
    last = old[-1].seq
    kept = len(events)
    while kept and events[kept - 1].seq > last:
        kept -= 1
    fresh = events[kept:]
    if (
        kept > len(old)
        or not all(map(is_, events[:kept], old[len(old) - kept :]))
        or any(e.type == "campaign.undone" for e in fresh)
    ):
        return None
    entries = _entries(game, state, fresh)  # no undo among them: none of them is undone either
    entries += before.entries[:kept]
    entries.fingerprint += before.entries.fingerprint[:kept]
    return entries


def _entry(game: Game, state: CampaignState, e: Event, seats: tuple[Any, ...], is_undone: bool) -> Worded:
    """An event's entry, kept on the event from push to push: everything an entry is made of is this very
    event (a room keeps its recent events from push to push), undone or not, by a seat of this name. Each
    push finds the same entry, so its drawn line too, instead of wording it again; while the seats are the
    same tuple (a state never changes it), without looking up the author's name either."""
    key = _WORDED[is_undone]
    kept: Memo | None = e.__dict__.get(key)
    if kept is None or kept.basis() is not e:  # a copy of an event (a reading of it) is not it
        by = state.seat_name(e.actor) if e.actor else None
        worded = _worded(game, e, seats, by, is_undone)
        e.__dict__[key] = Memo(ref(e), worded)
        return worded
    worded = kept.value
    if worded[0] is not seats:
        by = state.seat_name(e.actor) if e.actor else None
        # New seats, the same name: the same entry.
        worded = (
            (seats, by, worded[2], worded[3]) if worded[1] == by else _worded(game, e, seats, by, is_undone)
        )
        kept.value = worded
    return worded
