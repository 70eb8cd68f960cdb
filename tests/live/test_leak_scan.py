"""The standing leak scan (issue 16): secrets planted in every hidden thing of every game, looked for in
every channel a player or a spectator has. A new hidden thing gets a marker here; a new channel, a look.

Planted: whispers between the GM and another player, a hidden character and its notes, a visible NPC's
stat block (notes), a prepared encounter and its notes, a running encounter's notes, a secret roll, a
scene not shown with a token set up on it, a hidden token and a token under fog, an NPC hidden by hiding
its token (after its arrival was public; in the generic game its turn is the current one), a drawing
under fog, fog strokes, the ids of the scene's images (one swapped in while shown), a token picture on
the hidden token and the one under fog (its image and the keys of its framed squares), and (5x5) an NPC
brought in but not yet in any PC's sight. Looked in: the JSON view, the events, the player's and the
table's pages, both socket formats from the start, the pages' sockets through a session of pushes
decided from what changed (a roll, a pool, a whisper to another player), a replay of the running
encounter, refusals naming the hidden character, and the OpenAPI document. And (issue 28) the player's
own campaign trying to read the first one's images through every route that records an image: the
commands API, the socket, the pages' form route and a forged import.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import uuid
from typing import Any

import pytest

from app.rules import registry
from tests.helpers import Table
from tests.live.test_websocket import _connect, run
from tests.mapping import dungeon_png, scene_with_image, upload

MARK = "ZQX"  # no page, word or id contains it by chance
# Secrets that are not words: a drawing's point under fog, a fog stroke's corner (numbers no page shows).
UNDER_FOG = "271.828"
STROKE = "314.159"


def _plant(table: Table, system: str) -> dict[str, Any]:
    ann = table.join("Ann")
    ben = table.join("Ben")
    table.character(f"{MARK}Rook", owner=ann)  # the player's own: not a secret (a control)
    table.ok(table.gm, "chat.say", text=f"{MARK}-whisper to Ben", to=[ben.seat_id])
    table.ok(ben, "chat.say", text=f"{MARK}-whisper back", to=[table.gm.seat_id])
    hidden = table.character(f"{MARK}hidden", kind="npc", hidden=True, notes=f"{MARK}-hidden-notes")
    visible = table.character("Guard", kind="npc", notes=f"{MARK}-statblock")
    table.ok(table.gm, "campaign.encounter.prepare", name=f"{MARK}prepared", notes=f"{MARK}-prep-notes")
    ghoul = table.character(f"{MARK}ghoul", kind="npc")  # public at first: hidden later by its token
    table.ok(table.gm, "campaign.encounter.prepare", name="Now", participants=[visible], notes="x")
    table.ok(table.gm, "campaign.encounter.start", encounter="Now")
    table.ok(table.gm, "campaign.encounter.update", encounter="Now", notes=f"{MARK}-running-notes")
    table.ok(table.gm, "generic.roll", expression="1d6", dice=[4], hidden=True, label=f"{MARK}-secret-roll")
    scene, first_image = scene_with_image(table)
    table.ok(table.gm, "map.fog.cover", scene=scene, rect=[200, 0, 200, 300])
    table.ok(table.gm, "map.fog.reveal", scene=scene, polygon=[[210, 10], [float(STROKE), 10], [250, 60]])
    fogged = table.ok(table.gm, "map.token.place", scene=scene, x=300, y=100, label=f"{MARK}fogged")
    hidden_token = table.ok(
        table.gm, "map.token.place", scene=scene, x=50, y=50, label=f"{MARK}hiddentoken", hidden=True
    )
    # Token pictures (issue 30) on the hidden token and the one under fog: neither the image nor the
    # key of its framed square reaches a player.
    picture = table.http.post(
        f"/api/campaigns/{table.id}/pictures",
        files={"file": ("p.png", dungeon_png(320, 240), "image/png")},
        headers=table.gm.auth,
    ).json()
    pictured = [_placed_token(fogged), _placed_token(hidden_token)]
    for token in pictured:
        table.ok(table.gm, "map.token.picture", token=token, image=picture["id"])
    keys = [
        t["picture"].split("?v=")[1] for t in table.view(table.gm)["map"]["tokens"] if t["id"] in pictured
    ]
    table.ok(table.gm, "map.draw", scene=scene, points=[[float(UNDER_FOG), 150], [300, 160]])
    placed = table.ok(table.gm, "map.token.place", scene=scene, x=100, y=100, participant=ghoul)
    table.ok(table.gm, "map.token.set", token=_placed_token(placed), hidden=True)
    if "generic.initiative.set" in registry.game(system).commands:  # the game keeps its own order else
        order = [{"participant": ghoul, "value": 20}, {"participant": visible, "value": 10}]
        table.ok(table.gm, "generic.initiative.set", entries=order)
        table.ok(table.gm, "generic.initiative.next")  # the hidden ghoul's turn: it reads as the GM's
    second_image = upload(table, dungeon_png(401, 300)).json()
    table.ok(table.gm, "map.scene.update", scene=scene, asset=second_image["id"])
    lair = table.ok(table.gm, "map.scene.create", name=f"{MARK}unshown")["view"]["map"]["scene"]
    table.ok(table.gm, "map.token.place", scene=lair, x=50, y=50, label=f"{MARK}skeleton")
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
    images = [first_image["id"], second_image["id"], picture["id"]]
    return {"ann": ann.token, "hidden": hidden, "images": images, "picture keys": keys}


def _placed_token(reply: dict) -> str:
    return next(e for e in reply["events"] if e["type"] == "map.token_placed")["data"]["token"]["id"]


def _steal_images(server, http, ann, images: list[str]) -> list[str]:
    """The player makes a campaign of their own and tries every route that records an image in it; then
    asks for the first campaign's images through it. Returns what it got hold of."""
    own = Table.create(http)
    fields = {"name": "mine", "width": 400, "height": 300}
    forged = {"type": "map.asset.add", **fields}
    for asset in images:
        own.send(own.gm, "map.asset.add", asset=asset, **fields)  # the commands API
        http.post(  # the pages' form route, as a script posts it
            f"/c/{own.id}/commands",
            data={**{k: str(v) for k, v in forged.items()}, "asset": asset},
            headers={**own.gm.auth, "HX-Request": "true"},
        )

        async def by_socket(asset=asset):
            async with _connect(server, own, own.gm, format="json") as ws:
                await ws.send(json.dumps({**forged, "asset": asset, "command_id": uuid.uuid4().hex}))
                try:
                    while True:
                        await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    pass

        run(by_socket)
    document = json.loads(
        gzip.decompress(http.get(f"/api/campaigns/{own.id}/export", headers=own.gm.auth).content)
    )
    events = document["events"]
    for asset in images:  # a forged import: the records name the images, the file holds no bytes of them
        seq = len(events) + 1
        events.append(
            {
                **events[-1],
                "seq": seq,
                "batch": seq,
                "type": "map.asset_added",
                "command_id": None,
                "audience": "gm",
                "data": {"asset": {"id": asset, "name": "x", "width": 400, "height": 300}},
            }
        )
    document["campaign"]["id"] = "forged" + uuid.uuid4().hex[:6]
    imported = http.post(
        "/api/campaigns/import",
        files={"file": ("x.fray.json.gz", gzip.compress(json.dumps(document).encode()))},
    )
    readers = [own]
    if imported.status_code == 201:
        body = imported.json()
        readers.append(type(own)(http, body["id"], type(ann)(body["gm_token"], "", "GM"), "", ""))
    got = []
    for reader in readers:
        for asset in images:
            r = http.get(f"/api/campaigns/{reader.id}/assets/{asset}", headers=reader.gm.auth)
            if r.status_code == 200:
                got.append(f"{asset[:12]} through {reader.id}")
            state = reader.view(reader.gm)
            for scene_asset in {a["id"] for a in state["map"].get("assets", [])} & set(images):
                # A scene may name an id the log records, but no route serves its pixels.
                made = reader.send(reader.gm, "map.scene.create", name="Stolen", asset=scene_asset, show=True)
                if made.status_code == 200:
                    scene = made.json()["view"]["map"]["scene"]
                    image = http.get(
                        f"/api/campaigns/{reader.id}/scenes/{scene}/image", headers=reader.gm.auth
                    )
                    if image.status_code == 200:
                        got.append(f"the scene image of {scene_asset[:12]} in {reader.id}")
    return got


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


