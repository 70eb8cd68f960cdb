"""The battle map's costs: a 4096x4096 upload to ready, a fog change to the players' new image, a token
move to the last of 8 players' sockets (against the bare broadcast in the same run), and a phone's first
load with a map (the image counted apart)."""

from __future__ import annotations

import asyncio
import io
import statistics
import sys
import time

import httpx
from PIL import Image, ImageDraw

from app.rules.map.state import FogOp
from app.services import map_images
from bench import fanout
from bench.common import emit, fray_server
from bench.first_load import measure

SIDE = 4096


def dungeon(side: int = SIDE) -> bytes:
    """A map-like PNG: floors, walls and a texture of dots, so it compresses like a real one."""
    image = Image.new("RGB", (side, side), (58, 52, 47))
    draw = ImageDraw.Draw(image)
    step = side // 16
    for i in range(16):
        for j in range(16):
            if (i * 7 + j * 3) % 5:
                shade = 150 + (i * 13 + j * 29) % 60
                draw.rectangle(
                    (i * step + 8, j * step + 8, (i + 1) * step - 8, (j + 1) * step - 8),
                    fill=(shade, shade - 10, shade - 25),
                )
    grain = Image.effect_noise((side, side), 12).convert("RGB")  # stone texture: compresses like a real map
    image = Image.blend(image, grain, 0.12)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def fog_change(webp: bytes, runs: int) -> dict:
    """Time to make the players' image after a reveal (cover all, then three rooms revealed)."""
    fog = (
        FogOp(op="cover"),
        FogOp(op="reveal", rect=(0, 0, 1200, 900)),
        FogOp(op="reveal", polygon=((1300, 200), (2400, 300), (2100, 1400), (1250, 1100))),
        FogOp(op="reveal", rect=(2600, 2600, 900, 700)),
    )
    image = map_images.decode(webp).copy_memory()  # kept decoded while the scene is in play
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        map_images.mask(image, fog)
        times.append((time.perf_counter() - began) * 1000)
    return {"fog_mask_ms_p50": round(statistics.median(times), 1), "fog_mask_ms_max": round(max(times), 1)}


def upload(url: str, png: bytes) -> tuple[str, dict, float]:
    """Upload through HTTP to ready (201); returns the table's id, its GM headers and the milliseconds."""
    with httpx.Client(base_url=url, timeout=120) as http:
        created = http.post("/api/campaigns", json={"name": "Bench", "system": "generic"}).json()
        gm = {"Authorization": f"Bearer {created['gm_token']}"}
        began = time.perf_counter()
        r = http.post(f"/api/campaigns/{created['id']}/assets", files={"file": ("map.png", png)}, headers=gm)
        took = (time.perf_counter() - began) * 1000
        r.raise_for_status()
        return created["id"], {"gm": gm, "asset": r.json()}, took


async def token_moves(url: str, rate: float, duration: float) -> dict:
    """8 players each with a character; the first drags their token back and forth."""
    rooms, senders = await fanout._fray_rooms(url, 1, 8, 8)
    room = rooms[0]
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        base = f"/api/campaigns/{room['id']}/commands"
        scene = (
            await http.post(
                base, headers=room["gm"], json={"type": "map.scene.create", "name": "Hall", "show": True}
            )
        ).json()["view"]["map"]["scene"]
        placed = await http.post(
            base,
            headers=room["gm"],
            json={"type": "map.token.place", "scene": scene, "x": 35, "y": 35, "participant": room["hero"]},
        )
        token = placed.json()["events"][0]["data"]["token"]["id"]
        turn = 0

        async def send(room_id: str) -> int:
            nonlocal turn
            turn += 1
            move = {"type": "map.token.move", "token": token, "x": 35 + 70 * (turn % 2), "y": 35}
            r = await http.post(f"/api/campaigns/{room_id}/commands", headers=senders[room_id], json=move)
            r.raise_for_status()
            return r.json()["seq"]

        return await fanout._run(rooms, rate, duration, send)


def main(quick: bool = False) -> dict:
    png = dungeon()
    began = time.perf_counter()
    prepared = map_images.prepare(png, 64 * 1024 * 1024, 8192, 8192 * 8192)
    prepare_ms = (time.perf_counter() - began) * 1000
    figures = fog_change(prepared.data, 3 if quick else 7)
    duration = 3.0 if quick else 10.0
    with fray_server() as (url, _):
        cid, table, upload_ms = upload(url, png)
        moves = asyncio.run(token_moves(url, 5.0, duration))
        with httpx.Client(base_url=url) as http:
            gm = table["gm"]
            http.post(
                f"/api/campaigns/{cid}/commands",
                headers=gm,
                json={
                    "type": "map.scene.create",
                    "name": "Crypt",
                    "asset": table["asset"]["id"],
                    "show": True,
                },
            )
            joined = http.post(
                f"/api/campaigns/{cid}/join", json={"invite": _invite(http, cid, gm), "name": "Phone"}
            )
            link = f"/c/{cid}/seat/{joined.json()['token']}"
            view = http.get(
                f"/api/campaigns/{cid}", headers={"Authorization": f"Bearer {joined.json()['token']}"}
            )
            image = http.get(
                view.json()["map"]["image_url"], headers={"Authorization": f"Bearer {joined.json()['token']}"}
            )
        load = measure(url, link)
    bare_url, process = fanout.bare_server()
    try:
        bare = asyncio.run(
            fanout.bare_case(bare_url, 1, 8, 5.0, duration, moves["mean_message_bytes"], moves["sample"])
        )
    finally:
        process.terminate()
        process.wait(timeout=10)
    return emit(
        "map",
        png_mb=round(len(png) / 1024 / 1024, 1),
        webp_mb=round(len(prepared.data) / 1024 / 1024, 2),
        upload_prepare_ms=round(prepare_ms),
        upload_to_ready_ms=round(upload_ms),
        **figures,
        token_move_p50_ms=moves["p50_ms"],
        token_move_p99_ms=moves["p99_ms"],
        token_move_lost=moves["lost"],
        bare_p50_ms=bare["p50_ms"],
        bare_p99_ms=bare["p99_ms"],
        ratio_p99=round(moves["p99_ms"] / bare["p99_ms"], 2) if bare["p99_ms"] else None,
        phone_first_load_kb=load["kb"],
        phone_first_load_requests=load["requests"],
        map_image_kb=round(len(image.content) / 1024, 1),
    )


def _invite(http: httpx.Client, cid: str, gm: dict) -> str:
    seats = http.get(f"/api/campaigns/{cid}/seats", headers=gm).json()
    return seats["invite_url"].rsplit("/", 1)[1]


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
