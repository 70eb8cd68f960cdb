"""What of a view is a phone's own (its characters and their sheets) and what it shares with every
player (the others at the table): found once for all phones, and per phone in a few look-ups."""

from __future__ import annotations

from itertools import compress
from operator import methodcaller
from typing import Any

from app.rules.campaign.state import CampaignState
from app.rules.system import Viewer

_MINE = methodcaller("get", "mine")


def own_of(
    participants: list[dict[str, Any]], viewer: Viewer, places: dict[str, int] | None
) -> list[dict[str, Any]]:
    """The viewer's own characters in the view, in its order: found by where each stands in the players'
    shared list (`places`), a few look-ups however many characters the table has, rather than a pass
    over all of them for each of 200 phones. Each place is checked; a view that differs goes the long way."""
    mine = viewer.participants
    if not mine or viewer.is_gm:
        return list(compress(participants, map(_MINE, participants))) if viewer.is_gm else []
    if places is not None:
        found = sorted(places[pid] for pid in mine if pid in places)
        own = [participants[n] for n in found if n < len(participants)]
        placed = len(own) == len(found) and all(p["id"] in mine and p.get("mine") for p in own)
        # Every one of them found, or (a character of theirs not in the list) none missed elsewhere.
        if placed and (len(own) == len(mine) or sum(p["id"] in mine for p in participants) == len(own)):
            return own
    return [p for p in participants if p["id"] in mine and p.get("mine")]


def places_in(others: list[dict[str, Any]], kept: dict[Any, Any] | None) -> dict[str, int] | None:
    """Where each character stands in the players' shared list, kept with it (by the push's room)."""
    if kept is None:
        return None
    key = ("places", id(others))
    hit = kept.get(key)
    if hit is None or hit[0] is not others:
        hit = kept[key] = (others, {p["id"]: n for n, p in enumerate(others)})
    return hit[1]


def people(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Everyone a player sees at the table, with their tracks, as the phones' "others" card draws them:
    nothing in it depends on which player looks (no "mine", no "can adjust"), so the card renders once
    per push for every phone instead of once per phone. Each phone hides its own characters in it."""
    tracks: dict[str | None, list[dict[str, Any]]] = {}
    for t in view.get("tracks", ()):
        tracks.setdefault(t.get("owner"), []).append({k: v for k, v in t.items() if k != "can_adjust"})
    return [
        {"id": p["id"], "name": p["name"], "kind": p["kind"], "tracks": tracks.get(p["id"], [])}
        for p in view["participants"]
    ]


# A player's `people` reads only the characters and tracks the state shows players (as this viewer's
# system lets them see it): one list per state for every phone. A push keeps the lists it built (`kept`,
# owned by the push: app/realtime/push.py) by the identity of those tuples (a state never changes them),
# so that a push of 200 phones builds it once and the block memo compares it by identity.


def shared_people(
    seen: CampaignState, view: dict[str, Any], kept: dict[Any, Any] | None = None
) -> list[dict[str, Any]]:
    """`people(view)` for a player's view of `seen`, built once for every player who sees the same."""
    if kept is None:
        return people(view)
    key = (id(seen.participants), id(seen.tracks))
    hit = kept.get(key)
    if hit is not None and hit[0] is seen.participants and hit[1] is seen.tracks:
        return hit[2]  # type: ignore[no-any-return]
    out = people(view)
    kept[key] = (seen.participants, seen.tracks, out)
    return out


def own_sheets(view: dict[str, Any], own: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """A phone's own characters, each with its own tracks and pools: all its `mine` block reads."""
    return [
        {
            "participant": p,
            "tracks": [t for t in view["tracks"] if t.get("owner") == p["id"]],
            "pools": [pool for pool in view["pools"] if pool.get("owner") == p["id"]],
        }
        for p in (own if own is not None else [p for p in view["participants"] if p.get("mine")])
    ]
