"""What decides each key of a view: the state's fields it reads, and what of the viewer it reads.

A push changes a few of the state's fields (a pool: `pools`); a key of a view whose fields did not change
is, for the same viewer, what it was. Where they changed, viewers with the same `of` see the key alike
(every player sees a pool nobody of theirs owns the same way), so a push draws what reads it once for all
of them (app/realtime/decided.py), without building each viewer's view.

The contract: a key's value is a function of the fields in `looks_at` and of `of(state, viewer)`, and of
nothing else. With `alone`, `of` decides the value by itself, across states (it holds the state's objects
it reads: a phone's own characters and their pools), so a viewer whose `of` is what it was sees the key
as it was, even though its fields changed. A key without a decider is decided by everything: a push
builds that viewer's whole view for the blocks that read it, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.rules.contract.viewer import Viewer

if TYPE_CHECKING:
    from app.rules.campaign.state import CampaignState


@dataclass(frozen=True, slots=True)
class Decider:
    looks_at: frozenset[str]
    of: Callable[[CampaignState, Viewer], Hashable]
    alone: bool = False


def decider(
    looks_at: Iterable[str], of: Callable[[CampaignState, Viewer], Hashable], alone: bool = False
) -> Decider:
    return Decider(frozenset(looks_at), of, alone)


def nobody(state: CampaignState, viewer: Viewer) -> Hashable:
    """Read by a key every viewer of a state sees alike."""
    return ()


def gm_or_not(state: CampaignState, viewer: Viewer) -> Hashable:
    return viewer.is_gm


def role_and_characters(state: CampaignState, viewer: Viewer) -> Hashable:
    return (viewer.role, viewer.participants)


def whole_viewer(state: CampaignState, viewer: Viewer) -> Hashable:
    """Everything a view reads of its viewer (`Game.view`'s key but the scene, which pushes do not ask)."""
    return (viewer.role, viewer.seat_id, viewer.participants)


# What a game's own rules never read of a campaign: the generic table every campaign has (its pools,
# tracks and roll buttons; not its initiative, which Triptycho's turns are), the undo stack, the map and
# the log's position. Rolls and pool changes, most of a session's pushes, move only these.
TABLE_FIELDS = frozenset({"pools", "tracks", "presets", "undo_stack", "map", "seq"})


def all_but_the_table(fields: Iterable[str]) -> Decider:
    """For a game's own part of a view and its own buttons, which read too much of the campaign to list
    (the sheets, the fight, the prompts, the settings, who is hidden): every field of the campaign but the
    table's, and the whole viewer. A push that moved only the table's fields leaves them as held."""
    return decider(frozenset(fields) - TABLE_FIELDS, whole_viewer)


def seen_through(
    found: Decider, sight: Decider, seen: Callable[[CampaignState, Viewer], CampaignState]
) -> Decider:
    """A key of the core, the generic table or the map in a game that conceals characters from some viewers
    (`SystemPart.conceals`): drawn from the campaign as this viewer sees it (`seen`, which `sight.of`
    decides), so it is decided by what decides that (the concealed characters) and by `found` read there."""
    return Decider(
        found.looks_at | sight.looks_at,
        lambda state, viewer: (sight.of(state, viewer), found.of(seen(state, viewer), viewer)),
        found.alone,
    )


def together(deciders: Iterable[Decider]) -> Decider:
    """One key made of several parts' (a game's roll buttons: each part's own)."""
    found = tuple(deciders)
    return Decider(
        frozenset().union(*(d.looks_at for d in found)),
        lambda state, viewer: tuple(d.of(state, viewer) for d in found),
        all(d.alone for d in found),
    )
