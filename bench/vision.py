"""Sight from walls (issue 29): a token move's server CPU on a six-player table with vision on a scene of
300 wall segments (every push included: a step between two cells; and a walk with the GM's console open,
every move a new spot, `walk_cpu_ms_6_players_gm`), what a phone downloads after its token moves one cell (the
tiles whose content changed), and a phone's first load of a 4096 x 4096 vision map (the tiles of what it
has explored).

Scenes are made as a GM makes them: a Universal VTT file (tests/uvtt_maker.rooms_document) through
`POST /api/campaigns/{id}/scenes/uvtt`. A phone's tiles are the `map.tiles` of its view (`url` each; the
view falls back to its whole `image_url` where the view does not list tiles, and says so in `by`).

Runs against the merged vision rules (`map.wall.add`, `Sight.explored`, the view's tiles).
"""

from __future__ import annotations

import asyncio
import io
import json
import statistics
import sys
from typing import Any

import httpx
from PIL import Image

from bench import fanout
from bench import map as battle_map
from bench.common import cpu_seconds, emit, fray_server, machine_ms
from tests import uvtt_maker

PLAYERS = 6
SEGMENTS = 300
SMALL = (30, 64, 5)  # cells a side, pixels a cell, cells a room: 1920 x 1920
BIG = (32, 128, 4)  # 4096 x 4096


def _jpeg(side: int) -> bytes:
    """The bench's map image (floors, walls and grain, bench/map.py) as a JPEG: what a big export is."""
    out = io.BytesIO()
    Image.open(io.BytesIO(battle_map.dungeon(side))).convert("RGB").save(out, "JPEG", quality=85)
    return out.getvalue()


def _file(cells: int, ppg: int, room: int, segments: int | None) -> bytes:
    return json.dumps(uvtt_maker.rooms_document(cells, ppg, room, _jpeg(cells * ppg), segments)).encode()


def _centre(ppg: int, cx: int, cy: int) -> tuple[float, float]:
    return ((cx + 0.5) * ppg, (cy + 0.5) * ppg)


