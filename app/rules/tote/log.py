"""How TOTE events read in the dice log: dice, successes, Bonuses, damage and marks in words."""

from __future__ import annotations

from typing import Any

from app.rules.system import Event
from app.rules.tote.model import ACTION_NAMES, BAND_NAMES


def _test(t: dict[str, Any]) -> str:
    counted = " + ".join(str(v) for v in t["counted"]) or "nothing"
    mod = f" {t['modifier']:+d}" if t.get("modifier") else ""
    target = f" vs {t['target']}" if t.get("target") is not None else ""
    if not t["passed"]:
        return f"{counted}{mod} = {t['total']}{target}: fail"
    extra = []
    if t.get("bonuses"):
        extra.append(f"{t['bonuses']} Bonus" + ("es" if t["bonuses"] > 1 else ""))
    if t.get("critical"):
        extra.append("Critical")
    more = f" ({', '.join(extra)})" if extra else ""
    plural = "es" if t["successes"] > 1 else ""
    return f"{counted}{mod} = {t['total']}{target}: {t['successes']} success{plural}{more}"


def _attacked(e: Event) -> str:
    d = e.data
    kind = {"return": " (return attack)", "response": " (Defend answer)"}.get(d["kind"], "")
    verb = ACTION_NAMES[d["action"]].lower() + "s"
    head = f"{d['actor_name']} {verb} {d['target_name']}{kind} with {d['weapon']['name']}: {_test(d['test'])}"
    parts = []
    passed = [t for t in d.get("effects", ()) if t["passed"]]
    if d.get("effects"):
        parts.append(f"Effect tests {len(passed)}/{len(d['effects'])} passed")
    if "absorbed" in d:
        if d["damage"]:
            parts.append(f"{d['damage']} damage, {d['absorbed']} Resolve lost")
        if d["marks"]:
            parts.append(f"injuries marked: {', '.join(d['marked'])}")
    else:  # an enemy's Resolve and track are the GM's: the exact numbers are in tote.enemy_resolve
        if d["damage"]:
            parts.append(f"{d['damage']} damage")
        if d.get("harm") and not d["out"]:
            parts.append(f"{d['target_name']} is {d['harm']}")
    if d["knocked_down"]:
        parts.append("knocked down")
    if d["out"]:
        parts.append(f"{d['target_name']} is {d['out']}")
    if d["engage"]:
        parts.append("engaged")
    return head + (". " + "; ".join(parts) if parts else "") + "."


def _moved(e: Event) -> str:
    d = e.data
    if d["to"] is None:
        return f"{d['actor_name']} flees the battle."
    return f"{d['actor_name']} moves {d['direction']}: {BAND_NAMES[d['from']]} → {BAND_NAMES[d['to']]}."


def _enemy_resolve(e: Event) -> str:
    d = e.data
    now = f"Resolve {d['resolve']}/{d['resolve_max']}"
    if d["why"] == "recovered":
        return f"{d['name']} recovers {d['change']} Resolve ({now})."
    marks = f"; injuries marked: {', '.join(d['marked'])}" if d["marks"] else ""
    return f"{d['name']}: {-d['change']} Resolve lost ({now}){marks}."


def _recovered(e: Event) -> str:
    gained = e.data["gained"]
    return f"{e.data['actor_name']} recovers {'' if gained is None else f'{gained} '}Resolve."


def _round_ended(e: Event) -> str:
    d = e.data
    gains = "".join(f" {g['name']} gains 2 Initiative (Defend)." for g in d.get("gains", ()))
    return f"Round {d['round']} ends.{gains}"


def _declared(e: Event) -> str:
    d = e.data["declaration"]
    target = f" {e.data['target_name']}" if e.data.get("target_name") else ""
    direction = f" {d['direction']}" if d.get("direction") else ""
    return f"{e.data['actor_name']} declares {ACTION_NAMES[d['action']]}{target}{direction} ({d['cost']})."


DESCRIBERS = {
    "tote.hero_set": lambda e: "Hero sheet set.",
    "tote.enemy_set": lambda e: "Enemy stat block set.",
    "tote.adjusted": lambda e: f"{e.data['name']} adjusted by the GM.",
    "tote.joined": lambda e: f"{e.data['name']} joins the fight at {BAND_NAMES[e.data['band']]}.",
    "tote.placed": lambda e: f"{e.data['name']}: {BAND_NAMES[e.data['from']]} → {BAND_NAMES[e.data['to']]}.",
    "tote.initiative_rolled": lambda e: (
        f"{e.data['name']} Initiative: {_test(e.data['test'])} → {e.data['value']}."
    ),
    "tote.round_started": lambda e: (
        f"Round {e.data['round']}: declare from the lowest Initiative "
        f"({', '.join(e.data['names']) or 'nobody'})."
    ),
    "tote.declared": _declared,
    "tote.resolution_started": lambda e: f"Round {e.data['round']}: resolve from the highest Initiative.",
    "tote.attacked": _attacked,
    "tote.intimidated": lambda e: (
        f"{e.data['actor_name']} intimidates {e.data['target_name']}: {_test(e.data['test'])}"
        + (f"; -{e.data['lost']} Initiative." if e.data["lost"] else ".")
    ),
    "tote.moved": _moved,
    "tote.recovered": _recovered,
    "tote.enemy_resolve": _enemy_resolve,
    "tote.initiative_secret": lambda e: f"{e.data['name']} rolls Initiative (the GM keeps the number).",
    "tote.defending": lambda e: f"{e.data['actor_name']} stands ready to defend.",
    "tote.disengaging": lambda e: f"{e.data['actor_name']} disengages (free next round).",
    "tote.action_lost": lambda e: (
        f"{e.data['actor_name']}'s {ACTION_NAMES[e.data['action']]} is lost: {e.data['reason']}"
    ),
    "tote.answered": lambda e: f"{e.data['name']} answers: {e.data['choice']}.",
    "tote.round_ended": _round_ended,
    "tote.fight_over": lambda e: f"The fight is over: {e.data['winner']} stand.",
}
