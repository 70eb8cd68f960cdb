"""Record a corpus of real logs through the public API: `python -m tests.golden.record CORPUS`.

Run by hand, never in CI. Each game's demo fight is played through HTTP, then the same table gets a
player's roll, a secret GM roll, an undo, the map (an image, a scene, a token, fog covered and revealed,
a move) and a revoked seat. Each log is saved as an export (tests/golden/CORPUS/<system>.fray.json.gz)
with the hashes of its final state and of each seat's view (<system>.expected.json).

A recorded log is history: never edit one. When a change alters what an old log means, add an upcaster;
when it only changes what a view shows, re-record the expected hashes with `--expect-only`.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from fastapi.testclient import TestClient

from app.main import create_app
from app.rules import registry
from app.settings import Settings
from app.store.migrate import upgrade
from tests.golden.hashes import fingerprint, replay_file
from tests.helpers import Table
from tests.mapping import dungeon_png, upload

HERE = Path(__file__).parent


def _with_seats(value, seats: dict[str, str]):
    if isinstance(value, str) and value.startswith("@"):
        return seats.get(value[1:], value)
    if isinstance(value, dict):
        return {k: _with_seats(v, seats) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_with_seats(v, seats) for v in value]
    return value


def play(http: TestClient, system: str) -> Table:
    script = registry.systems()[system].demo
    table = Table.create(http, name=script.name if script else system, system=system, dice="server")
    seats = {name: table.join(name) for name in (script.players if script else ("Ann", "Ben"))}
    for payload in script.commands if script else ():
        table.ok(
            table.gm,
            payload["type"],
            **_with_seats(
                {k: v for k, v in payload.items() if k != "type"}, {n: s.seat_id for n, s in seats.items()}
            ),
        )
    first = next(iter(seats.values()))
    table.send(first, "generic.roll", expression="2d6", label="a player's roll")
    table.ok(table.gm, "generic.roll", expression="1d20", label="secret check", hidden=True)
    table.ok(table.gm, "generic.pool.create", name="Golden", value=2)
    table.ok(table.gm, "campaign.undo")
    asset = upload(table, dungeon_png()).json()
    scene = table.ok(
        table.gm,
        "map.scene.create",
        name="Crypt",
        asset=asset["id"],
        grid={"type": "square", "size": 50},
        show=True,
    )
    scene_id = scene["view"]["map"]["scene"]
    table.ok(table.gm, "map.fog.cover", scene=scene_id)
    table.ok(table.gm, "map.fog.reveal", scene=scene_id, rect=[0, 0, 200, 300])
    marker = table.ok(table.gm, "map.token.place", scene=scene_id, x=60, y=60, label="Lantern")
    table.ok(table.gm, "map.token.move", token=marker["events"][0]["data"]["token"]["id"], x=110, y=60)
    last = list(seats.values())[-1]
    r = http.post(f"/api/campaigns/{table.id}/seats/{last.seat_id}/revoke", headers=table.gm.auth)
    assert r.status_code in (200, 204), r.text
    return table


def record(corpus: str, expect_only: bool = False) -> None:
    out = HERE / corpus
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/golden.db"
        upgrade(url)
        with TestClient(create_app(Settings(database_url=url))) as http:
            for system in sorted(registry.systems()):
                log_file = out / f"{system}.fray.json.gz"
                if not expect_only:
                    table = play(http, system)
                    r = http.get(f"/api/campaigns/{table.id}/export", headers=table.gm.auth)
                    assert r.status_code == 200, r.text
                    log_file.write_bytes(r.content)
                game, state = replay_file(log_file.read_bytes())
                expected = {"corpus": corpus, **fingerprint(game, state)}
                (out / f"{system}.expected.json").write_text(
                    json.dumps(expected, indent=1, sort_keys=True) + "\n"
                )
                print(f"{log_file.relative_to(HERE)}: {state.seq} events")


if __name__ == "__main__":
    record(sys.argv[1], expect_only="--expect-only" in sys.argv)
