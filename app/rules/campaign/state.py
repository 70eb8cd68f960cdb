"""The frozen state of a campaign: what every game system shares, plus the system's own `ext`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, Protocol, TypeVar, cast, overload

from pydantic import Field

from app.rules.contract.frozen import Memo, kept
from app.rules.errors import Forbidden, RuleError, quoted
from app.rules.map.state import MapState
from app.rules.system import PLAYERS, Frozen, Prompt, Role, Viewer

Kind = Literal["pc", "npc"]


class SeatInfo(Frozen):
    id: str
    name: str
    role: Literal["gm", "player", "spectator"]
    revoked: bool = False


class Participant(Frozen):
    id: str
    name: str
    kind: Kind = "pc"
    owner: str | None = None  # seat id of the player who runs it; None: the GM's
    hidden: bool = False
    notes: str = ""  # GM notes (NPC stat blocks): only the GM and the owner see them


class Pool(Frozen):
    id: str
    name: str
    value: int = 0
    min: int | None = 0
    max: int | None = None
    owner: str | None = None  # participant id; None: campaign-wide
    hidden: bool = False
    gm_only: bool = False  # only the GM may change it


class Track(Frozen):
    id: str
    name: str
    filled: int = 0
    total: int
    owner: str | None = None
    hidden: bool = False


class Preset(Frozen):
    """A quick roll button: `2d6` with an optional target (succeeds on target or more)."""

    id: str
    label: str
    expression: str
    target: int | None = None
    owner: str | None = None


class InitiativeEntry(Frozen):
    participant: str
    value: int = 0


class Initiative(Frozen):
    entries: tuple[InitiativeEntry, ...] = ()
    turn: int = 0  # index into entries
    round: int = 0  # 0 until the first turn is taken

    @property
    def current(self) -> str | None:
        return self.entries[self.turn].participant if self.entries and self.round else None


class Encounter(Frozen):
    id: str
    name: str
    status: Literal["prepared", "active", "ended"] = "prepared"
    participants: tuple[str, ...] = ()
    setup: dict[str, Any] = Field(default_factory=dict)
    notes: str = ""
    started_seq: int | None = None
    ended_seq: int | None = None


class UndoEntry(Frozen):
    """A command that may be undone: its events and how the log described it."""

    batch: int
    seqs: tuple[int, ...]
    label: str
    audience: str


VIEWERS_KEPT = 1024  # seats' viewers kept per tuple of characters


class CampaignState(Frozen):
    id: str
    name: str
    system: str
    dice_mode: Literal["server", "manual"] = "server"
    settings: dict[str, Any] = Field(default_factory=dict)
    seq: int = 0
    seats: tuple[SeatInfo, ...] = ()
    participants: tuple[Participant, ...] = ()
    pools: tuple[Pool, ...] = ()
    tracks: tuple[Track, ...] = ()
    presets: tuple[Preset, ...] = ()
    encounters: tuple[Encounter, ...] = ()
    active_encounter: str | None = None
    initiative: Initiative = Initiative()
    prompts: tuple[Prompt, ...] = ()
    undo_stack: tuple[UndoEntry, ...] = ()
    map: MapState = MapState()
    ext: Any = None  # the game system's own state

    # -- lookups (by id first, then by exact name, case-insensitive) --

    def participant(self, ref: str | None) -> Participant:
        return _find(self.participants, ref, "character", index=lambda: self.by_id("participants"))

    def find_participant(self, ref: str | None) -> Participant | None:
        return _find(
            self.participants, ref, "character", missing_ok=True, index=lambda: self.by_id("participants")
        )

    def pool(self, ref: str | None) -> Pool:
        return _find(self.pools, ref, "pool", index=lambda: self.by_id("pools"))

    def track(self, ref: str | None) -> Track:
        return _find(self.tracks, ref, "track", index=lambda: self.by_id("tracks"))

    def preset(self, ref: str | None) -> Preset:
        return _find(self.presets, ref, "roll button", index=lambda: self.by_id("presets"))

    def encounter(self, ref: str | None) -> Encounter:
        return _find(self.encounters, ref, "encounter", index=lambda: self.by_id("encounters"))

    def seat(self, seat_id: str | None) -> SeatInfo | None:
        if not seat_id:
            return None
        hit = self.__dict__.get("_by_id.seats")  # `by_id("seats")`, its hit written out: every view asks
        if hit is not None and hit.basis is self.seats:
            return hit.value.get(seat_id)  # type: ignore[no-any-return]  # what by_id stored
        return self.by_id("seats").get(seat_id)

    def by_id(self, field: str) -> dict[str, Any]:
        """One of the state's tuples (`seats`, `participants`...) by id, indexed once and kept on the state
        (as `kept` keeps a value, with a single identity check: this is on every view's path): a state's
        tuples are immutable and shared by every view of a push, so a table of 200 seats looks each one
        up in a dict, not by a scan per view and per log line."""
        items = self.__dict__[field]
        key = _INDEX_KEYS[field]
        hit = self.__dict__.get(key)
        if hit is not None and hit.basis is items:
            return hit.value  # type: ignore[no-any-return]  # what this method stored
        index = by_id(items)
        self.__dict__[key] = Memo(items, index)
        return index

    def prompt(self, prompt_id: str) -> Prompt:
        for prompt in self.prompts:
            if prompt.id == prompt_id:
                return prompt
        raise RuleError("That choice is no longer open.")

    @property
    def active(self) -> Encounter | None:
        if self.active_encounter is None:
            return None
        return next((e for e in self.encounters if e.id == self.active_encounter), None)

    def viewer_for(self, seat_id: str | None, role: str) -> Viewer:
        """The viewer of a seat: its role and the characters handed to it. One object per seat for as long
        as the characters are the same tuple (a push asks it of every phone)."""
        viewers: dict[tuple[str | None, str], Viewer] = kept(self, "_viewers", (self.participants,), dict)
        hit = viewers.get((seat_id, role))
        if hit is None:
            hit = self._viewer_for(seat_id, role)
            if len(viewers) < VIEWERS_KEPT:
                viewers[(seat_id, role)] = hit
        return hit

    def _viewer_for(self, seat_id: str | None, role: str) -> Viewer:
        owned = (
            kept(self, "_owners", (self.participants,), lambda: _owned(self.participants)).get(
                seat_id, frozenset()
            )
            if seat_id
            else frozenset()
        )
        # A seat's role is stored as text; Viewer checks it is one of the three when it is built.
        return Viewer(
            seat_id=seat_id, role=cast(Role, role), participants=owned if role == "player" else frozenset()
        )

    def table_viewer(self, seat_id: str | None, role: str) -> Viewer:
        """Who the table view (a TV's page) shows the table to: a spectator, what the party sees. Opened
        by a player's seat, it is still a spectator's page, but with that player's characters, so its
        sight is theirs: a player gets no more of the map by opening the TV's page on their phone."""
        mine = self.viewer_for(seat_id, role).participants if role == "player" else frozenset()
        return Viewer(seat_id=seat_id if mine else None, role="spectator", participants=mine)

    def seat_name(self, seat_id: str | None) -> str:
        seat = self.seat(seat_id)
        return seat.name if seat else "GM"


class HasId(Protocol):
    @property
    def id(self) -> str: ...


T = TypeVar("T", bound=HasId)


def find_in(items: tuple[T, ...], ref: str | None, what: str) -> T:
    """Look up by id, then by exact name, among `items` only (e.g. what a player may see)."""
    return _find(items, ref, what)


_SMALL = 8  # below this a scan is as quick as a dict
# Where `CampaignState.by_id` keeps each tuple's index: keys of the state's __dict__ that are no fields.
_INDEX_KEYS = {
    f: f"_by_id.{f}" for f in ("seats", "participants", "pools", "tracks", "presets", "encounters")
}


def _first_by_id(items: tuple[T, ...]) -> dict[str, T]:
    index: dict[str, T] = {}
    for item in items:
        index.setdefault(item.id, item)
    return index


def by_id(items: tuple[T, ...]) -> dict[str, T]:
    """The items by id (the first of each id, as a scan would find). Made afresh: a state's own tuples
    are indexed once through `CampaignState.by_id`."""
    return _first_by_id(items)


def _owned(participants: tuple[Participant, ...]) -> dict[str | None, frozenset[str]]:
    owners: dict[str | None, set[str]] = {}
    for p in participants:
        owners.setdefault(p.owner, set()).add(p.id)
    return {owner: frozenset(ids) for owner, ids in owners.items()}


@overload
def _find(
    items: tuple[T, ...],
    ref: str | None,
    what: str,
    missing_ok: Literal[False] = False,
    index: Callable[[], dict[str, T]] | None = None,
) -> T: ...
@overload
def _find(
    items: tuple[T, ...],
    ref: str | None,
    what: str,
    missing_ok: Literal[True],
    index: Callable[[], dict[str, T]] | None = None,
) -> T | None: ...


def _find(
    items: tuple[T, ...],
    ref: str | None,
    what: str,
    missing_ok: bool = False,
    index: Callable[[], dict[str, T]] | None = None,
) -> T | None:
    """`index`: the items by id, kept by their owner (a state); without one, a scan."""
    if ref:
        if index is not None and len(items) > _SMALL:
            found = index().get(ref)
            if found is not None:
                return found
        else:
            for item in items:
                if item.id == ref:
                    return item
        named = [
            i
            for i in items
            if getattr(i, "name", getattr(i, "label", None))
            and str(getattr(i, "name", getattr(i, "label", ""))).casefold() == ref.casefold()
        ]
        if len(named) == 1:
            return named[0]
        if len(named) > 1:
            raise RuleError(f"More than one {what} is called '{ref}': use its id.")
    if missing_ok:
        return None
    raise RuleError(f"There is no {what} {quoted(ref)}." if ref else f"Say which {what}.")


def replace_item(items: tuple[T, ...], new: T) -> tuple[T, ...]:
    """The tuple with the item of the same id replaced."""
    return tuple(new if item.id == new.id else item for item in items)


def without(items: tuple[T, ...], item_id: str) -> tuple[T, ...]:
    return tuple(item for item in items if item.id != item_id)


def new_id(state: CampaignState, prefix: str, index: int = 0) -> str:
    """A fresh id for something a command creates: from the seq its event will get."""
    return f"{prefix}{state.seq + 1}" + (f"-{index}" if index else "")


def open_prompt(state: CampaignState, prompt: Prompt) -> CampaignState:
    return state.model_copy(update={"prompts": (*(p for p in state.prompts if p.id != prompt.id), prompt)})


def close_prompt(state: CampaignState, prompt_id: str) -> CampaignState:
    return state.model_copy(update={"prompts": tuple(p for p in state.prompts if p.id != prompt_id)})


def check_answer(state: CampaignState, prompt_id: str, actor: Viewer, gm_may_answer: bool = False) -> Prompt:
    """The open prompt `prompt_id`, if `actor` is its addressee.

    The GM answers for its own characters, and for anyone's when `gm_may_answer` (a player stepped away).
    """
    prompt = state.prompt(prompt_id)
    if gm_may_answer and actor.is_gm:
        return prompt
    if prompt.to == "gm":
        if not actor.is_gm:
            raise Forbidden("This choice is the GM's.")
        return prompt
    if prompt.to in actor.participants:
        return prompt
    if prompt.to == PLAYERS:
        if actor.role != "player":
            raise Forbidden("This choice is the players'.")
        return prompt
    target = state.find_participant(prompt.to)
    if actor.is_gm and (target is None or target.owner is None):
        return prompt
    name = target.name if target else "another character"
    raise Forbidden(f"This choice is for {name}'s player.")
