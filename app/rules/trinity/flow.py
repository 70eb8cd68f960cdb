"""The move as a flow: deciders emit events into a Batch that folds them at once, then `advance` takes
every step that needs nobody's choice (roll, resolve, end) until a prompt waits for someone.

declare -> karma window (both sides) -> roll 2d6 + modifiers -> Luck -> 10+ pick -> resolve (harm through
armour, advantage, ammo, bands) -> the GM's band answer -> end (doubles follow-up, condition prompts).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.rules import dice
from app.rules.campaign.state import CampaignState
from app.rules.dice import Roller
from app.rules.system import Event, NewEvent
from app.rules.trinity.moves import (
    MOVES,
    RESULT_LABEL,
    applied,
    melee_harm,
    mod_total,
    modifiers,
    result_of,
    takes_harm,
)
from app.rules.trinity.prompts import luck_open, needs_effect
from app.rules.trinity.reducers import REDUCERS
from app.rules.trinity.state import (
    Character,
    Mod,
    Move,
    Opponent,
    demons_stress,
    ext,
    settings_of,
    shifted,
    through_armour,
    wake_harm,
)

FOLLOW_UP = {2: -2, 3: -1, 4: 1, 5: 2}  # TC-R-4


class Batch:
    """The events of one command, folded as they are made so each step sees the last one's effect."""

    def __init__(self, state: CampaignState):
        self.state = state
        self.events: list[NewEvent] = []

    @property
    def next_seq(self) -> int:
        return self.state.seq + 1

    def emit(self, type_: str, data: dict[str, Any], audience: str = "all") -> None:
        seq = self.next_seq
        self.events.append(NewEvent(type=type_, data=data, audience=audience))
        folded = REDUCERS[type_](
            self.state, Event(seq=seq, type=type_, data=data, audience=audience, batch=seq)
        )
        self.state = folded.model_copy(update={"seq": seq})

    def name(self, pid: str | None) -> str:
        p = self.state.find_participant(pid) if pid else None
        return p.name if p else "someone"


# --- rolling --------------------------------------------------------------------------------------


def two_d6(roller: Roller, mod: int) -> dice.RollResult:
    return dice.roll(dice.Expression(terms=(dice.DiceTerm(count=2, sides=6),), modifier=mod), roller)


def roll_data(m: Move, result: dice.RollResult, mods: tuple[Mod, ...]) -> dict[str, Any]:
    total = result.total
    return {
        "move": m.id,
        "character": m.character,
        "kind": m.kind,
        "roll": result.as_dict(),
        "faces": list(result.faces),
        "mods": [x.model_dump() for x in mods],
        "total": total,
        "result": result_of(total),
    }


def roll_move(b: Batch, roller: Roller) -> None:
    m = ext(b.state).move
    assert m is not None
    mods = modifiers(b.state, m, m.good or 0, m.bad or 0)
    result = two_d6(roller, mod_total(applied(mods, m.ignore_negatives)))
    b.emit("trinity.move_rolled", {**roll_data(m, result, mods), "who": b.name(m.character)})
    if m.good or m.bad:
        b.emit("trinity.karma_returned", {"move": m.id, "to_good": m.bad or 0, "to_bad": m.good or 0})


# --- harm -----------------------------------------------------------------------------------------


def harm_character(b: Batch, c: Character, amount: int, armour: bool, why: str) -> None:
    """TC-H-2 armour, then TC-H-3/4 conditions from the new total (capped at limit + 2: dead)."""
    taken, absorbed, after = through_armour(amount, c.armour if armour else None)
    to = min(c.harm + taken, c.harm_limit + 2)
    data: dict[str, Any] = {
        "character": c.id,
        "name": b.name(c.id),
        "incoming": amount,
        "absorbed": absorbed,
        "taken": taken,
        "from": c.harm,
        "to": to,
        "limit": c.harm_limit,
        "why": why,
    }
    if absorbed and after is not None:
        data["threshold"] = after.threshold
    if to >= c.harm_limit + 2 and not c.dead:
        data["dead"] = True
    b.emit("trinity.harmed", data, audience=_audience(b, c.id))


