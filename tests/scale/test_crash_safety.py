"""Crash safety, measured: a real `fray serve` is killed with SIGKILL mid-stream, three times, on SQLite and
on PostgreSQL. No acknowledged command may be missing afterwards, and a client that resends its
command_ids (acknowledged or not) never gets a command applied twice (issue 12, item 6)."""

from __future__ import annotations

import threading
import time
import uuid
from pathlib import Path

import httpx
import pytest

from app.store.migrate import upgrade
from tests.helpers import Table, pool
from tests.scale.conftest import AppProcess

KILLS = 3


def _hammer(url: str, table: Table, acked: dict[str, int], unknown: list[str], stop: threading.Event) -> None:
    """Send +1 commands one after another; note each acknowledged id with its seq, and the ones in doubt."""
    with httpx.Client(base_url=url, timeout=5) as http:
        while not stop.is_set():
            cid = uuid.uuid4().hex
            try:
                r = http.post(
                    f"/api/campaigns/{table.id}/commands",
                    headers=table.gm.auth,
                    json={"command_id": cid, "type": "generic.pool.adjust", "pool": "Gold", "delta": 1},
                )
            except httpx.TransportError:
                unknown.append(cid)  # sent, and the server died before it answered
                return
            if r.status_code == 200:
                acked[cid] = r.json()["seq"]
            else:
                unknown.append(cid)


def _all_events(table: Table) -> list[dict]:
    out: list[dict] = []
    while True:
        page = table.events(table.gm, after=out[-1]["seq"] if out else 0)
        if not page:
            return out
        out += page


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_sigkill_mid_stream_loses_no_acknowledged_command_and_applies_none_twice(
    backend, request, tmp_path: Path
):
    url = (
        request.getfixturevalue("postgres_url") if backend == "postgres" else f"sqlite:///{tmp_path}/crash.db"
    )
    if backend == "sqlite":
        upgrade(url)
    acked: dict[str, int] = {}
    unknown: list[str] = []
    table = None
    for kill in range(KILLS + 1):
        app = AppProcess(url, "memory://", tmp_path / f"serve-{kill}.log").wait_ready()
        try:
            with httpx.Client(base_url=app.url, timeout=10) as http:
                if table is None:
                    table = Table.create(http)
                    table.ok(table.gm, "generic.pool.create", name="Gold", value=0, min=None)
                if kill == KILLS:  # the last start: check, then resend everything
                    table = Table(http, table.id, table.gm, table.invite, table.spectator)
                    missing = 0
                    for cid, seq in acked.items():
                        again = table.send(
                            table.gm, "generic.pool.adjust", pool="Gold", delta=1, command_id=cid
                        )
                        missing += again.status_code != 200 or again.json()["seq"] != seq
                    for cid in unknown:
                        assert (
                            table.send(
                                table.gm, "generic.pool.adjust", pool="Gold", delta=1, command_id=cid
                            ).status_code
                            == 200
                        )
                    applied = pool(table.view(table.gm), "Gold")["value"]
                    changes = [e for e in _all_events(table) if e["type"] == "generic.pool_changed"]
                    assert missing == 0, f"{missing} acknowledged commands were lost"
                    assert applied == len(changes) == len(acked) + len(unknown), "a command was applied twice"
                    print(
                        f"\n{backend}: {len(acked)} acknowledged, {len(unknown)} in doubt, "
                        f"{KILLS} kills: 0 lost, 0 twice"
                    )
                    return
            stop = threading.Event()
            sender = threading.Thread(target=_hammer, args=(app.url, table, acked, unknown, stop))
            sender.start()
            time.sleep(0.6 + 0.3 * kill)  # mid-stream, at a different moment each time
            app.process.kill()  # SIGKILL: no shutdown, no flush
            app.process.wait()
            stop.set()
            sender.join(timeout=10)
        finally:
            app.stop()
    assert len(acked) > 20  # the stream was real
