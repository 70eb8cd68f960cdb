"""Map images: checked and re-encoded on upload, kept in the database, fog-masked for the players.

The players' image is made once per fog change (not once per viewer) and kept in a small cache keyed by
the image and the fog's strokes, so every player of every table with the same fog shares one copy.
"""

from __future__ import annotations

import hashlib
import io
import json
import threading
import warnings
from collections import OrderedDict
from dataclasses import dataclass

from PIL import Image, ImageDraw, UnidentifiedImageError

from app.rules.errors import InputError, RuleError
from app.rules.map.state import FogOp, Scene
from app.services.context import Fray
from app.store.models import AssetBlob

FORMATS = {"PNG", "JPEG", "WEBP"}
MIME = "image/webp"
FOG_COLOUR = (24, 26, 31)
WEBP_QUALITY = 82
JPEG_QUALITY = 85
MASKED_MIME = "image/jpeg"
CACHE_SIZE = 24
DECODED_KEPT = 2  # a 4096-pixel map is 48 MB decoded: keep the scenes in play, not the library


class TooLarge(RuleError):
    status = 413


@dataclass(frozen=True)
class Prepared:
    id: str
    data: bytes
    width: int
    height: int


def prepare(raw: bytes, max_bytes: int, max_side: int) -> Prepared:
    """A checked upload, re-encoded as WebP; InputError/TooLarge with a sentence when it is not fit."""
    if len(raw) > max_bytes:
        raise TooLarge(f"That image is too large: at most {max_bytes / 1024 / 1024:g} MB.")
    if not raw:
        raise InputError("That file is empty: choose a PNG, JPEG or WebP image.")
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image: Image.Image = Image.open(io.BytesIO(raw))
            if image.format not in FORMATS:
                raise InputError("That file is not a PNG, JPEG or WebP image.")
            width, height = image.size
            # Checked from the header, before a single pixel is decoded: a bomb never unpacks.
            if width > max_side or height > max_side:
                raise InputError(
                    f"That image is {width} by {height} pixels: at most {max_side} pixels a side, please."
                )
            image.load()
        except InputError:
            raise
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise InputError("That image unpacks to far too many pixels to be a map.") from None
        except UnidentifiedImageError:
            raise InputError("That file is not a PNG, JPEG or WebP image.") from None
        except (OSError, SyntaxError, ValueError):
            raise InputError("That image is damaged or cut short: save it again and retry.") from None
    image = image.convert("RGBA" if _has_alpha(image) else "RGB")
    out = io.BytesIO()
    image.save(out, "WEBP", quality=WEBP_QUALITY, method=4)
    data = out.getvalue()
    return Prepared(id=hashlib.sha256(data).hexdigest(), data=data, width=width, height=height)


def _has_alpha(image: Image.Image) -> bool:
    return image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info)


def store(fray: Fray, prepared: Prepared) -> None:
    """Keep the blob (content-addressed: the same image uploaded twice is kept once)."""
    with fray.db.write() as session:
        if session.get(AssetBlob, prepared.id) is None:
            session.add(
                AssetBlob(
                    id=prepared.id,
                    mime=MIME,
                    width=prepared.width,
                    height=prepared.height,
                    size=len(prepared.data),
                    data=prepared.data,
                )
            )


def blob(fray: Fray, asset_id: str) -> bytes | None:
    with fray.db.read() as session:
        row = session.get(AssetBlob, asset_id)
        return bytes(row.data) if row else None


def fog_key(fog: tuple[FogOp, ...]) -> str:
    strokes = [op.model_dump(mode="json", exclude_none=True) for op in fog]
    return hashlib.sha256(json.dumps(strokes, sort_keys=True).encode()).hexdigest()[:32]


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")  # what the players get is flat: covered parts are fog, not holes


def mask(image: Image.Image, fog: tuple[FogOp, ...]) -> bytes:
    """The image with every covered part blanked: what the players are sent (JPEG: fast to encode)."""
    covered = Image.new("L", image.size, 0)
    draw = ImageDraw.Draw(covered)
    for op in fog:
        fill = 255 if op.op == "cover" else 0
        if op.rect is not None:
            x, y, w, h = op.rect
            draw.rectangle((x, y, x + w, y + h), fill=fill)
        elif op.polygon is not None:
            draw.polygon([tuple(p) for p in op.polygon], fill=fill)
        else:
            covered.paste(fill, (0, 0, *image.size))
    blanked = image.copy()
    blanked.paste(FOG_COLOUR, (0, 0, *image.size), covered)
    out = io.BytesIO()
    blanked.save(out, "JPEG", quality=JPEG_QUALITY)
    return out.getvalue()


class MaskCache:
    """The players' images by (image, fog): made once, shared by every viewer and table.

    The decoded image of the scenes in play is kept too, so a reveal costs a paste and an encode.
    """

    def __init__(self, size: int = CACHE_SIZE, decoded: int = DECODED_KEPT):
        self.size, self.decoded_kept = size, decoded
        self._items: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._decoded: OrderedDict[str, Image.Image] = OrderedDict()
        self._lock = threading.Lock()
        self._making: dict[tuple[str, str], threading.Lock] = {}

    def get(self, fray: Fray, scene: Scene) -> tuple[str, bytes, str] | None:
        """(ETag, bytes, media type) of the players' image of a scene; None when it has no image."""
        if scene.asset is None:
            return None
        if not any(op.op == "cover" for op in scene.fog):
            data = blob(fray, scene.asset)
            return (scene.asset, data, MIME) if data is not None else None
        key = (scene.asset, fog_key(scene.fog))
        etag = f"{key[0][:24]}-{key[1][:16]}"
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return etag, self._items[key], MASKED_MIME
            making = self._making.setdefault(key, threading.Lock())
        with making:  # one thread makes it; the others wait for it rather than make it again
            with self._lock:
                if key in self._items:
                    return etag, self._items[key], MASKED_MIME
            image = self._image(fray, scene.asset)
            if image is None:
                return None
            masked = mask(image, scene.fog)
            with self._lock:
                self._items[key] = masked
                self._making.pop(key, None)
                while len(self._items) > self.size:
                    self._items.popitem(last=False)
        return etag, masked, MASKED_MIME

    def _image(self, fray: Fray, asset_id: str) -> Image.Image | None:
        with self._lock:
            if asset_id in self._decoded:
                self._decoded.move_to_end(asset_id)
                return self._decoded[asset_id]
        data = blob(fray, asset_id)
        if data is None:
            return None
        image = decode(data)
        with self._lock:
            self._decoded[asset_id] = image
            while len(self._decoded) > self.decoded_kept:
                self._decoded.popitem(last=False)
        return image


MASKS = MaskCache()
