"""TOTE commands (`tote.*`): sheets, Initiative, declarations, resolution and answers."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.rules.campaign.state import CampaignState, check_answer
from app.rules.contract.commands import Command, CommandSpec, Ctx, command, command_table
from app.rules.contract.envelope import NewEvent
from app.rules.errors import Forbidden, InputError, RuleError, quoted
from app.rules.tote import combat, rolls
from app.rules.tote.flow import Sim, advance, waiting_for
from app.rules.tote.model import (
    ACTION_NAMES,
    BAND_NAMES,
    COSTS,
    ActionName,
    Band,
    Enemy,
    Hero,
)
from app.rules.tote.rules import (
    action_problem,
    blocked_faces,
    combatant,
    declared,
    down_now,
    move_problem,
    name,
    next_declarer,
    next_pending,
    out_reason,
    settings,
    sheet,
    target_problem,
    the_fight,
    unit,
    weapons_for,
)
from app.rules.tote.sheets import (
    Adjust,
    Import,
    SetEnemy,
    SetHero,
    adjust,
    import_sheets,
    set_enemy,
    set_hero,
)

Ref = Field(min_length=1, max_length=64)
# Every TOTE question (a Defend answer, an Assault's return attack, a knock-down notice) may be answered
# by the GM for a player who stepped away.
GM_MAY_ANSWER = True


class Join(Command):
    type: Literal["tote.join"] = "tote.join"
    participant: str = Ref
    band: Band | None = None


class Place(Command):
    type: Literal["tote.place"] = "tote.place"
    participant: str = Ref
    band: Band


class RollInitiative(Command):
    type: Literal["tote.roll_initiative"] = "tote.roll_initiative"
    participant: str | None = None


class Declare(Command):
    type: Literal["tote.declare"] = "tote.declare"
    participant: str = Ref
    action: ActionName
    target: str | None = None
    weapon: int | None = Field(default=None, ge=-1, le=7)
    direction: Literal["closer", "further"] | None = None


class Resolve(Command):
    type: Literal["tote.resolve"] = "tote.resolve"
    declaration: str = Ref


class Answer(Command):
    type: Literal["tote.answer"] = "tote.answer"
    prompt: str = Ref
    choice: str = Field(min_length=1, max_length=20)


# --- helpers --------------------------------------------------------------------------------------


def _participant(state: CampaignState, ref: str, ctx: Ctx) -> str:
    p = state.find_participant(ref)
    if p is None or (p.hidden and not ctx.actor.is_gm):
        raise RuleError(f"There is no character {quoted(ref)}.")
    if not ctx.actor.controls(p.id):
        raise Forbidden(f"{p.name} is not your character.")
    return p.id


def _target(state: CampaignState, ref: str | None, ctx: Ctx) -> str | None:
    if ref is None:
        return None
    p = state.find_participant(ref)
    if p is None or (p.hidden and not ctx.actor.is_gm):
        raise RuleError(f"There is no character {quoted(ref)}.")
    return p.id


def _finish(sim: Sim) -> list[NewEvent]:
    advance(sim)
    return sim.events


# --- the fight's frame ----------------------------------------------------------------------------


def join(state: CampaignState, cmd: Join, ctx: Ctx) -> list[NewEvent]:
    f = the_fight(state)
    p = state.participant(cmd.participant)
    if sheet(state, p.id) is None:
        raise RuleError(f"{p.name} needs a TOTE sheet (tote.hero or tote.enemy) before joining.")
    if combatant(f, p.id) is not None:
        raise RuleError(f"{p.name} is already in this fight.")
    if p.hidden:
        raise RuleError(f"{p.name} is hidden: reveal them before they join the fight.")
    band = cmd.band or f.distance
    sim = Sim(state)
    sim.add("tote.joined", {"participant": p.id, "name": p.name, "band": band})
    return _finish(sim)


def place(state: CampaignState, cmd: Place, ctx: Ctx) -> list[NewEvent]:
    f = the_fight(state)
    pid = state.participant(cmd.participant).id
    c = combatant(f, pid)
    if c is None:
        raise RuleError(f"{name(state, pid)} is not in this fight.")
    if (why := out_reason(state, pid)) is not None:
        raise RuleError(f"{name(state, pid)} is {why} and out of the fight.", rule="TO-J-2")
    if c.band == cmd.band:
        raise RuleError(f"{name(state, pid)} is already at {BAND_NAMES[c.band]}.")
    sim = Sim(state)
    sim.add("tote.placed", {"participant": pid, "name": name(state, pid), "from": c.band, "to": cmd.band})
    return _finish(sim)


def roll_initiative(state: CampaignState, cmd: RollInitiative, ctx: Ctx) -> list[NewEvent]:
    """TO-I-1: heroes T8 Plan + Hawk; enemies T8 Initiative (Rating dice) + Rating; a group rolls once."""
    f = the_fight(state)
    if f.phase == "over":
        raise RuleError("The fight is over.")
    if cmd.participant is not None:
        pid = _participant(state, cmd.participant, ctx)
        c = combatant(f, pid)
        if c is None:
            raise RuleError(f"{name(state, pid)} is not in this fight.")
        units = [unit(f, c.unit)]
        if units[0].value is not None:
            raise RuleError(f"{name(state, pid)}'s Initiative is already rolled.", rule="TO-I-1")
    else:
        units = [u for u in f.units if u.value is None and all(ctx.actor.controls(m) for m in u.members)]
        if not units:
            raise RuleError("Every Initiative you roll for is already rolled.", rule="TO-I-1")
    st = settings(state)
    sim = Sim(state)
    for u in units:
        members = [sheet(state, m) for m in u.members]
        first = members[0]
        if isinstance(first, Hero):
            dice, spec = first.skills.get("plan", 0), first.specialisations.get("plan", 0)
            test = rolls.hero_test(
                ctx.roller, "Plan", dice, blocked_faces(state, first.id), spec, 8, st.keep_die, st.double_six
            )
            base, basis = first.totems.get("hawk", 0), "Hawk"
        else:
            rating = max(m.rating for m in members if isinstance(m, Enemy))
            test = rolls.enemy_test(ctx.roller, "Initiative", rating, frozenset(), 0, 8, st.double_six)
            base, basis = rating, "Rating"
        who = ", ".join(name(state, m) for m in u.members)
        show = isinstance(first, Hero) or st.show_enemy_numbers
        if not show:
            # An enemy's Initiative, less the successes, is its Rating (and its dice count): the table
            # hears that it rolled; the roll and the value are the GM's (TO-I-1, ruling).
            sim.add("tote.initiative_secret", {"unit": u.id, "members": list(u.members), "name": who})
        sim.add(
            "tote.initiative_rolled",
            {
                "unit": u.id,
                "members": list(u.members),
                "name": who,
                "test": test.as_dict(True),
                "roll": test.as_roll(),
                "basis": basis,
                "base": base,
                "value": test.successes + base,
                "hidden": not show,
            },
            "all" if show else "gm",
        )
    return _finish(sim)


# --- declaring, resolving, answering ---------------------------------------------------------------


def declare(state: CampaignState, cmd: Declare, ctx: Ctx) -> list[NewEvent]:
    f = the_fight(state)
    pid = _participant(state, cmd.participant, ctx)
    c = combatant(f, pid)
    who = name(state, pid)
    if c is None:
        raise RuleError(f"{who} is not in this fight.")
    if f.phase != "declare":
        raise RuleError(
            "Actions are declared at the start of a round, before any is resolved.", rule="TO-I-2"
        )
    if (why := out_reason(state, pid)) is not None:
        raise RuleError(
            f"{who} is {why} and has left the order.", rule="TO-J-2" if why != "fled" else "TO-R-2"
        )
    if down_now(f, c):
        raise RuleError(f"{who} was knocked down and cannot act this round.", rule="TO-C-1")
    if (done := declared(f, pid)) is not None:
        raise RuleError(f"{who} has already declared {ACTION_NAMES[done.action]} this round.", rule="TO-I-2")
    first = next_declarer(state, f)
    if first != pid:
        raise RuleError(
            f"{name(state, first)} declares before {who}: lowest Initiative first.", rule="TO-I-2"
        )
    if (problem := action_problem(state, f, pid, cmd.action)) is not None:
        raise problem
    target = _target(state, cmd.target, ctx)
    if (problem := target_problem(state, f, pid, cmd.action, target)) is not None:
        raise problem
    if cmd.action not in ("assault", "attack", "grapple", "shoot", "intimidate"):
        target = None
    chosen = None
    s = sheet(state, pid)
    assert s is not None
    suitable = weapons_for(s, cmd.action)
    if suitable:
        chosen = suitable[0] if cmd.weapon is None else cmd.weapon
        if chosen not in suitable:
            raise RuleError(
                f"That weapon cannot be used to {ACTION_NAMES[cmd.action].lower()}.", rule="TO-H-1"
            )
    direction = None
    if cmd.action == "move":
        if (problem := move_problem(f, c, cmd.direction)) is not None:
            raise problem
        direction = cmd.direction
    sim = Sim(state)
    declaration = {
        "id": f"d{state.seq + 1}",
        "round": f.round,
        "actor": pid,
        "action": cmd.action,
        "cost": COSTS[cmd.action],
        "target": target,
        "weapon": chosen,
        "direction": direction,
    }
    sim.add(
        "tote.declared",
        {
            "declaration": declaration,
            "actor_name": who,
            "target_name": name(state, target) if target else None,
        },
    )
    return _finish(sim)


def resolve(state: CampaignState, cmd: Resolve, ctx: Ctx) -> list[NewEvent]:
    f = the_fight(state)
    if f.phase != "resolve":
        raise RuleError("Actions resolve once everyone has declared.", rule="TO-I-2")
    mine = next((d for d in f.declarations if d.id == cmd.declaration), None)
    if mine is None or mine.state != "pending":
        raise RuleError("That action has already been resolved.")
    if not ctx.actor.controls(mine.actor):
        raise Forbidden(f"{name(state, mine.actor)} is not your character.")
    if (who := waiting_for(state)) is not None:
        raise RuleError(f"Waiting for {name(state, who) if who != 'gm' else 'the GM'} to answer first.")
    first = next_pending(state, f)
    if first is None or first.id != mine.id:
        other = name(state, first.actor) if first else "another character"
        raise RuleError(f"{other} acts first: highest Initiative first.", rule="TO-I-2")
    sim = Sim(state)
    sim.add(*combat.resolve_action(state, ctx.roller, mine))
    return _finish(sim)


def answer(state: CampaignState, cmd: Answer, ctx: Ctx) -> list[NewEvent]:
    # The GM runs the table: they may answer for anyone (a player who stepped away); players
    # answer only their own characters' questions. The GM console offers the same buttons (view.py).
    prompt = check_answer(state, cmd.prompt, ctx.actor, gm_may_answer=GM_MAY_ANSWER)
    if prompt.answer != "tote.answer":
        raise RuleError("That question is not answered with tote.answer.")
    keys = [c.key for c in prompt.choices]
    if cmd.choice not in keys:
        raise InputError(f"Answer with one of: {', '.join(keys)}.")
    sim = Sim(state)
    sim.add("tote.answered", {"prompt": prompt.id, "choice": cmd.choice, "name": name(state, prompt.to)})
    if prompt.kind == "tote.respond" and cmd.choice != "pass":
        responder, attacker = prompt.data["defender"], prompt.data["attacker"]
        data = combat.answer_attack(sim.state, ctx.roller, responder, attacker, cmd.choice)
        if cmd.choice == "return":
            data["replaces"] = prompt.data["declaration"]
        sim.add("tote.attacked", data)
    return _finish(sim)


_TABLE: list[CommandSpec] = [
    command(SetHero, set_hero, "Set a hero's TOTE sheet", gm_only=True),
    command(SetEnemy, set_enemy, "Set an enemy's TOTE stat block", gm_only=True),
    command(Import, import_sheets, "Import heroes and enemies (JSON)", gm_only=True),
    command(Adjust, adjust, "Adjust Resolve, injuries or Initiative", gm_only=True),
    command(Join, join, "Bring a character into the fight", gm_only=True),
    command(Place, place, "Place a character at a range", gm_only=True),
    command(RollInitiative, roll_initiative, "Roll Initiative", rolls=True),
    command(Declare, declare, "Declare an action"),
    command(Resolve, resolve, "Resolve an action", rolls=True),
    command(Answer, answer, "Answer a question", rolls=True),
]

COMMANDS = command_table(_TABLE)

__all__ = ["COMMANDS"]
