"""The compose file's `scale` profile hangs together (no Docker engine here to run it)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml  # PyYAML, a dev dependency

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
        "FRAY_SCALE_PORT",
        "deploy/nginx.conf",
        "redis://",
    ):
        assert words in guide, words
