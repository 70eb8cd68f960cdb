"""The dice log as a viewer sees it: each event worded once a push and shared by every view."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from app.rules.campaign.state import CampaignState
from app.rules.contract.envelope import Event
from app.rules.contract.viewer import Viewer

if TYPE_CHECKING:
    from app.rules.game import Game

# Log entries by what they are made of (see `log_entries`), shared read-only by every view: the
# event, whether it is undone, and its author's name, which is looked up again only when the state's
# seats are not the ones it was found in. Each value: (event, seats, author, entry, what decides it).
_WORDED: dict[
    tuple[int, bool], tuple[Event, tuple[Any, ...], str | None, dict[str, Any], tuple[Any, ...]]
] = {}
_WORDED_KEPT = 8192


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
        events = game.visible(events, viewer, state, described)
    # A reading of an event (an image's id taken out) is another object with the same seq.
    seen = ("log", *((e.seq, id(e)) for e in events)) if not everyone else ("log", public)
    shared = described.get(seen)
    if isinstance(shared, LogEntries):
        return shared
    undone = {seq for e in events if e.type == "campaign.undone" for seq in e.payload.seqs}
    entries = described[seen] = LogEntries()
    seats = state.seats
    for e in reversed(events):
        # Everything an entry is made of: this very event (a room keeps its recent events from push
        # to push), undone or not, by a seat of this name. Each push finds the same entry, so its
        # drawn line too, instead of wording it again; while the seats are the same tuple (a state
        # never changes it), without looking up the author's name either.
        slot = (id(e), e.seq in undone)
        worded = _WORDED.get(slot)
        if worded is None or worded[0] is not e or worded[1] is not seats:
            by = state.seat_name(e.actor) if e.actor else None
            if worded is None or worded[0] is not e or worded[2] != by:
                entry = {
                    "seq": e.seq,
                    "type": e.type,
                    "text": game.describe(e),
                    "by": by,
                    "at": e.at,
                    "undone": slot[1],
                    "secret": e.audience != "all",
                    "rolls": _rolls_of(e.data),
                }
            else:
                entry = worded[3]  # new seats, the same name: the same entry
            if len(_WORDED) >= _WORDED_KEPT:
                _WORDED.clear()
            # The event and the seats kept alive with the entry: their ids stay their own.
            worded = _WORDED[slot] = (e, seats, by, entry, (e.seq, e.type, e.at, slot[1], by))
        entries.append(worded[3])
        entries.fingerprint.append(worded[4])
    return entries
