"""Phone first load: bytes over the wire (gzip) and requests for the player page, cold cache."""

from __future__ import annotations

import re

import httpx

from bench.common import emit, fray_server


def measure(url: str) -> dict:
    with httpx.Client(base_url=url, headers={"Accept-Encoding": "gzip"}) as http:
        created = http.post("/api/campaigns", json={"name": "Bench", "system": "generic"}).json()
        http.cookies.clear()
        invite = created["invite_url"].rsplit("/", 1)[1]
        seat = http.post(
            f"/api/campaigns/{created['id']}/join", json={"invite": invite, "name": "Phone"}
        ).json()
        gm = {"Authorization": f"Bearer {created['gm_token']}"}
        http.post(
            f"/api/campaigns/{created['id']}/commands",
            headers=gm,
            json={"type": "campaign.add_participant", "name": "Aria", "owner": seat["seat_id"]},
        )
        http.cookies.clear()
    # A fresh client: a phone with an empty cache following its seat link.
    total = 0
    requests = 0
    with httpx.Client(base_url=url, headers={"Accept-Encoding": "gzip"}) as phone:

        def fetch(path: str) -> httpx.Response:
            nonlocal total, requests
            with phone.stream("GET", path) as response:
                raw = b"".join(response.iter_raw())
            requests += 1
            total += len(raw) + sum(len(k) + len(v) + 4 for k, v in response.headers.raw)
            return response

        r = fetch(f"/c/{created['id']}/seat/{seat['token']}")
        while r.status_code in (302, 303, 307):
            r = fetch(r.headers["location"])
        html = phone.get(r.url.path).text  # to read the asset links (not counted twice)
        for asset in re.findall(r'(?:href|src)="(/static/[^"]+)"', html):
            fetch(asset)
    return {"player_first_load_kb": round(total / 1024, 1), "requests": requests}


def main() -> dict:
    with fray_server() as (url, _):
        figures = measure(url)
    return emit("first_load", **figures)


if __name__ == "__main__":
    main()
