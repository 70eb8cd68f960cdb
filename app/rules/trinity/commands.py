"""Move commands (`trinity.*`): declare a move, answer the karma window, Luck, the 10+ pick, the GM's band
answer, cheat death, face your demons, doubles tags; reload and spend Good karma."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.rules.campaign.state import CampaignState, check_answer
from app.rules.errors import InputError, RuleError, quoted
from app.rules.generic.commands import acting_participant
from app.rules.system import Command, Ctx, NewEvent, Prompt
from app.rules.trinity.flow import Batch, advance, roll_data, two_d6
from app.rules.trinity.moves import (
    COMBAT_MOVES,
    MOVES,
    able,
    applied,
    check_move,
    fight_opponents,
    mod_total,
    result_of,
)
from app.rules.trinity.state import Character, Move, Opponent, Stat, ext, settings_of, shifted

CombatKind = Literal["go_toe_to_toe", "open_fire", "press_home", "aim", "stand_ground", "take_cover"]
assert set(CombatKind.__args__) == set(COMBAT_MOVES)  # type: ignore[attr-defined]  # a Literal's values


class DeclareMove(Command):
    type: Literal["trinity.move"] = "trinity.move"
    character: str
    move: CombatKind
    opponent: str
    weapon: str | None = None


class Answer(Command):
    prompt: str
    choice: str = Field(max_length=80)


class Karma(Answer):
    type: Literal["trinity.karma"] = "trinity.karma"


class Luck(Answer):
    type: Literal["trinity.luck"] = "trinity.luck"


class Effect(Answer):
    type: Literal["trinity.effect"] = "trinity.effect"


class BandMove(Answer):
    type: Literal["trinity.band_move"] = "trinity.band_move"


class CheatDeath(Answer):
    type: Literal["trinity.cheat_death"] = "trinity.cheat_death"
    choice: str = "roll"


class FaceDemons(Answer):
    type: Literal["trinity.face_demons"] = "trinity.face_demons"


class Tag(Answer):
    type: Literal["trinity.tag"] = "trinity.tag"
    text: str = Field(default="", max_length=60)


class Cancel(Command):
    type: Literal["trinity.cancel"] = "trinity.cancel"


class Reload(Command):
    type: Literal["trinity.reload"] = "trinity.reload"
    character: str
    weapon: str


class SpendGood(Command):
    type: Literal["trinity.spend_good"] = "trinity.spend_good"
    character: str | None = None
    reason: str = Field(default="a special effect", max_length=80)


# --- helpers -------------------------------------------------------------------------------------


def sheet(state: CampaignState, ref: str, ctx: Ctx) -> Character:
    """The acting character's sheet, checked against who sent the command."""
    p = acting_participant(state, ref, ctx.actor)
    assert p is not None
    c = ext(state).character(p.id)
    if c is None:
        raise RuleError(f"{p.name} has no Trinity Code sheet yet: the GM sets one up.")
    return c


def answered(state: CampaignState, cmd: Answer, ctx: Ctx) -> Prompt:
    """The open prompt this command answers, from its addressee, with one of its choices."""
    prompt = check_answer(state, cmd.prompt, ctx.actor)
    if prompt.answer != cmd.type:
        raise RuleError(f"That choice is answered with {prompt.answer}, not {cmd.type}.")
    keys = [c.key for c in prompt.choices]
    if cmd.choice not in keys:
        raise InputError(f"'{cmd.choice}' is not one of the choices: {', '.join(keys)}.")
    return prompt


def start(state: CampaignState, move: Move, ctx: Ctx) -> list[NewEvent]:
    """TC-K-2: declare the move and open the karma window on each side that has points to grab."""
    t = ext(state)
    always = settings_of(state).karma_window == "always"
    move = move.model_copy(
        update={"good": None if (t.good or always) else 0, "bad": None if (t.bad or always) else 0}
    )
    b = Batch(state)
    data = {
        "move": move.model_dump(mode="json"),
        "who": b.name(move.character),
        "label": MOVES[move.kind].label,
        "target": b.name(move.opponent) if move.opponent else None,
    }
    b.emit("trinity.move_declared", data)
    advance(b, ctx.roller)
    return b.events


# --- deciders ------------------------------------------------------------------------------------


