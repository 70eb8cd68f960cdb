"""Map images: checked and re-encoded on upload, kept in the database, fog-masked for the players.

The players' image is made once per fog change (not once per viewer) and kept in a small cache keyed by
the image and the fog's strokes, so every player of every table with the same fog shares one copy.

A campaign reads only the blobs it holds (`campaign_asset`: it uploaded or imported their bytes); an id
named in its log is not enough. Decoding and encoding take one of a few slots per process (`image_work`),
so several big uploads at once queue instead of stacking their memory (docs/performance.md).

libvips (pyvips) decodes and encodes: it reads a file a strip at a time as the encoder pulls, so an
image's memory is what its encoder must hold, not decoded copies. Pillow draws the fog's shapes.
"""

from __future__ import annotations

import ctypes
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pyvips
from PIL import Image as PILImage
from PIL import ImageDraw
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from sqlmodel import col

from app.rules.errors import InputError, RuleError
from app.rules.map.fog import image_key
from app.rules.map.state import FogOp, Scene
from app.services.context import Fray
from app.store.models import AssetBlob, CampaignAsset

MIME = "image/webp"
FOG_COLOUR = (24, 26, 31)
WEBP_QUALITY = 82
JPEG_QUALITY = 85
MASKED_MIME = "image/jpeg"
# WebP is decoded and encoded whole: through libvips about 7 bytes a pixel to encode (15 when the alpha
# channel hides something: libwebp compresses it losslessly, in several whole-size buffers) and 8 to
# decode for the players' image. Past these an image is kept as JPEG, or PNG when it has see-through
# parts, which libvips reads and writes a strip at a time (docs/performance.md).
WEBP_PIXELS = 10_000_000
WEBP_ALPHA_PIXELS = 6_000_000
CACHE_SIZE = 24
DECODED_KEPT = 2  # a 4096-pixel map is 48 MB decoded: keep the scenes in play, not the library
DECODED_BYTES = 64 * 1024 * 1024  # and never more than this decoded (a bigger image is decoded per mask)
DECODES_AT_ONCE = 1  # per process: one big image is ~150 MB while it is decoded and encoded
WAIT_FOR_DECODE = 10.0  # seconds a request waits for a slot before it is told to come back
BUSY_RETRY_AFTER = 5
IMAGE_WORK = threading.BoundedSemaphore(DECODES_AT_ONCE)

pyvips.cache_set_max(0)  # libvips' cache of operations would keep the pixels of images long done with
pyvips.concurrency_set(1)  # an image job takes one core; the loop and other requests have the rest


class TooLarge(RuleError):
    status = 413


@dataclass(frozen=True)
class Prepared:
    id: str
    data: bytes
    width: int
    height: int
    mime: str = MIME


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
        _trim()
        IMAGE_WORK.release()


try:  # glibc's, where there is one (musl and macOS have none: nothing to give back there)
    _MALLOC_TRIM = getattr(ctypes.CDLL("libc.so.6"), "malloc_trim", None)
except OSError:
    _MALLOC_TRIM = None


def _trim() -> None:
    """A big image's freed memory goes back to the system, rather than stay the process's until a later
    allocation happens to reuse it (the next image job would start from there)."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


def prepare(raw: bytes, max_bytes: int, max_side: int, max_pixels: int) -> Prepared:
    """A checked upload, re-encoded (`_encoded` says as what); InputError/TooLarge with a sentence when it
    is not fit."""
    if len(raw) > max_bytes:
        raise TooLarge(f"That image is too large: at most {max_bytes / 1024 / 1024:g} MB.")
    if not raw:
        raise InputError("That file is empty: choose a PNG, JPEG or WebP image.")
    loader = _loader(raw)
    if loader is None:
        raise InputError("That file is not a PNG, JPEG or WebP image.")
    try:
        # Only the header is read here: the pixels are decoded as the encoder asks for them.
        image = loader(raw)
        width, height = image.width, image.height
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
            data, mime = _encoded(image, lambda: loader(raw))
    except pyvips.Error:
        raise InputError("That image is damaged or cut short: save it again and retry.") from None
    return Prepared(id=hashlib.sha256(data).hexdigest(), data=data, width=width, height=height, mime=mime)


def _loader(raw: bytes) -> Callable[[bytes], pyvips.Image] | None:
    """The decoder for the file's kind, told by its first bytes: only these three ever see an upload."""
    if raw.startswith(b"\x89PNG\r\n\x1a\n"):
        name = "pngload_buffer"
    elif raw.startswith(b"\xff\xd8\xff"):
        name = "jpegload_buffer"
    elif raw[:4] == b"RIFF" and raw[8:12] == b"WEBP":
        name = "webpload_buffer"
    else:
        return None
    # Sequential: decoded a strip at a time as the encoder pulls; a file cut short is an error, not black.
    return lambda data: pyvips.Operation.call(name, data, access="sequential", fail_on="truncated")


def _example_sides(pixels: int) -> str:
    side = int((pixels * 3 / 4) ** 0.5)
    return f"{side * 4 // 3} by {side}"


