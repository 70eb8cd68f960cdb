"""The standing leak scan (issue 16): secrets planted in every hidden thing of every game, looked for in
every channel a player or a spectator has. A new hidden thing gets a marker here; a new channel, a look.

Planted: a hidden character and its notes, a visible NPC's stat block (notes), a prepared encounter and
its notes, a running encounter's notes, a secret roll, a scene not shown, a hidden token and a token under
fog, and (5x5) an NPC brought in but not yet in any PC's sight. Looked in: the JSON view, the events, the
player's and the table's pages, both socket formats from the start, refusals naming the hidden character,
and the OpenAPI document.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from app.rules import registry
from tests.helpers import Table
from tests.live.test_websocket import _connect, run
from tests.mapping import scene_with_image

MARK = "ZQX"  # no page, word or id contains it by chance


def _plant(table: Table, system: str) -> dict[str, str]:
    ann = table.join("Ann")
    table.character(f"{MARK}Rook", owner=ann)  # the player's own: not a secret (a control)
    hidden = table.character(f"{MARK}hidden", kind="npc", hidden=True, notes=f"{MARK}-hidden-notes")
    visible = table.character("Guard", kind="npc", notes=f"{MARK}-statblock")
    table.ok(table.gm, "campaign.encounter.prepare", name=f"{MARK}prepared", notes=f"{MARK}-prep-notes")
    table.ok(table.gm, "campaign.encounter.prepare", name="Now", participants=[visible], notes="x")
    table.ok(table.gm, "campaign.encounter.start", encounter="Now")
    table.ok(table.gm, "campaign.encounter.update", encounter="Now", notes=f"{MARK}-running-notes")
    table.ok(table.gm, "generic.roll", expression="1d6", dice=[4], hidden=True, label=f"{MARK}-secret-roll")
    scene, _ = scene_with_image(table)
    table.ok(table.gm, "map.fog.cover", scene=scene, rect=[200, 0, 200, 300])
    table.ok(table.gm, "map.token.place", scene=scene, x=300, y=100, label=f"{MARK}fogged")
    table.ok(table.gm, "map.token.place", scene=scene, x=50, y=50, label=f"{MARK}hiddentoken", hidden=True)
    table.ok(table.gm, "map.scene.create", name=f"{MARK}unshown")
    if system == "fivebyfive":
        lurker = {
            "name": f"{MARK}lurker",
            "kind": "npc",
            "rage": 2,
            "grace": 2,
            "precognition": 2,
            "strike": 1,
        }
        table.ok(table.gm, "fivebyfive.import", characters=[lurker])
    return {"ann": ann.token, "hidden": hidden}


def _socket_text(server, table: Table, seat, **params) -> str:
    """Everything a socket is sent on connecting from the start, within a moment."""
    seen: list[str] = []

    async def scenario():
        async with _connect(server, table, seat, after=0, **params) as ws:
            try:
                while True:
                    seen.append(await asyncio.wait_for(ws.recv(), 1.5))
            except TimeoutError:
                pass

    run(scenario)
    return "".join(seen)


@pytest.mark.parametrize("system", sorted(registry.systems()))
def test_no_planted_secret_reaches_a_player_or_a_spectator(live_server, live_http, system: str):
    table = Table.create(live_http, system=system, dice="manual")
    planted = _plant(table, system)
    ann = table.players["Ann"]
    watch = live_http.post(f"/api/campaigns/{table.id}/watch", json={"code": table.spectator}).json()
    spectator = type(ann)(watch["token"], watch["seat_id"], "Table")
    refusal = table.send(ann, "generic.roll", expression="1d6", dice=[3], participant=planted["hidden"])
    channels = {
        "refusal": refusal.text,
        "openapi": live_http.get("/openapi.json").text,
    }
    for name, seat, page in (("player", ann, "play"), ("spectator", spectator, "table")):
        channels[f"{name} view"] = json.dumps(table.view(seat))
        channels[f"{name} events"] = json.dumps(table.events(seat))
        channels[f"{name} page"] = live_http.get(
            f"/c/{table.id}/{page}", headers={**seat.auth, "Accept": "text/html"}
        ).text
        channels[f"{name} json socket"] = _socket_text(live_server, table, seat, format="json")
        channels[f"{name} html socket"] = _socket_text(live_server, table, seat)
    leaks = {
        where: sorted({text[i : i + 24] for i in _finds(text)})
        for where, text in channels.items()
        if _finds(text, skip_own=True)
    }
    assert not leaks, f"secrets reached players in {system}: {leaks}"
    # The control: the player's own character is there, so the scan is looking at real content.
    assert f"{MARK}Rook" in channels["player view"] and f"{MARK}Rook" in channels["player page"]


def _finds(text: str, skip_own: bool = False) -> list[int]:
    out, start = [], 0
    while (i := text.find(MARK, start)) >= 0:
        if not (skip_own and text.startswith(f"{MARK}Rook", i)):
            out.append(i)
        start = i + 1
    return [i for i in out if not text.startswith(f"{MARK}Rook", i)]
