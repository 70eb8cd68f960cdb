"""Who is looking (a seat's role and the participants it controls) and who may see an event."""

from __future__ import annotations

from typing import Literal

from app.rules.contract.frozen import Frozen

Role = Literal["gm", "player", "spectator"]


class Viewer(Frozen):
    """Who is looking: a seat's role and the participants it controls."""

    seat_id: str | None = None
    role: Role = "spectator"
    participants: frozenset[str] = frozenset()

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"

    @property
    def key(self) -> str:
        """Viewers with the same key see exactly the same thing (render once per key). A seat sees its own
        name and seat id, so a seat's viewers share renders (its tabs), and spectators all share one.
        Kept on the viewer (a push asks it of every phone's, and a seat's viewer is one object)."""
        key = self.__dict__.get("_key")
        if key is None:
            mine = ",".join(sorted(self.participants))
            key = self.__dict__["_key"] = f"{self.role}:{self.seat_id or ''}:{mine}"
        return key

    def controls(self, participant_id: str | None) -> bool:
        return self.is_gm or (participant_id is not None and participant_id in self.participants)


PUBLIC = Viewer(role="spectator")
GM = Viewer(role="gm")

# --- audiences: who may see an event ---------------------------------------------------------
# "all", "gm", "p:<id>,<id>" (those participants' seats, and the GM), or "s:<seat id>,..." (those seats,
# whoever they play: a whisper, and the GM).


def audience_of(*participant_ids: str) -> str:
    return "p:" + ",".join(sorted(participant_ids))


def seats_audience(*seat_ids: str) -> str:
    """Those seats, whoever they play (a whisper), and the GM."""
    return "s:" + ",".join(sorted(set(seat_ids)))


def can_see(audience: str, viewer: Viewer) -> bool:
    if audience == "all" or viewer.is_gm:
        return True
    if audience.startswith("p:"):
        return bool(viewer.participants.intersection(audience[2:].split(",")))
    if audience.startswith("s:"):
        return viewer.seat_id is not None and viewer.seat_id in audience[2:].split(",")
    return False


def widest(audiences: list[str]) -> str:
    """The audience of a group of events: everyone if any event is public. Seats' audiences (whispers)
    narrow to the GM's when mixed: no command makes such a group."""
    if "all" in audiences:
        return "all"
    ids = {pid for a in audiences if a.startswith("p:") for pid in a[2:].split(",")}
    return audience_of(*ids) if ids else "gm"