def harm_opponent(b: Batch, o: Opponent, amount: int, why: str) -> None:
    taken, absorbed, after = through_armour(amount, o.armour)
    to = o.taken + taken
    data: dict[str, Any] = {
        "opponent": o.id,
        "name": b.name(o.id),
        "incoming": amount,
        "absorbed": absorbed,
        "taken": taken,
        "from": o.taken,
        "to": to,
        "limit": o.harm_limit,
        "why": why,
    }
    if absorbed and after is not None:
        data["threshold"] = after.threshold
    b.emit("trinity.opponent_harmed", data, audience="gm")  # the opponent's armour and limit are the GM's
    if to >= o.harm_limit and not o.out:
        b.emit("trinity.opponent_out", {"opponent": o.id, "name": b.name(o.id)}, audience=_audience(b, o.id))


def stress_character(b: Batch, c: Character, amount: int, why: str) -> None:
    to = max(0, min(c.stress + amount, c.stress_limit))
    b.emit(
        "trinity.stressed",
        {
            "character": c.id,
            "name": b.name(c.id),
            "from": c.stress,
            "to": to,
            "limit": c.stress_limit,
            "why": why,
        },
        audience=_audience(b, c.id),
    )


def _audience(b: Batch, pid: str | None) -> str:
    p = b.state.find_participant(pid) if pid else None
    return "gm" if p is not None and p.hidden else "all"


# --- resolving ------------------------------------------------------------------------------------


def resolve_combat(b: Batch) -> None:
    t = ext(b.state)
    m = t.move
    assert m is not None and m.result is not None and m.opponent is not None
    c, o = t.character(m.character), t.opponent(m.opponent)
    assert c is not None and o is not None
    move = MOVES[m.kind]
    out = move.outcomes[m.result]
    take = takes_harm(out, o, m.band)
    weapon = c.weapon(m.weapon)
    harm_out = (weapon.harm if weapon is not None else melee_harm(b.state, None)) + int(
        m.effect == "harm_plus"
    )
    harm_in = max(o.harm - int(m.effect == "harm_minus"), 0)
    b.emit(
        "trinity.move_resolved",
        {
            "move": m.id,
            "kind": m.kind,
            "character": c.id,
            "who": b.name(c.id),
            "opponent": o.id,
            "target": b.name(o.id),
            "result": m.result,
            "band": RESULT_LABEL[m.result],
            "rule": out.rule,
            "inflict": out.inflict,
            "take": take and not m.no_harm,
            "no_harm": m.no_harm and take,
            "effect": m.effect,
            "opponent_may_move": out.opponent_moves,
        },
    )
    if move.ranged and weapon is not None:  # TC-W-3: every shot, on every band
        b.emit(
            "trinity.ammo_spent",
            {
                "character": c.id,
                "weapon": weapon.id,
                "name": weapon.name,
                "from": weapon.ammo,
                "to": weapon.ammo - 1,
            },
            audience=_audience(b, c.id),
        )
    if out.inflict:
        harm_opponent(b, o, harm_out, f"{move.label} by {b.name(c.id)}")
    if take and not m.no_harm:
        harm_character(b, c, harm_in, armour=True, why=f"{b.name(o.id)} hits back")
    _advantage(b, out.advantage, out.rule)
    if m.effect in ("closer", "further") and m.band is not None:
        now = ext(b.state).band(c.id, o.id, m.band)
        to = shifted(now, m.effect)
        if to is not None:
            b.emit(
                "trinity.band_set",
                {
                    "character": c.id,
                    "opponent": o.id,
                    "from": now,
                    "to": to,
                    "who": b.name(c.id),
                    "target": b.name(o.id),
                },
                audience=_audience(b, o.id),
            )
    if m.effect and m.effect.startswith("opening:"):
        to_pid = m.effect.split(":", 1)[1]
        b.emit(
            "trinity.opening_given", {"from": c.id, "to": to_pid, "who": b.name(c.id), "name": b.name(to_pid)}
        )


def _advantage(b: Batch, change: str, rule: str) -> None:
    now = ext(b.state).advantage
    if change == "same" or change == now:
        return
    b.emit("trinity.advantage_set", {"from": now, "to": change, "rule": rule})


