"""The open choices, derived from the state: which prompts should be open, to whom, with which choices.

Every Trinity reducer ends with `sync`, so the table's prompts always match the move in progress and the
characters' conditions (dying: cheat death; on the brink: face your demons). Prompt ids are stable
(`tc-<move>-luck0`), so an answer names the same prompt however often it is re-derived.
"""

from __future__ import annotations

from app.rules.campaign.state import CampaignState
from app.rules.system import PLAYERS, Prompt, PromptChoice
from app.rules.trinity.moves import MOVES, PICK_LABEL, RESULT_LABEL, has_negatives, takes_harm
from app.rules.trinity.state import BANDS, Move, ext, settings_of, shifted

PREFIX = "tc-"


def _name(state: CampaignState, pid: str | None) -> str:
    p = state.find_participant(pid) if pid else None
    return p.name if p else "someone"


def karma_choices(pool: int, side: str, rolls: bool = False) -> tuple[PromptChoice, ...]:
    """Pass or grab 1..pool points; `rolls` when this answer closes the window (the dice roll with it)."""
    sign = "+" if side == "good" else "-"
    out = [PromptChoice(key="0", label="Pass", rolls=rolls)]
    out += [
        PromptChoice(key=str(n), label=f"Grab {n}", hint=f"{sign}{n} on the roll", rolls=rolls)
        for n in range(1, pool + 1)
    ]
    return tuple(out)


def good_karma_to(state: CampaignState, m: Move) -> str:
    """TC-K-2: the players' side grabs Good karma (any player seat); a PC the GM plays, the GM."""
    p = state.find_participant(m.character)
    return PLAYERS if p is not None and p.owner is not None else m.character


def rolls_at_once(state: CampaignState) -> bool:
    """A new move rolls in the same command when no karma window opens (TC-K-2)."""
    t = ext(state)
    return settings_of(state).karma_window == "when_points" and t.good == 0 and t.bad == 0


def luck_choices(state: CampaignState, m: Move) -> tuple[PromptChoice, ...]:
    """TC-L-2: the four ways to spend a Luck point that make sense for this result, and keeping it."""
    t = ext(state)
    out = []
    if has_negatives(m.mods) and not m.ignore_negatives:
        out.append(PromptChoice(key="ignore", label="Ignore the negative modifiers", hint="+1 Good karma"))
    out.append(PromptChoice(key="reroll", label="Roll the 2d6 again", hint="+1 Good karma", rolls=True))
    if m.result != "strong":
        out.append(PromptChoice(key="twelve", label="Make it a 12+", hint="+1 Bad karma"))
    move = MOVES[m.kind]
    hurts = move.combat and m.result and takes_harm(move.outcomes[m.result], t.opponent(m.opponent), m.band)
    if hurts and not m.no_harm:
        out.append(PromptChoice(key="no_harm", label="Suffer no harm", hint="+1 Bad karma"))
    out.append(PromptChoice(key="keep", label="Keep the result"))
    return tuple(out)


def effect_choices(state: CampaignState, m: Move) -> tuple[PromptChoice, ...]:
    """The 10+ picks of this move that can apply now."""
    t = ext(state)
    move = MOVES[m.kind]
    outcome = move.outcomes["strong"]
    out = []
    for pick in outcome.picks:
        if pick == "harm_plus":
            out.append(PromptChoice(key="harm_plus", label=PICK_LABEL[pick]))
        elif pick == "harm_minus":
            if takes_harm(outcome, t.opponent(m.opponent), m.band) and not m.no_harm:
                out.append(PromptChoice(key="harm_minus", label=PICK_LABEL[pick]))
        elif pick == "move":
            out += [
                PromptChoice(key=d, label=PICK_LABEL[d], hint=f"to {shifted(m.band, d)}")
                for d in ("closer", "further")
                if m.band is not None and shifted(m.band, d) is not None
            ]
        elif pick == "opening":
            for c in t.characters:
                teammate = c.id != m.character and state.active and c.id in state.active.participants
                if teammate and not (c.dead or c.lost) and not state.participant(c.id).hidden:
                    out.append(
                        PromptChoice(
                            key=f"opening:{c.id}",
                            label=f"Create an opening for {_name(state, c.id)}",
                            hint="+1 on their next move",
                        )
                    )
    return tuple(out)


def band_choices(band: str) -> tuple[PromptChoice, ...]:
    out = [
        PromptChoice(key=d, label=f"Move {d}", hint=f"to {shifted(band, d)}")
        for d in ("closer", "further")
        if band in BANDS and shifted(band, d) is not None
    ]
    return (*out, PromptChoice(key="stay", label="Stay"))


def needs_effect(m: Move) -> bool:
    move = MOVES[m.kind]
    return m.result == "strong" and move.combat and bool(move.outcomes["strong"].picks) and m.effect is None


def luck_open(state: CampaignState, m: Move) -> bool:
    c = ext(state).character(m.character)
    return (
        m.rolled
        and not m.luck_done
        and c is not None
        and c.luck > 0
        and m.luck_spent < settings_of(state).luck_per_move
    )


