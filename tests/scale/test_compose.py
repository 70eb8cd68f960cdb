"""The compose file hangs together: `docker compose config` accepts it (no Docker engine is needed for
that), one image serves every app service, and the `scale` profile is wired as docs/deploy.md says."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml  # PyYAML, a dev dependency

from tests import services

ROOT = Path(__file__).resolve().parents[2]


def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_the_scale_profile_is_two_replicas_behind_nginx_on_postgres_and_redis():
    services = _compose()["services"]
    scale = {name for name, service in services.items() if "scale" in service.get("profiles", [])}
    assert scale == {"postgres", "redis", "app1", "app2", "nginx"}
    assert "profiles" not in services["app"]  # `docker compose up` is still the one-process SQLite app
    for name in scale:
        assert "healthcheck" in services[name], f"{name} has no health check"
    for replica in ("app1", "app2"):
        env = services[replica]["environment"]
        assert env["FRAY_DATABASE_URL"].startswith("postgresql+psycopg://")
        assert env["FRAY_DATABASE_URL"].endswith("@postgres:5432/fray")
        assert env["FRAY_BROKER_URL"] == "redis://redis:6379/0"
        assert services[replica]["depends_on"] == {
            "postgres": {"condition": "service_healthy"},
            "redis": {"condition": "service_healthy"},
        }
    nginx = services["nginx"]
    assert "./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro" in nginx["volumes"]
    assert set(nginx["depends_on"]) == {"app1", "app2"}


def test_nginx_sends_to_both_replicas_and_upgrades_websockets():
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    conf = "\n".join(line.split("#", 1)[0] for line in text.splitlines())  # directives, not comments
    assert set(re.findall(r"server (app\d):8000", conf)) == {"app1", "app2"}
    assert "proxy_set_header Upgrade    $http_upgrade;" in conf
    assert "proxy_set_header Connection $connection_upgrade;" in conf
    assert not re.search(r"\b(ip_hash|hash|sticky)\b", conf)  # no sticky sessions needed


def test_the_deploy_guide_explains_the_scale_profile():
    guide = (ROOT / "docs" / "deploy.md").read_text()
    for words in (
        "--profile scale",
        "FRAY_POSTGRES_PASSWORD",
        "cp deploy/fray.env.example .env",
        "docker compose build",
        "FRAY_SCALE_PORT",
        "deploy/nginx.conf",
        "redis://",
    ):
        assert words in guide, words


def _compose_command() -> list[str]:
    """Compose v2 (`docker compose`) when the Docker CLI has it, else Debian's docker-compose, which
    `scripts/services.sh install` (part of `make test`) installs when neither is there."""
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0:
        return [docker, "compose"]
    if found := shutil.which("docker-compose"):
        return [found]
    message = "neither `docker compose` nor docker-compose is installed: run `make test`"
    if services.REQUIRED:
        pytest.fail(message)
    pytest.skip(message)


def _config(env_file: Path) -> subprocess.CompletedProcess[str]:
    """`docker compose config` with only env_file's settings (none from this shell or a local .env)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FRAY_", "COMPOSE_"))}
    return subprocess.run(
        [*_compose_command(), "--env-file", str(env_file), "-f", str(ROOT / "docker-compose.yml"), "config"],
        cwd=env_file.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_compose_config_accepts_the_file_with_the_password_from_the_env_file(tmp_path):
    example = (ROOT / "deploy" / "fray.env.example").read_text()
    assert re.search(r"^FRAY_POSTGRES_PASSWORD=$", example, re.MULTILINE), "the example must leave it blank"
    env_file = tmp_path / ".env"
    env_file.write_text(example.replace("FRAY_POSTGRES_PASSWORD=\n", "FRAY_POSTGRES_PASSWORD=s3cret-42\n"))

    done = _config(env_file)
    assert done.returncode == 0, done.stderr
    resolved = yaml.safe_load(done.stdout)["services"]
    assert resolved["postgres"]["environment"]["POSTGRES_PASSWORD"] == "s3cret-42"
    for replica in ("app1", "app2"):
        url = resolved[replica]["environment"]["FRAY_DATABASE_URL"]
        assert url == "postgresql+psycopg://fray:s3cret-42@postgres:5432/fray"
        assert resolved[replica]["image"] == "fray:local"


def test_compose_config_refuses_to_run_without_the_password(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text((ROOT / "deploy" / "fray.env.example").read_text())  # copied, not filled in
    done = _config(env_file)
    assert done.returncode != 0
    assert "set FRAY_POSTGRES_PASSWORD in .env" in done.stdout + done.stderr


def test_one_image_is_built_once_and_every_app_service_runs_it():
    services_ = _compose()["services"]
    built = [name for name, service in services_.items() if "build" in service]
    assert built == ["app"]
    apps = [name for name in services_ if name.startswith("app")]
    assert {services_[name]["image"] for name in apps} == {"fray:local"}
    for name in apps:
        if name != "app":
            assert services_[name]["pull_policy"] == "never", f"{name} would try to pull fray:local"
