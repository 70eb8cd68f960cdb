"""Idle sockets: N connected sockets on one process; resident memory per socket (compression negotiated)."""

from __future__ import annotations

import asyncio
import resource
import sys

import httpx
import websockets

from bench.common import emit, fray_server, rss_kb


async def _hold(url: str, count: int, pid: int) -> dict:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        created = (await http.post("/api/campaigns", json={"name": "Idle", "system": "generic"})).json()
    headers = {"Authorization": f"Bearer {created['gm_token']}"}
    ws_url = url.replace("http", "ws") + f"/ws/campaigns/{created['id']}?page=table&format=json&after=999999"
    await asyncio.sleep(0.5)
    before = rss_kb(pid)
    sockets = []
    for start in range(0, count, 200):
        batch = [
            websockets.connect(ws_url, additional_headers=headers, open_timeout=60, compression="deflate")
            for _ in range(min(200, count - start))
        ]
        sockets.extend(await asyncio.gather(*batch))
    await asyncio.sleep(2.0)
    after = rss_kb(pid)
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    return {
        "sockets": count,
        "rss_before_kb": before,
        "rss_after_kb": after,
        "kb_per_socket": round((after - before) / count, 1),
    }


def main(count: int = 5000) -> dict:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count * 2 + 512)), hard))
    with fray_server() as (url, pid):
        figures = asyncio.run(_hold(url, count, pid))
    return emit("idle_sockets", **figures)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
