"""A TOTE campaign in memory for tests: an event log, the folded state, commands run with typed dice.

Built from `Game(SYSTEM)` directly (not the registry). `do()` runs a command the way the
service layer does: parse, decide with a ManualRoller and the seat's viewer, stamp seqs, evolve
(or replay the whole log after an undo).
"""

from __future__ import annotations

from typing import Any

import pytest

from app.rules.campaign.state import CampaignState
from app.rules.dice import ManualRoller
from app.rules.errors import RuleError
from app.rules.game import Game
from app.rules.system import Ctx, Event, Option, Viewer
from app.rules.tote import SYSTEM
from app.rules.tote.model import Fight
from app.rules.tote.rules import ext, sheet
from tests.rules.harness import InMemoryLog

SEATS = {
    "gm": ("seat-gm", "Gail", "gm"),
    "ann": ("seat-ann", "Ann", "player"),
    "ben": ("seat-ben", "Ben", "player"),
    "spec": ("seat-spec", "Table", "spectator"),
}

SPEAR = {"name": "Spear", "base": 2, "effect": 3, "critical": "pierce"}
AXE = {"name": "Axe", "base": 3, "effect": 2, "critical": "slash"}
CLUB = {"name": "Club", "base": 2, "effect": 2, "critical": "bash"}
BOW = {"name": "Bow", "base": 2, "effect": 2, "critical": "pierce", "ranged": True}
FANGS = {"name": "Fangs", "base": 2, "effect": 2, "critical": "slash"}

GAME = Game(SYSTEM)


