"""One process under load, measured through HTTP as a client meets it: commands a second through the
API (seat token, command, reply), the server's CPU per command, and many small tables at once.

    .venv/bin/python -m bench.load

Server CPU is read from /proc for the server's process (user + system time) over the run, divided by
the commands sent: it includes HTTP, the seat look-up, the rules, the write, the reply and every push.
"""

from __future__ import annotations

import asyncio
import sys
import time

import httpx

from bench import fanout
from bench.common import cpu_seconds, emit, fray_server


async def _http_commands(url: str, pid: int, count: int, clients: int) -> dict:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        created = (await http.post("/api/campaigns", json={"name": "Bench", "system": "generic"})).json()
        cid, gm = created["id"], {"Authorization": f"Bearer {created['gm_token']}"}
        pool = {"type": "generic.pool.create", "name": "Gold", "min": None}
        (await http.post(f"/api/campaigns/{cid}/commands", headers=gm, json=pool)).raise_for_status()
        sent = iter(range(count))

        async def client() -> None:
            for _ in sent:
                payload = {"type": "generic.pool.adjust", "pool": "Gold", "delta": 1}
                (
                    await http.post(f"/api/campaigns/{cid}/commands", headers=gm, json=payload)
                ).raise_for_status()

        cpu = cpu_seconds(pid)
        start = time.perf_counter()
        await asyncio.gather(*(client() for _ in range(clients)))
        elapsed = time.perf_counter() - start
        cpu = cpu_seconds(pid) - cpu
    return {
        "http_commands_per_s": round(count / elapsed),
        "cpu_ms_per_command": round(cpu / count * 1000, 2),
        "commands": count,
        "clients": clients,
    }


def http_commands(count: int = 2000, clients: int = 4) -> dict:
    """A GM's pool changes through the API, `clients` at a time, with no socket open: the command path."""
    with fray_server() as (url, pid):
        return emit("http_commands_sqlite", **asyncio.run(_http_commands(url, pid, count, clients)))


def many_tables(tables: int = 50, players: int = 6, every: float = 2.0, duration: float = 30.0) -> dict:
    """`tables` tables of `players` phones each, a player's command every `every` seconds per table."""
    with fray_server() as (url, pid):
        result = asyncio.run(
            fanout.fray_case(url, tables, players, 1 / every, duration, players, cpu=lambda: cpu_seconds(pid))
        )
    return emit(
        f"many_tables_{tables}x{players}",
        every_s=every,
        duration_s=duration,
        p50_ms=result["p50_ms"],
        p99_ms=result["p99_ms"],
        commands=result["commands"],
        lost=result["lost"],
        loop_stall_ms=result["loop_stall_ms"],
        loop_stall_closing_ms=result["loop_stall_closing_ms"],
        # The server's CPU over the run (pushes to every phone included), per command.
        cpu_ms_per_command=round(result["server_cpu_s"] / max(1, result["commands"]) * 1000, 2),
    )


def main(quick: bool = False) -> dict:
    commands = http_commands(500 if quick else 3000)
    tables = many_tables(duration=10.0 if quick else 60.0)
    # What the 2 ms aim per command is for: one process carrying hundreds of active tables. 200 tables of
    # six phones, a command every 2 s each, is 100 commands a second and 1,200 sockets.
    crowd = many_tables(200, duration=10.0 if quick else 30.0)
    return {"http": commands, "tables": tables, "hundreds": crowd}


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
