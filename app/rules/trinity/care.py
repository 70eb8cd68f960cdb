"""Healing and time (`trinity.*`): items, safety, time passing, new Investigations (TC-HE-*)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.rules.campaign.state import CampaignState
from app.rules.errors import RuleError, quoted
from app.rules.generic.commands import acting_participant
from app.rules.system import Command, Ctx, NewEvent
from app.rules.trinity.gm import no_move, participant_audience, pc_sheet
from app.rules.trinity.moves import able
from app.rules.trinity.state import ext, settings_of, wake_harm


class TimePasses(Command):
    type: Literal["trinity.time_passes"] = "trinity.time_passes"
    hours: int = Field(ge=1, le=24 * 365)


class Safe(Command):
    type: Literal["trinity.safe"] = "trinity.safe"
    character: str


class NewInvestigation(Command):
    type: Literal["trinity.new_investigation"] = "trinity.new_investigation"


class UseItem(Command):
    type: Literal["trinity.use_item"] = "trinity.use_item"
    character: str
    item: str
    target: str | None = None


# --- deciders ---------------------------------------------------------------------------------------


def time_passes(state: CampaignState, cmd: TimePasses, ctx: Ctx) -> list[NewEvent]:
    """TC-HE-3 and TC-H-5: 1 harm per 24 hours, 1 stress per hour; the unconscious wake with 6 harm."""
    no_move(state)
    t = ext(state)
    days = (t.hours + cmd.hours) // 24 - t.hours // 24
    changes = []
    for c in t.characters:
        if c.dead:
            continue
        harm = c.harm
        if c.unconscious:
            harm = wake_harm(settings_of(state), c.harm_limit)  # TC-H-5: 6, whatever the limit
        if not c.dying:
            harm = max(harm - days, 0)
        stress = c.stress if (c.lost or c.on_the_brink) else max(c.stress - cmd.hours, 0)
        if (harm, stress) != (c.harm, c.stress):
            changes.append(
                {
                    "character": c.id,
                    "name": state.participant(c.id).name,
                    "harm_to": harm,
                    "stress_to": stress,
                }
            )
    return [NewEvent(type="trinity.time_passed", data={"hours": cmd.hours, "changes": changes})]


def safe(state: CampaignState, cmd: Safe, ctx: Ctx) -> list[NewEvent]:
    """TC-HE-1/2: delayed items act once the character is safe."""
    p, c = pc_sheet(state, cmd.character)
    if not c.delayed:
        raise RuleError(f"{p.name} has no delayed treatment waiting.")
    heal = sum(d.heal for d in c.delayed)
    calm = sum(d.calm for d in c.delayed)
    harm_to = c.harm if c.dead else max(c.harm - heal, 0)
    data = {"character": c.id, "name": p.name, "harm_to": harm_to, "stress_to": max(c.stress - calm, 0)}
    return [NewEvent(type="trinity.made_safe", data=data, audience=participant_audience(p))]


def new_investigation(state: CampaignState, cmd: NewInvestigation, ctx: Ctx) -> list[NewEvent]:
    """TC-K-1, TC-HE-4: pools emptied, all harm and stress removed."""
    if state.active is not None:
        raise RuleError("End the encounter before starting a new Investigation.")
    no_move(state)
    return [NewEvent(type="trinity.investigation_started", data={"number": ext(state).investigation + 1})]


def use_item(state: CampaignState, cmd: UseItem, ctx: Ctx) -> list[NewEvent]:
    """TC-HE-1/2: heal-N removes harm, calm-N stress; instant now, delayed when safe; uses run down."""
    holder = acting_participant(state, cmd.character, ctx.actor)
    assert holder is not None
    t = ext(state)
    c = t.character(holder.id)
    if c is None:
        raise RuleError(f"{holder.name} has no Trinity Code sheet yet.")
    if (problem := able(c, "item", holder.name)) is not None:
        raise problem
    no_move(state)
    item = c.item(cmd.item)
    if item is None:
        raise RuleError(f"{holder.name} has no item {quoted(cmd.item)}.")
    if not item.heal and not item.calm:
        raise RuleError(f"The {item.name} neither heals nor calms.")
    target_p = state.find_participant(cmd.target) if cmd.target else holder
    if target_p is None or (target_p.hidden and not ctx.actor.is_gm):
        raise RuleError(f"There is no character {quoted(cmd.target)}.")
    target = t.character(target_p.id)
    if target is None:
        raise RuleError(f"{target_p.name} has no Trinity Code sheet.")
    if target.dead:
        raise RuleError(f"{target_p.name} is dead; no {item.name} helps now.", rule="TC-H-7")
    harm_to = max(target.harm - item.heal, 0)
    stress_to = max(target.stress - item.calm, 0)
    if item.timing == "instant" and (harm_to, stress_to) == (target.harm, target.stress):
        raise RuleError(f"{target_p.name} has nothing for the {item.name} to heal or calm.")
    data = {
        "character": c.id,
        "who": holder.name,
        "item": item.id,
        "name": item.name,
        "target": target.id,
        "target_name": target_p.name,
        "heal": item.heal,
        "calm": item.calm,
        "timing": item.timing,
        "uses_to": None if item.uses is None else item.uses - 1,
        "harm_to": harm_to,
        "stress_to": stress_to,
    }
    hidden = holder.hidden or target_p.hidden
    return [NewEvent(type="trinity.item_used", data=data, audience="gm" if hidden else "all")]