def resolve_cheat_death(b: Batch) -> None:
    """TC-H-6: 6- dead; 7-9 still dying; 10+ unconscious; a double 6 conscious with 6 harm (TC-H-5)."""
    m, c = _move_and_character(b)
    outcome = _special_result(m)
    _emit_special(b, m, outcome)
    if outcome == "double6":
        harm = wake_harm(settings_of(b.state), c.harm_limit)
        b.emit("trinity.condition_set", {"character": c.id, "name": b.name(c.id), "harm": harm})
    elif outcome == "miss":
        b.emit("trinity.condition_set", {"character": c.id, "name": b.name(c.id), "dead": True})
    elif outcome == "strong":
        b.emit("trinity.condition_set", {"character": c.id, "name": b.name(c.id), "harm": c.harm_limit})


def resolve_face_demons(b: Batch) -> None:
    """TC-S-2: 6- lost; 7-9 still on the brink; 10+ stress 4; a double 6 stress 3, whatever the limit."""
    m, c = _move_and_character(b)
    outcome = _special_result(m)
    _emit_special(b, m, outcome)
    if outcome in ("double6", "strong"):
        stress = demons_stress(settings_of(b.state), outcome, c.stress_limit)
        b.emit("trinity.condition_set", {"character": c.id, "name": b.name(c.id), "stress": stress})
    elif outcome == "miss":
        b.emit("trinity.condition_set", {"character": c.id, "name": b.name(c.id), "lost": True})


def _move_and_character(b: Batch) -> tuple[Move, Character]:
    t = ext(b.state)
    assert t.move is not None
    c = t.character(t.move.character)
    assert c is not None
    return t.move, c


def _special_result(m: Move) -> str:
    if m.faces == (6, 6) and not m.twelve:
        return "double6"
    return m.result or "miss"


SPECIAL_TEXT = {
    "cheat_death": {
        "miss": "dead",
        "weak": "still dying",
        "strong": "unconscious",
        "double6": "conscious again",
    },
    "face_demons": {
        "miss": "lost",
        "weak": "still on the brink",
        "strong": "stress back to 4",
        "double6": "stress back to 3",
    },
}
SPECIAL_RULE = {"cheat_death": "TC-H-6", "face_demons": "TC-S-2"}


def _emit_special(b: Batch, m: Move, outcome: str) -> None:
    b.emit(
        "trinity.move_resolved",
        {
            "move": m.id,
            "kind": m.kind,
            "character": m.character,
            "who": b.name(m.character),
            "result": m.result,
            "outcome": outcome,
            "band": "double 6" if outcome == "double6" else RESULT_LABEL[m.result or "miss"],
            "text": SPECIAL_TEXT[m.kind][outcome],
            "rule": SPECIAL_RULE[m.kind],
            "opponent_may_move": False,
        },
    )


RESOLVE: dict[str, Callable[[Batch], None]] = {
    **{kind: resolve_combat for kind, move in MOVES.items() if move.combat},
    "cheat_death": resolve_cheat_death,
    "face_demons": resolve_face_demons,
}


def end_move(b: Batch) -> None:
    m = ext(b.state).move
    assert m is not None
    data: dict[str, Any] = {
        "move": m.id,
        "kind": m.kind,
        "character": m.character,
        "who": b.name(m.character),
    }
    doubles = m.doubles
    if settings_of(b.state).doubles and MOVES[m.kind].combat and doubles is not None:
        if doubles in FOLLOW_UP:
            data["follow_up"] = {"character": m.character, "move": m.kind, "value": FOLLOW_UP[doubles]}
        elif doubles == 1:
            data["tag"] = {"id": f"t{b.next_seq}", "to": "gm", "positive": False}
        elif doubles == 6:
            data["tag"] = {"id": f"t{b.next_seq}", "to": m.character, "positive": True}
    b.emit("trinity.move_ended", data)


def advance(b: Batch, roller: Roller) -> None:
    """Take every step that needs nobody's choice, until a prompt waits or the move is over."""
    while (m := ext(b.state).move) is not None:
        if not m.rolled:
            if m.good is None or m.bad is None:
                return  # the karma window is open
            roll_move(b, roller)
        elif luck_open(b.state, m) or needs_effect(m):
            return
        elif not m.resolved:
            RESOLVE[m.kind](b)
        elif m.opponent_may_move and not m.band_answered:
            return
        else:
            end_move(b)
