"""A Trinity Code table in memory: the campaign core + generic + trinity, driven like the service does.

Demo gear from the issue: pistol harm-2 close medium, rifle harm-3 medium, tactical armour armour-2
threshold-6, healing potion heal-2 consumable-2.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.rules.campaign.state import CampaignState
from app.rules.dice import ManualRoller
from app.rules.errors import RuleError
from app.rules.game import Game
from app.rules.system import Ctx, Event, Option, Viewer
from app.rules.trinity import SYSTEM
from app.rules.trinity.state import Character, Opponent, TrinityState, ext
from tests.rules.harness import InMemoryLog

SEATS = {
    "gm": ("seat-gm", "Gail", "gm"),
    "ann": ("seat-ann", "Ann", "player"),
    "ben": ("seat-ben", "Ben", "player"),
    "spec": ("seat-spec", "Table", "spectator"),
}
GAME = Game(SYSTEM)

PISTOL = {"name": "pistol", "harm": 2, "kind": "ranged", "tags": ["close", "medium"], "ammo": 6, "spares": 1}
RIFLE = {"name": "rifle", "harm": 3, "kind": "ranged", "tags": ["medium"], "ammo": 5, "spares": 0}
KNIFE = {"name": "knife", "harm": 1, "kind": "melee"}
ARMOUR = {"name": "tactical armour", "armour": 2, "threshold": 6}
POTION = {"name": "healing potion", "heal": 2, "timing": "instant", "consumable": 2}
SECRET = "Ghoul-notes: weak to fire"


class Table(InMemoryLog):
    def __init__(self, settings: dict[str, Any] | None = None, dice_mode: str = "server"):
        self.game = GAME
        self.events: list[Event] = []
        self.state: CampaignState | None = None
        created = {
            "id": "c1",
            "name": "Hollow",
            "system": "trinity",
            "dice_mode": dice_mode,
            "settings": GAME._parse_settings(settings or {}),
        }
        self._append([("campaign.created", created, "all")], actor=None)
        for seat_id, name, role in SEATS.values():
            self._append(
                [("campaign.seat_joined", {"seat": {"id": seat_id, "name": name, "role": role}}, "all")],
                actor=seat_id,
            )

    def viewer(self, who: str) -> Viewer:
        seat_id, _, role = SEATS[who]
        return self.state.viewer_for(seat_id, role)

    def do(self, who: str, type_: str, faces=(), **fields: Any) -> list[Event]:
        _, command = self.game.parse({"type": type_, **fields})
        roller = ManualRoller(faces)
        new_events = self.game.decide(self.state, command, Ctx(roller, self.viewer(who)))
        roller.finish()
        return self._append([(e.type, e.data, e.audience, e.encounter) for e in new_events], SEATS[who][0])

    def refused(
        self, who: str, type_: str, error: type[RuleError] = RuleError, faces=(), **fields: Any
    ) -> str:
        before_events, before_state = list(self.events), self.state
        with pytest.raises(error) as info:
            self.do(who, type_, faces, **fields)
        assert type(info.value) is error, f"expected {error.__name__}, got {type(info.value).__name__}"
        assert self.events == before_events and self.state == before_state
        return str(info.value)

    # -- reading --

    @property
    def t(self) -> TrinityState:
        return ext(self.state)

    def pid(self, name: str) -> str:
        return self.state.participant(name).id

    def char(self, name: str) -> Character:
        c = self.t.character(self.pid(name))
        assert c is not None
        return c

    def opp(self, name: str) -> Opponent:
        o = self.t.opponent(self.pid(name))
        assert o is not None
        return o

    def prompt(self, kind: str, to: str | None = None, players: bool = False):
        found = [
            p
            for p in self.state.prompts
            if p.kind == kind and (to is None or p.to == to) and not (players and p.to == "gm")
        ]
        assert len(found) == 1, (kind, [p.id for p in self.state.prompts])
        return found[0]

    def has_prompt(self, kind: str) -> bool:
        return any(p.kind == kind for p in self.state.prompts)

    def choices(self, kind: str) -> list[str]:
        return [c.key for c in self.prompt(kind).choices]

    def options(self, who: str) -> list[Option]:
        return self.game.options(self.state, self.viewer(who))

    def option(self, who: str, option_id: str) -> Option:
        found = [o for o in self.options(who) if o.id == option_id]
        assert found, [o.id for o in self.options(who)]
        return found[0]

    def view(self, who: str) -> dict[str, Any]:
        return self.game.view(self.state, self.viewer(who))

    def dump(self, who: str) -> str:
        return json.dumps(self.view(who), default=str)

    def types(self, events: list[Event]) -> list[str]:
        return [e.type for e in events]

    def texts(self, events: list[Event]) -> list[str]:
        return [self.game.describe(e) for e in events]

    # -- the usual table --

    def cast(self, ghoul_notes: str = SECRET) -> Table:
        self.do("gm", "campaign.add_participant", name="Aria", owner="seat-ann")
        self.do("gm", "campaign.add_participant", name="Brick", owner="seat-ben")
        self.do("gm", "campaign.add_participant", name="Cultist", kind="npc")
        self.do("gm", "campaign.add_participant", name="Ghoul", kind="npc", notes=ghoul_notes)
        self.do(
            "gm",
            "trinity.setup_character",
            character="Aria",
            power=1,
            quickness=2,
            cool=1,
            wits=0,
            armour=ARMOUR,
            weapons=[PISTOL, RIFLE],
            items=[POTION],
            out_of_luck="Your contacts stop answering.",
        )
        self.do("gm", "trinity.setup_character", character="Brick", power=2, quickness=0, weapons=[KNIFE])
        self.do("gm", "trinity.setup_opponent", opponent="Cultist", harm=2, harm_limit=3, attack="ranged")
        self.do(
            "gm",
            "trinity.setup_opponent",
            opponent="Ghoul",
            harm=3,
            harm_limit=5,
            attack="melee",
            armour={"name": "hide", "armour": 1, "threshold": 4},
        )
        return self

    def fight(
        self, advantage: str = "none", aria_cultist: str = "medium", aria_ghoul: str = "close"
    ) -> Table:
        setup = {
            "advantage": advantage,
            "bands": [
                {"character": "Aria", "opponent": "Cultist", "band": aria_cultist},
                {"character": "Aria", "opponent": "Ghoul", "band": aria_ghoul},
                {"character": "Brick", "opponent": "Cultist", "band": "long"},
                {"character": "Brick", "opponent": "Ghoul", "band": "close"},
            ],
        }
        self.do(
            "gm",
            "campaign.encounter.prepare",
            name="Chapel",
            participants=["Aria", "Brick", "Cultist", "Ghoul"],
            setup=setup,
        )
        self.do("gm", "campaign.encounter.start", encounter="Chapel")
        return self

    def move(self, who: str, character: str, move: str, opponent: str, faces=(), weapon: str | None = None):
        fields: dict[str, Any] = {"character": character, "move": move, "opponent": opponent}
        if weapon:
            fields["weapon"] = weapon
        return self.do(who, "trinity.move", faces, **fields)

    def answer(self, who: str, kind: str, choice: str, faces=(), **extra: Any) -> list[Event]:
        gm = who == "gm" and any(p.kind == kind and p.to == "gm" for p in self.state.prompts)
        prompt = self.prompt(kind, to="gm" if gm else None, players=not gm)
        return self.do(who, prompt.answer, faces, prompt=prompt.id, choice=choice, **extra)

    def keep_luck(self, who: str) -> list[Event]:
        return self.answer(who, "luck", "keep")


@pytest.fixture
def table() -> Table:
    return Table().cast()


@pytest.fixture
def fight() -> Table:
    return Table().cast().fight()
