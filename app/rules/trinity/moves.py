"""The moves as data (one Outcome per band, each a rule), their legality and their modifiers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from app.rules.campaign.state import CampaignState
from app.rules.errors import RuleError
from app.rules.trinity.state import (
    STAT_LABEL,
    Character,
    Mod,
    Move,
    MoveKind,
    Opponent,
    RangeBand,
    Stat,
    Weapon,
    ext,
    settings_of,
)

Result = Literal["miss", "weak", "strong"]
RESULT_LABEL = {"miss": "6-", "weak": "7-9", "strong": "10+"}
PICK_LABEL = {
    "harm_plus": "+1 harm",
    "harm_minus": "-1 harm taken",
    "closer": "Move one band closer",
    "further": "Move one band further",
    "opening": "Create an opening",
}


@dataclass(frozen=True)
class Outcome:
    rule: str
    inflict: bool  # you inflict your harm on the opponent
    take: Literal["no", "yes", "return"]  # they inflict theirs; return: if firing back or at close range
    advantage: Literal["same", "team", "enemy", "none"]
    opponent_moves: bool = False  # the opponent may move one band (TC-MV-1: a GM prompt)
    picks: tuple[str, ...] = ()  # 10+: pick one


@dataclass(frozen=True)
class MoveDef:
    kind: MoveKind
    label: str
    stat: Stat | None  # None: the player chooses (face your demons)
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    melee: bool = False  # needs the close band (TC-B-2)
    ranged: bool = False  # needs a loaded ranged weapon covering the band (TC-W-1, TC-W-4)
    needs: Literal["team", "enemy"] | None = None  # TC-A-3
    against: Literal["melee", "ranged"] | None = None  # TC-A-3: the opponent's attack it answers
    combat: bool = True

    def rule(self, result: str) -> str:
        return self.outcomes[result].rule if result in self.outcomes else ""


_PICK3 = ("harm_plus", "harm_minus", "move")
_PICK_OPEN = ("harm_plus", "move", "opening")

MOVES: dict[str, MoveDef] = {
    m.kind: m
    for m in (
        MoveDef(
            "go_toe_to_toe",
            "Go toe to toe",
            "power",
            {
                "miss": Outcome("TC-GT-1", False, "yes", "enemy", True),
                "weak": Outcome("TC-GT-2", True, "yes", "same"),
                "strong": Outcome("TC-GT-3", True, "yes", "team", picks=_PICK3),
            },
            melee=True,
        ),
        MoveDef(
            "open_fire",
            "Open fire",
            "quickness",
            {
                "miss": Outcome("TC-OF-1", False, "return", "enemy", True),
                "weak": Outcome("TC-OF-2", True, "return", "same"),
                "strong": Outcome("TC-OF-3", True, "return", "team", picks=_PICK3),
            },
            ranged=True,
        ),
        MoveDef(
            "press_home",
            "Press home",
            "power",
            {
                "miss": Outcome("TC-PH-1", False, "yes", "enemy", True),
                "weak": Outcome("TC-PH-2", True, "no", "none"),
                "strong": Outcome("TC-PH-3", True, "no", "team", picks=_PICK_OPEN),
            },
            melee=True,
            needs="team",
        ),
        MoveDef(
            "aim",
            "Aim",
            "quickness",
            {
                "miss": Outcome("TC-AI-1", False, "return", "enemy", True),
                "weak": Outcome("TC-AI-2", True, "no", "none"),
                "strong": Outcome("TC-AI-3", True, "no", "team", picks=_PICK_OPEN),
            },
            ranged=True,
            needs="team",
        ),
        MoveDef(
            "stand_ground",
            "Stand ground",
            "power",
            {
                "miss": Outcome("TC-SG-1", False, "yes", "enemy", True),
                "weak": Outcome("TC-SG-2", False, "yes", "none"),
                "strong": Outcome("TC-SG-3", True, "no", "team"),
            },
            melee=True,
            needs="enemy",
            against="melee",
        ),
        MoveDef(
            "take_cover",
            "Take cover",
            "quickness",
            {
                "miss": Outcome("TC-TC-1", False, "yes", "enemy", True),
                "weak": Outcome("TC-TC-2", False, "yes", "none"),
                "strong": Outcome("TC-TC-3", False, "no", "team"),
            },
            needs="enemy",
            against="ranged",
        ),
        MoveDef("cheat_death", "Cheat death", "power", combat=False),
        MoveDef("face_demons", "Face your demons", None, combat=False),
    )
}
COMBAT_MOVES = tuple(k for k, m in MOVES.items() if m.combat)


def result_of(total: int) -> Result:
    """TC-R-1 bands; TC-R-5: 12+ counts as 10+ for these moves."""
    return "miss" if total <= 6 else "weak" if total <= 9 else "strong"


def takes_harm(outcome: Outcome, opponent: Opponent | None, band: RangeBand | None) -> bool:
    """Whether the opponent's harm comes back at the character for this outcome.

    Open fire and aim 6-: "if your opponent is firing back, or is in the same range band as you". Ruling:
    an opponent with a ranged attack is firing back; "the same range band" is the close band.
    """
    if outcome.take == "return":
        return opponent is not None and (opponent.attack == "ranged" or band == "close")
    return outcome.take == "yes"


# --- who may act ----------------------------------------------------------------------------------


def able(c: Character, kind: str, name: str = "This character") -> RuleError | None:
    """TC-H-4/6/7, TC-S-2: what keeps a character from this move."""
    if c.dead:
        return RuleError(f"{name} is dead and cannot act.", rule="TC-H-7")
    if c.lost:
        return RuleError(f"{name} is lost to their demons and under the GM's control.", rule="TC-S-2")
    if kind == "cheat_death":
        return (
            None if c.dying else RuleError(f"{name} is not dying: only the dying cheat death.", rule="TC-H-6")
        )
    if c.dying:
        return RuleError(f"{name} is dying and can only make cheat death.", rule="TC-H-6")
    if c.unconscious:
        return RuleError(f"{name} is unconscious, out of action.", rule="TC-H-4")
    if kind == "face_demons":
        return (
            None
            if c.on_the_brink
            else RuleError("Only a character on the brink faces their demons.", "TC-S-2")
        )
    if c.on_the_brink:
        return RuleError(f"{name} is on the brink and must face their demons first.", rule="TC-S-2")
    return None


def fight_opponents(state: CampaignState, include_hidden: bool) -> list[Opponent]:
    """Opponents in the active encounter (with a sheet), in the encounter's order."""
    t = ext(state)
    active = state.active
    if active is None:
        return []
    out = []
    for pid in active.participants:
        p = state.find_participant(pid)
        o = t.opponent(pid)
        if p is not None and o is not None and (include_hidden or not p.hidden):
            out.append(o)
    return out