class Table(InMemoryLog):
    def __init__(self, dice_mode: str = "server", **settings: Any):
        self.game = GAME
        self.events: list[Event] = []
        self.state: CampaignState | None = None
        merged = {**self.game.default_settings(), **settings}
        data = {"id": "c1", "name": "Ford", "system": "tote", "dice_mode": dice_mode, "settings": merged}
        self._append([("campaign.created", data, "all")], actor=None)
        for seat_id, seat_name, role in SEATS.values():
            seat = {"id": seat_id, "name": seat_name, "role": role}
            self._append([("campaign.seat_joined", {"seat": seat}, "all")], actor=seat_id)

    # -- running commands --

    def viewer(self, who: str) -> Viewer:
        seat_id, _, role = SEATS[who]
        return self.state.viewer_for(seat_id, role)

    def do(self, who: str, type_: str, faces=(), **fields: Any) -> list[Event]:
        _, command = self.game.parse({"type": type_, **fields})
        roller = ManualRoller(faces)
        new_events = self.game.decide(self.state, command, Ctx(roller, self.viewer(who)))
        roller.finish()
        return self._append([(e.type, e.data, e.audience, e.encounter) for e in new_events], SEATS[who][0])

    def refused(self, who: str, type_: str, faces=(), error: type[RuleError] = RuleError, **fields: Any):
        """The error a refused command gets; the log and state stay as they were."""
        before_events, before_state = list(self.events), self.state
        with pytest.raises(error) as info:
            self.do(who, type_, faces, **fields)
        assert isinstance(info.value, error)
        assert self.events == before_events and self.state == before_state
        assert str(info.value).endswith(".") or str(info.value).endswith(")"), str(info.value)
        return info.value

    # -- building a fight --

    def add(self, name: str, owner: str | None = None, kind: str = "pc", hidden: bool = False) -> str:
        fields: dict[str, Any] = {"name": name, "kind": kind, "hidden": hidden}
        if owner:
            fields["owner"] = SEATS[owner][0]
        self.do("gm", "campaign.add_participant", **fields)
        return self.pid(name)

    def hero(self, name: str, owner: str | None = "ann", **sheet_: Any) -> str:
        if self.state.find_participant(name) is None:
            self.add(name, owner)
        fields = {
            "skills": {"plan": 2, "strike": 3, "shoot": 2, "brawl": 2, "impress": 2},
            "totems": {"hawk": 2, "stag": 2},
            "resolve": 8,
            "block": 8,
            "resist": 6,
            "weapons": [AXE, BOW],
        }
        fields.update(sheet_)
        self.do("gm", "tote.hero", participant=name, **fields)
        return self.pid(name)

    def enemy(self, name: str, **sheet_: Any) -> str:
        if self.state.find_participant(name) is None:
            self.add(name, kind="npc")
        fields = {"rating": 3, "block": 8, "resist": 6, "resolve": 6, "weapons": [FANGS]}
        fields.update(sheet_)
        self.do("gm", "tote.enemy", participant=name, **fields)
        return self.pid(name)

    def start(self, *names: str, distance: str = "close") -> None:
        names = names or tuple(p.name for p in self.state.participants)
        self.do(
            "gm",
            "campaign.encounter.prepare",
            name=f"Fight {len(self.state.encounters) + 1}",
            participants=list(names),
            setup={"distance": distance},
        )
        self.do("gm", "campaign.encounter.start", encounter=self.state.encounters[-1].id)

    def ready(self, **values: int) -> None:
        """Set Initiative by the GM's hand (tote.adjust); the round starts once every unit has one."""
        for who, value in values.items():
            self.do("gm", "tote.adjust", participant=who, initiative=value)

    def brawl(self, distance: str = "close", **initiative: int) -> Table:
        """Start the fight, put everyone in Melee and set Initiative by hand: round 1 begins."""
        self.start(distance=distance)
        self.melee(*(self.state.participant(c.id).name for c in self.fight.combatants))
        self.ready(**initiative)
        return self

    def melee(self, *names: str) -> None:
        for n in names:
            if self.combatant(n).band != "melee":
                self.do("gm", "tote.place", participant=n, band="melee")

    # -- reading --

    @property
    def fight(self) -> Fight:
        f = ext(self.state).fight
        assert f is not None
        return f

    def pid(self, name: str) -> str:
        return self.state.participant(name).id

    def sheet(self, name: str):
        return sheet(self.state, self.pid(name))

    def combatant(self, name: str):
        return next(c for c in self.fight.combatants if c.id == self.pid(name))

    def initiative(self, name: str) -> int:
        c = self.combatant(name)
        return next(u.value for u in self.fight.units if u.id == c.unit)

    def options(self, who: str) -> list[Option]:
        return self.game.options(self.state, self.viewer(who))

    def view(self, who: str) -> dict[str, Any]:
        return self.game.view(self.state, self.viewer(who))

    def last(self, type_: str) -> Event:
        return next(e for e in reversed(self.events) if e.type == type_)

    def hit(self) -> dict[str, Any]:
        """The last attack as the GM knows it: for an enemy target, the exact Resolve lost and the
        injuries marked come in the GM-only tote.enemy_resolve that follows the public tote.attacked."""
        i = max(i for i, e in enumerate(self.events) if e.type == "tote.attacked")
        data = dict(self.events[i].data)
        after = self.events[i + 1] if i + 1 < len(self.events) else None
        if after is not None and after.type == "tote.enemy_resolve":
            assert after.audience == "gm" and "absorbed" not in data
            secret = after.data
            data.update(absorbed=-secret["change"], marks=secret["marks"], marked=secret["marked"])
        return data

    def pending(self):
        return [d for d in self.fight.declarations if d.round == self.fight.round and d.state == "pending"]

    def declare(self, who: str, name: str, action: str, target: str | None = None, **fields: Any):
        if target is not None:
            fields["target"] = target
        return self.do(who, "tote.declare", participant=name, action=action, **fields)

    def resolve(self, who: str, faces, name: str | None = None) -> list[Event]:
        d = self.pending_for(name) if name else self.next_pending()
        return self.do(who, "tote.resolve", faces, declaration=d.id)

    def pending_for(self, name: str):
        return next(d for d in self.pending() if d.actor == self.pid(name))

    def next_pending(self):
        from app.rules.tote.rules import next_pending

        return next_pending(self.state, self.fight)
