"""Who is in the fight, who can see whom, what each action reaches, and the numbers each roll needs."""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.campaign.state import CampaignState, Participant
from app.rules.fivebyfive import geometry, odds
from app.rules.fivebyfive.state import (
    ABILITY_OF,
    DEFENCE_OF,
    Character,
    Side,
    ext,
    settings,
    side_of,
)


def roster(state: CampaignState) -> list[Participant]:
    """The combatants: the encounter's characters that have a 5x5 sheet (all such, if it names none)."""
    five = ext(state)
    encounter = state.active
    ids = (
        list(encounter.participants)
        if encounter and encounter.participants
        else [p.id for p in state.participants]
    )
    out = []
    for pid in ids:
        p = state.find_participant(pid)
        if p is not None and five.character(pid) is not None:
            out.append(p)
    return out


def able(state: CampaignState, pid: str) -> bool:
    c = ext(state).character(pid)
    return c is not None and c.able


def standing(state: CampaignState, side: Side) -> list[Participant]:
    return [p for p in roster(state) if side_of(p) == side and able(state, p.id)]


def eliminated_side(state: CampaignState) -> Side | None:
    """FX-R-1: the side whose combatants are all Unconscious or Dead, if any."""
    sides = {side_of(p) for p in roster(state)}
    for side in ("npc", "pc"):
        if side in sides and not standing(state, side):
            return side
    return None


# --- sight and reach -----------------------------------------------------------------------------


def sees(state: CampaignState, a: str, b: str) -> bool:
    """A straight line between the two tokens runs through no terrain (sight is mutual)."""
    board = ext(state).board
    ta, tb = board.token(a), board.token(b)
    if ta is None or tb is None:
        return False
    return geometry.clear_line(ta.at, tb.at, board.polygons())


def gap(state: CampaignState, a: str, b: str) -> float | None:
    board = ext(state).board
    ta, tb = board.token(a), board.token(b)
    if ta is None or tb is None:
        return None
    return geometry.distance(ta.at, tb.at)


def party_sees(state: CampaignState, pid: str) -> bool:
    """Fog of war: does any conscious PC have this character in sight?"""
    p = state.find_participant(pid)
    if p is None or p.hidden:
        return False
    if side_of(p) == "pc" or not settings(state).fog_of_war:
        return True
    return any(sees(state, pc.id, pid) for pc in standing(state, "pc"))


def shown(state: CampaignState, pid: str) -> bool:
    """May players and spectators see this character's token and moves?"""
    p = state.find_participant(pid)
    return p is not None and not p.hidden and party_sees(state, pid)


def out_of_sight(state: CampaignState, pid: str) -> bool:
    """Fog of war: an NPC no conscious PC can see: off the tabletop (brought in, not yet placed), or on it
    where no PC has it in sight."""
    p = state.find_participant(pid)
    if p is None or p.hidden or side_of(p) == "pc" or not settings(state).fog_of_war:
        return False
    return ext(state).board.token(pid) is None or not party_sees(state, pid)


@dataclass(frozen=True)
class Refusal:
    rule: str
    text: str


def reach_refusal(state: CampaignState, attacker: str, defender: str, action: str) -> Refusal | None:
    """FX-O-1: why `attacker` may not use `action` on `defender` now, or None if it is a legal target."""
    rules = settings(state)
    a, d = state.participant(attacker), state.participant(defender)
    c = ext(state).character(attacker)
    target = ext(state).character(defender)
    if action == "focus" and c is not None and c.ranks.focus == 0 and rules.unskilled_focus_forbidden:
        return Refusal(
            "FX-O-1", f"{a.name} has no Focus Rank, and this table does not allow Focus unskilled."
        )
    if target is None or defender == attacker or side_of(a) == side_of(d):
        return Refusal("FX-O-1", f"{d.name} is not an enemy of {a.name} in this fight.")
    if target.status == "dead" or (target.status == "unconscious" and not rules.fallen_can_be_targeted):
        return Refusal("FX-H-3", f"{d.name} is {target.status} and out of the fight.")
    apart = gap(state, attacker, defender)
    if apart is None:
        return Refusal("FX-O-1", f"{a.name} and {d.name} both need a place on the tabletop.")
    if not sees(state, attacker, defender):
        return Refusal("FX-O-1", f"{a.name} cannot see {d.name}: terrain is in the way.")
    reach = rules.strike_reach
    if action == "strike" and apart > reach + geometry.EPS:
        return Refusal(
            "FX-O-1",
            f"{d.name} is out of reach: {apart:.1f} inches away, and a Strike reaches {_inches(reach)}.",
        )
    if action == "aim" and apart <= reach + geometry.EPS:
        return Refusal(
            "FX-O-1",
            f"{d.name} is too close to Aim at ({apart:.1f} inches): Aim needs a target farther than "
            f"{_inches(reach)}; Strike instead.",
        )
    return None


def _inches(value: float) -> str:
    text = f"{value:g}"
    return f"{text} inch" if text == "1" else f"{text} inches"


# --- the numbers a roll needs ---------------------------------------------------------------------


@dataclass(frozen=True)
class Need:
    rank: str
    ability: str
    rank_value: int
    shift: int
    ability_value: int
    needed: int
    minus_one: bool = False  # the table plays unskilled as Ability - 1 (FX-D-4's setting)

    def as_dict(self) -> dict:
        return {
            "rank": self.rank,
            "rank_value": self.rank_value,
            "shift": self.shift,
            "ability": self.ability,
            "ability_value": self.ability_value,
            "needed": self.needed,
        }

    @property
    def text(self) -> str:
        r, a = self.rank.capitalize(), self.ability.capitalize()
        shift = f" {self.shift:+d} (circumstances)" if self.shift else ""
        lvl = odds.level(self.rank_value, self.shift)
        if lvl >= 1:
            how = f"{r} {self.rank_value}{shift} x {a} {self.ability_value}"
        elif self.minus_one:
            how = f"{r} unskilled{shift}: {a} {self.ability_value} {lvl - 1:+d}"
        else:
            how = f"{r} unskilled{shift}: 0 x {a} {self.ability_value}"
        return f"{how}: {self.needed} or less"


def need(state: CampaignState, c: Character, rank: str) -> Need:
    """FX-D-2 / FX-D-4 / FX-H-2: the target for one of a character's Ranks, with current Abilities."""
    ability = ABILITY_OF[rank]
    value, shift, current = c.ranks.get(rank), c.shifts.get(rank), c.current.get(ability)
    rules = settings(state)
    needed = odds.target(
        value, shift, current, rules.unskilled_ability_minus_one, rules.twenty_five_always_fails
    )
    return Need(rank, ability, value, shift, current, needed, rules.unskilled_ability_minus_one)


def defence_need(state: CampaignState, c: Character, action: str) -> Need:
    return need(state, c, DEFENCE_OF[action])
