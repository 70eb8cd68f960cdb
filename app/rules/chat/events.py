"""Payload of `chat.said`: what was said, by whom, to whom (names kept, so a log line reads without a
look-up even after a seat is gone)."""

from __future__ import annotations

from app.rules.events import Payload, payload


@payload("chat.said")
class Said(Payload):
    text: str
    speaker: str  # the seat's name, or the NPC the GM speaks as
    character: str | None = None  # the NPC's id when the GM speaks as one
    to: list[str] = []  # seat ids of a whisper; empty: everyone
    to_names: list[str] = []
