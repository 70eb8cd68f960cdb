"""A plain install runs: `pip install .` in a fresh virtualenv, then `fray db upgrade` and `fray serve`
from a directory that is not the repository. Templates, static files (htmx too) and migrations travel
inside the wheel (setup.py, app/resources.py); the dependencies come from requirements.lock, hashes
checked, as the Dockerfile installs them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str | Path, cwd: Path, env: dict[str, str], timeout: float = 900) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    command = " ".join(map(str, args))
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """A fresh virtualenv with Fray installed from the repository, and a working directory outside it."""
    where = tmp_path_factory.mktemp("installed")
    venv = where / "venv"
    # Nothing of the repository may leak in: no PYTHONPATH, no other virtualenv.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["FRAY_DATABASE_URL"] = "sqlite:///./fray.db"
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    _run(sys.executable, "-m", "venv", venv, cwd=where, env=env)
    pip = (venv / "bin" / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check")
    _run(*pip, "--require-hashes", "-r", ROOT / "requirements.lock", cwd=where, env=env)
    _run(*pip, "--no-deps", ROOT, cwd=where, env=env)
    yield where, env


def test_the_installed_package_reads_its_own_copies_not_the_repository(installed):
    where, env = installed
    out = _run(
        where / "venv" / "bin" / "python",
        "-c",
        "import app, app.resources as r; print(app.__file__); print(r.ROOT)",
        cwd=where,
        env=env,
    )
    package, root = (Path(line) for line in out.split())
    assert package.is_relative_to(where / "venv"), package
    assert root == package.parent / "_data"
    for name in ("templates/base.html", "static/vendor/htmx.min.js", "migrations/env.py", "alembic.ini"):
        assert (root / name).is_file(), f"{name} is not in the wheel"
    assert (root / "static" / "vendor" / "idiomorph.min.js").read_bytes() == (
        ROOT / "static/vendor/idiomorph.min.js"
    ).read_bytes()


def test_fray_db_upgrade_and_fray_serve_run_from_the_wheel(installed):
    where, env = installed
    fray = where / "venv" / "bin" / "fray"
    _run(fray, "db", "upgrade", cwd=where, env=env, timeout=120)
    assert (where / "fray.db").is_file()

    port = free_port()
    log = where / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [str(fray), "serve", "--no-migrate", "--port", str(port)],
            cwd=where,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, f"fray serve exited:\n{log.read_text()[-3000:]}"
            assert time.monotonic() < deadline, f"fray serve did not answer:\n{log.read_text()[-3000:]}"
            try:
                health = httpx.get(f"{base}/healthz", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.2)
        assert health.status_code == 200 and health.json()["status"] == "ok"

        landing = httpx.get(f"{base}/", timeout=10)
        assert landing.status_code == 200, landing.text[-2000:]
        assets = re.findall(r'(?:src|href)="(/static/[^"?]+)', landing.text)
        assert "/static/vendor/htmx.min.js" in assets and "/static/css/fray.css" in assets
        for path in assets:
            got = httpx.get(f"{base}{path}", timeout=10)
            assert got.status_code == 200, path
            assert got.content == (ROOT / path.removeprefix("/")).read_bytes(), path
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_image_installs_the_locked_dependencies_in_a_layer_before_the_source():
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines()]
    stages = [i for i, line in enumerate(lines) if line.startswith("FROM ")]
    node = re.fullmatch(r"FROM node:(\d+)-slim AS assets", lines[stages[0]])
    assert node and int(node[1]) % 2 == 0, "the front-end stage runs an even-numbered (LTS) Node"
    app = lines[stages[-1] :]
    locked = next((i for i, line in enumerate(app) if "pip install --require-hashes -r" in line), None)
    assert locked is not None, "the image does not install requirements.lock with --require-hashes"
    source = app.index("COPY . .")
    assert any(line.startswith("COPY requirements.lock ") for line in app[:locked])
    assert locked < source, "the dependencies' layer must come before the source is copied"
    assert any("pip install --no-deps ." in line for line in app[source:])
    assert not any(re.search(r"pip install (?!--require-hashes|--no-deps)", line) for line in app)
