"""How Trinity Code events read in the log."""

from __future__ import annotations

from app.rules.system import Event
from app.rules.trinity.moves import MOVES, RESULT_LABEL

_WITH = {"team": "the team", "enemy": "the enemy", "none": "nobody"}
_LUCK = {
    "ignore": "ignores the negative modifiers",
    "reroll": "rolls again",
    "twelve": "makes it a 12+",
    "no_harm": "suffers no harm",
}


def _mods(mods: list[dict]) -> str:
    return " ".join(f"{m['value']:+d} ({m['label']})" for m in mods)


def _rolled(e: Event) -> str:
    d = e.data
    faces = ", ".join(str(f) for f in d["faces"])
    who, label = d.get("who", "Someone"), MOVES[d["kind"]].label
    return f"{who}: {label} — 2d6 [{faces}] {_mods(d['mods'])} = {d['total']} ({RESULT_LABEL[d['result']]})."


def _harmed(e: Event) -> str:
    d = e.data
    armour = f", {d['absorbed']} absorbed by armour" if d.get("absorbed") else ""
    dead = " Dead." if d.get("dead") else ""
    track = f"{d['from']} → {d['to']} of {d['limit']}"
    return f"{d['name']} takes {d['taken']} harm ({d['why']}{armour}): {track}.{dead}"


def _opponent_harmed(e: Event) -> str:
    d = e.data
    armour = f", {d['absorbed']} absorbed by armour" if d.get("absorbed") else ""
    return f"{d['name']} takes {d['taken']} harm{armour}: {d['to']} of {d['limit']}."


def _condition(e: Event) -> str:
    d = e.data
    parts = []
    for key, on_text, off_text in (("dead", "dead", "no longer dead"), ("lost", "lost", "no longer lost")):
        if key in d:
            parts.append(on_text if d[key] else off_text)
    if "harm" in d:
        parts.append(f"harm {d['harm']}")
    if "stress" in d:
        parts.append(f"stress {d['stress']}")
    return f"{d['name']}: {', '.join(parts)}."


def _resolved(e: Event) -> str:
    d = e.data
    if "text" in d:
        return f"{d['band']}: {d['who']} is {d['text']} ({d['rule']})."
    hit = "hits" if d["inflict"] else "does not hurt"
    back = " and takes their harm" if d["take"] else ""
    saved = " (Luck: no harm)" if d.get("no_harm") else ""
    return f"{d['band']}: {d['who']} {hit} {d['target']}{back}{saved} ({d['rule']})."


def _item(e: Event) -> str:
    d = e.data
    on = "" if d["target"] == d["character"] else f" on {d['target_name']}"
    when = " (it works once they are safe)" if d["timing"] == "delayed" else ""
    return f"{d['who']} uses the {d['name']}{on}{when}."


def _ended(e: Event) -> str:
    d = e.data
    follow = d.get("follow_up")
    note = f" Doubles: {follow['value']:+d} on {d['who']}'s next move if it is the same." if follow else ""
    return f"{MOVES[d['kind']].label} by {d['who']} is over.{note}"


def _grabbed(e: Event) -> str:
    d = e.data
    if not d["amount"]:
        return f"{d['who']} pass on karma."
    return f"{d['who']} grab {d['amount']} {'Good' if d['side'] == 'good' else 'Bad'} karma."


DESCRIBERS = {
    "trinity.character_set": lambda e: f"{e.data['name']}'s sheet is ready.",
    "trinity.opponent_set": lambda e: f"{e.data['name']}'s opponent sheet is ready.",
    "trinity.band_set": lambda e: f"{e.data['who']} is at {e.data['to']} range from {e.data['target']}.",
    "trinity.advantage_set": lambda e: f"Advantage is with {_WITH[e.data['to']]}.",
    "trinity.shift_set": lambda e: f"GM shift {e.data['value']:+d} on {e.data['who']}'s next move.",
    "trinity.karma_added": lambda e: (
        f"{e.data['pool'].capitalize()} karma: {e.data['from']} → {e.data['to']}."
    ),
    "trinity.good_spent": lambda e: (
        f"{e.data['who']} spent a Good karma point on {e.data['reason']}; it goes to the Bad pool."
    ),
    "trinity.luck_granted": lambda e: f"{e.data['name']}'s Luck: {e.data['from']} → {e.data['to']}.",
    "trinity.armour_repaired": lambda e: f"{e.data['name']}'s armour is repaired.",
    "trinity.condition_set": _condition,
    "trinity.harmed": _harmed,
    "trinity.stressed": lambda e: (
        f"{e.data['name']} suffers stress ({e.data['why']}): "
        f"{e.data['from']} → {e.data['to']} of {e.data['limit']}."
    ),
    "trinity.opponent_harmed": _opponent_harmed,
    "trinity.opponent_out": lambda e: f"{e.data['name']} is out of the fight.",
    "trinity.ammo_spent": lambda e: f"{e.data['name']}: ammo {e.data['from']} → {e.data['to']}.",
    "trinity.reloaded": lambda e: f"{e.data['who']} reloads the {e.data['name']}.",
    "trinity.item_used": _item,
    "trinity.made_safe": lambda e: f"{e.data['name']} is safe: delayed treatment takes effect.",
    "trinity.time_passed": lambda e: f"{e.data['hours']} hours pass.",
    "trinity.investigation_started": lambda e: (
        f"Investigation {e.data['number']} begins: karma pools empty, harm and stress cleared."
    ),
    "trinity.move_declared": lambda e: (
        f"{e.data['who']}: {e.data['label']}"
        + (f" against {e.data['target']}." if e.data.get("target") else ".")
    ),
    "trinity.karma_grabbed": _grabbed,
    "trinity.move_rolled": _rolled,
    "trinity.karma_returned": lambda e: (
        f"Karma changes sides: {e.data['to_good']} into the Good pool, {e.data['to_bad']} into the Bad pool."
    ),
    "trinity.luck_spent": lambda e: (
        f"{e.data['who']} spends Luck and {_LUCK[e.data['option']]}"
        + (f": {e.data['total']} ({RESULT_LABEL[e.data['result']]})." if "total" in e.data else ".")
    ),
    "trinity.luck_kept": lambda e: f"{e.data['who']} keeps the result.",
    "trinity.effect_chosen": lambda e: f"{e.data['who']} picks: {e.data['label']}.",
    "trinity.move_resolved": _resolved,
    "trinity.opening_given": lambda e: f"{e.data['who']} creates an opening for {e.data['name']}.",
    "trinity.opponent_moved": lambda e: (
        f"{e.data['who']} stays at {e.data['to']} range from {e.data['target']}."
        if e.data["to"] == e.data["from"]
        else f"{e.data['who']} moves to {e.data['to']} range from {e.data['target']}."
    ),
    "trinity.move_ended": _ended,
    "trinity.move_cancelled": lambda e: f"{e.data['label']} is called off; grabbed karma goes back.",
    "trinity.tag_added": lambda e: (
        f"Environment tag: {e.data['tag']['text']} "
        f"({'positive' if e.data['tag']['positive'] else 'negative'})."
    ),
    "trinity.tag_skipped": lambda e: "No environment tag this time.",
    "trinity.tag_removed": lambda e: f"Environment tag {e.data['text']} removed.",
}
