"""What the gate (app/web/gate.py) limits: body sizes, and how long browsers may cache static files."""

from __future__ import annotations

from starlette.types import Scope


class BodyTooLarge(Exception):
    pass


def upload_path(path: str) -> bool:
    """Files: image uploads (`/api/campaigns/{id}/assets`, `/pictures`), Universal VTT maps
    (`/api/campaigns/{id}/scenes/uvtt`) and campaign imports. They get a limit of their own
    (`FRAY_MAX_UPLOAD_BYTES`); every other body stays small."""
    parts = path.strip("/").split("/")
    if path in ("/import", "/api/campaigns/import"):
        return True
    if len(parts) < 4 or parts[0] != "api" or parts[1] != "campaigns":
        return False
    return parts[3:] in (["assets"], ["pictures"], ["scenes", "uvtt"])


def too_large(limit: int, upload: bool) -> str:
    """The 413's sentence, for any request body over its limit, declared or streamed."""
    if upload:
        return f"That file is too large: at most {limit / 1024 / 1024:g} MB."
    return f"That request is too large: at most {limit // 1024} KB."


def static_policy(scope: Scope) -> bytes | None:
    """The cache policy of a static file's 200: versioned URLs (?v=hash) are immutable; everything else
    under /static/ revalidates. None for any other path."""
    if not scope["path"].startswith("/static/"):
        return None
    if b"v=" in scope.get("query_string", b""):
        return b"public, max-age=31536000, immutable"
    return b"no-cache"