async def _table(http: httpx.AsyncClient, room: dict, raw: bytes) -> tuple[str, list[str]]:
    """The room's scene imported from the file and shown; every player's character's token in the first
    room, a cell apart. Returns the scene and the tokens' ids (the first is the hero's)."""
    r = await http.post(
        f"/api/campaigns/{room['id']}/scenes/uvtt", files={"file": ("bench.dd2vtt", raw)}, headers=room["gm"]
    )
    r.raise_for_status()
    scene = r.json()["scene"]
    base = f"/api/campaigns/{room['id']}/commands"
    view = (await http.get(f"/api/campaigns/{room['id']}", headers=room["gm"])).json()
    heroes = [p["id"] for p in view["participants"] if p["name"].startswith("Hero ")]
    heroes.sort(key=lambda p: p != room["hero"])
    tokens = []
    for i, hero in enumerate(heroes):
        x, y = _centre(SMALL[1], 1 + i % 3, 1 + i // 3)
        placed = await http.post(
            base,
            headers=room["gm"],
            json={"type": "map.token.place", "scene": scene, "x": x, "y": y, "participant": hero},
        )
        placed.raise_for_status()
        tokens.append(placed.json()["events"][0]["data"]["token"]["id"])
    shown = await http.post(base, headers=room["gm"], json={"type": "map.scene.show", "scene": scene})
    shown.raise_for_status()
    return scene, tokens


async def move_cpu(url: str, pid: int, raw: bytes, rate: float, duration: float, walk: bool = False) -> dict:
    """Six players, each a phone on the socket and a token on the vision scene; the first player's token
    steps between two cells. Server CPU over the run, per move.

    `walk`: the GM's console on the socket too, and the GM walks the hero's token cell by cell over the
    first two rooms (through the wall between them as a GM may), so every move of a run is a new spot: a
    new sight, ground explored, no earlier render of the same spot to find again."""
    rooms, senders = await fanout._fray_rooms(url, 1, PLAYERS, PLAYERS)
    room = rooms[0]
    if walk:
        gm_socket = url.replace("http", "ws") + f"/ws/campaigns/{room['id']}?page=gm&after=999999"
        room["clients"].append((gm_socket, room["gm"]))
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        _, tokens = await _table(http, room, raw)
        turn = 0
        cpu: dict[str, float] = {}

        async def send(room_id: str) -> int:
            nonlocal turn
            turn += 1
            x, y = _centre(SMALL[1], 1 + turn % 2, 2)
            move = {"type": "map.token.move", "token": tokens[0], "x": x, "y": y}
            if walk:  # cell by cell, row by row over two rooms: a new spot each move for 50 moves
                row, along = divmod(turn % 50, 10)
                x, y = _centre(SMALL[1], along if row % 2 == 0 else 9 - along, row)
                move.update(x=x, y=y)
            who = room["gm"] if walk else senders[room_id]
            r = await http.post(f"/api/campaigns/{room_id}/commands", headers=who, json=move)
            r.raise_for_status()
            return int(r.json()["seq"])

        async def started() -> None:
            cpu["before"] = cpu_seconds(pid)

        async def finished() -> None:
            cpu["after"] = cpu_seconds(pid)

        run = await fanout._run(rooms, rate, duration, send, started, finished)
    moves = max(1, run["commands"] - run["lost"])
    return {**run, "cpu_ms_per_move": (cpu["after"] - cpu["before"]) * 1000 / moves}


def _tiles(http: httpx.Client, cid: str, auth: dict) -> dict[str, str]:
    """What the phone's view says to load: its tiles by place, or its whole image."""
    view = http.get(f"/api/campaigns/{cid}", headers=auth).json()["map"]
    if view.get("tiles") is not None:
        return {f"{t['x']},{t['y']}": t["url"] for t in view["tiles"]}
    return {"image": view["image_url"]} if view.get("image_url") else {}


def _download(http: httpx.Client, urls: list[str], auth: dict) -> int:
    total = 0
    for url in urls:
        r = http.get(url, headers=auth)
        r.raise_for_status()
        total += len(r.content)
    return total


def phone(url: str, raw: bytes, ppg: int, move: bool) -> dict[str, Any]:
    """One player's phone: its first load's tiles, and with `move` what its token's one-cell step adds."""
    with httpx.Client(base_url=url, timeout=120) as http:
        created = http.post("/api/campaigns", json={"name": "Bench", "system": "generic"}).json()
        cid, gm = created["id"], {"Authorization": f"Bearer {created['gm_token']}"}
        invite = created["invite_url"].rsplit("/", 1)[1]
        seat = http.post(f"/api/campaigns/{cid}/join", json={"invite": invite, "name": "Phone"}).json()
        auth = {"Authorization": f"Bearer {seat['token']}"}
        added = http.post(
            f"/api/campaigns/{cid}/commands",
            headers=gm,
            json={"type": "campaign.add_participant", "name": "Hero", "owner": seat["seat_id"]},
        )
        hero = added.json()["events"][0]["data"]["participant"]["id"]
        imported = http.post(
            f"/api/campaigns/{cid}/scenes/uvtt", files={"file": ("b.dd2vtt", raw)}, headers=gm
        )
        imported.raise_for_status()
        scene = imported.json()["scene"]
        x, y = _centre(ppg, 1, 1)
        placed = http.post(
            f"/api/campaigns/{cid}/commands",
            headers=gm,
            json={"type": "map.token.place", "scene": scene, "x": x, "y": y, "participant": hero},
        )
        token = placed.json()["events"][0]["data"]["token"]["id"]
        http.post(
            f"/api/campaigns/{cid}/commands", headers=gm, json={"type": "map.scene.show", "scene": scene}
        )
        first = _tiles(http, cid, auth)
        view_bytes = len(http.get(f"/api/campaigns/{cid}", headers=auth).content)
        first_bytes = _download(http, list(first.values()), auth)
        out: dict[str, Any] = {
            "by": "tiles" if "image" not in first else "image",
            "first_tiles": len(first),
            "first_load_kb": round((first_bytes + view_bytes) / 1024, 1),
        }
        if move:
            x, y = _centre(ppg, 2, 1)
            step = {"type": "map.token.move", "token": token, "x": x, "y": y}
            http.post(f"/api/campaigns/{cid}/commands", headers=auth, json=step).raise_for_status()
            after = _tiles(http, cid, auth)
            new = [u for k, u in after.items() if first.get(k) != u]
            out.update(new_tiles=len(new), kb_per_move=round(_download(http, new, auth) / 1024, 1))
        return out


def main(quick: bool = False) -> dict:
    small = _file(*SMALL, segments=SEGMENTS)
    big = _file(*BIG, segments=None)
    duration, slices = (3.0, 1) if quick else (10.0, 3)
    cpu, moves, walks = [], [], []
    env = {"FRAY_MAX_UPLOAD_BYTES": str(64 * 1024 * 1024)}  # the 4096 map's file, whatever its image
    machine = [machine_ms()]  # the machine's speed around the run: CPU figures move with it
    with fray_server(extra_env=env) as (url, pid):
        for _ in range(slices):  # the median of `slices` runs, each a table of its own
            run = asyncio.run(move_cpu(url, pid, small, 5.0, duration))
            cpu.append(run["cpu_ms_per_move"])
            moves.append(run)
            walks.append(asyncio.run(move_cpu(url, pid, small, 5.0, duration, walk=True)))
        stepped = phone(url, small, SMALL[1], move=True)
        loaded = phone(url, big, BIG[1], move=False)
    machine.append(machine_ms())
    return emit(
        "vision",
        wall_segments=SEGMENTS,
        players=PLAYERS,
        move_cpu_ms_6_players=round(statistics.median(cpu), 2),
        move_cpu_ms_runs=[round(c, 2) for c in cpu],
        move_p99_ms=statistics.median(m["p99_ms"] for m in moves),
        moves_lost=sum(m["lost"] for m in moves),
        walk_cpu_ms_6_players_gm=round(statistics.median(w["cpu_ms_per_move"] for w in walks), 2),
        walk_cpu_ms_runs=[round(w["cpu_ms_per_move"], 2) for w in walks],
        walk_moves_lost=sum(w["lost"] for w in walks),
        by=stepped["by"],
        kb_per_move=stepped.get("kb_per_move"),
        tiles_per_move=stepped.get("new_tiles"),
        load_4096_kb=loaded["first_load_kb"],
        load_4096_tiles=loaded["first_tiles"],
        file_4096_mb=round(len(big) / 1024 / 1024, 1),
        machine_ms=machine,
    )


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