def in_fight(state: CampaignState, pid: str) -> bool:
    return state.active is not None and pid in state.active.participants


def melee_harm(state: CampaignState, weapon: Weapon | None) -> int:
    return weapon.harm if weapon is not None else settings_of(state).unarmed_harm


def check_move(
    state: CampaignState,
    c: Character,
    kind: str,
    opponent: Opponent | None,
    weapon: Weapon | None,
    weapon_named: bool,
) -> RuleError | None:
    """Why this combat move is not allowed now (None: it is). The same sentences in options and decide."""
    t = ext(state)
    move = MOVES[kind]
    if (problem := able(c, kind, state.participant(c.id).name)) is not None:
        return problem
    if t.move is not None:
        return RuleError("Wait until the move being made is finished.")
    if state.active is None:
        return RuleError("Combat moves are made in an encounter: the GM starts one first.")
    if not in_fight(state, c.id):
        return RuleError("This character is not in the encounter.")
    if opponent is None:
        return RuleError("Choose an opponent in this encounter.")
    if opponent.out:
        return RuleError("That opponent is out of the fight.", rule="TC-H-1")
    band = t.band(c.id, opponent.id, settings_of(state).default_band)
    if move.needs == "team" and t.advantage != "team":
        return RuleError(f"{move.label} needs your team to have advantage.", rule="TC-A-3")
    if move.needs == "enemy" and t.advantage != "enemy":
        return RuleError(f"{move.label} is for when the enemy has advantage.", rule="TC-A-3")
    if move.against is not None and opponent.attack != move.against:
        return RuleError(
            f"{move.label} answers a {move.against} attack; this opponent's is not.", rule="TC-A-3"
        )
    if move.melee:
        if band != "close":
            return RuleError(f"{move.label} is melee: it needs the close band (now {band}).", rule="TC-B-2")
        if weapon_named and (weapon is None or weapon.kind != "melee"):
            return RuleError("Choose a melee weapon, or none to fight unarmed.", rule="TC-B-2")
    if move.ranged:
        if weapon is None or weapon.kind != "ranged":
            return RuleError(f"{move.label} needs a ranged weapon.", rule="TC-W-1")
        if band not in weapon.tags:
            return RuleError(f"The {weapon.name} cannot be used at {band} range.", rule="TC-W-1")
        if weapon.ammo <= 0:
            if weapon.spares > 0:
                return RuleError(f"The {weapon.name} is empty: reload first.", rule="TC-W-4")
            return RuleError(f"The {weapon.name} is empty and there is no spare ammo.", rule="TC-W-4")
    return None