def _encoded(image: pyvips.Image, again: Callable[[], pyvips.Image]) -> tuple[bytes, str]:
    """WebP while libwebp's whole-picture buffers fit the memory budget; past it, formats that libvips
    writes a strip at a time: JPEG for an opaque image, PNG for one that has see-through parts.
    `again` decodes the file anew (a sequential image is read once)."""
    image = _flat(image)
    pixels = image.width * image.height
    if image.hasalpha() and pixels > WEBP_ALPHA_PIXELS:
        if _flat(again())[image.bands - 1].min() < 255:
            return image.pngsave_buffer(compression=6, keep="none"), "image/png"
        image = image[: image.bands - 1]  # an alpha channel that hides nothing (most exported PNGs)
    if pixels > WEBP_PIXELS:
        return image.jpegsave_buffer(Q=JPEG_QUALITY, keep="none"), "image/jpeg"
    return image.webpsave_buffer(Q=WEBP_QUALITY, effort=4, keep="none"), MIME


def _flat(image: pyvips.Image) -> pyvips.Image:
    """Eight-bit sRGB (grey, 16-bit and CMYK files converted), with alpha when the file has it."""
    if image.interpretation != "srgb" or image.format != "uchar":
        image = image.colourspace("srgb")
    return image if image.format == "uchar" else image.cast("uchar")


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
                mime=prepared.mime,
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


def blob(fray: Fray, campaign_id: str, asset_id: str) -> tuple[bytes, str] | None:
    """The image's bytes and media type, if this campaign holds it (uploaded or imported it): None
    otherwise."""
    with fray.db.read() as session:
        if session.get(CampaignAsset, (campaign_id, asset_id)) is None:
            return None
        row = session.get(AssetBlob, asset_id)
        return (bytes(row.data), row.mime) if row else None


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


def decode(data: bytes) -> pyvips.Image:
    """The stored image, flat: what the players get has no holes (an alpha channel is dropped, as the
    players' image always did). Decoded as it is read, once; `copy_memory()` keeps it for more."""
    image = pyvips.Image.new_from_buffer(data, "", access="sequential")
    return image[:3] if image.bands > 3 else image


def mask(image: pyvips.Image, fog: tuple[FogOp, ...]) -> bytes:
    """The image with every covered part blanked: what the players are sent (JPEG: written a strip at a
    time). The covered area is drawn by Pillow, as it always was; libvips sets it to the fog colour."""
    size = (image.width, image.height)
    # One byte a pixel, shared: Pillow draws into the buffer libvips then reads (no copy between them).
    shared = bytearray(size[0] * size[1])
    covered = PILImage.frombuffer("L", size, shared, "raw", "L", 0, 1)
    covered.readonly = False  # a bytearray is writable: draw in it rather than on a private copy
    draw = ImageDraw.Draw(covered)
    for op in fog:
        fill = 255 if op.op == "cover" else 0
        if op.rect is not None:
            x, y, w, h = op.rect
            draw.rectangle((x, y, x + w, y + h), fill=fill)
        elif op.polygon is not None:
            draw.polygon([tuple(p) for p in op.polygon], fill=fill)
        else:
            covered.paste(fill, (0, 0, *size))
    del draw, covered
    cover = pyvips.Image.new_from_memory(shared, *size, 1, "uchar")
    blanked = cover.ifthenelse(list(FOG_COLOUR), image)
    return bytes(blanked.jpegsave_buffer(Q=JPEG_QUALITY, keep="none"))


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
        self._decoded: OrderedDict[str, pyvips.Image] = OrderedDict()
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
        etag = image_key(scene.asset, blanked, scene)
        if not any(op.op == "cover" for op in blanked):
            stored = blob(fray, campaign_id, scene.asset)
            return (etag, *stored) if stored is not None else None
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

    def decoded(self, fray: Fray, campaign_id: str, asset_id: str) -> pyvips.Image | None:
        """The scene's image decoded (kept while in play; call within `image_work`)."""
        return self._image(fray, campaign_id, asset_id)

    def _image(self, fray: Fray, campaign_id: str, asset_id: str) -> pyvips.Image | None:
        with self._lock:
            if asset_id in self._decoded:
                self._decoded.move_to_end(asset_id)
                return self._decoded[asset_id]
        stored = blob(fray, campaign_id, asset_id)
        if stored is None:
            return None
        image = decode(stored[0])
        del stored
        if _decoded_size(image) > self.decoded_bytes:
            return image  # decoded for this mask alone, a strip at a time where its format allows
        image = image.copy_memory()
        with self._lock:
            self._decoded[asset_id] = image
            while len(self._decoded) > self.decoded_kept or (
                len(self._decoded) > 0
                and sum(_decoded_size(i) for i in self._decoded.values()) > self.decoded_bytes
            ):
                self._decoded.popitem(last=False)
        return image


def _decoded_size(image: pyvips.Image) -> int:
    return int(image.width * image.height * image.bands)


def holds(fray: Fray, campaign_id: str, asset_id: str) -> bool:
    with fray.db.read() as session:
        return session.get(CampaignAsset, (campaign_id, asset_id)) is not None


MASKS = MaskCache()
