"""`SystemPart`: one layer of a campaign's rules (the core, the map, the generic tabletop, a game)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from app.rules.contract.commands import CommandSpec
from app.rules.contract.deciders import Decider
from app.rules.contract.envelope import Describer, EventView, Reducer
from app.rules.contract.marks import BadgeHook, TurnHook
from app.rules.contract.options import Option
from app.rules.contract.viewer import Viewer

if TYPE_CHECKING:
    from app.rules.campaign.state import CampaignState


@dataclass(frozen=True)
class DemoScript:
    """A ready table for `fray demo`: player seats to create, then the GM's commands in order.

    In a command, "@Name" stands for the seat id of the player called Name.
    """

    name: str
    players: tuple[str, ...] = ()
    commands: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class ViewRequest:
    """What a part's view is given: the campaign as that part may show it, to whom, and where they look."""

    # For the game system's own part, the whole campaign (it hides its own secrets); for the parts below
    # it, the campaign with what the system conceals from this viewer already hidden (`Game.as_seen_by`).
    state: CampaignState
    viewer: Viewer
    scene: str | None = None  # the map scene a GM is looking at (players see the one shown to them)


PartView = Callable[[ViewRequest], dict[str, Any]]


def state_view(view: Callable[[CampaignState, Viewer], dict[str, Any]]) -> PartView:
    """A part's view from a function of the state and the viewer (a game's view needs no more)."""
    return lambda request: view(request.state, request.viewer)


@dataclass
class SystemPart:
    """One layer of a campaign's rules. Built-in and outside systems plug in the same way."""

    key: str
    title: str
    summary: str = ""
    commands: Mapping[str, CommandSpec] = field(default_factory=dict)
    reducers: Mapping[str, Reducer] = field(default_factory=dict)
    describers: Mapping[str, Describer] = field(default_factory=dict)
    event_views: Mapping[str, EventView] = field(default_factory=dict)  # see `EventView`
    ext_model: type[BaseModel] | None = None  # the system's own state, for snapshots
    settings_model: type[BaseModel] | None = None  # rulings a GM may change, defaults as the catalogue says
    # An upcaster for recorded settings: what a setting meant in campaigns recorded before it existed (the
    # ruling then in force), so no stored table changes its rules under its players' feet.
    legacy_settings: Mapping[str, Any] = field(default_factory=dict)
    initial_ext: Callable[[dict[str, Any]], Any] | None = None  # from the campaign's settings
    parse_setup: Callable[[CampaignState, dict[str, Any]], dict[str, Any]] | None = None  # encounter set-up
    options: Callable[[CampaignState, Viewer], list[Option]] | None = None
    view: PartView | None = None
    # Where `view` goes in the viewer's whole view: under this key, or, None, its keys at the top level (the
    # campaign core and the generic tabletop). `Game.view` composes the parts' views in layer order.
    view_key: str | None = "system"
    # What decides each key this part's view adds, and its options (app/rules/contract/deciders.py): a push
    # then draws what reads them once for the viewers who see them alike. A key left out is decided by
    # everything (the viewer's whole view is built whenever the campaign changes).
    deciders: Mapping[str, Decider] = field(default_factory=dict)
    options_decider: Decider | None = None
    owns_initiative: bool = False  # the system keeps the turn order: generic.initiative.* are not offered
    # Participants this viewer's characters cannot perceive right now (Triptycho's dark sections): the core
    # and generic views treat them as hidden for that viewer, so they leave no trace in its HTML or JSON.
    conceals: Callable[[CampaignState, Viewer], frozenset[str]] | None = None
    # All that `conceals` reads of its viewer: viewers alike here are concealed the same characters (a
    # party's fog of war reads only whether the viewer is the GM), worked out once a state for all of them.
    conceals_by: Callable[[Viewer], Hashable] = lambda viewer: (viewer.role, viewer.participants)
    # A system with its own board in the map frame (Triptycho's sections, 5x5's tabletop): whether a viewer
    # may see a spot of it, so a ping there reaches only them; None from it when no board is on the table.
    board_spot: Callable[[CampaignState, Viewer, float, float], bool | None] | None = None
    # What this part draws on the map's tokens, from one viewer's own view (app/rules/contract/marks.py):
    # badges by participant, and the participant whose turn it is.
    badges: BadgeHook | None = None
    turn_of: TurnHook | None = None
    docs: str = ""  # path of the GM's rules page, relative to docs/
    demo: DemoScript | None = None
