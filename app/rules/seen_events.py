"""Which events of the log a viewer may see, and as what: its audience first, then, for a player or a
spectator, each event as the players may see it (a part's `event_views`: a fog stroke left out, an image's
id taken out), and none that names a character hidden from them (by id or by name) while it is hidden,
however public it was when written."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from app.rules.campaign.state import CampaignState
from app.rules.contract.envelope import Event, EventView
from app.rules.contract.viewer import Viewer, can_see


def visible(
    event_views: Mapping[str, EventView],
    events: Iterable[Event],
    viewer: Viewer,
    state: CampaignState | None = None,
    memo: dict[Any, Any] | None = None,
) -> list[Event]:
    """The events as this viewer may see them. `state` is the campaign now (what is hidden now); `memo`
    shares the players' reading of each event among the views of one push."""
    if viewer.is_gm:
        return list(events)
    hidden = hidden_refs(state, viewer, memo) if state is not None else frozenset()
    if memo is None:
        return _visible(event_views, events, viewer, state, hidden, memo)
    # Viewers of one push who see the same audiences of a list of events (and to whom the same
    # characters are hidden) see the same events: the list is filtered once for all of them, and
    # they share it (read-only, as they share the memo).
    listed = events if isinstance(events, list) else list(events)
    heard = memo.get(("audiences", id(listed)))
    if heard is None or heard[0] is not listed:
        heard = memo[("audiences", id(listed))] = (listed, tuple({e.audience: 0 for e in listed}))
    key = ("visible", id(listed), hidden, *(can_see(a, viewer) for a in heard[1]))
    hit = memo.get(key)
    if hit is None or hit[0] is not listed:
        hit = memo[key] = (listed, _visible(event_views, listed, viewer, state, hidden, memo))
    return hit[1]


def _visible(
    event_views: Mapping[str, EventView],
    events: Iterable[Event],
    viewer: Viewer,
    state: CampaignState | None,
    hidden: frozenset[str],
    memo: dict[Any, Any] | None,
) -> list[Event]:
    out = []
    audiences: dict[str, bool] = {}  # a log's events have a few audiences between them
    for event in events:
        sees = audiences.get(event.audience)
        if sees is None:
            sees = audiences[event.audience] = can_see(event.audience, viewer)
        if sees:
            seen = _as_players_see(event_views, event, state, hidden, memo)
            if seen is not None:
                out.append(seen)
    return out


def _as_players_see(
    event_views: Mapping[str, EventView],
    event: Event,
    state: CampaignState | None,
    hidden: frozenset[str],
    memo: dict[Any, Any] | None,
) -> Event | None:
    key = ("seen", id(event), hidden)
    if memo is not None:
        hit = memo.get(key)
        if hit is not None and hit[0] is event:
            return hit[1]  # type: ignore[no-any-return]  # what this function stored
    view = event_views.get(event.type)
    seen = event if view is None else view(state, event)
    if seen is not None and hidden and names_any(seen.data, hidden):
        seen = None
    if memo is not None:
        memo[key] = (event, seen)  # the event kept alive with its reading: its id stays its own
    return seen


def hidden_refs(state: CampaignState, viewer: Viewer, memo: dict[Any, Any] | None = None) -> frozenset[str]:
    """The ids and names of the characters hidden from this viewer (their own are never hidden)."""
    key = ("hidden", id(state.participants))
    hit = memo.get(key) if memo is not None else None
    if hit is None or hit[0] is not state.participants:
        secret = [p for p in state.participants if p.hidden]
        hit = (state.participants, secret, frozenset(r for p in secret for r in (p.id, p.name)))
        if memo is not None:
            memo[key] = hit
    secret, refs = hit[1], hit[2]
    if not refs or not any(p.id in viewer.participants for p in secret):
        return refs
    return frozenset(r for p in secret if p.id not in viewer.participants for r in (p.id, p.name))


def names_any(value: Any, refs: frozenset[str]) -> bool:
    """Whether any text in an event's data is one of these ids or names."""
    return any(text in refs for text in texts(value))


def texts(value: Any) -> Iterable[str]:
    """Every text in a value (an event's data, a command): its strings, however deep."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from texts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from texts(item)
