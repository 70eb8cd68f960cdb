"""What each viewer sees of pools, tracks, roll buttons and initiative; options with exact odds."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, TypeVar, cast

from app.rules import dice
from app.rules.campaign.state import CampaignState
from app.rules.contract.deciders import decider, gm_or_not, role_and_characters
from app.rules.contract.frozen import kept, kept_table
from app.rules.errors import InputError
from app.rules.generic.commands import may_change_pool, may_change_track, owner_hidden
from app.rules.system import Band, Event, Option, Viewer

# Offered to everyone at every table, besides the GM's own roll buttons.
QUICK_ROLLS = (("d20", "1d20"), ("2d6", "2d6"), ("d6", "1d6"))


def _visible(state: CampaignState, item: Any, viewer: Viewer) -> bool:
    return viewer.is_gm or not (item.hidden or owner_hidden(state, item.owner))


def _owner_name(state: CampaignState, owner: str | None) -> str | None:
    p = state.find_participant(owner) if owner else None
    return p.name if p else None


# Each part of the view is kept by what it reads: the state's tuples by identity (a state never changes
# them), whether the viewer is the GM, and only those of the viewer's characters that the part names. A
# pool nobody owns reads the same for every player, so a push builds one list for all of them, and the
# block memo fingerprints it once (app/realtime/blocks.py). The parts are kept on the state (`kept_table`,
# shared by its copies, each part checked against what it read) and shared read-only.
_PARTS_KEPT = 2048
T = TypeVar("T")


def _part(
    parts: dict[Any, Any],
    kind: str,
    reads: tuple[Any, ...],
    viewer_key: tuple[Any, ...],
    build: Callable[[], T],
) -> T:
    key = (kind, *viewer_key)
    hit = parts.get(key)
    if hit is not None and all(map(operator.is_, hit[0], reads)):
        return cast(T, hit[1])
    value = build()
    parts[key] = (reads, value)
    return value


def _mine_among(viewer: Viewer, ids: Iterable[str | None]) -> frozenset[str]:
    """The viewer's characters among these: all a part may read of who the viewer plays."""
    return viewer.participants.intersection(ids) if viewer.participants else frozenset()


def _mine_owning(state: CampaignState, viewer: Viewer, kind: str) -> frozenset[str]:
    """`_mine_among` the owners of the state's pools (or tracks): the owners gathered once a state, not
    once a viewer (a push asks it of every phone)."""
    if not viewer.participants:
        return frozenset()
    items = getattr(state, kind)
    owners = kept(state, f"_owners.{kind}", (items,), lambda: frozenset(i.owner for i in items))
    return viewer.participants & owners


def view(state: CampaignState, viewer: Viewer) -> dict[str, Any]:
    gm = viewer.is_gm
    parts = kept_table(state, "_generic_parts", _PARTS_KEPT)
    return {
        "pools": _part(
            parts,
            "pools",
            (state.pools, state.participants),
            (viewer.role, _mine_owning(state, viewer, "pools")),
            lambda: _pools(state, viewer),
        ),
        "tracks": _part(
            parts,
            "tracks",
            (state.tracks, state.participants),
            (viewer.role, _mine_owning(state, viewer, "tracks")),
            lambda: _tracks(state, viewer),
        ),
        "presets": _part(
            parts,
            "presets",
            (state.presets, state.participants),
            (gm,),
            lambda: [pr.model_dump() for pr in state.presets if gm or not owner_hidden(state, pr.owner)],
        ),
        "initiative": _part(
            parts,
            "initiative",
            (state.initiative, state.participants),
            (
                gm,
                _mine_among(
                    viewer, (*(e.participant for e in state.initiative.entries), state.initiative.current)
                ),
            ),
            lambda: _initiative(state, viewer),
        ),
    }


def _owners_mine(kind: str) -> Callable[[CampaignState, Viewer], Any]:
    """A part read by role and by which of the viewer's characters own its items (as `view` keys it)."""
    return lambda state, viewer: (viewer.role, _mine_owning(state, viewer, kind))


def _initiative_mine(state: CampaignState, viewer: Viewer) -> Any:
    init = state.initiative
    return (viewer.is_gm, _mine_among(viewer, (*(e.participant for e in init.entries), init.current)))


# What decides each key of `view` and the buttons of `options` (app/rules/contract/deciders.py): the same
# as the parts are kept by above.
DECIDERS = {
    "pools": decider(("pools", "participants"), _owners_mine("pools")),
    "tracks": decider(("tracks", "participants"), _owners_mine("tracks")),
    "presets": decider(("presets", "participants"), gm_or_not),
    "initiative": decider(("initiative", "participants"), _initiative_mine),
}
OPTIONS_DECIDER = decider(("presets", "participants"), role_and_characters)


def _pools(state: CampaignState, viewer: Viewer) -> list[dict[str, Any]]:
    return [
        {
            **p.model_dump(exclude={"hidden"} if not viewer.is_gm else set()),
            "owner_name": _owner_name(state, p.owner),
            "can_adjust": may_change_pool(p, viewer),
        }
        for p in state.pools
        if _visible(state, p, viewer)
    ]


def _tracks(state: CampaignState, viewer: Viewer) -> list[dict[str, Any]]:
    return [
        {
            **t.model_dump(exclude={"hidden"} if not viewer.is_gm else set()),
            "owner_name": _owner_name(state, t.owner),
            "can_adjust": may_change_track(t, viewer),
            "boxes": [i < t.filled for i in range(t.total)],
        }
        for t in state.tracks
        if _visible(state, t, viewer)
    ]


