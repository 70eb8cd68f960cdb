"""What a viewer may do now: every move with its exact odds after every modifier, or why not; the answers
to their open prompts (karma, Luck, the 10+ pick, band moves, cheat death, face your demons)."""

from __future__ import annotations

from typing import Any

from app.rules.campaign.state import CampaignState
from app.rules.errors import RuleError
from app.rules.system import PLAYERS, Band, Option, Prompt, Viewer
from app.rules.trinity.moves import (
    COMBAT_MOVES,
    MOVES,
    RESULT_LABEL,
    able,
    applied,
    check_move,
    fight_opponents,
    mod_total,
    modifiers,
    result_of,
)
from app.rules.trinity.odds import band_odds, certain, special_odds
from app.rules.trinity.prompts import rolls_at_once
from app.rules.trinity.state import Character, Item, Mod, Move, Opponent, Weapon, ext, settings_of

SPECIAL_LABELS = {
    "cheat_death": {
        "miss": "dead",
        "weak": "still dying",
        "strong": "unconscious",
        "double6": "conscious (double 6)",
    },
    "face_demons": {
        "miss": "lost",
        "weak": "still on the brink",
        "strong": "stress to 4",
        "double6": "stress to 3 (double 6)",
    },
}


def odds_of(kind: str, mod: int) -> tuple[Band, ...]:
    if kind in SPECIAL_LABELS:
        return special_odds(mod, SPECIAL_LABELS[kind])
    return band_odds(mod)


def _hint(mods: tuple[Mod, ...]) -> str:
    return ", ".join(f"{m.label} {m.value:+d}" for m in mods)


def _controlled(state: CampaignState, viewer: Viewer) -> list[Character]:
    """The characters this viewer plays: a player's own; for the GM, the PCs nobody else plays."""
    t = ext(state)
    out = []
    for c in t.characters:
        p = state.find_participant(c.id)
        if p is None:
            continue
        if c.id in viewer.participants or (viewer.is_gm and p.owner is None and not p.hidden):
            out.append(c)
    return out


def _weapons_for(c: Character, kind: str) -> list[Weapon | None]:
    move = MOVES[kind]
    if move.ranged:
        return [w for w in c.weapons if w.kind == "ranged"] or [None]
    if move.melee:
        return [w for w in c.weapons if w.kind == "melee"] or [None]
    return [None]


def move_option(state: CampaignState, c: Character, kind: str, o: Opponent, w: Weapon | None) -> Option:
    name = state.participant(o.id).name
    band = ext(state).band(c.id, o.id, settings_of(state).default_band)
    problem = check_move(state, c, kind, o, w, weapon_named=w is not None)
    if problem is None and MOVES[kind].ranged and w is None:
        problem = RuleError(f"{MOVES[kind].label} needs a ranged weapon.", rule="TC-W-1")
    preview = Move(id="preview", kind=kind, character=c.id, opponent=o.id, weapon=w.id if w else None,  # type: ignore[arg-type]  # a MOVES key; Move checks it
                   stat=MOVES[kind].stat or "power", band=band)  # fmt: skip
    mods = modifiers(state, preview)
    command: dict[str, Any] = {"type": "trinity.move", "character": c.id, "move": kind, "opponent": o.id}
    if w is not None:
        command["weapon"] = w.id
    with_what = f" ({w.name})" if w is not None else (" (unarmed)" if MOVES[kind].melee else "")
    return Option(
        id=f"{kind}-{c.id}-{o.id}-{w.id if w else 'none'}",
        label=f"{MOVES[kind].label}: {name}{with_what}",
        command=command,
        participant=c.id,
        odds=band_odds(mod_total(mods)),
        enabled=problem is None,
        reason=None if problem is None else str(problem),
        group="move",
        hint=f"{band} · {_hint(mods)}",
        rolls=rolls_at_once(state),
    )


def character_options(state: CampaignState, c: Character) -> list[Option]:
    t = ext(state)
    out: list[Option] = []
    if state.active is not None and c.id in state.active.participants and not state.participant(c.id).hidden:
        for o in fight_opponents(state, include_hidden=False):
            for kind in COMBAT_MOVES:
                out += [move_option(state, c, kind, o, w) for w in _weapons_for(c, kind)]
    problem = able(c, "reload", state.participant(c.id).name) or (
        RuleError("Wait until the move being made is finished.") if t.move else None
    )
    for w in c.weapons:
        if w.kind != "ranged":
            continue
        why = problem
        if why is None and w.ammo > 0:
            why = RuleError(f"The {w.name} still has {w.ammo} ammo.", rule="TC-W-4")
        if why is None and w.spares <= 0:
            why = RuleError(f"There is no spare ammo for the {w.name}.", rule="TC-W-4")
        out.append(
            Option(
                id=f"reload-{c.id}-{w.id}",
                label=f"Reload the {w.name}",
                command={"type": "trinity.reload", "character": c.id, "weapon": w.id},
                participant=c.id,
                enabled=why is None,
                reason=None if why is None else str(why),
                group="gear",
                hint=f"ammo {w.ammo}/{w.capacity}, {w.spares} spare",
            )
        )
    for item in c.items:
        for target in t.characters:
            tp = state.find_participant(target.id)
            if tp is None or tp.hidden or target.dead:
                continue
            why = problem
            useless = not (item.heal and target.harm) and not (item.calm and target.stress)
            if why is None and item.timing == "instant" and useless:
                why = RuleError(f"{tp.name} has nothing for the {item.name} to heal or calm.")
            out.append(
                Option(
                    id=f"item-{c.id}-{item.id}-{target.id}",
                    label=f"Use the {item.name}" + ("" if target.id == c.id else f" on {tp.name}"),
                    command={
                        "type": "trinity.use_item",
                        "character": c.id,
                        "item": item.id,
                        "target": target.id,
                    },
                    participant=c.id,
                    enabled=why is None,
                    reason=None if why is None else str(why),
                    group="gear",
                    hint=_item_hint(item),
                )
            )
    return out