def _pushed_text(server, table: Table, seats: dict[str, tuple[Any, str]], changes) -> dict[str, str]:
    """What the pages' sockets, open and up to date, are sent while the GM changes the table (`changes`,
    run beside them): pushes decided from what changed, as a phone gets them through a session."""
    seq = table.view(table.gm)["campaign"]["seq"]
    seen: dict[str, list[str]] = {name: [] for name in seats}

    async def listen(name: str, seat, page: str, ready: asyncio.Event) -> None:
        async with _connect(server, table, seat, page=page, after=seq) as ws:
            ready.set()
            try:
                while True:
                    seen[name].append(await asyncio.wait_for(ws.recv(), 2.0))
            except TimeoutError:
                pass

    async def scenario():
        readies = [asyncio.Event() for _ in seats]
        tasks = [
            asyncio.create_task(listen(name, seat, page, ready))
            for (name, (seat, page)), ready in zip(seats.items(), readies, strict=True)
        ]
        await asyncio.gather(*(ready.wait() for ready in readies))
        await asyncio.to_thread(changes)
        await asyncio.gather(*tasks)

    run(scenario)
    return {name: "".join(texts) for name, texts in seen.items()}


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
    encounter = table.view(table.gm)["encounter"]["id"]
    for name, seat, page in (("player", ann, "play"), ("spectator", spectator, "table")):
        channels[f"{name} view"] = json.dumps(table.view(seat))
        channels[f"{name} events"] = json.dumps(table.events(seat))
        channels[f"{name} page"] = live_http.get(
            f"/c/{table.id}/{page}", headers={**seat.auth, "Accept": "text/html"}
        ).text
        channels[f"{name} json socket"] = _socket_text(live_server, table, seat, format="json")
        channels[f"{name} html socket"] = _socket_text(live_server, table, seat)
        channels[f"{name} replay"] = live_http.get(
            f"/api/campaigns/{table.id}/encounters/{encounter}/replay", headers=seat.auth
        ).text
        channels[f"{name} replay page"] = live_http.get(
            f"/c/{table.id}/encounters/{encounter}", headers={**seat.auth, "Accept": "text/html"}
        ).text
    ben = table.players["Ben"]

    def session() -> None:  # a roll, the party's gold, and a whisper, while the pages are open
        table.ok(table.gm, "generic.roll", expression="1d6", dice=[5], label="attack")
        table.ok(table.gm, "generic.pool.create", name="Gold", value=3)
        table.ok(table.gm, "generic.pool.adjust", pool="Gold", delta=-1)
        table.ok(table.gm, "chat.say", text=f"{MARK}-pushed whisper", to=[ben.seat_id])
        table.ok(table.gm, "generic.roll", expression="2d6", dice=[2, 6])

    pushed = _pushed_text(
        live_server, table, {"player": (ann, "player"), "spectator": (spectator, "table")}, session
    )
    channels.update({f"{name} html pushes": text for name, text in pushed.items()})
    secrets = [MARK, UNDER_FOG, STROKE, *planted["images"]]
    leaks = {
        where: sorted({text[i : i + 24] for i in _finds(text, [*secrets, *planted["picture keys"]])})
        for where, text in channels.items()
        if _finds(text, [*secrets, *planted["picture keys"]])
    }
    assert not leaks, f"secrets reached players in {system}: {leaks}"
    # The control: the player's own character is there, so the scan is looking at real content.
    assert f"{MARK}Rook" in channels["player view"] and f"{MARK}Rook" in channels["player page"]
    # ... and the pushes carried the session's changes (the pool's row, each roll's line).
    assert all('id="pool-' in text and "attack" in text for text in pushed.values()), pushed
    # ... and the GM sees every secret planted for the players not to.
    gm_sees = json.dumps(table.view(table.gm)) + json.dumps(table.events(table.gm))
    assert all(secret in gm_sees for secret in secrets), [s for s in secrets if s not in gm_sees]


