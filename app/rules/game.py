"""A campaign's rules: the campaign core + the generic tabletop + its game system, as one decider."""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterable, Mapping
from operator import attrgetter
from types import MappingProxyType
from typing import Any, Literal, get_args, get_origin
from weakref import ref

from pydantic import BaseModel, ValidationError

from app.rules import events as payloads
from app.rules import seen_events
from app.rules.campaign import commands as campaign_commands
from app.rules.campaign import reducers as campaign_reducers
from app.rules.campaign import view as campaign_view
from app.rules.campaign.state import CampaignState, UndoEntry
from app.rules.chat.part import PART as CHAT
from app.rules.contract.commands import Command, CommandSpec, Ctx, parse_command
from app.rules.contract.deciders import (
    TABLE_FIELDS,
    Decider,
    decider,
    gm_or_not,
    seen_through,
    together,
)
from app.rules.contract.envelope import Event, EventView, NewEvent, Reducer
from app.rules.contract.frozen import kept, kept_table, kept_whole
from app.rules.contract.options import Option
from app.rules.contract.part import SystemPart, ViewRequest
from app.rules.contract.validation import explain
from app.rules.contract.viewer import Viewer, widest
from app.rules.errors import Forbidden, InputError, RuleError, quoted
from app.rules.generic import SYSTEM as GENERIC
from app.rules.map.part import PART as MAP

# Identity and bookkeeping events that "undo the last action" steps over.
NOT_UNDOABLE = frozenset(
    {
        "campaign.created",
        "campaign.seat_joined",
        "campaign.seat_revoked",
        "campaign.link_rotated",  # the old link is not given back
        "campaign.undone",
        "map.asset_added",
        "map.picture_added",
        "map.asset_removed",  # its blob may be gone: the campaign's hold on it is released with it
        "map.scene_opened",
        "chat.said",  # "undo the last action" takes back a move, not a word said
    }
)
UNDO_DEPTH = 50


def _dumped(option: Option) -> dict[str, Any]:
    """The option as JSON, kept on the option (`kept`): a part that keeps its options from push to push
    (the generic roll buttons) has each dumped once, not once a view. Shared read-only."""
    return kept_whole(option, "_json", lambda: option.model_dump(mode="json"))


