"""A 5x5 campaign in memory, driven the way the service layer drives it (parse, decide, fold).

Dice are typed faces (ManualRoller): a d5 is a d6 whose 6 reads 0, so `d5(0, 3)` gives faces (6, 3).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.rules.campaign.state import CampaignState
from app.rules.dice import ManualRoller
from app.rules.errors import RuleError
from app.rules.fivebyfive import SYSTEM
from app.rules.fivebyfive.state import Character, FiveState, ext
from app.rules.game import Game
from app.rules.system import Ctx, Event, Viewer
from tests.rules.harness import InMemoryLog

SEATS = {
    "gm": ("seat-gm", "Gail", "gm"),
    "ann": ("seat-ann", "Ann", "player"),
    "ben": ("seat-ben", "Ben", "player"),
    "spec": ("seat-spec", "Table", "spectator"),
}

GAME = Game(SYSTEM)

ARIA = {"rage": 3, "grace": 2, "precognition": 2, "strike": 2, "aim": 1, "focus": 0}
ARIA |= {"parry": 2, "dodge": 1, "resist": 1}
BRICK = {"rage": 2, "grace": 3, "precognition": 3, "strike": 1, "aim": 2, "focus": 2}
BRICK |= {"parry": 1, "dodge": 2, "resist": 2}
GOBLIN = {"rage": 2, "grace": 3, "precognition": 1, "strike": 2, "aim": 2, "focus": 0}
GOBLIN |= {"parry": 1, "dodge": 1, "resist": 0}


def d5(*values: int) -> list[int]:
    """The d6 faces that read as these d5 values (0 is a 6)."""
    return [6 if v == 0 else v for v in values]


class Table(InMemoryLog):
    def __init__(self, dice_mode: str = "server", settings: dict[str, Any] | None = None):
        self.game = GAME
        self.events: list[Event] = []
        self.state: CampaignState | None = None
        created = {
            "id": "c1",
            "name": "Rooftop",
            "system": "fivebyfive",
            "dice_mode": dice_mode,
            "settings": {**self.game.default_settings(), **(settings or {})},
        }
        self._append([("campaign.created", created, "all")], actor=None)
        for seat_id, name, role in SEATS.values():
            seat = {"seat": {"id": seat_id, "name": name, "role": role}}
            self._append([("campaign.seat_joined", seat, "all")], actor=seat_id)

    def viewer(self, who: str) -> Viewer:
        seat_id, _, role = SEATS[who]
        return self.state.viewer_for(seat_id, role)

    def do(self, who: str, type_: str, faces=(), **fields: Any) -> list[Event]:
        _, command = self.game.parse({"type": type_, **fields})
        roller = ManualRoller(faces)
        new_events = self.game.decide(self.state, command, Ctx(roller, self.viewer(who)))
        roller.finish()
        return self._append([(e.type, e.data, e.audience, e.encounter) for e in new_events], SEATS[who][0])

    def refused(self, who: str, type_: str, error: type[RuleError] = RuleError, faces=(), **fields: Any):
        """The refusal (its sentence and rule); the log and state stay as they were."""
        before_events, before_state = list(self.events), self.state
        with pytest.raises(error) as info:
            self.do(who, type_, faces, **fields)
        assert type(info.value) is error, f"expected {error.__name__}, got {type(info.value).__name__}"
        assert self.events == before_events and self.state == before_state
        assert info.value.message.endswith("."), info.value.message
        return info.value

    # -- reading --

    @property
    def five(self) -> FiveState:
        return ext(self.state)

    def pid(self, name: str) -> str:
        return self.state.participant(name).id

    def char(self, name: str) -> Character:
        return self.five.character(self.pid(name))

    def current(self, name: str) -> dict[str, int]:
        return self.char(name).current.model_dump()

    def view(self, who: str) -> dict[str, Any]:
        return self.game.view(self.state, self.viewer(who))

    def dump(self, who: str) -> str:
        return json.dumps(self.view(who), default=str)

    def options(self, who: str) -> dict[str, Any]:
        return {o.id: o for o in self.game.options(self.state, self.viewer(who))}

    def prompt(self, kind: str):
        (prompt,) = [p for p in self.state.prompts if p.kind == f"fivebyfive.{kind}"]
        return prompt

    def types(self, events: list[Event]) -> list[str]:
        return [e.type for e in events]

    def visible_types(self, who: str) -> list[str]:
        return [e.type for e in self.game.visible(self.events, self.viewer(who))]

    # -- setting up --

    def cast(self, aria=ARIA, brick=BRICK, goblin=GOBLIN) -> Table:
        self.do("gm", "campaign.add_participant", name="Aria", owner="seat-ann")
        self.do("gm", "campaign.add_participant", name="Brick", owner="seat-ben")
        self.do("gm", "campaign.add_participant", name="Goblin", kind="npc")
        self.do("gm", "fivebyfive.setup", participant="Aria", **aria)
        self.do("gm", "fivebyfive.setup", participant="Brick", **brick)
        self.do("gm", "fivebyfive.setup", participant="Goblin", **goblin)
        return self

    def start(
        self, tokens: dict[str, list[float]] | None = None, name: str = "Rooftop", **setup: Any
    ) -> Table:
        tokens = tokens or {"Aria": [5, 5], "Goblin": [5.8, 5], "Brick": [10, 5]}
        names = [n for n in ("Aria", "Brick", "Goblin", "Ogre") if self.state.find_participant(n)]
        self.do(
            "gm",
            "campaign.encounter.prepare",
            name=name,
            participants=names,
            setup={"board": {"width": 36, "height": 24}, "tokens": tokens, **setup},
        )
        self.do("gm", "campaign.encounter.start", encounter=name)
        return self

    def round(self, **initiative: int) -> list[Event]:
        """Roll Initiative with these d5 values, in roster order (the encounter's participants)."""
        order = [
            self.state.participant(pid).name
            for pid in self.state.active.participants
            if self.five.character(pid) and self.five.character(pid).able
        ]
        values = [initiative[n] for n in order if n in initiative]
        return self.do("gm", "fivebyfive.roll_initiative", d5(*values))

    @property
    def turn(self) -> str | None:
        pid = self.five.fight.current
        return self.state.participant(pid).name if pid else None


@pytest.fixture
def t() -> Table:
    """Aria (Ann), Brick (Ben) and a Goblin NPC, Aria adjacent to the Goblin; no round yet."""
    return Table().cast().start()
