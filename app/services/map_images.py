"""Map images: checked and re-encoded on upload, kept in the database, fog-masked for the players.

The players' image is made once per fog change (not once per viewer) and kept in a small cache keyed by
the image and the fog's strokes, so every player of every table with the same fog shares one copy.

A campaign reads only the blobs it holds (`campaign_asset`: it uploaded or imported their bytes); an id
named in its log is not enough. Decoding and encoding take one of a few slots per process (`image_work`),
so several big uploads at once queue instead of stacking their memory (docs/performance.md).
"""

from __future__ import annotations

import hashlib
import io
import threading
import warnings
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from PIL import Image, ImageDraw, UnidentifiedImageError
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from sqlmodel import col

from app.rules.errors import InputError, RuleError
from app.rules.map.fog import image_key
from app.rules.map.state import FogOp, Scene
from app.services.context import Fray
from app.store.models import AssetBlob, CampaignAsset

FORMATS = {"PNG", "JPEG", "WEBP"}
MIME = "image/webp"
FOG_COLOUR = (24, 26, 31)
WEBP_QUALITY = 82
JPEG_QUALITY = 85
MASKED_MIME = "image/jpeg"
CACHE_SIZE = 24
DECODED_KEPT = 2  # a 4096-pixel map is 64 MB decoded: keep the scenes in play, not the library
DECODED_BYTES = 96 * 1024 * 1024  # and never more than this decoded (a bigger image is decoded per mask)
DECODES_AT_ONCE = 1  # per process: one big image is ~250 MB while it is decoded and encoded
WAIT_FOR_DECODE = 10.0  # seconds a request waits for a slot before it is told to come back
BUSY_RETRY_AFTER = 5
IMAGE_WORK = threading.BoundedSemaphore(DECODES_AT_ONCE)


class TooLarge(RuleError):
    status = 413


@dataclass(frozen=True)
class Prepared:
    id: str
    data: bytes
    width: int
    height: int


class ImagesBusy(RuleError):
    status = 503

    def __init__(self) -> None:
        super().__init__("The server is busy with other images: try again in a few seconds.")
        self.retry_after = BUSY_RETRY_AFTER


@contextmanager
def image_work() -> Iterator[None]:
    """A slot for decoding or encoding a big image: a few at once per process, so memory stays bounded;
    a caller that waits too long is told to come back (503, Retry-After) rather than queue forever."""
    if not IMAGE_WORK.acquire(timeout=WAIT_FOR_DECODE):
        raise ImagesBusy()
    try:
        yield
    finally:
        IMAGE_WORK.release()


def prepare(raw: bytes, max_bytes: int, max_side: int, max_pixels: int) -> Prepared:
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
            if width * height > max_pixels:
                raise InputError(
                    f"That image is {width * height / 1_000_000:.1f} megapixels: at most "
                    f"{max_pixels / 1_000_000:g} megapixels, please (say {_example_sides(max_pixels)})."
                )
            with image_work():
                data = _reencoded(image)
        except InputError:
            raise
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise InputError("That image unpacks to far too many pixels to be a map.") from None
        except UnidentifiedImageError:
            raise InputError("That file is not a PNG, JPEG or WebP image.") from None
        except (OSError, SyntaxError, ValueError):
            raise InputError("That image is damaged or cut short: save it again and retry.") from None
    return Prepared(id=hashlib.sha256(data).hexdigest(), data=data, width=width, height=height)


def _example_sides(pixels: int) -> str:
    side = int((pixels * 3 / 4) ** 0.5)
    return f"{side * 4 // 3} by {side}"


def _reencoded(image: Image.Image) -> bytes:
    image.load()
    wanted = "RGBA" if _has_alpha(image) else "RGB"
    if image.mode != wanted:  # convert() copies every pixel, even to the mode it has
        image = image.convert(wanted)
    out = io.BytesIO()
    image.save(out, "WEBP", quality=WEBP_QUALITY, method=4)
    return out.getvalue()


def _has_alpha(image: Image.Image) -> bool:
    return image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info)


def store(fray: Fray, prepared: Prepared, campaign_id: str, quota: int) -> None:
    """Keep the blob (content-addressed: the same image uploaded twice is kept once) and record that
    this campaign holds it; TooLarge, with what the campaign uses, when it would pass its quota."""
    with fray.db.write() as session:
        if session.get(CampaignAsset, (campaign_id, prepared.id)) is not None:
            return
        check_quota(session, campaign_id, len(prepared.data), quota)
        keep(session, campaign_id, prepared)


def keep(session: Session, campaign_id: str, prepared: Prepared) -> None:
    """Within a write: the blob if it is new, and the campaign's hold on it."""
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
        session.flush()
    if session.get(CampaignAsset, (campaign_id, prepared.id)) is None:
        session.add(CampaignAsset(campaign_id=campaign_id, asset_id=prepared.id))
        session.flush()


