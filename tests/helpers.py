"""Helpers for tests that talk to Fray over HTTP: create a campaign, seat players, send commands."""

from __future__ import annotations

import itertools
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx

from app.demo import _with_seats
from app.rules import registry
from app.web.schemas import CommandReply

_ids = itertools.count(1)


def replies_as_declared(response: httpx.Response) -> None:
    """A command's reply is written without being checked against its model (app/web/api/campaigns.py):
    every reply a test gets is checked here instead, and must read as the model would write it."""
    request = response.request
    if request.method != "POST" or not request.url.path.endswith("/commands") or response.status_code != 200:
        return
    if "/api/" not in request.url.path:
        return
    response.read()
    body = response.json()
    declared = CommandReply.model_validate(body).model_dump(mode="json", exclude_unset=True)
    assert declared == body, "a command's reply differs from what its model declares"


@dataclass
class Seat:
    token: str
    seat_id: str
    name: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@dataclass
class Table:
    """One campaign seen through the JSON API, with its GM and player seats."""

    http: httpx.Client | Any
    id: str
    gm: Seat
    invite: str
    spectator: str
    players: dict[str, Seat] = field(default_factory=dict)

    @classmethod
    def create(cls, http, name: str = "Test table", system: str = "generic", dice: str = "manual") -> Table:
        r = http.post("/api/campaigns", json={"name": name, "system": system, "dice": dice})
        assert r.status_code == 201, r.text
        body = r.json()
        return cls(
            http,
            body["id"],
            Seat(body["gm_token"], body["seat_id"], "GM"),
            body["invite_url"].rsplit("/", 1)[1],
            body["spectator_url"].rsplit("/", 1)[1],
        )

    def join(self, name: str) -> Seat:
        r = self.http.post(f"/api/campaigns/{self.id}/join", json={"invite": self.invite, "name": name})
        assert r.status_code == 201, r.text
        body = r.json()
        seat = Seat(body["token"], body["seat_id"], name)
        self.players[name] = seat
        return seat

    def send(self, seat: Seat, type: str, /, **fields: Any) -> httpx.Response:
        payload = {"type": type, "command_id": fields.pop("command_id", None) or uuid.uuid4().hex, **fields}
        return self.http.post(f"/api/campaigns/{self.id}/commands", json=payload, headers=seat.auth)

    def ok(self, seat: Seat, type: str, /, **fields: Any) -> dict[str, Any]:
        r = self.send(seat, type, **fields)
        assert r.status_code == 200, f"{type}: {r.status_code} {r.text}"
        return r.json()

    def view(self, seat: Seat) -> dict[str, Any]:
        r = self.http.get(f"/api/campaigns/{self.id}", headers=seat.auth)
        assert r.status_code == 200, r.text
        return r.json()

    def events(self, seat: Seat, after: int = 0) -> list[dict[str, Any]]:
        r = self.http.get(f"/api/campaigns/{self.id}/events", params={"after": after}, headers=seat.auth)
        assert r.status_code == 200, r.text
        return r.json()["events"]

    def character(self, name: str, owner: Seat | None = None, **fields: Any) -> str:
        reply = self.ok(
            self.gm, "campaign.add_participant", name=name, owner=owner.seat_id if owner else None, **fields
        )
        return next(p["id"] for p in reply["view"]["participants"] if p["name"] == name)


def pool(view: dict[str, Any], name: str, owner: str | None = None) -> dict[str, Any]:
    return next(p for p in view["pools"] if p["name"] == name and p["owner"] == owner)


def track(view: dict[str, Any], name: str, owner: str | None = None) -> dict[str, Any]:
    return next(t for t in view["tracks"] if t["name"] == name and t["owner"] == owner)


def demo_table(http, system: str) -> tuple[Table, dict[str, Seat]]:
    """The system's demo (app/demo.py's script) played through the API, the server rolling."""
    script = registry.systems()[system].demo
    table = Table.create(http, name=script.name, system=system, dice="server")
    seats = {name: table.join(name) for name in script.players}
    ids = {name: seat.seat_id for name, seat in seats.items()}
    for command in script.commands:
        fields = dict(_with_seats(command, ids))
        table.ok(table.gm, fields.pop("type"), **fields)
    return table, seats
