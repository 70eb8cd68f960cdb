"""Token pictures as the web layer asks for them: upload one, read one to frame it, a token's framed square.

A picture is an image of the campaign like a map image (checked, re-encoded, within the campaign's
storage, held through `campaign_asset`), kept small: at most `PICTURE_SIDE` pixels a side, WebP. A
token shows the square of it its crop frames, which is cut out here and sent alone: a viewer who sees a
token gets that square and never the rest of the image (which may be a map under fog).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

import pyvips
from anyio import to_thread

from app.rules.errors import Forbidden
from app.rules.map.sight import Sight
from app.rules.map.state import Token
from app.rules.map.view import picture_key
from app.services import commands, map_images, reads
from app.services.auth import SeatAuth
from app.services.context import Fray

PICTURE_SIDE = 512  # an upload's longest side, at most
SHOWN_SIDE = 256  # a token's square as it is sent: sharp on a TV's biggest token
KEPT = 256  # framed squares kept (a few kB each), shared by every table: the key names image and frame


def shrink(prepared: map_images.Prepared) -> map_images.Prepared:
    """A checked upload made small: at most `PICTURE_SIDE` a side, WebP (with its alpha, if any)."""
    with map_images.image_work():
        image = pyvips.Image.thumbnail_buffer(prepared.data, PICTURE_SIDE, height=PICTURE_SIDE, size="down")
        data = bytes(image.webpsave_buffer(Q=map_images.WEBP_QUALITY, effort=4, keep="none"))
    return map_images.Prepared(
        id=hashlib.sha256(data).hexdigest(), data=data, width=image.width, height=image.height
    )


def prepare(raw: bytes, max_bytes: int, max_side: int, max_pixels: int) -> map_images.Prepared:
    return shrink(map_images.prepare(raw, max_bytes, max_side, max_pixels))


async def upload(fray: Fray, seat: SeatAuth, raw: bytes, filename: str | None) -> map_images.Prepared:
    """Check, shrink and keep an uploaded picture within the campaign's storage, listed with its images:
    a player's marked as theirs to put on their characters' tokens."""
    if seat.role not in ("gm", "player"):
        raise Forbidden("Only the GM and the players give tokens pictures.")
    settings = fray.settings
    prepared = await to_thread.run_sync(
        prepare, raw, settings.max_upload_bytes, settings.max_image_side, settings.max_image_pixels
    )
    del raw
    await to_thread.run_sync(
        map_images.store, fray, prepared, seat.campaign_id, settings.campaign_storage_bytes
    )
    _, state = await reads.current_async(fray, seat)
    asset = state.map.asset(prepared.id)
    if asset is None or not (seat.is_gm or seat.seat_id in asset.seats):
        payload = {
            "type": "map.picture.add",
            "asset": prepared.id,
            "name": (filename or "")[:120],
            "width": prepared.width,
            "height": prepared.height,
        }
        await commands.run(fray, seat, payload, internal=True)
    return prepared


async def source(fray: Fray, seat: SeatAuth, asset_id: str) -> tuple[bytes, str]:
    """A picture whole, to frame it: the GM's any image of the campaign; a player's own uploads only."""
    _, state = await reads.current_async(fray, seat)
    asset = state.map.asset(asset_id)
    if asset is None or not (seat.is_gm or seat.seat_id in asset.seats):
        raise reads.NotFound("There is no such image in this campaign.")
    stored = await to_thread.run_sync(map_images.blob, fray, seat.campaign_id, asset_id)
    if stored is None:
        raise reads.NotFound("There is no such image in this campaign.")
    return stored


async def framed(fray: Fray, seat: SeatAuth, token_id: str, page: str | None = None) -> tuple[str, bytes]:
    """The square of its picture a token shows, for a seat that sees the token: (its key, WebP bytes)."""
    game, state = await reads.current_async(fray, seat)
    viewer = reads.viewer_of(state, seat, page)
    token = state.map.token(token_id)
    if (
        token is None
        or token.image is None
        or not Sight(state, viewer, game.as_seen_by(state, viewer)).token(token)
    ):
        raise reads.NotFound("That token has no picture to show.")
    data = await to_thread.run_sync(FRAMED.get, fray, seat.campaign_id, token)
    if data is None:
        raise reads.NotFound("That token has no picture to show.")
    return picture_key(token), data


def cut(data: bytes, token: Token) -> bytes:
    """The framed square of a stored image, at most `SHOWN_SIDE` pixels a side, WebP."""
    image = pyvips.Image.new_from_buffer(data, "")
    crop = token.crop
    if crop is None:
        side = min(image.width, image.height)
        left, top = (image.width - side) // 2, (image.height - side) // 2
    else:
        side = max(1, min(round(crop.size), image.width, image.height))
        left = min(max(0, round(crop.x)), image.width - side)
        top = min(max(0, round(crop.y)), image.height - side)
    square = image.crop(left, top, side, side)
    if side > SHOWN_SIDE:
        square = square.resize(SHOWN_SIDE / side)
    return bytes(square.webpsave_buffer(Q=map_images.WEBP_QUALITY, effort=4, keep="none"))


class FramedCache:
    """Framed squares by (image, frame): cut once, shared by every viewer; the campaign's hold on the
    image is asked each time (the cache is shared by campaigns)."""

    def __init__(self, size: int = KEPT):
        self.size = size
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, fray: Fray, campaign_id: str, token: Token) -> bytes | None:
        assert token.image is not None
        key = picture_key(token)
        if not map_images.holds(fray, campaign_id, token.image):
            return None
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        stored = map_images.blob(fray, campaign_id, token.image)
        if stored is None:
            return None
        with map_images.image_work():
            try:
                data = cut(stored[0], token)
            except pyvips.Error:
                return None
        with self._lock:
            self._items[key] = data
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return data


FRAMED = FramedCache()
