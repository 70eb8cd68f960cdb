"""Shared by the benchmarks: a Fray server in its own process on a fresh database, and timing helpers."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def machine_ms(rounds: int = 5) -> float:
    """How fast this machine runs Python right now: the same fixed work (dicts, strings, JSON, the kind
    of steps a push is made of), best of `rounds`, in ms. A shared machine's speed drifts by 2x over a
    day; runs whose figures are compared should have this close, and a run's figure says which it was."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        rows = [{"id": f"p{i}", "hp": i % 17, "name": f"Hero {i}"} for i in range(20_000)]
        text = json.dumps(rows)
        back = json.loads(text)
        "".join(f'<li id="{r["id"]}">{r["name"]}: {r["hp"]}</li>' for r in back)
        best = min(best, time.perf_counter() - start)
    return round(best * 1000, 1)


def emit(scenario: str, **figures) -> dict:
    line = {"scenario": scenario, **figures}
    print(json.dumps(line), flush=True)
    return line


def wait_healthy(url: str, process: subprocess.Popen | None = None, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(
                f"the server exited: {process.stderr.read().decode() if process.stderr else ''}"
            )
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.05)
    raise RuntimeError(f"{url} did not come up")


@contextmanager
def fray_server(database_url: str | None = None, ws: str = "fray", extra_env: dict | None = None):
    """`fray serve` in a subprocess on a free port (a fresh SQLite file unless a URL is given)."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        env = {
            **os.environ,
            "FRAY_DATABASE_URL": database_url or f"sqlite:///{tmp}/bench.db",
            # One machine plays hundreds of seats and tables: the benchmarks measure speed, not the limits.
            "FRAY_RATE_LIMIT_SCALE": "10000",
            **(extra_env or {}),
        }
        process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--ws", ws],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(url, process)
            yield url, process.pid
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0
