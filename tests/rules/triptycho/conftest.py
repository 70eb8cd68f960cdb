"""A Triptycho table in memory: the event log, the state folded from it, and commands run as the service
runs them (parse, decide with a ManualRoller and the seat's viewer, stamp seqs, evolve)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.rules.campaign.state import CampaignState
from app.rules.dice import ManualRoller
from app.rules.errors import RuleError
from app.rules.game import Game
from app.rules.system import Ctx, Event, Viewer
from app.rules.triptycho import SYSTEM
from app.rules.triptycho.board import BattleMap
from app.rules.triptycho.state import Entity, TriptychoState, ext_of
from tests.rules.harness import InMemoryLog

SEATS = {
    "gm": ("seat-gm", "Gail", "gm"),
    "ann": ("seat-ann", "Ann", "player"),
    "ben": ("seat-ben", "Ben", "player"),
    "spec": ("seat-spec", "Table", "spectator"),
}

GAME = Game(SYSTEM)


def card(cid: str, **entries: Any) -> dict[str, Any]:
    return {"id": cid, "name": entries.pop("name", cid.capitalize()), **entries}


SLASH = card("slash", hit="1d8", damage="1d6", hostile=True, gear="weapon")
BOW = card("bow", range=3, hit="1d8", damage="1d6", hostile=True, gear="weapon")
SPEAR = card("spear", reach=1, hit="1d6", damage="1d6", hostile=True, gear="weapon", weapon_type="spear")
KNIFE = card("knife", thrown=2, hit="1d6", damage="1d4", hostile=True)
PARRY = card("parry", kind="reaction", miss="1d6", defense="1d4", gear="shield")
DODGE = card("dodge", kind="reaction", miss="1d8")
DASH = card("dash", move=3)


class Ones:
    """Every die shows 1, as many as asked (for property tests that do not care about the faces)."""

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        return (1,) * count


class Table(InMemoryLog):
    def __init__(self, dice_mode: str = "server"):
        self.game = GAME
        self.events: list[Event] = []
        self.state: CampaignState | None = None
        self._append(
            [
                (
                    "campaign.created",
                    {"id": "c1", "name": "Cliff", "system": "triptycho", "dice_mode": dice_mode},
                    "all",
                )
            ],
            actor=None,
        )
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
        roller = Ones() if faces == "ones" else ManualRoller(faces)
        new_events = self.game.decide(self.state, command, Ctx(roller, self.viewer(who)))
        if isinstance(roller, ManualRoller):
            roller.finish()
        return self._append([(e.type, e.data, e.audience, e.encounter) for e in new_events], SEATS[who][0])

    def refused(
        self, who: str, type_: str, rule: str | None = None, error=RuleError, faces=(), **fields
    ) -> str:
        before_events, before_state = list(self.events), self.state
        with pytest.raises(error) as info:
            self.do(who, type_, faces, **fields)
        assert isinstance(info.value, error)
        assert self.events == before_events and self.state == before_state
        if rule is not None:
            assert info.value.rule == rule, f"expected {rule}, got {info.value.rule}: {info.value}"
        message = info.value.message
        assert message.endswith("."), message
        return message

    # -- reading --

    @property
    def ext(self) -> TriptychoState:
        return ext_of(self.state)

    def pid(self, name: str) -> str:
        return self.state.participant(name).id

    def ent(self, name: str) -> Entity:
        e = self.ext.entity(self.pid(name))
        assert e is not None
        return e

    def view(self, who: str) -> dict[str, Any]:
        return self.game.view(self.state, self.viewer(who))

    def dump(self, who: str) -> str:
        return json.dumps(self.view(who), default=str)

    def seen(self, who: str) -> set[str]:
        return {e["name"] for e in self.view(who)["system"]["entities"]}

    def visible_events(self, who: str) -> list[Event]:
        return self.game.visible(self.events, self.viewer(who))

    def options(self, who: str) -> list[dict[str, Any]]:
        return self.view(who)["options"]

    # -- building a scene --

    def add(self, name: str, owner: str | None = None, kind: str = "pc", **sheet: Any) -> str:
        self.do(
            "gm", "campaign.add_participant", name=name, kind=kind, owner=SEATS[owner][0] if owner else None
        )
        self.do("gm", "triptycho.setup", participant=name, **sheet)
        return self.pid(name)

    def board(self, m: BattleMap | str) -> None:
        if isinstance(m, BattleMap):
            self.do("gm", "triptycho.map.save", map=m.export())
            m = m.id
        self.do("gm", "triptycho.map.load", map=m)

    def place(self, name: str, *sections: str) -> None:
        self.do("gm", "triptycho.place", participant=name, sections=list(sections))

    def turn_of(self, name: str, faces=()) -> None:
        """Make it `name`'s turn (a fresh initiative order with them first) and take the draw."""
        others = [e.id for e in self.ext.entities if e.id != self.pid(name)]
        entries = [{"participant": self.pid(name), "value": 99}] + [
            {"participant": pid, "value": 1} for pid in others
        ]
        self.do("gm", "triptycho.order", entries=entries)
        self.do("gm", "triptycho.next_turn")
        while self.state.initiative.current != self.pid(name):
            self.do("gm", "triptycho.next_turn")

    def who_for(self, name: str) -> str:
        owner = self.state.participant(name).owner
        return next((k for k, v in SEATS.items() if v[0] == owner), "gm")

    def start(self, name: str, faces=()) -> None:
        """`name`'s turn, drawn: in the Strategy Phase."""
        self.turn_of(name)
        self.do(self.who_for(name), "triptycho.draw", faces, participant=name)

    def to_action(self, name: str) -> None:
        self.start(name)
        self.do(self.who_for(name), "triptycho.pass", participant=name)


@pytest.fixture
def t() -> Table:
    return Table()
