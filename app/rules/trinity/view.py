"""What each viewer sees of the Trinity Code table (no opponent stat blocks for players)."""

from __future__ import annotations

from typing import Any

from app.rules.campaign.state import CampaignState
from app.rules.system import PLAYERS, Viewer
from app.rules.trinity.moves import MOVES, RESULT_LABEL, fight_opponents
from app.rules.trinity.state import BANDS, Character, Move, Opponent, ext, settings_of


def _visible(state: CampaignState, pid: str, viewer: Viewer) -> bool:
    p = state.find_participant(pid)
    return p is not None and (viewer.is_gm or not p.hidden)


def _name(state: CampaignState, pid: str | None) -> str | None:
    p = state.find_participant(pid) if pid else None
    return p.name if p else None


def _addressee(state: CampaignState, to: str) -> str:
    if to == "gm":
        return "the GM"
    if to == PLAYERS:
        return "the players"
    return _name(state, to) or "someone"


def character_view(state: CampaignState, c: Character, viewer: Viewer) -> dict[str, Any]:
    out = c.model_dump(mode="json")
    out.update(
        name=_name(state, c.id),
        mine=c.id in viewer.participants,
        conditions=list(c.conditions),
        harm_boxes=[i < c.harm for i in range(c.harm_limit)],
        stress_boxes=[i < c.stress for i in range(c.stress_limit)],
        out_of_luck_effect=c.out_of_luck if c.luck == 0 else None,  # TC-L-3
    )
    return out


def opponent_view(state: CampaignState, o: Opponent, viewer: Viewer) -> dict[str, Any]:
    public = {"id": o.id, "name": _name(state, o.id), "attack": o.attack, "out": o.out}
    if viewer.is_gm:
        return {**o.model_dump(mode="json"), **public}
    return public


def move_view(state: CampaignState, m: Move, viewer: Viewer) -> dict[str, Any]:
    out = m.model_dump(mode="json")
    out.update(
        label=MOVES[m.kind].label,
        who=_name(state, m.character),
        target=_name(state, m.opponent) if m.opponent and _visible(state, m.opponent, viewer) else None,
        result_label=RESULT_LABEL[m.result] if m.result else None,
        waiting_for=[p.to for p in state.prompts if p.data.get("move") == m.id],
        waiting=[_addressee(state, p.to) for p in state.prompts if p.data.get("move") == m.id],
    )
    if m.opponent and not _visible(state, m.opponent, viewer):
        out["opponent"] = None
    return out


def view(state: CampaignState, viewer: Viewer) -> dict[str, Any]:
    t = ext(state)
    settings = settings_of(state)
    chars = [c for c in t.characters if _visible(state, c.id, viewer)]
    active = state.active
    in_fight = [c for c in chars if active is not None and c.id in active.participants]
    opponents = fight_opponents(state, include_hidden=viewer.is_gm)
    board = [
        {
            "character": c.id,
            "character_name": _name(state, c.id),
            "opponent": o.id,
            "opponent_name": _name(state, o.id),
            "band": t.band(c.id, o.id, settings.default_band),
        }
        for c in in_fight
        for o in opponents
    ]
    all_opponents = [o for o in t.opponents if _visible(state, o.id, viewer)] if viewer.is_gm else opponents
    return {
        "investigation": t.investigation,
        "hours": t.hours,
        "karma": {"good": t.good, "bad": t.bad, "aside_good": t.aside_good, "aside_bad": t.aside_bad},
        "advantage": t.advantage,
        "characters": [character_view(state, c, viewer) for c in chars],
        "opponents": [opponent_view(state, o, viewer) for o in all_opponents],
        "board": board,
        "tags": [x.model_dump() for x in t.tags],
        "move": move_view(state, t.move, viewer) if t.move else None,
        "last": move_view(state, t.last, viewer)
        if t.last and _visible(state, t.last.character, viewer)
        else None,
        "settings": settings.model_dump(mode="json"),
        "bands": list(BANDS),
        "fight": active is not None,
    }