def _item_hint(item: Item) -> str:
    parts = [f"heal-{item.heal}" if item.heal else "", f"calm-{item.calm}" if item.calm else "", item.timing]
    if item.uses is not None:
        parts.append(f"consumable-{item.uses}")
    return " ".join(p for p in parts if p)


# --- answers to prompts --------------------------------------------------------------------------


def _karma_odds(state: CampaignState, prompt: Prompt, key: str) -> tuple[Band, ...]:
    m = ext(state).move
    assert m is not None
    n = int(key)
    good = n if prompt.data["side"] == "good" else (m.good or 0)
    bad = n if prompt.data["side"] == "bad" else (m.bad or 0)
    return odds_of(m.kind, mod_total(modifiers(state, m, good, bad)))


def _result_label(m: Move, total: int) -> str:
    if m.kind in SPECIAL_LABELS:
        return SPECIAL_LABELS[m.kind][result_of(total)]
    return RESULT_LABEL[result_of(total)]


def _luck_odds(state: CampaignState, key: str) -> tuple[Band, ...]:
    m = ext(state).move
    assert m is not None and m.total is not None
    if key == "reroll":
        return odds_of(m.kind, mod_total(applied(m.mods, m.ignore_negatives)))
    if key == "ignore":
        return certain(_result_label(m, sum(m.faces) + mod_total(applied(m.mods, True))))
    if key == "twelve":
        return certain(_result_label(m, 12))
    if m.kind in SPECIAL_LABELS and m.faces == (6, 6) and not m.twelve:
        return certain(SPECIAL_LABELS[m.kind]["double6"])
    return certain(_result_label(m, m.total))


def _condition_odds(state: CampaignState, prompt: Prompt, key: str) -> tuple[Band, ...]:
    c = ext(state).character(prompt.data["character"])
    assert c is not None
    kind = prompt.kind
    stat = "power" if kind == "cheat_death" else key
    preview = Move(id="preview", kind=kind, character=c.id, stat=stat)  # type: ignore[arg-type]  # Move checks it
    return odds_of(kind, mod_total(modifiers(state, preview)))


def prompt_options(state: CampaignState, viewer: Viewer) -> list[Option]:
    t = ext(state)
    out: list[Option] = []
    for prompt in state.prompts:
        if not prompt.id.startswith("tc-") or not _answers(state, prompt, viewer):
            continue
        why = None
        if prompt.kind in ("cheat_death", "face_demons") and t.move is not None:
            why = "Wait until the move being made is finished."
        for choice in prompt.choices:
            odds: tuple[Band, ...] = ()
            if prompt.kind == "karma":
                odds = _karma_odds(state, prompt, choice.key)
            elif prompt.kind == "luck":
                odds = _luck_odds(state, choice.key)
            elif prompt.kind in ("cheat_death", "face_demons"):
                odds = _condition_odds(state, prompt, choice.key)
            out.append(
                Option(
                    id=f"{prompt.id}-{choice.key}",
                    label=choice.label,
                    command={"type": prompt.answer, "prompt": prompt.id, "choice": choice.key},
                    participant=None if prompt.to in ("gm", PLAYERS) else prompt.to,
                    odds=odds,
                    enabled=why is None,
                    reason=why,
                    group=f"prompt-{prompt.kind}",
                    hint=choice.hint,
                    rolls=choice.rolls,
                )
            )
    return out


def _answers(state: CampaignState, prompt: Prompt, viewer: Viewer) -> bool:
    if prompt.to == PLAYERS:
        return viewer.role == "player"
    if prompt.to == "gm":
        return viewer.is_gm
    if prompt.to in viewer.participants:
        return True
    p = state.find_participant(prompt.to)
    return viewer.is_gm and p is not None and p.owner is None


def options(state: CampaignState, viewer: Viewer) -> list[Option]:
    if viewer.role == "spectator":
        return []
    out = prompt_options(state, viewer)
    t = ext(state)
    for c in _controlled(state, viewer):
        out += character_options(state, c)
    if viewer.role == "player" and _controlled(state, viewer):
        mine = _controlled(state, viewer)[0]
        why = able(mine, "karma", state.participant(mine.id).name)
        if why is None and t.good < 1:
            why = RuleError("The Good karma pool is empty.", rule="TC-K-4")
        out.append(
            Option(
                id=f"spend-good-{mine.id}",
                label="Spend a Good karma point on a special effect",
                command={"type": "trinity.spend_good", "character": mine.id},
                participant=mine.id,
                enabled=why is None,
                reason=None if why is None else str(why),
                group="karma",
                hint="it goes into the Bad pool",
            )
        )
    return out