def move_prompts(state: CampaignState, m: Move) -> list[Prompt]:
    t = ext(state)
    who = _name(state, m.character)
    label = MOVES[m.kind].label
    data = {"move": m.id}
    if not m.rolled:
        out = []
        if m.good is None:
            out.append(
                Prompt(
                    id=f"{PREFIX}{m.id}-good",
                    to=good_karma_to(state, m),
                    kind="karma",
                    text=f"{who} will {label.lower()}: grab Good karma? ({t.good} in the pool)",
                    answer="trinity.karma",
                    choices=karma_choices(t.good, "good", rolls=m.bad is not None),
                    data={**data, "side": "good"},
                    drawn_by_system=True,
                )
            )
        if m.bad is None:
            out.append(
                Prompt(
                    id=f"{PREFIX}{m.id}-bad",
                    to="gm",
                    kind="karma",
                    text=f"{who} will {label.lower()}: grab Bad karma? ({t.bad} in the pool)",
                    answer="trinity.karma",
                    choices=karma_choices(t.bad, "bad", rolls=m.good is not None),
                    data={**data, "side": "bad"},
                    drawn_by_system=True,
                )
            )
        return out
    if luck_open(state, m):
        c = t.character(m.character)
        return [
            Prompt(
                id=f"{PREFIX}{m.id}-luck{m.luck_spent}",
                to=m.character,
                kind="luck",
                text=(
                    f"{label}: {m.total} ({RESULT_LABEL[m.result or 'miss']}). "
                    f"Spend a Luck point? ({c.luck if c else 0} left)"
                ),
                answer="trinity.luck",
                choices=luck_choices(state, m),
                data=data,
                drawn_by_system=True,
            )
        ]
    if needs_effect(m):
        return [
            Prompt(
                id=f"{PREFIX}{m.id}-effect",
                to=m.character,
                kind="effect",
                text=f"{label} 10+: pick one.",
                answer="trinity.effect",
                choices=effect_choices(state, m),
                data=data,
                drawn_by_system=True,
            )
        ]
    if m.resolved and m.opponent_may_move and not m.band_answered and m.band is not None:
        band = t.band(m.character, m.opponent or "", m.band)
        return [
            Prompt(
                id=f"{PREFIX}{m.id}-band",
                to="gm",
                kind="band",
                text=f"{_name(state, m.opponent)} may move one band from {who} (now {band}).",
                answer="trinity.band_move",
                choices=band_choices(band),
                data=data,
                drawn_by_system=True,
            )
        ]
    return []


def condition_prompts(state: CampaignState) -> list[Prompt]:
    """TC-H-6 and TC-S-2: a dying character is asked to cheat death, one on the brink to face their demons."""
    t = ext(state)
    out = []
    now = rolls_at_once(state)
    for c in t.characters:
        busy = t.move is not None and t.move.character == c.id
        if c.dying and not busy:
            out.append(
                Prompt(
                    id=f"{PREFIX}cheat-{c.id}",
                    to=c.id,
                    kind="cheat_death",
                    text=f"{_name(state, c.id)} is dying: cheat death (+Power).",
                    answer="trinity.cheat_death",
                    choices=(PromptChoice(key="roll", label="Cheat death", hint="+Power", rolls=now),),
                    data={"character": c.id},
                    drawn_by_system=True,
                )
            )
        elif c.on_the_brink and not c.dead and not c.dying and not c.unconscious and not busy:
            out.append(
                Prompt(
                    id=f"{PREFIX}demons-{c.id}",
                    to=c.id,
                    kind="face_demons",
                    text=f"{_name(state, c.id)} is on the brink: face your demons.",
                    answer="trinity.face_demons",
                    choices=(
                        PromptChoice(key="cool", label="Roll +Cool", rolls=now),
                        PromptChoice(key="wits", label="Roll +Wits", rolls=now),
                    ),
                    data={"character": c.id},
                    drawn_by_system=True,
                )
            )
    return out


def tag_prompts(state: CampaignState) -> list[Prompt]:
    """TC-R-4: double 1s let the GM add a negative environment tag, double 6s the player a positive one."""
    out = []
    for pending in ext(state).pending_tags:
        out.append(
            Prompt(
                id=f"{PREFIX}tag-{pending.id}",
                to=pending.to,
                kind="tag",
                text=(
                    "Double 6s: add a positive environment tag."
                    if pending.positive
                    else "Double 1s: add a negative environment tag."
                ),
                answer="trinity.tag",
                choices=(
                    PromptChoice(key="add", label="Add the tag"),
                    PromptChoice(key="skip", label="Skip"),
                ),
                data={"tag": pending.id, "positive": pending.positive},
                drawn_by_system=True,
            )
        )
    return out


def sync(state: CampaignState) -> CampaignState:
    t = ext(state)
    wanted = (move_prompts(state, t.move) if t.move else []) + condition_prompts(state) + tag_prompts(state)
    kept = tuple(p for p in state.prompts if not p.id.startswith(PREFIX))
    return state.model_copy(update={"prompts": (*kept, *wanted)})
