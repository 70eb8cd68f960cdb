"""The in-memory event log every rules test suite folds its commands through."""

from __future__ import annotations

from app.rules.events import current_version
from app.rules.system import Event


class InMemoryLog:
    """Appends a command's events to `self.events` and folds them into `self.state` with `self.game`,
    as the service does with the database: dense seqs, one batch per command, undo refolds the log."""

    def _append(self, new_events: list[tuple], actor: str | None) -> list[Event]:
        first = len(self.events) + 1
        active = self.state.active_encounter if self.state else None
        events = [
            Event(
                seq=first + i,
                batch=first,
                type=item[0],
                data=item[1],
                audience=item[2],
                version=current_version(item[0]),  # written today, at today's version
                actor=actor,
                encounter=(item[3] if len(item) > 3 else None) or active,
            )
            for i, item in enumerate(new_events)
        ]
        self.events.extend(events)
        if any(e.type == "campaign.undone" for e in events):
            # An undo reaches back: fold the log again, skipping what it took back.
            self.state = self.game.replay(None, self.events)
        else:
            for event in events:
                self.state = self.game.evolve(self.state, event)
        return events
