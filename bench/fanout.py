"""Live fan-out: R rooms x C clients over real WebSockets, commands sent on a fixed schedule.

Latency is action-to-last-client: from the moment a player's command is sent (HTTP) to the moment the
last socket in that room has a message carrying that seq or a later one, on this process's monotonic
clock. The same run against a bare Starlette broadcast server (same fragment sizes, same rate) gives
`ratio_p99` = ours / bare.

Each room is a table: up to eight players, each with a character of their own (so each phone is a view
of its own to render), and the rest of the clients watching the table view (1x200: eight players and
192 spectators). The first player sends real commands in turn: a pool change, then a roll.

Commands go out through `bench.raw_http` (a request in one write, as a browser sends a small POST) to both
servers; httpx only sets the tables up and reads `/healthz`.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
import zlib
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

from app.demo import _with_seats
from app.rules import registry
from bench.common import ROOT, cpu_seconds, emit, fray_server, free_port, percentile, wait_healthy
from bench.raw_http import RawHttp

SEQ = re.compile(rb'data-seq="(\d+)"')
SEQ_ATTRIBUTE = re.compile(r'data-seq="\d+"')  # taken out of a sample: the bare server's seq is its own


@dataclass
class Client:
    room: str
    received: list[tuple[int, float]] = field(default_factory=list)  # (seq, when)
    sizes: list[int] = field(default_factory=list)
    sample: str = ""  # the last message, for the bare server to send text like it
    ws: ClientConnection | None = None  # the open connection, closed by the run when it is over
    kept: list[tuple[int, str]] | None = None  # every message (seq, text): one client a room, for sizes
    deflate: bool = False  # permessage-deflate was agreed on this socket

    def first_at_least(self, seq: int) -> float | None:
        for got, when in self.received:
            if got >= seq:
                return when
        return None


async def _listen(
    url: str, headers: dict, client: Client, ready: asyncio.Event, compression: str | None = "deflate"
) -> None:
    """Reads until the run closes the socket. One `recv` a message and nothing else: the benchmark's
    200 sockets share this process, and each microsecond spent here is added to both servers' latency.
    `compression`: "deflate" offers permessage-deflate as browsers do; None offers nothing."""
    async with websockets.connect(
        url, additional_headers=headers, max_size=2**22, open_timeout=30, compression=compression
    ) as ws:
        client.ws = ws
        client.deflate = bool(ws.protocol.extensions)
        ready.set()
        async for message in ws:
            now = time.monotonic()
            data = message.encode() if isinstance(message, str) else message
            found = SEQ.findall(data)
            if found:
                if isinstance(message, str):
                    client.sample = message
                client.received.append((max(int(s) for s in found), now))
                client.sizes.append(len(data))
                if client.kept is not None and isinstance(message, str):
                    client.kept.append((client.received[-1][0], message))


def wire_bytes(text: str, deflate: bool) -> int:
    """What a text message costs on the wire from the server: the frame's header and its payload,
    compressed alone as `fray serve` compresses it when deflate was agreed (app/web/ws_protocol.py)."""
    data = text.encode()
    if deflate:
        packer = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -12, 5)
        data = (packer.compress(data) + packer.flush(zlib.Z_SYNC_FLUSH))[:-4]
    return len(data) + (2 if len(data) < 126 else 4 if len(data) < 65536 else 10)


async def _run(
    rooms: list[dict], rate: float, duration: float, send, started=None, finished=None, compression="deflate"
) -> dict:
    """rooms: [{"id", "clients": [(ws_url, headers)]}]; send(room) -> seq, awaited in its own task.

    `started`, awaited once every socket is connected and has settled, right before the first command:
    what the server does to connect 200 sockets is not a command's cost, nor a stall under the load.
    `finished`, awaited once the last push has arrived, before every socket is closed at once."""
    clients: list[Client] = []
    listeners = []
    for room in rooms:
        for n, (ws_url, headers) in enumerate(room["clients"]):
            client = Client(room["id"], kept=[] if n == len(room["clients"]) - 1 else None)
            clients.append(client)
            ready = asyncio.Event()
            listeners.append(asyncio.create_task(_listen(ws_url, headers, client, ready, compression)))
            await asyncio.wait_for(ready.wait(), 30)
    await asyncio.sleep(0.5)  # let initial catch-up messages settle
    for client in clients:
        client.received.clear()
        client.sizes.clear()
        if client.kept is not None:
            client.kept.clear()
    if started is not None:
        await started()
    sent: list[tuple[str, float, asyncio.Task]] = []

    async def fire(room_id: str) -> int:
        return await send(room_id)

    # Each room keeps its own fixed schedule; tables are not in step with each other, so room r's
    # commands fall r/R of the way through each interval (all rooms at once would be a burst no real
    # evening of separate tables produces). Sends never wait for the previous reply.
    start = time.monotonic()
    interval = 1.0 / rate
    schedule = sorted(
        (start + (tick + r / len(rooms)) * interval, r)
        for tick in range(int(duration * rate))
        for r in range(len(rooms))
    )
    for due, r in schedule:
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        room_id = rooms[r]["id"]
        sent.append((room_id, time.monotonic(), asyncio.create_task(fire(room_id))))
    await asyncio.gather(*(task for _, _, task in sent), return_exceptions=True)
    await asyncio.sleep(1.0)  # let the last pushes arrive
    if finished is not None:
        await finished()
    await asyncio.gather(*(c.ws.close() for c in clients if c.ws is not None), return_exceptions=True)
    await asyncio.gather(*listeners, return_exceptions=True)
    elapsed = time.monotonic() - start
    by_room: dict[str, list[Client]] = defaultdict(list)
    for client in clients:
        by_room[client.room].append(client)
    latencies = []
    firsts = []  # from the command to the FIRST socket of its room holding it
    seqs: dict[str, list[int]] = defaultdict(list)
    per_room: dict[str, list[float]] = defaultdict(list)
    lost = 0
    for room_id, when, task in sent:
        if task.exception() is not None:
            lost += 1
            continue
        seq = task.result()
        arrivals = [c.first_at_least(seq) for c in by_room[room_id]]
        if any(a is None for a in arrivals):
            lost += 1
            continue
        latencies.append(max(arrivals) - when)
        firsts.append(min(arrivals) - when)  # type: ignore[type-var]  # none is None here
        seqs[room_id].append(seq)
        per_room[room_id].append(max(arrivals) - when)
    messages = sum(len(c.received) for c in clients)
    sizes = [s for c in clients for s in c.sizes]
    samples = [c.sample for c in clients if c.sample]
    kept = [(c.room, c.deflate, c.kept) for c in clients if c.kept]
    return {
        "latencies": latencies,
        "firsts": firsts,
        "seqs": seqs,
        "kept": kept,
        "sample": SEQ_ATTRIBUTE.sub('data-was=""', samples[-1]) if samples else "",
        "p50_ms": round(percentile(latencies, 0.5) * 1000, 2),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 2),
        "messages_per_s": round(messages / elapsed),
        "commands": len(sent),
        "lost": lost,
        "mean_message_bytes": round(sum(sizes) / len(sizes)) if sizes else 0,
        "room_p99_ms": {room: round(percentile(values, 0.99) * 1000, 2) for room, values in per_room.items()},
    }


async def _fray_rooms(
    url: str, n_rooms: int, n_clients: int, players: int, system: str = "generic"
) -> tuple[list[dict], dict]:
    """`system`: each table is that game's, its demo played through first (a fight under way)."""
    rooms = []
    senders = {}
    demo = registry.game(system).system.demo if system != "generic" else None
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        for _ in range(n_rooms):
            hero = None
            created = (await http.post("/api/campaigns", json={"name": "Bench", "system": system})).json()
            cid, invite = created["id"], created["invite_url"].rsplit("/", 1)[1]
            watch = created["spectator_url"].rsplit("/", 1)[1]
            gm = {"Authorization": f"Bearer {created['gm_token']}"}
            if demo is not None:
                joined = [
                    await http.post(f"/api/campaigns/{cid}/join", json={"invite": invite, "name": name})
                    for name in demo.players
                ]
                ids = {name: seat.json()["seat_id"] for name, seat in zip(demo.players, joined, strict=True)}
                for step in demo.commands:
                    played = await http.post(
                        f"/api/campaigns/{cid}/commands", headers=gm, json=_with_seats(step, ids)
                    )
                    played.raise_for_status()
            await http.post(
                f"/api/campaigns/{cid}/commands",
                headers=gm,
                json={"type": "generic.pool.create", "name": "Gold", "min": None},
            )
            clients = []
            for _ in range(players, n_clients):  # the rest of the crowd watches the table view
                seat = (await http.post(f"/api/campaigns/{cid}/watch", json={"code": watch})).json()
                ws_url = url.replace("http", "ws") + f"/ws/campaigns/{cid}?page=table&after=999999"
                clients.append((ws_url, {"Authorization": f"Bearer {seat['token']}"}))
            for i in range(min(players, n_clients)):
                seat = (
                    await http.post(f"/api/campaigns/{cid}/join", json={"invite": invite, "name": f"P{i}"})
                ).json()
                headers = {"Authorization": f"Bearer {seat['token']}"}
                # Each player plays a character of their own, so each phone is a view of its own to render.
                added = await http.post(
                    f"/api/campaigns/{cid}/commands",
                    headers=gm,
                    json={"type": "campaign.add_participant", "name": f"Hero {i}", "owner": seat["seat_id"]},
                )
                if i == 0:
                    senders[cid] = headers
                    hero = added.json()["events"][0]["data"]["participant"]["id"]
                ws_url = url.replace("http", "ws") + f"/ws/campaigns/{cid}?page=player&after=999999"
                clients.append((ws_url, headers))
            # The GM's token and the first player's character, for scenarios that set more up (the map).
            rooms.append({"id": cid, "clients": clients, "gm": gm, "hero": hero})
    return rooms, senders