def _initiative(state: CampaignState, viewer: Viewer) -> dict[str, Any]:
    init = state.initiative
    current = init.current
    entries = []
    for i, e in enumerate(init.entries):
        p = state.find_participant(e.participant)
        if p is None or (p.hidden and not viewer.is_gm):
            continue
        entries.append(
            {
                "participant": p.id,
                "name": p.name,
                "value": e.value,
                "kind": p.kind,
                "current": i == init.turn and init.round > 0,
                "mine": p.id in viewer.participants,
            }
        )
    current_p = state.find_participant(current) if current else None
    seen = current_p is not None and (viewer.is_gm or not current_p.hidden)
    return {
        "round": init.round,
        "entries": entries,
        "current": current if seen else None,
        "current_name": current_p.name if current_p and seen else None,
        "my_turn": bool(current and current in viewer.participants),
    }


@lru_cache(maxsize=512)
def roll_odds(expression: str, target: int | None) -> tuple[tuple[Band, ...], str]:
    """Exact odds for a roll button: success bands with a target, or its average and range.

    Kept per expression: every view of every push shows the same buttons (the bands are frozen).
    """
    try:
        dist = dice.distribution(expression)
    except InputError:
        return (), "odds not shown: too many dice"
    low, high = min(dist), max(dist)
    hint = f"avg {float(dice.mean(dist)):.1f} · {low} to {high}"
    if target is None:
        return (), hint
    p = dice.at_least(dist, target)
    return (Band.of(f"{target}+", p), Band.of(f"under {target}", 1 - p)), hint


def options(state: CampaignState, viewer: Viewer) -> list[Option]:
    """A viewer's roll buttons, kept like the view's parts: they read only the presets, which
    characters are hidden, and who the viewer is and plays (the one character a button defaults to)."""
    return _part(
        kept_table(state, "_generic_parts", _PARTS_KEPT),
        "buttons",
        (state.presets, state.participants),
        (viewer.role, viewer.participants),
        lambda: _options(state, viewer),
    )


def _options(state: CampaignState, viewer: Viewer) -> list[Option]:
    if viewer.role == "spectator":
        return []
    mine = sorted(viewer.participants)
    default_participant = mine[0] if len(mine) == 1 else None
    out: list[Option] = []
    for preset in state.presets:
        if preset.owner and not viewer.controls(preset.owner):
            continue
        if not viewer.is_gm and owner_hidden(state, preset.owner):
            continue
        odds, hint = roll_odds(preset.expression, preset.target)
        command: dict[str, Any] = {"type": "generic.roll", "preset": preset.id}
        participant = preset.owner or default_participant
        if participant:
            command["participant"] = participant
        out.append(
            Option(
                id=f"preset-{preset.id}",
                label=preset.label,
                command=command,
                participant=participant,
                odds=odds,
                hint=f"{preset.expression} · {hint}",
                group="roll",
                rolls=True,
            )
        )
    for label, expression in QUICK_ROLLS:
        odds, hint = roll_odds(expression, None)
        command = {"type": "generic.roll", "expression": expression}
        if default_participant:
            command["participant"] = default_participant
        out.append(
            Option(
                id=f"quick-{label}",
                label=label,
                command=command,
                participant=default_participant,
                odds=odds,
                hint=hint,
                group="quick",
                rolls=True,
            )
        )
    return out


def _roll_text(e: Event) -> str:
    d = e.data
    label = f" for {d['label']}" if d.get("label") else ""
    secret = " (secret)" if d.get("hidden") else ""
    outcome = ""
    if d.get("target") is not None:
        outcome = f" — {'success' if d['success'] else 'miss'} against {d['target']}"
    return f"{d['who']} rolled {d['expression']}{label}: {d['total']}{outcome}{secret}."


def _initiative_text(e: Event) -> str:
    rolls = ", ".join(f"{r['name']} {r['value']}" for r in e.data["rolls"])
    return f"Initiative ({e.data['expression']}): {rolls}."


DESCRIBERS = {
    "generic.rolled": _roll_text,
    "generic.preset_created": lambda e: f"Roll button {e.data['preset']['label']} added.",
    "generic.preset_removed": lambda e: f"Roll button {e.data['label']} removed.",
    "generic.pool_created": lambda e: f"Pool {e.data['pool']['name']} ({e.data['pool']['value']}) created.",
    "generic.pool_changed": lambda e: f"{e.data['name']}: {e.data['from']} → {e.data['to']}.",
    "generic.pool_removed": lambda e: f"Pool {e.data['name']} removed.",
    "generic.track_created": lambda e: (
        f"Track {e.data['track']['name']} ({e.data['track']['filled']}/{e.data['track']['total']}) created."
    ),
    "generic.track_changed": lambda e: (
        f"{e.data['name']}: {e.data['from']} → {e.data['to']}/{e.data['total']}."
    ),
    "generic.track_removed": lambda e: f"Track {e.data['name']} removed.",
    "generic.initiative_rolled": _initiative_text,
    "generic.initiative_set": lambda e: "Initiative order set.",
    "generic.turn_advanced": lambda e: (
        f"Round {e.data['round']}: {e.data['name']}'s turn."
        if e.data.get("name")
        else f"Round {e.data['round']}: the GM's turn."
    ),
    "generic.turn_noted": lambda e: f"(It is {e.data['name']}'s turn.)",
    "generic.initiative_cleared": lambda e: "Initiative order cleared.",
}