# --- modifiers ------------------------------------------------------------------------------------


def modifiers(state: CampaignState, move: Move, good: int = 0, bad: int = 0) -> tuple[Mod, ...]:
    """TC-R-3: every modifier of this move, part by part (stat first)."""
    t = ext(state)
    c = t.character(move.character)
    assert c is not None
    value = c.stat(move.stat)
    mods = [Mod(key="stat", label=STAT_LABEL[move.stat], value=value)]
    if state.active is not None and t.advantage != "none":
        mods.append(
            Mod(key="advantage", label=f"{t.advantage} advantage", value=1 if t.advantage == "team" else -1)
        )
    if good:
        mods.append(Mod(key="good_karma", label=f"Good karma x{good}", value=good))
    if bad:
        mods.append(Mod(key="bad_karma", label=f"Bad karma x{bad}", value=-bad))
    if c.wounded and move.stat in ("power", "quickness"):
        mods.append(Mod(key="wounded", label="wounded", value=-1))
    if c.traumatised and move.stat in ("cool", "wits"):
        mods.append(Mod(key="traumatised", label="traumatised", value=-1))
    weapon = c.weapon(move.weapon)
    if (
        move.kind == "open_fire"
        and weapon is not None
        and "close" in weapon.tags
        and move.band == "close"
        and not c.ignores_close_penalty
    ):
        mods.append(Mod(key="close_tag", label=f"{weapon.name} at close range", value=-1))
    if c.opening:
        mods.append(Mod(key="opening", label="an opening from a teammate", value=c.opening))
    if c.follow_up is not None and c.follow_up.move == move.kind and c.follow_up.value:
        mods.append(Mod(key="doubles", label="doubles follow-up", value=c.follow_up.value))
    if c.shift:
        mods.append(Mod(key="shift", label="GM shift", value=c.shift))
    return tuple(mods)


def applied(mods: tuple[Mod, ...], ignore_negatives: bool) -> tuple[Mod, ...]:
    """TC-L-2: with Luck spent to ignore them, negative modifiers drop out (the stat is the move's own)."""
    if not ignore_negatives:
        return mods
    return tuple(m for m in mods if m.value >= 0 or m.key == "stat")


def mod_total(mods: tuple[Mod, ...]) -> int:
    return sum(m.value for m in mods)


def has_negatives(mods: tuple[Mod, ...]) -> bool:
    return any(m.value < 0 and m.key != "stat" for m in mods)