async def fray_case(
    url: str,
    n_rooms: int,
    n_clients: int,
    rate: float,
    duration: float,
    players: int = 8,
    beside: int = 0,
    cpu: Callable[[], float] | None = None,
    compression: str | None = "deflate",
    system: str = "generic",
) -> dict:
    """`beside`: a second table of that many players, each a seat of their own, pushed at the same rate
    in the same process (the interference case); `room_p99_ms` tells the tables apart. `system`: the
    game of the tables (its demo played first)."""
    rooms, senders = await _fray_rooms(url, n_rooms, n_clients, players, system)
    if beside:
        big, big_senders = await _fray_rooms(url, 1, beside, beside)
        rooms, senders = rooms + big, {**senders, **big_senders}
    async with (
        httpx.AsyncClient(base_url=url, timeout=30) as http,
        RawHttp(url) as commands,
    ):
        turn = 0
        pool_seqs: set[int] = set()  # the commands that changed one pool, for what a viewer receives

        async def send(room_id: str) -> int:
            nonlocal turn
            turn += 1  # a player's real commands, in turn: spend from a pool, roll the dice
            payload = (
                {"type": "generic.pool.adjust", "pool": "Gold", "delta": 1}
                if turn % 2
                else {"type": "generic.roll", "expression": "2d6+1", "label": "attack"}
            )
            reply = await commands.post_json(f"/api/campaigns/{room_id}/commands", payload, senders[room_id])
            seq = reply["seq"]
            if payload["type"] == "generic.pool.adjust":
                pool_seqs.add(seq)
            return seq

        cpu_before = cpu_s = 0.0
        stall = 0.0

        async def started() -> None:
            nonlocal cpu_before
            await http.get("/healthz")  # resets the loop's longest stall: measure only the commands
            cpu_before = cpu() if cpu else 0.0

        async def finished() -> None:
            nonlocal cpu_s, stall
            cpu_s = cpu() - cpu_before if cpu else 0.0
            stall = (await http.get("/healthz")).json()["loop_stall_ms"]

        result = await _run(rooms, rate, duration, send, started, finished, compression)
        # What the server's loop went through while every socket closed at once, reported apart.
        closing = (await http.get("/healthz")).json()["loop_stall_ms"]
        # What one viewer received for each one-pool change, on the wire and as text.
        pool_pushes = [
            (wire_bytes(text, deflate), len(text.encode()))
            for _, deflate, kept in result["kept"]
            for seq, text in kept
            if seq in pool_seqs
        ]
        return {
            **result,
            "pool_push_bytes": pool_pushes,
            "loop_stall_ms": stall,
            "loop_stall_closing_ms": closing,
            "server_cpu_s": cpu_s if cpu else None,
            "rooms": [room["id"] for room in rooms],
        }


