"""The attack, step by step, once an Action is played: who may react, the Reaction prompts, and the
roll that resolves it (TP-T-2, TP-T-3, TP-T-4)."""

from __future__ import annotations

from typing import Any

from app.rules.campaign.state import CampaignState
from app.rules.contract.envelope import NewEvent
from app.rules.contract.options import Prompt, PromptChoice
from app.rules.contract.viewer import audience_of
from app.rules.dice import Roller, fraction_text
from app.rules.triptycho import combat, flow
from app.rules.triptycho.cards import Card, base_reaction
from app.rules.triptycho.paths import Route
from app.rules.triptycho.state import Attack, Entity, Settings, TriptychoState, ext_of
from app.rules.triptycho.world import audience, can_see, name_of


def reactions(state: CampaignState, settings: Settings, target: Entity) -> list[tuple[str, Card]]:
    """The Reactions a target may play: its Reaction cards in hand (or repertoire), and a PC's base one."""
    out: list[tuple[str, Card]] = []
    p = state.find_participant(target.id)
    if p is not None and p.kind == "pc":
        out.append(("base", base_reaction(settings.base_reaction_miss)))
    if target.uses_deck:
        for inst in target.hand:
            card = target.card(inst)
            if card.kind == "reaction":
                out.append((inst, card))
    else:
        out += [(c.id, c) for c in target.cards if c.kind == "reaction"]
    return out


def proceed(state: CampaignState, settings: Settings, attack: Attack, roller: Roller) -> list[NewEvent]:
    """Ask the next question the attack waits on, or resolve the targets that cannot answer."""
    ext = ext_of(state)
    events: list[NewEvent] = []
    attacker = ext.entity(attack.attacker)
    assert attacker is not None
    while attack.targets:
        target = ext.entity(attack.targets[0])
        assert target is not None
        if attack.stage == "intercept":
            route = Route(attack.route, ())
            ask = [b for b in combat.interceptors(ext, attacker, target, route) if b.id not in attack.asked]
            if ask:
                blocker = ask[0]
                attack = attack.model_copy(update={"asked": (*attack.asked, blocker.id)})
                prompt = Prompt(
                    id=f"{attack.id}-{blocker.id}-intercept",
                    to=blocker.id,
                    kind="intercept",
                    text=f"{_who(ext, blocker, attacker, state)} shoots {name_of(state, target.id)} with "
                    f"{attack.card.name} across the border you block: jump in front and become the target?",
                    answer="triptycho.intercept",
                    choices=(
                        PromptChoice(
                            key="yes", label="Intercept", rolls=_rolls_at(state, settings, attack, blocker)
                        ),
                        PromptChoice(
                            key="no",
                            label="Let it pass",
                            rolls=len(ask) == 1 and _rolls_at(state, settings, attack, target),
                        ),
                    ),
                    data={"attack": attack.id},
                )
                events.append(_asked(state, "triptycho.intercept_asked", attack, prompt, blocker, blocker.id))
                return events
            attack = attack.model_copy(update={"stage": "react"})
        choices = reactions(state, settings, target)
        if attack.card.hostile and choices and not target.has("defenseless"):
            prompt = _reaction_prompt(state, settings, attack, attacker, target, choices)
            events.append(_asked(state, "triptycho.reaction_asked", attack, prompt, target, None))
            return events
        attack = attack.model_copy(update={"targets": attack.targets[1:]})
        events += resolve(state, settings, attack, attacker, target, None, None, roller)
    events.append(
        NewEvent(
            type="triptycho.attack_finished",
            data={"attack": attack.id, "card": attack.card.name},
            audience=audience(state, attacker),
        )
    )
    return events


def _rolls_at(state: CampaignState, settings: Settings, attack: Attack, target: Entity) -> bool:
    """Whether the attack resolves on `target` at once (no Reaction to ask for), rolling dice."""
    return not (attack.card.hostile and reactions(state, settings, target) and not target.has("defenseless"))


