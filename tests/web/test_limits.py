"""The body limit: a body over it is a 413 with the same sentence, declared or streamed (issue 28, item 12).

A streamed body (chunked, no Content-Length) is only found too large while the route reads it: the
refusal must not turn into the framework's "could not be read".
"""

from __future__ import annotations

import pytest

from app.settings import Settings
from tests.helpers import Table

LIMIT = 64 * 1024  # the smallest upload limit there is, and the default for every other body
OVER = LIMIT + 10_000


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(
        database_url=database_url, max_body_bytes=LIMIT, max_upload_bytes=LIMIT, rate_limit_scale=100
    )


def _bodies(table: Table) -> dict[str, tuple[str, dict[str, str], bytes]]:
    boundary = "fraybound"
    multipart = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="map.png"\r\n'
            "Content-Type: image/png\r\n\r\n"
        ).encode()
        + b"\x89PNG"
        + b"x" * OVER
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return {
        "json": (
            f"/api/campaigns/{table.id}/commands",
            {"content-type": "application/json", **table.gm.auth},
            b'{"type": "generic.roll", "expression": "' + b"x" * OVER + b'"}',
        ),
        "form": ("/campaigns", {"content-type": "application/x-www-form-urlencoded"}, b"name=" + b"x" * OVER),
        "upload": (
            f"/api/campaigns/{table.id}/assets",
            {"content-type": f"multipart/form-data; boundary={boundary}", **table.gm.auth},
            multipart,
        ),
        "import": (
            "/api/campaigns/import",
            {"content-type": f"multipart/form-data; boundary={boundary}"},
            multipart,
        ),
    }


def _streamed(data: bytes):
    for start in range(0, len(data), 8192):
        yield data[start : start + 8192]


@pytest.mark.parametrize("route", ["json", "form", "upload", "import"])
@pytest.mark.parametrize("server", ["app", "live"])
def test_a_streamed_body_over_the_limit_is_a_413_like_a_declared_one(request, route: str, server: str):
    http = request.getfixturevalue("client" if server == "app" else "live_http")
    table = Table.create(http)
    url, headers, data = _bodies(table)[route]
    seq = table.view(table.gm)["campaign"]["seq"]
    declared = http.post(url, content=data, headers=headers)
    streamed = http.post(url, content=_streamed(data), headers=headers)
    assert declared.status_code == 413, declared.text
    assert "content-length" not in streamed.request.headers  # sent chunked
    assert streamed.status_code == 413, streamed.text
    assert streamed.json() == declared.json()
    assert "at most" in streamed.json()["detail"]
    assert table.view(table.gm)["campaign"]["seq"] == seq
