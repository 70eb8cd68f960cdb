"""Map helpers for tests: real images made with Pillow (big ones with libvips), uploaded through the API."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pyvips
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


def texture_png(path: Path, width: int, height: int, mode: str = "RGB") -> Path:
    """A map as GMs draw them, not one colour: grass and earth (smooth noise), a 128-pixel grid, and for
    RGBA see-through margins. Written by libvips a strip at a time: big ones cost the test little."""
    tile = pyvips.Image.perlin(1024, 1024, cell_size=128, uchar=True)
    tile = (tile * [0.5, 0.7, 0.3] + [40, 30, 20]).cast("uchar")
    xy = pyvips.Image.xyz(1024, 1024)
    tile = (((xy[0] % 128) < 2) | ((xy[1] % 128) < 2)).ifthenelse([20, 20, 20], tile)
    image = tile.replicate(width // 1024 + 1, height // 1024 + 1).crop(0, 0, width, height)
    if mode == "RGBA":
        alpha = pyvips.Image.black(width, height).draw_rect(255, 64, 64, width - 128, height - 128, fill=True)
        image = image.bandjoin(alpha.cast("uchar"))
    image.copy(interpretation="srgb").pngsave(str(path), compression=6)
    return path


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
