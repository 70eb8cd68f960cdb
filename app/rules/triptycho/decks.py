"""Decks, hands and discard piles (TP-T-1): shuffles through the roller, the order a GM-only secret.

A shuffle is a Fisher-Yates driven by `roller.roll(n)` draws, so a manual-dice table (or a test) can
give the faces; the resulting order goes into a GM-only event. Drawn cards go into an event only the
drawing player (and the GM) may read; everyone else hears how many were drawn.
"""

from __future__ import annotations

from app.rules.campaign.state import CampaignState
from app.rules.dice import Roller
from app.rules.system import NewEvent, audience_of
from app.rules.triptycho.state import Entity


def fisher_yates(cards: tuple[str, ...], roller: Roller) -> tuple[tuple[str, ...], list[int]]:
    """The cards shuffled, and the faces rolled: for i from the last down to 1, swap with a d(i+1)-1."""
    order = list(cards)
    faces: list[int] = []
    for i in range(len(order) - 1, 0, -1):
        (face,) = roller.roll(i + 1, 1)
        faces.append(face)
        j = face - 1
        order[i], order[j] = order[j], order[i]
    return tuple(order), faces


def instances(entity: Entity) -> tuple[str, ...]:
    """The deck list as card copies: `slash#1`, `slash#2`, `parry#1`..."""
    seen: dict[str, int] = {}
    out = []
    for card_id in entity.deck_list:
        seen[card_id] = seen.get(card_id, 0) + 1
        out.append(f"{card_id}#{seen[card_id]}")
    return tuple(out)


def shuffle_event(
    state: CampaignState, e: Entity, cards: tuple[str, ...], roller: Roller, why: str
) -> NewEvent:
    order, faces = fisher_yates(cards, roller)
    return NewEvent(
        type="triptycho.deck_shuffled",
        data={"participant": e.id, "order": list(order), "faces": faces, "why": why},
        audience="gm",
    )


def draw_events(
    state: CampaignState, e: Entity, count: int, roller: Roller, reason: str = "draw"
) -> list[NewEvent]:
    """Draw `count` cards, reshuffling the discard pile into the deck when the deck runs out."""
    deck, discard = list(e.deck), list(e.discard)
    drawn: list[str] = []
    events: list[NewEvent] = []

    def flush() -> None:
        if drawn:
            events.append(
                NewEvent(
                    type="triptycho.cards_drawn",
                    data={"participant": e.id, "cards": list(drawn), "reason": reason},
                    audience=audience_of(e.id),
                )
            )
            drawn.clear()

    for _ in range(count):
        if not deck:
            if not discard:
                break
            flush()
            shuffled = shuffle_event(state, e, tuple(discard), roller, "reshuffle")
            events.append(
                NewEvent(
                    type="triptycho.discard_reshuffled",
                    data={"participant": e.id, "count": len(discard)},
                    audience=audience_of(e.id),
                )
            )
            events.append(shuffled)
            deck, discard = list(shuffled.data["order"]), []
        drawn.append(deck.pop(0))
    flush()
    return events