def declare(state: CampaignState, cmd: DeclareMove, ctx: Ctx) -> list[NewEvent]:
    c = sheet(state, cmd.character, ctx)
    target = state.find_participant(cmd.opponent)
    if target is None or (target.hidden and not ctx.actor.is_gm):
        raise RuleError(f"There is no character {quoted(cmd.opponent)}.")
    if target.hidden or state.participant(c.id).hidden:
        raise RuleError(f"Reveal {target.name if target.hidden else 'the character'} before making a move.")
    in_fight = {o.id: o for o in fight_opponents(state, include_hidden=False)}
    opponent: Opponent | None = in_fight.get(target.id)
    if opponent is None and state.active is not None:
        raise RuleError(f"{target.name} is not an opponent in this encounter.")
    weapon = c.weapon(cmd.weapon)
    if cmd.weapon and weapon is None:
        raise RuleError(f"{state.participant(c.id).name} has no weapon {quoted(cmd.weapon)}.")
    problem = check_move(state, c, cmd.move, opponent, weapon, weapon_named=bool(cmd.weapon))
    if problem is not None:
        raise problem
    assert opponent is not None
    band = ext(state).band(c.id, opponent.id, settings_of(state).default_band)
    move = Move(
        id=f"m{state.seq + 1}",
        kind=cmd.move,
        character=c.id,
        opponent=opponent.id,
        weapon=weapon.id if weapon else None,
        stat=MOVES[cmd.move].stat or "power",
        band=band,
    )
    return start(state, move, ctx)


def karma(state: CampaignState, cmd: Karma, ctx: Ctx) -> list[NewEvent]:
    prompt = answered(state, cmd, ctx)
    t = ext(state)
    side = prompt.data["side"]
    n = int(cmd.choice)
    pool = t.good if side == "good" else t.bad
    if n > pool:
        raise RuleError(f"The pool has only {pool} left.", rule="TC-K-2")
    b = Batch(state)
    b.emit(
        "trinity.karma_grabbed",
        {
            "move": prompt.data["move"],
            "side": side,
            "amount": n,
            "who": "The GM" if side == "bad" else "The players",
        },
    )
    advance(b, ctx.roller)
    return b.events


def luck(state: CampaignState, cmd: Luck, ctx: Ctx) -> list[NewEvent]:
    """TC-L-2: after the modified result is known, spend a Luck point one of four ways, or keep it."""
    answered(state, cmd, ctx)
    t = ext(state)
    m = t.move
    assert m is not None and m.total is not None
    b = Batch(state)
    if cmd.choice == "keep":
        b.emit("trinity.luck_kept", {"move": m.id, "who": b.name(m.character)})
        advance(b, ctx.roller)
        return b.events
    c = t.character(m.character)
    assert c is not None
    data: dict = {
        "move": m.id,
        "character": c.id,
        "who": b.name(c.id),
        "option": cmd.choice,
        "luck_to": c.luck - 1,
        "pool": "good" if cmd.choice in ("ignore", "reroll") else "bad",
    }
    if cmd.choice == "ignore":
        total = sum(m.faces) + mod_total(applied(m.mods, True))
        data.update(
            faces=list(m.faces), mods=[x.model_dump() for x in m.mods], total=total, result=result_of(total)
        )
    elif cmd.choice == "reroll":
        result = two_d6(ctx.roller, mod_total(applied(m.mods, m.ignore_negatives)))
        rolled = roll_data(m, result, m.mods)
        data.update({k: rolled[k] for k in ("roll", "faces", "mods", "total", "result")})
    elif cmd.choice == "twelve":
        data.update(faces=list(m.faces), mods=[x.model_dump() for x in m.mods], total=12, result="strong")
    b.emit("trinity.luck_spent", data)
    advance(b, ctx.roller)
    return b.events


def effect(state: CampaignState, cmd: Effect, ctx: Ctx) -> list[NewEvent]:
    prompt = answered(state, cmd, ctx)
    b = Batch(state)
    label = next(c.label for c in prompt.choices if c.key == cmd.choice)
    m = ext(state).move
    b.emit(
        "trinity.effect_chosen",
        {
            "move": prompt.data["move"],
            "effect": cmd.choice,
            "label": label,
            "who": b.name(m.character if m else None),
        },
    )
    advance(b, ctx.roller)
    return b.events


def band_move(state: CampaignState, cmd: BandMove, ctx: Ctx) -> list[NewEvent]:
    """TC-MV-1, TC-B-3: the GM moves the opponent one band, or not."""
    answered(state, cmd, ctx)
    t = ext(state)
    m = t.move
    assert m is not None and m.opponent is not None and m.band is not None
    now = t.band(m.character, m.opponent, m.band)
    to = now if cmd.choice == "stay" else shifted(now, cmd.choice) or now
    b = Batch(state)
    b.emit(
        "trinity.opponent_moved",
        {
            "move": m.id,
            "character": m.character,
            "opponent": m.opponent,
            "from": now,
            "to": to,
            "who": b.name(m.opponent),
            "target": b.name(m.character),
        },
    )
    advance(b, ctx.roller)
    return b.events


