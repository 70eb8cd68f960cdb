"""`fray demo`: a ready campaign for every game system that has a demo script."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.realtime.broker import MemoryBroker
from app.rules import registry
from app.services import campaigns, commands
from app.services.auth import SeatAuth
from app.services.context import Fray
from app.settings import Settings
from app.store.db import Database
from app.store.states import StateCache


@dataclass(frozen=True)
class DemoCampaign:
    title: str
    name: str
    gm_link: str
    player_links: list[tuple[str, str]]
    invite_url: str
    spectator_url: str


def _with_seats(value: Any, seats: dict[str, str]) -> Any:
    if isinstance(value, str) and value.startswith("@"):
        return seats[value[1:]]
    if isinstance(value, dict):
        return {k: _with_seats(v, seats) for k, v in value.items()}
    if isinstance(value, list):
        return [_with_seats(v, seats) for v in value]
    return value


def create_demos(settings: Settings, base_url: str) -> list[DemoCampaign]:
    fray = Fray(
        settings=settings,
        db=Database(settings.database_url),
        broker=MemoryBroker(),
        states=StateCache(settings.snapshot_every),
    )
    out = []
    try:
        for key, system in registry.systems().items():
            if system.demo is None:
                continue
            out.append(create_demo(fray, key, base_url))
    finally:
        fray.db.dispose()
    return out


def create_demo(fray: Fray, key: str, base_url: str) -> DemoCampaign:
    system = registry.systems()[key]
    script = system.demo
    assert script is not None
    new = campaigns.create(fray, script.name, key)
    players = {name: campaigns.join(fray, new.id, new.invite_code, name) for name in script.players}
    gm = SeatAuth(seat_id=new.gm.seat_id, campaign_id=new.id, role="gm", name="GM", system=key)
    seat_ids = {name: seat.seat_id for name, seat in players.items()}
    for payload in script.commands:
        commands.execute(fray, gm, _with_seats(payload, seat_ids))
    root = f"{base_url}/c/{new.id}"
    return DemoCampaign(
        title=system.title,
        name=script.name,
        gm_link=f"{root}/seat/{new.gm.token}",
        player_links=[(name, f"{root}/seat/{seat.token}") for name, seat in players.items()],
        invite_url=f"{root}/join/{new.invite_code}",
        spectator_url=f"{root}/watch/{new.spectator_code}",
    )