async def bare_case(
    url: str,
    n_rooms: int,
    n_clients: int,
    rate: float,
    duration: float,
    size: int,
    sample: str = "",
    compression: str | None = "deflate",
    cpu: Callable[[], float] | None = None,
) -> dict:
    ws_base = url.replace("http", "ws")
    rooms = [
        {"id": f"r{r}", "clients": [(f"{ws_base}/ws/r{r}", {}) for _ in range(n_clients)]}
        for r in range(n_rooms)
    ]
    async with RawHttp(url) as http:

        async def send(room_id: str) -> int:
            return (await http.post_json(f"/send/{room_id}", {"size": size, "sample": sample}))["seq"]

        spent = [0.0]

        async def started() -> None:
            spent[0] = cpu() if cpu else 0.0

        async def finished() -> None:
            spent[0] = cpu() - spent[0] if cpu else 0.0

        result = await _run(rooms, rate, duration, send, started, finished, compression)
        return {**result, "server_cpu_s": spent[0]}


def bare_server():
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "bench.bare_server:app",
            "--port",
            str(port),
            "--ws",  # the same WebSocket layer as ours: only the app differs
            "app.web.ws_protocol:FrayWebSocketProtocol",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    wait_healthy(url, process)
    return url, process


def scenario(
    n_rooms: int,
    n_clients: int,
    rate: float,
    duration: float,
    players: int = 8,
    slices: int = 3,
    compression: str | None = "deflate",
    system: str = "generic",
) -> dict:
    """Fray and the bare server in the same run, interleaved: `slices` turns each of duration/slices,
    the bare server sending text like the fragments Fray sent in the turn before (same mean size).
    `compression`: the clients offer permessage-deflate as browsers do ("deflate"), or nothing (None);
    the bare server meets the same clients."""
    fray_ms: list[float] = []
    bare_ms: list[float] = []
    firsts: list[float] = []
    bare_firsts: list[float] = []
    pool_pushes: list[tuple[int, int]] = []
    lost = commands = bare_commands = 0
    stall = closing = cpu_s = bare_cpu_s = 0.0
    sizes: list[int] = []
    bare_url, process = bare_server()
    try:
        with fray_server() as (url, pid):
            for _ in range(slices):
                ours = asyncio.run(
                    fray_case(
                        url,
                        n_rooms,
                        n_clients,
                        rate,
                        duration / slices,
                        players,
                        cpu=lambda: cpu_seconds(pid),
                        compression=compression,
                        system=system,
                    )
                )
                size = ours["mean_message_bytes"]
                bare = asyncio.run(
                    bare_case(
                        bare_url,
                        n_rooms,
                        n_clients,
                        rate,
                        duration / slices,
                        size,
                        ours["sample"],
                        compression,
                        cpu=lambda: cpu_seconds(process.pid),
                    )
                )
                bare_cpu_s += bare["server_cpu_s"]
                fray_ms += [v * 1000 for v in ours["latencies"]]
                bare_ms += [v * 1000 for v in bare["latencies"]]
                firsts += [v * 1000 for v in ours["firsts"]]
                bare_firsts += [v * 1000 for v in bare["firsts"]]
                pool_pushes += ours["pool_push_bytes"]
                lost, commands = lost + ours["lost"], commands + ours["commands"]
                bare_commands += bare["commands"]
                stall, cpu_s = max(stall, ours["loop_stall_ms"]), cpu_s + ours["server_cpu_s"]
                closing = max(closing, ours["loop_stall_closing_ms"])
                sizes.append(size)
    finally:
        process.terminate()
        process.wait(timeout=10)
    p99, bare_p99 = percentile(fray_ms, 0.99), percentile(bare_ms, 0.99)
    wire = [w for w, _ in pool_pushes]
    text = [t for _, t in pool_pushes]
    return emit(
        f"fanout_{n_rooms}x{n_clients}"
        + (f"_own_{players}" if players > 8 else "")
        + ("" if compression else "_plain")
        + ("" if system == "generic" else f"_{system}"),
        rate_per_room=rate,
        players_per_room=min(players, n_clients),
        duration_s=duration,
        deflate=bool(compression),
        samples=len(fray_ms),
        p50_ms=round(percentile(fray_ms, 0.5), 2),
        p99_ms=round(p99, 2),
        first_viewer_p50_ms=round(percentile(firsts, 0.5), 2),
        commands=commands,
        lost=lost,
        mean_message_bytes=round(sum(sizes) / len(sizes)),
        # A one-pool change as one viewer received it: on the wire (compressed when agreed), and as text.
        kb_per_viewer_pool_push=round(sum(wire) / len(wire) / 1000, 3) if wire else None,
        kb_per_viewer_pool_push_text=round(sum(text) / len(text) / 1000, 3) if text else None,
        loop_stall_ms=stall,
        loop_stall_closing_ms=closing,
        cpu_ms_per_command=round(cpu_s / max(1, commands) * 1000, 2),
        # The bare server's CPU a command, measured as Fray's: from the first command to the last push.
        bare_cpu_ms_per_command=round(bare_cpu_s / max(1, bare_commands) * 1000, 2),
        bare_samples=len(bare_ms),
        bare_p50_ms=round(percentile(bare_ms, 0.5), 2),
        # The floor of a first viewer here: the same client's send to the bare server's first socket.
        bare_first_viewer_p50_ms=round(percentile(bare_firsts, 0.5), 2),
        bare_p99_ms=round(bare_p99, 2),
        ratio_p99=round(p99 / bare_p99, 2) if bare_p99 else None,
    )