def _condition_move(state: CampaignState, cmd: Answer, ctx: Ctx, kind: str, stat: Stat) -> list[NewEvent]:
    prompt = answered(state, cmd, ctx)
    t = ext(state)
    c = t.character(prompt.data["character"])
    assert c is not None
    if t.move is not None:
        raise RuleError("Wait until the move being made is finished.")
    if (problem := able(c, kind, state.participant(c.id).name)) is not None:
        raise problem
    move = Move(id=f"m{state.seq + 1}", kind=kind, character=c.id, stat=stat)  # type: ignore[arg-type]  # Move checks it
    return start(state, move, ctx)


def cheat_death(state: CampaignState, cmd: CheatDeath, ctx: Ctx) -> list[NewEvent]:
    return _condition_move(state, cmd, ctx, "cheat_death", "power")


def face_demons(state: CampaignState, cmd: FaceDemons, ctx: Ctx) -> list[NewEvent]:
    return _condition_move(state, cmd, ctx, "face_demons", "cool" if cmd.choice == "cool" else "wits")


def tag(state: CampaignState, cmd: Tag, ctx: Ctx) -> list[NewEvent]:
    """TC-R-4: the tag a double 1 (GM, negative) or a double 6 (player, positive) lets someone add."""
    prompt = answered(state, cmd, ctx)
    pending = prompt.data["tag"]
    if cmd.choice == "skip":
        return [NewEvent(type="trinity.tag_skipped", data={"pending": pending})]
    positive = bool(prompt.data["positive"])
    text = cmd.text or ("in our favour" if positive else "against them")
    data = {"pending": pending, "tag": {"id": pending, "text": text, "positive": positive}}
    return [NewEvent(type="trinity.tag_added", data=data)]


def cancel(state: CampaignState, cmd: Cancel, ctx: Ctx) -> list[NewEvent]:
    t = ext(state)
    if t.move is None:
        raise RuleError("No move is being made.")
    if t.move.rolled:
        raise RuleError("The dice have been rolled: use undo to take the move back.")
    return [
        NewEvent(
            type="trinity.move_cancelled",
            data={
                "move": t.move.id,
                "label": MOVES[t.move.kind].label,
                "good_back": t.aside_good,
                "bad_back": t.aside_bad,
            },
        )
    ]


def reload(state: CampaignState, cmd: Reload, ctx: Ctx) -> list[NewEvent]:
    """TC-W-4: an empty weapon with spare ammunition is reloaded (the character's turn)."""
    c = sheet(state, cmd.character, ctx)
    if (problem := able(c, "reload", state.participant(c.id).name)) is not None:
        raise problem
    if ext(state).move is not None:
        raise RuleError("Wait until the move being made is finished.")
    w = c.weapon(cmd.weapon)
    if w is None or w.kind != "ranged":
        raise RuleError(f"{quoted(cmd.weapon)} is not a ranged weapon of this character.")
    if w.ammo > 0:
        raise RuleError(f"The {w.name} still has {w.ammo} ammo.", rule="TC-W-4")
    if w.spares <= 0:
        raise RuleError(f"There is no spare ammo for the {w.name}.", rule="TC-W-4")
    name = state.participant(c.id).name
    data = {
        "character": c.id,
        "weapon": w.id,
        "name": w.name,
        "who": name,
        "ammo": w.capacity,
        "spares": w.spares - 1,
    }
    hidden = state.participant(c.id).hidden
    return [NewEvent(type="trinity.reloaded", data=data, audience="gm" if hidden else "all")]


def spend_good(state: CampaignState, cmd: SpendGood, ctx: Ctx) -> list[NewEvent]:
    """TC-K-4: a Good point spent on a special effect goes straight into the Bad pool."""
    if ctx.actor.role != "gm" and cmd.character is None:
        raise InputError("Say which of your characters spends the point.")
    who = sheet(state, cmd.character, ctx) if cmd.character else None
    if who is not None and (problem := able(who, "karma", state.participant(who.id).name)) is not None:
        raise problem
    if ext(state).good < 1:
        raise RuleError("The Good karma pool is empty.", rule="TC-K-4")
    name = state.participant(who.id).name if who else "The players"
    return [
        NewEvent(
            type="trinity.good_spent",
            data={"character": who.id if who else None, "who": name, "reason": cmd.reason},
        )
    ]
