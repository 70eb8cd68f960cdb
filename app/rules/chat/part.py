"""Table talk as one more layer of every campaign's rules."""

from __future__ import annotations

from app.rules.chat import events as _payloads  # noqa: F401  (registers this part's payload models)
from app.rules.chat.commands import COMMANDS
from app.rules.system import Event, SystemPart


def describe(event: Event) -> str:
    data = event.data
    to = data.get("to_names") or []
    return (
        f"{data['speaker']} (to {', '.join(to)}): {data['text']}"
        if to
        else f"{data['speaker']}: {data['text']}"
    )


PART = SystemPart(
    key="chat",
    title="Table talk",
    summary="Messages in the log, to everyone or whispered to some seats.",
    commands=COMMANDS,
    describers={"chat.said": describe},
)
