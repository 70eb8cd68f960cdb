"""Map helpers for tests: real images made with Pillow, uploaded through the API."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

from tests.helpers import Seat, Table

RED = (220, 20, 20)
# A 400x300 dungeon: a grey corridor on the left, a red room at the right (x 250-350, y 50-150).
RED_ROOM = (250, 50, 100, 100)


def dungeon_png(width: int = 400, height: int = 300) -> bytes:
    image = Image.new("RGB", (width, height), (200, 200, 200))
    x, y, w, h = RED_ROOM
    ImageDraw.Draw(image).rectangle((x, y, x + w - 1, y + h - 1), fill=RED)
    return png(image)


def png(image: Image.Image, fmt: str = "PNG") -> bytes:
    out = io.BytesIO()
    image.save(out, fmt)
    return out.getvalue()


def upload(table: Table, data: bytes, name: str = "dungeon.png", seat: Seat | None = None) -> Any:
    return table.http.post(
        f"/api/campaigns/{table.id}/assets",
        files={"file": (name, data, "application/octet-stream")},
        headers=(seat or table.gm).auth,
    )


def scene_with_image(table: Table, **grid: Any) -> tuple[str, dict[str, Any]]:
    """A shown scene over the dungeon image: (scene id, uploaded asset)."""
    r = upload(table, dungeon_png())
    assert r.status_code == 201, r.text
    asset = r.json()
    grid = {"type": "square", "size": 50, **grid}
    reply = table.ok(table.gm, "map.scene.create", name="Crypt", asset=asset["id"], grid=grid, show=True)
    return reply["view"]["map"]["scene"], asset


def red_pixels(data: bytes, box: tuple[int, int, int, int]) -> int:
    image = Image.open(io.BytesIO(data)).convert("RGB")
    x, y, w, h = box
    raw = image.crop((x + 2, y + 2, x + w - 2, y + h - 2)).tobytes()
    return sum(1 for i in range(0, len(raw), 3) if _reddish((raw[i], raw[i + 1], raw[i + 2])))


def _reddish(px: tuple[int, int, int]) -> bool:
    r, g, b = px
    return r > 150 and g < 90 and b < 90