def rulings(model: type[BaseModel], settings: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The GM's house rules: each yes/no or pick-one setting, its sentence, its value and its choices."""
    current = model.model_validate({k: v for k, v in settings.items() if k in model.model_fields})
    out = []
    for key, info in model.model_fields.items():
        if info.annotation is bool:
            choices: tuple[Any, ...] = (True, False)
        elif get_origin(info.annotation) is Literal:
            choices = get_args(info.annotation)
        else:
            continue  # numbers and tables are set through their own forms or the JSON API
        value = getattr(current, key)
        out.append({"key": key, "text": info.description or key, "value": value, "choices": list(choices)})
    return out


_VIEWS = "_views"  # a key of the state's __dict__ that is no field: its views, by viewer
VIEWS_KEPT = 512  # views kept on a state (a table of 200 phones and their tabs); more and it starts afresh


class Game:
    def __init__(self, system: SystemPart):
        self.system = system
        core = SystemPart(
            key="campaign",
            title="Campaign",
            commands=campaign_commands.specs(self._parse_setup, self._parse_settings),
            reducers=campaign_reducers.REDUCERS,
            describers=campaign_view.DESCRIBERS,
            view=self._core_view,
            view_key=None,
            deciders=campaign_view.DECIDERS,
        )
        self.parts: tuple[SystemPart, ...] = (
            (core, MAP, CHAT, GENERIC) if system is GENERIC else (core, MAP, CHAT, GENERIC, system)
        )
        self.commands: dict[str, CommandSpec] = {}
        self.reducers: dict[str, tuple[Reducer, ...]] = {}
        self.describers: dict[str, Any] = {}
        self.event_views: dict[str, EventView] = {}
        for part in self.parts:
            for type_, spec in part.commands.items():
                if system.owns_initiative and type_.startswith("generic.initiative."):
                    continue
                if type_ in self.commands:
                    raise ValueError(f"{part.key} redefines the command {type_}")
                self.commands[type_] = spec
            for type_, reducer in part.reducers.items():
                self.reducers[type_] = (*self.reducers.get(type_, ()), reducer)
            self.describers.update(part.describers)
            self.event_views.update(part.event_views)

        # What decides the characters a game conceals from a viewer: every field but the generic table's.
        self.sight = (
            None
            if system.conceals is None
            else decider(frozenset(CampaignState.model_fields) - TABLE_FIELDS, self.concealed)
        )
        sight_reads = attrgetter(*sorted(self.sight.looks_at)) if self.sight else None
        self._sight_reads = lambda state: sight_reads(state) if sight_reads else ()
        found = self._deciders()
        # Read-only: what is worked out from a game's deciders is kept by their identity (app/realtime).
        self.deciders: Mapping[str, Decider] | None = None if found is None else MappingProxyType(found)
        # Every part that made each top-level key of a view built here (`_view`), for `view_parts`.
        self._made_by: dict[str, tuple[SystemPart, ...]] = {}
        self._learning = threading.Lock()

    @property
    def key(self) -> str:
        return self.system.key

    def _deciders(self) -> dict[str, Decider] | None:
        """What decides each key of this game's views (app/rules/contract/deciders.py); None where a part
        adds keys at the top of the view that nothing says what decides. In a game that conceals
        characters, every key but the game's own is read from the campaign as its viewer sees it: decided
        by what that viewer cannot see, too (`sight`)."""
        out: dict[str, Decider] = {}
        for part in self.parts:
            if part.view_key is None and part.view is not None and not part.deciders:
                return None  # keys at the top of the view that nothing says what decides
            out.update({key: self.seen_decider(d, part) for key, d in part.deciders.items()})
        buttons = [part.options_decider for part in self.parts if part.options]
        if all(buttons):
            out["options"] = together(
                self.seen_decider(part.options_decider, part)
                for part in self.parts
                if part.options and part.options_decider is not None
            )
        out["rulings"] = decider(("settings",), gm_or_not)
        return out

    def seen_decider(self, found: Decider, part: SystemPart | None = None) -> Decider:
        """`found` for a key read from the campaign as its viewer sees it (any part's but the game's)."""
        if self.sight is None or part is self.system:
            return found
        return seen_through(found, self.sight, self.as_seen_by)

    def concealed(self, state: CampaignState, viewer: Viewer) -> frozenset[str]:
        """The characters this game hides from this viewer now (none from the GM, nor their own), worked
        out once per state for the viewers it reads alike (`SystemPart.conceals_by`)."""
        conceals = self.system.conceals
        if viewer.is_gm or conceals is None:
            return frozenset()
        key = (viewer.role, viewer.participants)
        here: dict[tuple[str, frozenset[str]], frozenset[str]] = kept_whole(state, "_concealed", dict)
        hit = here.get(key)
        if hit is None:
            # Kept across states while the fields it reads are the same objects: a roll or a pool change
            # keeps what each kind of viewer cannot see.
            lasting: dict[Hashable, frozenset[str]] = kept(
                state, "_concealed_by", self._sight_reads(state), dict
            )
            by = self.system.conceals_by(viewer)
            found = lasting.get(by)
            if found is None:
                found = lasting[by] = conceals(state, viewer)
            hit = here[key] = found - viewer.participants if found and viewer.participants else found
        return hit

    def _core_view(self, request: ViewRequest) -> dict[str, Any]:
        return campaign_view.view(
            request.state, request.viewer, self.system.title, self.system.owns_initiative
        )

    # -- set-up ---------------------------------------------------------------------------------

    def _parse_setup(self, state: CampaignState, setup: dict[str, Any]) -> dict[str, Any]:
        return self.system.parse_setup(state, setup) if self.system.parse_setup else dict(setup)

    def _parse_settings(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        model = self.system.settings_model
        if model is None:
            if settings:
                raise InputError(f"{self.system.title} has no settings to change.")
            return {}
        try:
            return model.model_validate(dict(settings)).model_dump(mode="json")
        except ValidationError as error:
            raise InputError(explain(error, prefix="Settings: ")) from None

    def default_settings(self) -> dict[str, Any]:
        return self._parse_settings({}) if self.system.settings_model else {}

    def recorded_settings(self, settings: Mapping[str, Any] | None) -> dict[str, Any]:
        """Settings as stored, upcast: a key missing from an older record takes the ruling of its day."""
        settings = dict(settings or {})
        if not settings and not self.system.settings_model:
            return settings
        return {**self.system.legacy_settings, **settings}

    def upcast(self, event: Event) -> Event:
        """Events whose meaning changed since they were recorded, brought up to today's reading."""
        if event.type in ("campaign.created", "campaign.settings_changed") and "settings" in event.data:
            settings = self.recorded_settings(event.data["settings"])
            if settings != event.data["settings"]:
                return event.model_copy(update={"data": {**event.data, "settings": settings}})
        return event

    def initial_state(self, event: Event) -> CampaignState:
        p = self.upcast(event).payload
        ext = self.system.initial_ext(p.settings or {}) if self.system.initial_ext else None
        return CampaignState(
            id=p.id,
            name=p.name,
            system=p.system,
            dice_mode=p.dice_mode,
            settings=p.settings or {},
            seq=event.seq,
            ext=ext,
        )

    # -- the decider ----------------------------------------------------------------------------

    def parse(self, payload: Mapping[str, Any], internal: bool = False) -> tuple[CommandSpec, Command]:
        """The command a payload asks for; `internal` only from the server's own code (CommandSpec)."""
        type_ = payload.get("type")
        if not isinstance(type_, str) or not type_:
            raise InputError("Say what to do: a command needs a type, such as generic.roll.")
        spec = self.commands.get(type_)
        if spec is None:
            raise InputError(f"'{type_[:60]}' is not a command of a {self.system.title} campaign.")
        if spec.internal and not internal:
            raise InputError(f"'{type_}' is not sent as a command: {spec.internal}.")
        return spec, parse_command(spec, payload)

    def decide(self, state: CampaignState, command: Command, ctx: Ctx) -> list[NewEvent]:
        spec = self.commands[command.type]
        if ctx.actor.role == "spectator" and not spec.spectators:
            raise Forbidden("Spectators watch the table; they cannot act.")
        if spec.gm_only and not ctx.actor.is_gm:
            raise Forbidden(f"Only the GM can {spec.summary[0].lower()}{spec.summary[1:]}.")
        try:
            made = spec.decide(state, command, ctx)
        except RuleError as error:
            if ctx.actor.is_gm or spec.internal:  # the server's own commands name seats, not characters
                raise
            raise self.unseen_as_absent(state, ctx.actor, command, error) from None
        for event in made:  # what is written is what its type's payload model reads: a bug fails here
            payloads.parse(event.type, event.data)
        return made

    def unseen_as_absent(
        self, state: CampaignState, viewer: Viewer, command: Command, error: RuleError
    ) -> RuleError:
        """A refusal never names what the asker cannot see: an unseen character is as good as absent."""
        seen = self.as_seen_by(state, viewer)
        unseen = [p for p in seen.participants if p.hidden and p.id not in viewer.participants]
        if not any(p.name in error.message for p in unseen):
            return error
        refs = {p.id for p in unseen} | {p.name.casefold() for p in unseen}
        named = next(
            (v for v in seen_events.texts(command.model_dump()) if v.casefold() in refs or v in refs), None
        )
        return RuleError(
            f"There is no character {quoted(named)}." if named else "There is no such character."
        )

    def evolve(self, state: CampaignState | None, event: Event) -> CampaignState:
        if event.type == "campaign.created":
            return self.initial_state(event)
        assert state is not None, "a campaign's log starts with campaign.created"
        event = self.upcast(event)
        for reducer in self.reducers.get(event.type, ()):
            state = reducer(state, event)
        update: dict[str, Any] = {"seq": event.seq}
        if event.type not in NOT_UNDOABLE:
            update["undo_stack"] = self._push_undo(state.undo_stack, event)
        return state.model_copy(update=update)

    def _push_undo(self, stack: tuple[UndoEntry, ...], event: Event) -> tuple[UndoEntry, ...]:
        if stack and stack[-1].batch == event.batch:
            top = stack[-1]
            merged = top.model_copy(
                update={"seqs": (*top.seqs, event.seq), "audience": widest([top.audience, event.audience])}
            )
            return (*stack[:-1], merged)
        entry = UndoEntry(
            batch=event.batch, seqs=(event.seq,), label=self.describe(event), audience=event.audience
        )
        return (*stack, entry)[-UNDO_DEPTH:]

    def replay(self, state: CampaignState | None, events: Iterable[Event]) -> CampaignState:
        """Fold events onto a state, skipping the ones an undo among them took back."""
        events = list(events)
        undone = {seq for e in events if e.type == "campaign.undone" for seq in e.payload.seqs}
        for event in events:
            if event.seq not in undone:
                state = self.evolve(state, event)
        assert state is not None
        return state

    # -- reading --------------------------------------------------------------------------------

    def describe(self, event: Event) -> str:
        describer = self.describers.get(event.type)
        try:
            return describer(event) if describer else event.type
        except (KeyError, TypeError, ValueError):
            return event.type

    def options(self, state: CampaignState, viewer: Viewer) -> list[Option]:
        out: list[Option] = []
        seen = self.as_seen_by(state, viewer)
        for part in self.parts:
            if part.options:
                out.extend(part.options(state if part is self.system else seen, viewer))
        return out

    def as_seen_by(self, state: CampaignState, viewer: Viewer) -> CampaignState:
        """The state for the core and generic views: what the system conceals from this viewer is hidden.
        One copy per state for the viewers from whom the same characters are concealed."""
        concealed = self.concealed(state, viewer)
        if not concealed:
            return state
        seen: dict[frozenset[str], CampaignState] = kept_whole(state, "_seen", dict)
        hit = seen.get(concealed)
        if hit is None:
            masked = tuple(
                p.model_copy(update={"hidden": True}) if p.id in concealed else p for p in state.participants
            )
            hit = seen[concealed] = state.model_copy(update={"participants": masked})
        return hit

    def view(self, state: CampaignState, viewer: Viewer, scene: str | None = None) -> dict[str, Any]:
        """Everything this viewer may see, and nothing else: templates and JSON replies read only this.

        `scene` is the map scene a GM is looking at (players always see the one shown to them).

        Kept on the state for each viewer's key (role, seat, characters: all a view reads of the viewer):
        a command's reply and its push to the same seat's page build one view, not two. Shared
        read-only, as every view is (nothing changes a view once built). Copies of a state share the
        table, so each entry knows its state by a weak reference.
        """
        kept = kept_table(state, _VIEWS, VIEWS_KEPT)
        key = self._view_key(viewer, scene)
        hit = kept.get(key)
        if hit is not None and hit[0]() is state:
            return hit[1]  # type: ignore[no-any-return]  # what this method stored
        out = self._view(state, viewer, scene)
        kept[key] = (ref(state), out)
        return out

    def _view(self, state: CampaignState, viewer: Viewer, scene: str | None) -> dict[str, Any]:
        out = self._parts_view(state, viewer, scene, self.parts, self._made_by)
        out["options"] = [_dumped(o) for o in self.options(state, viewer)]
        if viewer.is_gm and self.system.settings_model is not None:
            out["rulings"] = rulings(self.system.settings_model, state.settings)
        return out

    def _parts_view(
        self,
        state: CampaignState,
        viewer: Viewer,
        scene: str | None,
        parts: Iterable[SystemPart],
        made_by: dict[str, tuple[SystemPart, ...]] | None = None,
    ) -> dict[str, Any]:
        """The view's keys that these parts make, each part over the ones before it as in the whole view.
        `made_by` learns which parts made each key."""
        seen = self.as_seen_by(state, viewer)
        out: dict[str, Any] = {}
        for part in parts:  # in layer order: the order of the view's keys is part of its contract
            if part.view is None:
                continue
            shown = part.view(ViewRequest(state if part is self.system else seen, viewer, scene))
            if part.view_key is None:
                out.update(shown)
            else:
                out[part.view_key] = shown
            if made_by is not None:
                for key in shown if part.view_key is None else (part.view_key,):
                    if not any(known is part for known in made_by.get(key, ())):
                        self._learn(made_by, key, part)
        return out

    def _learn(self, made_by: dict[str, tuple[SystemPart, ...]], key: str, part: SystemPart) -> None:
        """Note that `part` makes `key`. Views are built in worker threads too: a part left out of a key's
        parts would give a viewer another part's value for it, so additions are made one at a time."""
        with self._learning:
            found = made_by.get(key, ())
            if not any(known is part for known in found):
                made_by[key] = (*found, part)

    def view_parts(self, state: CampaignState, viewer: Viewer, keys: Iterable[str]) -> dict[str, Any] | None:
        """Only these keys of `view` (with no scene asked for, as the pages ask), built from only the parts
        that make them: a page's block that reads the pools needs no map, sheets or seats. The value of each
        key is the whole view's: every part that ever made the key here is asked, in the view's order. None
        when a key was never seen made (no whole view of this game was built in this process yet) or is the
        buttons' (`options`, `rulings`): build the whole view then. A key the parts do not make for this
        viewer is left out, as the whole view leaves it out."""
        wanted = tuple(keys)
        built = kept_table(state, _VIEWS, VIEWS_KEPT).get(self._view_key(viewer, None))
        if built is not None and built[0]() is state:  # the whole view is here already
            return {key: built[1][key] for key in wanted if key in built[1]}
        asked: set[int] = set()  # the parts, by identity (a part is a dataclass: equal is not the same)
        for key in wanted:
            found = self._made_by.get(key)
            if found is None:
                return None
            asked.update(id(part) for part in found)
        out = self._parts_view(state, viewer, None, [part for part in self.parts if id(part) in asked])
        return {key: out[key] for key in wanted if key in out}

    def _view_key(self, viewer: Viewer, scene: str | None) -> tuple[Any, ...]:
        return (self, viewer.role, viewer.seat_id, viewer.participants, scene)  # what `viewer.key` names

    def visible(
        self,
        events: Iterable[Event],
        viewer: Viewer,
        state: CampaignState | None = None,
        memo: dict[Any, Any] | None = None,
    ) -> list[Event]:
        """The events as this viewer may see them (`seen_events.visible`, with this game's readings)."""
        return seen_events.visible(self.event_views, events, viewer, state, memo)

    hidden_refs = staticmethod(seen_events.hidden_refs)

    # -- snapshots ------------------------------------------------------------------------------

    def dump(self, state: CampaignState) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def load(self, data: Mapping[str, Any]) -> CampaignState:
        state = CampaignState.model_validate(data)
        settings = self.recorded_settings(state.settings)
        if settings != state.settings:  # a snapshot taken before a setting existed
            state = state.model_copy(update={"settings": settings})
        if self.system.ext_model is not None and state.ext is not None:
            state = state.model_copy(update={"ext": self.system.ext_model.model_validate(state.ext)})
        return state
