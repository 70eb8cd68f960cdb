"""deploy/nginx.conf in front of two Fray processes: WebSockets upgrade, no sticky sessions needed."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests import services
from tests.conftest import free_port
from tests.helpers import Table
from tests.scale.test_processes import connect, reach, run

ROOT = Path(__file__).resolve().parents[2]


class Nginx:
    """Debian's nginx with deploy/nginx.conf, its upstreams pointed at the test's processes."""

    def __init__(self, directory: Path, upstreams: list[int]):
        binary = os.environ.get("FRAY_TEST_NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
        if not Path(binary).exists():
            services.need(None, "FRAY_TEST_NGINX (the nginx program)")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.access_log = directory / "access.log"
        site = (ROOT / "deploy" / "nginx.conf").read_text()
        site = site.replace("app1:8000", f"127.0.0.1:{upstreams[0]}").replace(
            "app2:8000", f"127.0.0.1:{upstreams[1]}"
        )
        site = site.replace("listen 80;", f"listen 127.0.0.1:{self.port};")
        (directory / "fray.conf").write_text(site)
        temp = directory / "temp"
        temp.mkdir(mode=0o777)
        temp.chmod(0o777)
        (directory / "nginx.conf").write_text(
            f"""
daemon off;
worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/error.log warn;
events {{ worker_connections 256; }}
http {{
    log_format upstream '$request_uri $status $upstream_addr';
    access_log {self.access_log} upstream;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {directory}/fray.conf;
}}
"""
        )
        self.process = subprocess.Popen(
            [binary, "-p", str(directory), "-c", str(directory / "nginx.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx did not start: {self.process.stderr.read().decode()}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not answer")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)

    def lines(self, path_start: str) -> list[str]:
        lines = self.access_log.read_text().splitlines() if self.access_log.exists() else []
        return [line for line in lines if line.startswith(path_start)]

    def upstreams_of(self, path_start: str) -> set[str]:
        return {line.split()[-1] for line in self.lines(path_start)}


@pytest.fixture
def nginx(shared_apps, tmp_path: Path):
    a, b = shared_apps
    directory = tmp_path / "nginx"
    directory.mkdir()
    server = Nginx(directory, [a.port, b.port])
    yield server, a, b
    server.stop()


def test_sockets_and_commands_through_nginx_reach_every_replica(nginx):
    proxy, a, b = nginx
    with httpx.Client(base_url=proxy.url, timeout=10) as http:
        table = Table.create(http)
        players = [table.join(name) for name in ("Ann", "Ben", "Cid", "Dee")]
        table.ok(table.gm, "generic.pool.create", name="Good Karma", value=10)
        start = table.view(table.gm)["campaign"]["seq"]

        async def scenario():
            sockets = [connect(proxy, table, seat, format="json", after=start) for seat in players]
            opened = [await s.__aenter__() for s in sockets]
            try:
                for seat in players:  # commands spread over both replicas, round robin
                    reply = await asyncio.to_thread(
                        table.ok, seat, "generic.pool.adjust", pool="Good Karma", delta=-1
                    )
                    for ws in opened:
                        await reach(ws, reply["seq"])
            finally:
                for s in sockets:
                    await s.__aexit__(None, None, None)

        run(scenario)
    deadline = time.monotonic() + 10  # nginx logs a WebSocket when it closes
    while len(proxy.lines("/ws/")) < len(players) and time.monotonic() < deadline:
        time.sleep(0.05)
    # The WebSockets were upgraded through nginx (101) and landed on both replicas.
    log = proxy.access_log.read_text()
    assert re.search(r"^/ws/campaigns/\S+ 101 ", log, re.MULTILINE), log
    ws_upstreams = proxy.upstreams_of("/ws/")
    assert ws_upstreams == {f"127.0.0.1:{a.port}", f"127.0.0.1:{b.port}"}, log
    assert proxy.upstreams_of("/api/campaigns/") == ws_upstreams