@pytest.mark.parametrize("system", ["generic"])
def test_a_players_own_campaign_reads_none_of_another_campaigns_images(live_server, live_http, system):
    table = Table.create(live_http, system=system, dice="manual")
    ann = table.join("Ann")
    _, image = scene_with_image(table)
    stolen = _steal_images(live_server, live_http, ann, [image["id"]])
    assert not stolen, f"another campaign's image was read: {stolen}"
    # The control: the campaign that uploaded it reads it.
    assert (
        live_http.get(f"/api/campaigns/{table.id}/assets/{image['id']}", headers=table.gm.auth).status_code
        == 200
    )


def _finds(text: str, secrets: list[str]) -> list[int]:
    """Where any secret stands in a text; the player's own character (MARK + "Rook") is not one."""
    out = []
    for secret in secrets:
        start = 0
        while (i := text.find(secret, start)) >= 0:
            if not text.startswith(f"{MARK}Rook", i):
                out.append(i)
            start = i + 1
    return out


# Sight from walls (issue 29): walls and lights are the GM's, and a token outside a player's sight reaches
# them by no channel. The numbers are a wall's and a light's coordinates no page shows otherwise.
WALL_AT = "141.421"
LIGHT_AT = "173.205"


def test_nothing_outside_a_players_sight_reaches_them(live_server, live_http):
    table = Table.create(live_http, system="generic", dice="manual")
    ann = table.join("Ann")
    rook = table.character(f"{MARK}Rook", owner=ann)
    scene, _ = scene_with_image(table)
    table.ok(table.gm, "map.wall.add", scene=scene, points=[[200, 0], [200, float(WALL_AT)], [200, 300]])
    table.ok(table.gm, "map.light.add", scene=scene, x=float(LIGHT_AT), y=20, dim=60)
    table.ok(table.gm, "map.scene.update", scene=scene, vision=True)
    table.ok(table.gm, "map.token.place", scene=scene, x=100, y=150, participant=rook, free=True)
    placed = table.ok(table.gm, "map.token.place", scene=scene, x=300, y=150, label=f"{MARK}behind")
    table.ok(table.gm, "map.token.move", token=_placed_token(placed), x=320, y=160, free=True)
    table.ok(table.gm, "map.draw", scene=scene, points=[[310, 40], [330, 60]], color="#a1b2c3")
    channels = {
        "view": json.dumps(table.view(ann)),
        "events": json.dumps(table.events(ann)),
        "page": live_http.get(f"/c/{table.id}/play", headers={**ann.auth, "Accept": "text/html"}).text,
        "json socket": _socket_text(live_server, table, ann, format="json"),
        "html socket": _socket_text(live_server, table, ann),
    }
    secrets = [MARK, WALL_AT, LIGHT_AT, "#a1b2c3"]
    leaks = {
        where: sorted({text[i : i + 24] for i in _finds(text, secrets)}) for where, text in channels.items()
    }

    assert not any(leaks.values()), f"outside sight reached the player: {leaks}"
    assert f"{MARK}Rook" in channels["view"] and f"{MARK}Rook" in channels["page"]  # the control
    gm_sees = json.dumps(table.view(table.gm)) + json.dumps(table.events(table.gm))
    assert all(secret in gm_sees for secret in secrets), [s for s in secrets if s not in gm_sees]