def interference(rate: float, duration: float, beside: int = 200) -> dict:
    """An 8-player table alone, then beside a table of `beside` players (each a seat of their own) pushed
    at the same rate, in one server: the small table's p99 in both, and their ratio."""
    with fray_server() as (url, _):
        alone = asyncio.run(fray_case(url, 1, 8, rate, duration))
    with fray_server() as (url, _):
        busy = asyncio.run(fray_case(url, 1, 8, rate, duration, beside=beside))
    small = busy["rooms"][0]  # the 8-player table is made first
    small_p99 = busy["room_p99_ms"][small]
    return emit(
        "interference",
        rate_per_room=rate,
        duration_s=duration,
        beside_players=beside,
        p99_ms_alone=alone["p99_ms"],
        p99_ms_beside=small_p99,
        big_table_p99_ms=max(v for k, v in busy["room_p99_ms"].items() if k != small),
        lost=busy["lost"],
        loop_stall_ms=busy["loop_stall_ms"],
        loop_stall_closing_ms=busy["loop_stall_closing_ms"],
        interference_ratio=round(small_p99 / alone["p99_ms"], 2) if alone["p99_ms"] else None,
    )


def main(duration: float = 60.0) -> list[dict]:
    return [
        scenario(8, 8, 5.0, duration),
        scenario(1, 200, 5.0, duration),
        scenario(1, 8, 5.0, duration, players=8),
        scenario(1, 64, 5.0, duration, players=64),
        scenario(1, 200, 5.0, duration, players=200),
        interference(5.0, duration),
    ]


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 10.0)
