"""The event envelope: an event as a decider makes it, as the store keeps it, and what reads events."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import Field, PrivateAttr, model_validator

from app.rules import events as payloads
from app.rules.contract.frozen import Frozen

if TYPE_CHECKING:
    from app.rules.campaign.state import CampaignState


class NewEvent(Frozen):
    """An event as a decider produces it; the store gives it a seq, actor and time."""

    type: str
    data: dict[str, Any] = Field(default_factory=dict)
    audience: str = "all"
    encounter: str | None = None  # defaults to the active encounter


class Event(Frozen):
    """An event as stored: what reducers fold and what the log shows.

    `data` is the record as written; `version` the version of its type it was written at. Building an
    Event upcasts an older record to its type's current version (app/rules/events.py), so `data` and
    `payload` always read as today's shape.
    """

    seq: int
    type: str
    data: dict[str, Any] = Field(default_factory=dict)
    audience: str = "all"
    actor: str | None = None
    encounter: str | None = None
    batch: int = 0  # seq of the first event of the command that made it
    at: str | None = None
    # Left out, today's: an event a decider or a test builds in memory. The store and the file import
    # always say which (rows and files from before versions existed say 1).
    version: int = 0

    _parsed: tuple[dict[str, Any], payloads.Payload] | None = PrivateAttr(default=None)

    @model_validator(mode="before")
    @classmethod
    def _upcast(cls, values: Any) -> Any:
        if isinstance(values, Mapping) and isinstance(values.get("type"), str):
            current = payloads.current_version(values["type"])
            version = values.get("version") or current
            if isinstance(version, int) and version != current:
                version, data = payloads.upcast(values["type"], version, values.get("data") or {})
                return {**values, "version": version, "data": data}
            return {**values, "version": version}
        return values

    @property
    def payload(self) -> Any:
        """The data parsed into its type's payload model: what reducers read (typed fields, no keys)."""
        parsed = self._parsed
        if parsed is None or parsed[0] is not self.data:  # model_copy(update={"data": ...}) re-parses
            parsed = (self.data, payloads.parse(self.type, self.data))
            self._parsed = parsed
        return parsed[1]

    def public(self) -> dict[str, Any]:
        # The JSON API's shape is unchanged: data is today's shape, so its version is no news to clients.
        return self.model_dump(exclude={"audience", "version"})


Reducer = Callable[["CampaignState", Event], "CampaignState"]
Describer = Callable[[Event], str]
# An event as the players may see it (its audience already lets them): the event, a copy with fields taken
# out, or None. Given the campaign now when the reader has it (None: judge by the event alone).
EventView = Callable[["CampaignState | None", Event], "Event | None"]
