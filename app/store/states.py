"""Current state per campaign: the newest snapshot plus the events after it, cached per process.

Folded states are frozen, so one cached object is shared by every request and socket in the process.
Another process's writes are picked up by folding the few events this one has not seen.
"""

from __future__ import annotations

import threading

from pydantic import ValidationError

from app.rules.campaign.state import CampaignState
from app.rules.errors import RuleError
from app.rules.game import Game
from app.rules.system import Event
from app.store import log, snapshots
from app.store.db import Executor

# Bump when a state model changes shape, or what a log folds to: older snapshots are then ignored and the
# log re-folded. 2: hiding a character's token hides the character (one flag), map settings.
STATE_VERSION = "2"
TAIL = 200  # committed events kept in memory per campaign, so a push needs no read


class CampaignMissing(RuleError):
    status = 404


class StateCache:
    def __init__(self, snapshot_every: int = 100):
        self.snapshot_every = snapshot_every
        self._states: dict[str, CampaignState] = {}
        self._tails: dict[str, list[Event]] = {}
        self._lock = threading.Lock()

    def remember(self, campaign_id: str, events: list[Event]) -> None:
        """Committed events, in seq order, for tail_after. A gap (another process wrote between, or two
        threads finished out of order) starts the tail again: it only ever holds an unbroken run."""
        if not events:
            return
        with self._lock:
            tail = self._tails.get(campaign_id, [])
            if tail and events[0].seq != tail[-1].seq + 1:
                tail = []
            self._tails[campaign_id] = [*tail, *events][-TAIL:]

    def tail_after(self, campaign_id: str, seq: int, upto: int) -> list[Event] | None:
        """Every event in (seq, upto] if this process holds them all, else None (read the log)."""
        tail = self._tails.get(campaign_id)
        if not tail or tail[0].seq > seq + 1 or tail[-1].seq < upto:
            return None
        # An unbroken run of seqs (`remember`): the events wanted are a slice, found without a pass over the
        # whole tail (a push asks for one event of two hundred).
        first = tail[0].seq
        return tail[max(0, seq + 1 - first) : max(0, upto + 1 - first)]

    def get(self, campaign_id: str) -> CampaignState | None:
        return self._states.get(campaign_id)

    def put(self, state: CampaignState) -> None:
        with self._lock:
            cached = self._states.get(state.id)
            if cached is None or cached.seq <= state.seq:
                self._states[state.id] = state

    def current(self, session: Executor, game: Game, campaign_id: str) -> CampaignState:
        last = log.last_seq(session, campaign_id)
        cached = self._states.get(campaign_id)
        if cached is not None and cached.seq == last:
            return cached
        if cached is not None and cached.seq < last:
            newer = log.after(session, campaign_id, cached.seq)
            # An undo reaches back before the cached state: fold again from a snapshot.
            if not any(e.type == "campaign.undone" for e in newer):
                state = game.replay(cached, newer)
                self.put(state)
                self.remember(campaign_id, newer)
                return state
        state = self.rebuild(session, game, campaign_id)
        self.put(state)
        return state

    def rebuild(
        self, session: Executor, game: Game, campaign_id: str, upto: int | None = None
    ) -> CampaignState:
        """The state as of `upto` (default: now), from the newest usable snapshot at or before it."""
        base: CampaignState | None = None
        start = 0
        found = snapshots.latest(session, campaign_id, at_most=upto)
        if found is not None and found[1] == STATE_VERSION:
            try:
                base, start = game.load(found[2]), found[0]
            except (ValidationError, KeyError, TypeError):
                base, start = None, 0
        events = log.after(session, campaign_id, start, upto=upto)
        if base is None and not events:
            raise CampaignMissing("There is no such campaign.")
        return game.replay(base, events)

    def snapshot_due(self, before: CampaignState, after: CampaignState) -> bool:
        return after.seq // self.snapshot_every > before.seq // self.snapshot_every

    def maybe_snapshot(
        self, session: Executor, game: Game, before: CampaignState, after: CampaignState
    ) -> None:
        if self.snapshot_due(before, after):
            snapshots.save(session, after.id, after.seq, STATE_VERSION, game.dump(after))