def _who(ext: TriptychoState, viewer: Entity, attacker: Entity, state: CampaignState) -> str:
    return name_of(state, attacker.id) if can_see(ext, viewer, attacker) else "An unseen attacker"


def _asked(
    state: CampaignState, type_: str, attack: Attack, prompt: Prompt, who: Entity, blocker: str | None
) -> NewEvent:
    # Only the attack's id and the prompt: the other targets are not the addressee's business.
    return NewEvent(
        type=type_,
        data={"attack": attack.id, "blocker": blocker, "prompt": prompt.model_dump(mode="json")},
        audience=audience_of(who.id) if _player_run(state, who.id) else "gm",
    )


def _player_run(state: CampaignState, pid: str) -> bool:
    p = state.find_participant(pid)
    return bool(p and p.owner and not p.hidden)


def _reaction_prompt(
    state: CampaignState,
    settings: Settings,
    attack: Attack,
    attacker: Entity,
    target: Entity,
    choices: list[tuple[str, Card]],
) -> Prompt:
    ext = ext_of(state)
    options = []
    for key, card in choices:
        d = combat.attack_dice(ext, settings, attacker, target, attack.card, card, attack.section)
        chance = combat.hit_odds(d, True)
        label = card.name + (f" (Miss {d.text()['miss'] or 'none'})" if card.miss else "")
        options.append(
            PromptChoice(
                key=key,
                label=label,
                hint=f"hit chance {fraction_text(chance)}",
                rolls=bool(attack.card.hit or attack.card.damage or card.miss or card.defense),
            )
        )
    options.append(
        PromptChoice(
            key="none", label="No Reaction", hint="hit automatically (TP-T-2)", rolls=bool(attack.card.damage)
        )
    )
    return Prompt(
        id=f"{attack.id}-{target.id}-react",
        to=target.id,
        kind="reaction",
        text=f"{_who(ext, target, attacker, state)} uses {attack.card.name} on {name_of(state, target.id)}: "
        "choose a Reaction.",
        answer="triptycho.react",
        choices=tuple(options),
        data={"attack": attack.id},
    )


def resolve(
    state: CampaignState,
    settings: Settings,
    attack: Attack,
    attacker: Entity,
    target: Entity,
    reaction: Card | None,
    reaction_instance: str | None,
    roller: Roller,
    prompt: str | None = None,
) -> list[NewEvent]:
    """Roll one target's side of the attack and apply the damage (TP-T-4)."""
    ext = ext_of(state)
    d = combat.attack_dice(ext, settings, attacker, target, attack.card, reaction, attack.section)
    result = combat.roll_attack(d, reaction is not None, roller)
    full, target_side, attacker_side = flow.strike_audiences(state, attacker, target, chose=not attack.area)
    data: dict[str, Any] = {
        "attack": attack.id,
        "attacker": attacker.id,
        "attacker_name": name_of(state, attacker.id),
        "target": target.id,
        "target_name": name_of(state, target.id),
        "card": attack.card.name,
        "reaction": reaction.name if reaction else None,
        "reaction_instance": reaction_instance,
        "dice": d.text(),
        "notes": d.notes,
        "prompt": prompt,
        **result,
    }
    if result["rolls"].get("hit"):
        data["roll"] = result["rolls"]["hit"]
    events = [NewEvent(type="triptycho.attack_resolved", data=data, audience=full)]
    if target_side:
        text = f"Something unseen strikes {name_of(state, target.id)}: " + (
            f"a hit for {result['damage']}." if result["hit"] else "a miss."
        )
        events.append(NewEvent(type="triptycho.unseen", data={"text": text}, audience=target_side))
    if attacker_side:
        text = f"{name_of(state, attacker.id)}'s {attack.card.name} strikes at something you cannot see."
        events.append(NewEvent(type="triptycho.unseen", data={"text": text}, audience=attacker_side))
    if result["hit"] and result["damage"]:
        events += flow.harm(state, settings, target, result["damage"], attack.card.name, roller)
    return events
