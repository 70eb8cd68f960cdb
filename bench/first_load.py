"""Phone first load: bytes over the wire (gzip) and requests for the player page, cold cache."""

from __future__ import annotations

import re
import tempfile

import httpx

from app.demo import create_demos
from app.settings import Settings
from app.store.migrate import upgrade
from bench.common import emit, fray_server


def _player_link(url: str) -> str:
    """The generic table: a phone joins and the GM gives it a character."""
    with httpx.Client(base_url=url) as http:
        created = http.post("/api/campaigns", json={"name": "Bench", "system": "generic"}).json()
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
    return f"/c/{created['id']}/seat/{seat['token']}"


def measure(url: str, link: str) -> dict:
    """A fresh client, as a phone with an empty cache following its seat link: every byte and request."""
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

        r = fetch(link)
        while r.status_code in (302, 303, 307):
            r = fetch(r.headers["location"])
        html = phone.get(r.url.path).text  # to read the asset links (not counted twice)
        for asset in re.findall(r'(?:href|src)="(/static/[^"]+)"', html):
            fetch(asset)
    return {"kb": round(total / 1024, 1), "requests": requests}


def main() -> dict:
    """The generic player page, then each game's demo table as its first player sees it mid-fight."""
    with tempfile.TemporaryDirectory() as tmp:
        database_url = f"sqlite:///{tmp}/first-load.db"
        upgrade(database_url)
        demos = create_demos(Settings(database_url=database_url), "")
        with fray_server(database_url=database_url) as (url, _):
            generic = measure(url, _player_link(url))
            games = {d.title: measure(url, d.player_links[0][1]) for d in demos if d.player_links}
    heaviest = max([generic["kb"], *(g["kb"] for g in games.values())])
    return emit(
        "first_load",
        player_first_load_kb=heaviest,  # the heaviest player page of all the games
        generic_kb=generic["kb"],
        requests=generic["requests"],
        games={title: g["kb"] for title, g in games.items()},
    )


if __name__ == "__main__":
    main()
