"""Trinity's reducers for the campaign events it follows (an encounter starts or ends, a character
leaves), and calling off a move before its roll: no checks, no dice."""

from __future__ import annotations

from typing import Any

from app.rules.campaign.state import CampaignState
from app.rules.trinity.state import Link, TrinityState, settings_of

Data = Any  # the event's payload model


def cancel_move(t: TrinityState) -> TrinityState:
    """A move called off before its roll: the grabbed points go back where they came from."""
    if t.move is None:
        return t
    return t.model_copy(
        update={
            "good": t.good + t.aside_good,
            "bad": t.bad + t.aside_bad,
            "aside_good": 0,
            "aside_bad": 0,
            "move": None,
        }
    )


def encounter_started(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    """The board from the encounter's set-up (TC-B-1) and its starting advantage (TC-A-1): the bands the
    set-up names, over those the GM set since the last combat ended."""
    setup = s.encounter(d.encounter).setup
    links = list(t.links)
    for item in setup.get("bands", ()):
        links = [
            x for x in links if not (x.character == item["character"] and x.opponent == item["opponent"])
        ]
        links.append(Link.model_validate(item))
    return t.model_copy(
        update={
            "advantage": setup.get("advantage", "none"),
            "links": tuple(links),
            "tags": (),
            "pending_tags": (),
        }
    )


def encounter_ended(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    """Advantage, openings, tags and range bands belong to the fight; harm, Luck and ammo stay on the
    characters. TC-B-1: the next combat never inherits the bands this one ended with (unless the table
    keeps the older ruling, `bands_carry_over`)."""
    if t.move is not None and t.move.opponent is not None:
        t = cancel_move(t)
    chars = tuple(c.model_copy(update={"opening": 0, "follow_up": None}) for c in t.characters)
    links = t.links if settings_of(s).bands_carry_over else ()
    update = {"advantage": "none", "characters": chars, "tags": (), "pending_tags": (), "links": links}
    return t.model_copy(update=update)


def participant_removed(t: TrinityState, d: Data, s: CampaignState) -> TrinityState:
    pid = d.participant
    if t.move is not None and pid in (t.move.character, t.move.opponent):
        t = cancel_move(t)
    return t.model_copy(
        update={
            "characters": tuple(c for c in t.characters if c.id != pid),
            "opponents": tuple(o for o in t.opponents if o.id != pid),
            "links": tuple(x for x in t.links if pid not in (x.character, x.opponent)),
            "pending_tags": tuple(p for p in t.pending_tags if p.to != pid),
        }
    )
