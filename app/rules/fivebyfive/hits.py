"""Answers to the rules' prompts: Control the Hit (FX-O-2, FX-C-1, FX-C-2), which Ability drops (FX-H-1,
FX-H-3), and the Victory Rush (FX-V-1)."""

from __future__ import annotations

from typing import Any, Literal

from app.rules.campaign.state import CampaignState, check_answer
from app.rules.errors import RuleError
from app.rules.fivebyfive import flow, odds, tactics
from app.rules.fivebyfive.state import DEFENCE_OF, Ability, Attack, ext, sheet, side_of, status_after
from app.rules.system import Command, Ctx, NewEvent, Prompt, Viewer


class Control(Command):
    type: Literal["fivebyfive.control"] = "fivebyfive.control"
    prompt: str
    choice: Literal["roll"] = "roll"


class Damage(Command):
    type: Literal["fivebyfive.damage"] = "fivebyfive.damage"
    prompt: str
    choice: Ability


class VictoryRush(Command):
    type: Literal["fivebyfive.victory_rush"] = "fivebyfive.victory_rush"
    prompt: str
    choice: Ability


def answering(state: CampaignState, prompt_id: str, actor: Viewer, kind: str) -> Prompt:
    """The open prompt, if `actor` may answer it (its addressee; the GM may answer for anyone)."""
    prompt = state.prompt(prompt_id)
    if prompt.kind != kind:
        raise RuleError(f"That choice is answered with {prompt.answer}, not {kind}.")
    if not actor.is_gm:
        check_answer(state, prompt_id, actor)
    return prompt


def _attack(state: CampaignState, prompt: Prompt) -> Attack:
    fight = ext(state).fight
    if fight is None or fight.attack is None or fight.attack.prompt != prompt.id:
        raise RuleError("That hit has already been resolved.")
    return fight.attack


def control(state: CampaignState, cmd: Control, ctx: Ctx) -> list[NewEvent]:
    prompt = answering(state, cmd.prompt, ctx.actor, "fivebyfive.control")
    attack = _attack(state, prompt)
    d = state.participant(attack.defender)
    c = sheet(state, d.id)
    need = tactics.defence_need(state, c, attack.action)
    batch = flow.Batch(state)
    for i in range(attack.hits):
        roll = odds.roll(ctx.roller)
        result = (
            "blocked"
            if roll.critical(need.needed)
            else ("controlled" if roll.success(need.needed) else "uncontrolled")
        )
        data: dict[str, Any] = {
            "defender": d.id,
            "name": d.name,
            "defence": DEFENCE_OF[attack.action],
            "hit": i + 1,
            "of": attack.hits,
            "roll": roll.as_dict(),
            "total": roll.total,
            "result": result,
        }
        if side_of(d) == "pc":
            data.update(need=need.as_dict(), needed=need.needed)
        batch.add("fivebyfive.hit_controlled", data, audience="gm" if d.hidden else "all")
    if side_of(d) == "npc":
        batch.gm_note(
            f"{d.name}'s {DEFENCE_OF[attack.action].capitalize()}: {need.text}.", need=need.as_dict()
        )
    flow.resolve_next_hit(batch)
    return batch.events


def damage(state: CampaignState, cmd: Damage, ctx: Ctx) -> list[NewEvent]:
    prompt = answering(state, cmd.prompt, ctx.actor, "fivebyfive.damage")
    attack = _attack(state, prompt)
    d = state.participant(attack.defender)
    c = sheet(state, d.id)
    chooser = state.participant(prompt.to)
    before = c.current.get(cmd.choice)
    current = c.current.minus(cmd.choice)
    status = status_after(c.status, current)
    data: dict[str, Any] = {
        "defender": d.id,
        "name": d.name,
        "ability": cmd.choice,
        "hit": prompt.data.get("hit", 1),
        "of": prompt.data.get("of", attack.hits),
        "chooser": chooser.id,
        "chooser_name": chooser.name,
        "controlled": chooser.id == d.id,
        "status": status,
        "prompt": prompt.id,
    }
    if side_of(d) == "pc":
        data.update({"from": before, "to": before - 1})
    batch = flow.Batch(state)
    batch.add("fivebyfive.damaged", data, audience="gm" if d.hidden else "all")
    if side_of(d) == "npc":
        batch.gm_note(f"{d.name}'s {cmd.choice.capitalize()}: {before} → {before - 1}.")
    flow.resolve_next_hit(batch)
    return batch.events


def victory_rush(state: CampaignState, cmd: VictoryRush, ctx: Ctx) -> list[NewEvent]:
    prompt = answering(state, cmd.prompt, ctx.actor, "fivebyfive.victory_rush")
    p = state.participant(prompt.to)
    c = sheet(state, p.id)
    if cmd.choice not in c.damaged():
        raise RuleError(
            f"{p.name}'s {cmd.choice.capitalize()} is not Damaged: choose a Damaged Ability.", rule="FX-V-1"
        )
    data: dict[str, Any] = {"participant": p.id, "name": p.name, "ability": cmd.choice, "prompt": prompt.id}
    if side_of(p) == "pc":
        data.update({"from": c.current.get(cmd.choice), "to": c.current.get(cmd.choice) + 1})
    audience = "gm" if p.hidden or side_of(p) == "npc" else "all"
    return [NewEvent(type="fivebyfive.rushed", data=data, audience=audience)]
