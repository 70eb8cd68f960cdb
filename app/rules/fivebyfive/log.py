"""How 5x5 events read in the log."""

from __future__ import annotations

from app.rules.system import Event

_RESULT = {"miss": "a miss", "hit": "a Hit", "double_hit": "a Double Hit"}
_CONTROL = {
    "blocked": "Blocked the Hit! No damage",
    "controlled": "Controlled the Hit: the defender chooses",
    "uncontrolled": "did not Control the Hit: the attacker chooses",
}


def _faces(d: dict) -> str:
    roll = d.get("roll") or {}
    values = [v for term in roll.get("terms", []) for v in term.get("values", [])]
    return " x ".join(str(v) for v in values)


def _needed(d: dict) -> str:
    return f" (needs {d['needed']} or less)" if d.get("needed") is not None else ""


def _sheet(e: Event) -> str:
    d = e.data
    return f"{d['name']}'s 5x5 sheet set."


def _round(e: Event) -> str:
    d = e.data
    rolls = ", ".join(f"{r['name']} {r['value']}" for r in d["rolls"])
    ties = "; ".join(
        "tie " + ", ".join(f"{n} {f}" for n, f in zip(t["names"], t["faces"], strict=False))
        for t in d["ties"]
    )
    return f"Round {d['round']} Initiative (1d5): {rolls}." + (
        f" Ties settled by a d6: {ties}." if ties else ""
    )


def _turn(e: Event) -> str:
    d = e.data
    return f"Round {d['round']}: {d['name']}'s turn (moves up to {d['allowance']} in)."


def _moved(e: Event) -> str:
    d = e.data
    return f"{d['name']} moves {d['distance']:g} in ({d['moved']:.2f} of {d['allowance']})."


def _attacked(e: Event) -> str:
    d = e.data
    return (
        f"{d['attacker_name']} uses {d['action'].capitalize()} on {d['defender_name']}: "
        f"{_faces(d)} = {d['total']}{_needed(d)}, {_RESULT[d['result']]}."
    )


def _controlled(e: Event) -> str:
    d = e.data
    of = f" (hit {d['hit']} of {d['of']})" if d.get("of", 1) > 1 else ""
    if "roll" not in d:
        return f"{d['name']} is {d.get('reason', 'down')} and cannot Control the Hit{of}."
    return (
        f"{d['name']} rolls {d['defence'].capitalize()}{of}: {_faces(d)} = {d['total']}{_needed(d)}, "
        f"{_CONTROL[d['result']]}."
    )


def _due(e: Event) -> str:
    d = e.data
    return f"{d['chooser_name']} chooses which of {d['defender_name']}'s Abilities drops."


def _damaged(e: Event) -> str:
    d = e.data
    values = f" {d['from']} → {d['to']}" if "from" in d else " -1"
    status = {"ok": "", "unconscious": f" {d['name']} is Unconscious!", "dead": f" {d['name']} is Dead!"}
    return f"{d['name']}'s {d['ability'].capitalize()}{values}.{status[d['status']]}"


def _won(e: Event) -> str:
    side = "The PCs" if e.data["winner"] == "pc" else "The NPCs"
    return f"{side} win the fight!"


def _rushed(e: Event) -> str:
    d = e.data
    values = f" {d['from']} → {d['to']}" if "from" in d else " +1"
    return f"Victory Rush: {d['name']}'s {d['ability'].capitalize()}{values}."


DESCRIBERS = {
    "fivebyfive.sheet_set": _sheet,
    "fivebyfive.shift_set": lambda e: (
        f"{e.data['name']}'s {e.data['rank'].capitalize()} shifted {e.data['shift']:+d} for circumstances."
        if e.data["shift"]
        else f"{e.data['name']}'s {e.data['rank'].capitalize()} shift cleared."
    ),
    "fivebyfive.board_set": lambda e: f"The table is {e.data['width']:g} x {e.data['height']:g} inches.",
    "fivebyfive.terrain_added": lambda e: f"Terrain placed: {e.data['terrain']['name'] or 'unnamed'}.",
    "fivebyfive.terrain_removed": lambda e: f"Terrain removed: {e.data['name'] or e.data['terrain']}.",
    "fivebyfive.placed": lambda e: (
        f"{e.data['name']} placed at ({e.data['x']:g}, {e.data['y']:g})."
        if e.data.get("x") is not None
        else f"{e.data['name']} taken off the table."
    ),
    "fivebyfive.round_started": _round,
    "fivebyfive.initiative_shown": _round,
    "fivebyfive.turn_started": _turn,
    "fivebyfive.moved": _moved,
    "fivebyfive.attacked": _attacked,
    "fivebyfive.gm_note": lambda e: f"(GM) {e.data['text']}",
    "fivebyfive.hit_controlled": _controlled,
    "fivebyfive.damage_due": _due,
    "fivebyfive.damaged": _damaged,
    "fivebyfive.knocked_out": lambda e: (
        f"Instant KO! Both hits struck {e.data['name']}'s {e.data['ability'].capitalize()}: "
        f"{e.data['name']} is Unconscious."
    ),
    "fivebyfive.turn_ended": lambda e: f"{e.data['name']}'s turn ends.",
    "fivebyfive.round_ended": lambda e: f"Round {e.data['round']} ends.",
    "fivebyfive.combat_won": _won,
    "fivebyfive.rush_due": lambda e: f"Victory Rush: {e.data['name']} chooses an Ability to regain.",
    "fivebyfive.rushed": _rushed,
}
