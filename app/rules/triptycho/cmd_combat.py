"""Playing an Action (TP-D-*, TP-N-*), and the answers it waits for: Intercept (TP-D-6) and Reaction
(TP-T-2). The attack's steps and its roll (TP-T-3, TP-T-4) are in `attack`."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.rules.campaign.state import CampaignState, check_answer
from app.rules.errors import RuleError
from app.rules.system import Command, Ctx, NewEvent
from app.rules.triptycho import combat, flow
from app.rules.triptycho.attack import proceed, reactions, resolve
from app.rules.triptycho.cards import Card
from app.rules.triptycho.cmd_turn import _grant, hand_card
from app.rules.triptycho.paths import Route
from app.rules.triptycho.state import Attack, Entity, ext_of, settings_of
from app.rules.triptycho.world import acting, entity_ref, name_of


class Act(Command):
    """Play an Action card: at an entity, at a section (Area Attack), or with no target."""

    type: Literal["triptycho.act"] = "triptycho.act"
    participant: str | None = None
    card: str
    target: str | None = None
    section: str | None = None
    route: tuple[str, ...] | None = Field(default=None, max_length=30)


class React(Command):
    type: Literal["triptycho.react"] = "triptycho.react"
    prompt: str
    choice: str


class Intercept(Command):
    type: Literal["triptycho.intercept"] = "triptycho.intercept"
    prompt: str
    choice: Literal["yes", "no"]


# --- playing a card --------------------------------------------------------------------------------


def _incantation_payment(state: CampaignState, e: Entity, card: Card) -> bool:
    """Whether this play is free (TP-N-1's start-of-turn window); refuses when it cannot be paid."""
    turn = ext_of(state).turn
    if card.incantation:
        if e.climbing is not None:
            raise RuleError("A climbing entity cannot incant.", rule="TP-CL-2")
        if e.charges < card.incantation:
            raise RuleError(
                f"{card.name} needs {card.incantation} Incantation "
                f"charge{'s' if card.incantation > 1 else ''}; {name_of(state, e.id)} has {e.charges}.",
                rule="TP-N-1",
            )
        if turn.incant_window and turn.phase == "strategy":
            return True
    flow.on_turn(state, e, "action")
    return False


def act(state: CampaignState, cmd: Act, ctx: Ctx) -> list[NewEvent]:
    e = acting(state, cmd.participant, ctx.actor)
    ext = ext_of(state)
    settings = settings_of(state)
    if ext.turn.entity != e.id:
        raise RuleError(f"It is not {name_of(state, e.id)}'s turn.", rule="TP-T-1")
    instance, card = hand_card(e, cmd.card)
    if card.kind != "action":
        raise RuleError(f"{card.name} is a {card.kind.capitalize()} card, not an Action.", rule="TP-T-1")
    if ext.attacks:
        raise RuleError("An attack is waiting on a Reaction: finish it first.", rule="TP-T-2")
    free = _incantation_payment(state, e, card)
    targets: list[Entity] = []
    route: Route | None = None
    section: str | None = None
    if card.attacks:
        section, route, targets = _aim(state, e, card, cmd, ctx)
        why = combat.range_refusal(ext, e, card)
        if why:
            raise RuleError(why, rule="TP-D-4")
    elif cmd.target:
        targets = [entity_ref(state, cmd.target, ctx.actor)]
    full, rest = flow.naming(state, e, [] if card.area else targets)
    played = NewEvent(
        type="triptycho.card_played",
        data={
            "participant": e.id,
            "name": name_of(state, e.id),
            "card": card.name,
            "card_id": card.id,
            "instance": instance,
            "entries": card.entries(),
            "text": card.text,
            "free": free,
            "charges_spent": e.charges if card.incantation else 0,
            "section": section,
            "targets": [t.id for t in targets] if not card.area else [],
            "target_names": [name_of(state, t.id) for t in targets] if not card.area else [],
        },
        audience=full,
    )
    events = [played]
    if rest:
        events.append(
            NewEvent(
                type="triptycho.unseen",
                data={"text": f"{name_of(state, e.id)} plays {card.name}."},
                audience=rest,
            )
        )
    if card.movement:
        events.append(_grant(state, e, card))
    if not card.attacks or section is None or route is None:
        return events
    if not card.area and card.ranged and combat.far_blocked_on(ext, route):
        return [
            *events,
            NewEvent(
                type="triptycho.attack_missed",
                data={
                    "participant": e.id,
                    "name": name_of(state, e.id),
                    "card": card.name,
                    "target": targets[0].id,
                    "why": "a border on its way is blocked from a distance",
                },
                audience=full,
            ),
        ]
    attack = Attack(
        id=f"atk{state.seq + 1}",
        attacker=e.id,
        card=card,
        instance=instance,
        section=section,
        route=route.path,
        area=bool(card.area),
        targets=tuple(t.id for t in targets),
        stage="intercept" if (not card.area and card.ranged) else "react",
    )
    events.append(
        NewEvent(
            type="triptycho.attack_declared",
            data={"attack": attack.model_dump(mode="json"), "name": name_of(state, e.id), "card": card.name},
            audience=flow.naming(state, e, targets, chose=not card.area)[0],
        )
    )
    return events + proceed(state, settings, attack, ctx.roller)


def _aim(state: CampaignState, e: Entity, card: Card, cmd: Act, ctx: Ctx) -> tuple[str, Route, list[Entity]]:
    ext = ext_of(state)
    if card.area:
        target = entity_ref(state, cmd.target, ctx.actor) if cmd.target else None
        section = (
            cmd.section or (target.section if target else None) or (e.section if not card.reach_of else None)
        )
        if section is None:
            raise RuleError(f"Say which section {card.name} strikes.", rule="TP-D-5")
        route = combat.aim(ext, e, card, section, cmd.route)
        return section, route, combat.area_targets(ext, e, card, section)
    if not cmd.target:
        raise RuleError(f"Say whom {card.name} targets.")
    target = entity_ref(state, cmd.target, ctx.actor)
    if not target.placed:
        raise RuleError(f"{name_of(state, target.id)} is not on the map.")
    combat.check_target(ext, e, card, target)
    sections = [cmd.section] if cmd.section else list(target.sections)
    if cmd.section and cmd.section not in target.sections:
        raise RuleError(f"{name_of(state, target.id)} is not in that section.")
    error: RuleError | None = None
    for sid in sections:
        try:
            return sid, combat.aim(ext, e, card, sid, cmd.route), [target]
        except RuleError as err:
            error = error or err
    assert error is not None
    raise error


# --- the answers ------------------------------------------------------------------------------------


def react(state: CampaignState, cmd: React, ctx: Ctx) -> list[NewEvent]:
    prompt = check_answer(state, cmd.prompt, ctx.actor)
    if prompt.kind != "reaction":
        raise RuleError("That choice is not a Reaction.")
    ext = ext_of(state)
    settings = settings_of(state)
    attack = ext.attack(prompt.data["attack"])
    if attack is None:
        raise RuleError("That attack is over.")
    keys = {c.key for c in prompt.choices}
    if cmd.choice not in keys:
        raise RuleError("Choose one of the Reactions offered.", rule="TP-T-2")
    attacker, target = ext.entity(attack.attacker), ext.entity(prompt.to)
    assert attacker is not None and target is not None
    reaction = None
    instance = None
    if cmd.choice != "none":
        found = dict(reactions(state, settings, target)).get(cmd.choice)
        if found is None:
            raise RuleError("That Reaction is no longer in hand.", rule="TP-T-2")
        reaction = found
        instance = cmd.choice if target.uses_deck and cmd.choice != "base" else None
    rest = attack.model_copy(update={"targets": tuple(t for t in attack.targets if t != target.id)})
    events = resolve(state, settings, rest, attacker, target, reaction, instance, ctx.roller, prompt.id)
    return events + proceed(state, settings, rest, ctx.roller)


def intercept(state: CampaignState, cmd: Intercept, ctx: Ctx) -> list[NewEvent]:
    prompt = check_answer(state, cmd.prompt, ctx.actor)
    if prompt.kind != "intercept":
        raise RuleError("That choice is not an Intercept.")
    ext = ext_of(state)
    attack = ext.attack(prompt.data["attack"])
    if attack is None:
        raise RuleError("That attack is over.")
    blocker = ext.entity(prompt.to)
    assert blocker is not None
    yes = cmd.choice == "yes"
    after = attack.model_copy(update={"targets": (blocker.id,), "stage": "react"}) if yes else attack
    events = [
        NewEvent(
            type="triptycho.intercepted",
            data={
                "attack": attack.id,
                "participant": blocker.id,
                "name": name_of(state, blocker.id),
                "accepted": yes,
                "prompt": prompt.id,
            },
            audience=flow.split_audience(state, blocker, [])[0],
        )
    ]
    return events + proceed(state, settings_of(state), after, ctx.roller)
