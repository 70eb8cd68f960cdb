"""Browser writes must come from our own pages, and every reply carries safe headers.

A cookie is sent with any request a browser makes to this site, even one a foreign page triggers, so a
write that is not bearer-authenticated must show it comes from our own pages: a same-site `Origin`, or
`Sec-Fetch-Site: same-origin`. Scripts with a bearer token are unchanged; a request with neither a cookie
nor browser headers (a bot creating a campaign) is let through.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from starlette.types import Scope

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    # Our pages may not be framed by another site (clickjacking a GM's console).
    (b"content-security-policy", b"frame-ancestors 'self'"),
    (b"x-frame-options", b"SAMEORIGIN"),
    # Seat links carry tokens in their path: never hand them to another site.
    (b"referrer-policy", b"same-origin"),
]


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def bad_path(scope: Scope) -> bool:
    """A path with control characters (a NUL, say) names nothing here, and PostgreSQL cannot store it."""
    return _CONTROL.search(scope.get("path", "")) is not None


def cross_site(scope: Scope, public_url: str | None) -> str | None:
    """Why a write must be refused as cross-site, or None when it may go on."""
    if scope["method"] in SAFE_METHODS:
        return None
    if (_header(scope, b"authorization") or "").lower().startswith("bearer "):
        return None
    origin = _header(scope, b"origin")
    allowed = {_header(scope, b"host") or ""}
    if public_url:
        allowed.add(urlsplit(public_url).netloc)
    if origin is not None:
        return (
            None
            if urlsplit(origin).netloc in allowed
            else "This request came from another site, so it was refused."
        )
    fetch_site = _header(scope, b"sec-fetch-site")
    if fetch_site is not None:
        if fetch_site in ("same-origin", "none"):
            return None
        return "This request came from another site, so it was refused."
    if "fray_" in (_header(scope, b"cookie") or ""):
        return "A browser's change must say where it comes from (Origin): reload the page and try again."
    return None