def used_bytes(session: Session, campaign_id: str) -> int:
    held = (
        select(func.coalesce(func.sum(AssetBlob.size), 0))
        .join(CampaignAsset, col(CampaignAsset.asset_id) == col(AssetBlob.id))
        .where(col(CampaignAsset.campaign_id) == campaign_id)
    )
    return int(session.execute(held).scalar_one())


def check_quota(session: Session, campaign_id: str, adding: int, quota: int) -> None:
    used = used_bytes(session, campaign_id)
    if used + adding > quota:
        raise TooLarge(
            f"This campaign's images would pass its storage of {_mb(quota)}: {_mb(used)} is used. "
            "Delete an image no scene uses first."
        )


def _mb(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MB"


def blob(fray: Fray, campaign_id: str, asset_id: str) -> bytes | None:
    """The image's bytes, if this campaign holds it (uploaded or imported it): None otherwise."""
    with fray.db.read() as session:
        if session.get(CampaignAsset, (campaign_id, asset_id)) is None:
            return None
        row = session.get(AssetBlob, asset_id)
        return bytes(row.data) if row else None


def release(fray: Fray, campaign_id: str, asset_id: str) -> None:
    """The campaign no longer holds the image; a blob no campaign holds is deleted."""
    with fray.db.write() as session:
        held = session.get(CampaignAsset, (campaign_id, asset_id))
        if held is not None:
            session.delete(held)
            session.flush()
        others = select(CampaignAsset).where(col(CampaignAsset.asset_id) == asset_id).limit(1)
        if session.scalars(others).first() is None:
            row = session.get(AssetBlob, asset_id)
            if row is not None:
                session.delete(row)


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    # What the players get is flat: covered parts are fog, not holes. Converted only when it must be.
    return image if image.mode == "RGB" else image.convert("RGB")


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

    The decoded image of the scenes in play is kept too (within `DECODED_BYTES`), so a reveal costs a
    paste and an encode.
    """

    def __init__(
        self, size: int = CACHE_SIZE, decoded: int = DECODED_KEPT, decoded_bytes: int = DECODED_BYTES
    ):
        self.size, self.decoded_kept, self.decoded_bytes = size, decoded, decoded_bytes
        self._items: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._decoded: OrderedDict[str, Image.Image] = OrderedDict()
        self._lock = threading.Lock()
        self._making: dict[tuple[str, str], threading.Lock] = {}

    def get(
        self, fray: Fray, campaign_id: str, scene: Scene, blanked: tuple[FogOp, ...]
    ) -> tuple[str, bytes, str] | None:
        """(ETag, bytes, media type) of a scene's image with what a viewer's sight blanks (the map's
        `Sight.blanked`) blanked; None when it has no image this campaign holds. The ETag is the image's
        key (`image_key`), which does not name the asset."""
        if scene.asset is None:
            return None
        etag = image_key(scene.asset, blanked)
        if not any(op.op == "cover" for op in blanked):
            data = blob(fray, campaign_id, scene.asset)
            return (etag, data, MIME) if data is not None else None
        if not holds(fray, campaign_id, scene.asset):  # the cache is shared by campaigns: ask each time
            return None
        key = (scene.asset, etag)
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return etag, self._items[key], MASKED_MIME
            making = self._making.setdefault(key, threading.Lock())
        with making:  # one thread makes it; the others wait for it rather than make it again
            with self._lock:
                if key in self._items:
                    return etag, self._items[key], MASKED_MIME
            with image_work():
                image = self._image(fray, campaign_id, scene.asset)
                if image is None:
                    return None
                masked = mask(image, blanked)
                del image
            with self._lock:
                self._items[key] = masked
                self._making.pop(key, None)
                while len(self._items) > self.size:
                    self._items.popitem(last=False)
        return etag, masked, MASKED_MIME

    def _image(self, fray: Fray, campaign_id: str, asset_id: str) -> Image.Image | None:
        with self._lock:
            if asset_id in self._decoded:
                self._decoded.move_to_end(asset_id)
                return self._decoded[asset_id]
        data = blob(fray, campaign_id, asset_id)
        if data is None:
            return None
        image = decode(data)
        del data
        with self._lock:
            self._decoded[asset_id] = image
            while len(self._decoded) > self.decoded_kept or (
                len(self._decoded) > 0
                and sum(_decoded_size(i) for i in self._decoded.values()) > self.decoded_bytes
            ):
                self._decoded.popitem(last=False)
        return image


def _decoded_size(image: Image.Image) -> int:
    return image.width * image.height * 4  # Pillow keeps RGB in four bytes a pixel


def holds(fray: Fray, campaign_id: str, asset_id: str) -> bool:
    with fray.db.read() as session:
        return session.get(CampaignAsset, (campaign_id, asset_id)) is not None


MASKS = MaskCache()
