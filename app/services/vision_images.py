"""A vision scene's players' images and tiles made and kept: whole images in this process, tiles in the
database's blob table by their content key, for every process (what they hold: `map_tiles`)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from sqlalchemy.exc import IntegrityError

from app.rules.map.state import FogOp, Scene
from app.services import map_images
from app.services.context import Fray
from app.services.map_tiles import (
    MIME,
    blank_outside,
    image_version,
    kept_region,
    tile_box,
    tile_key,
    tile_of,
)
from app.store.models import AssetBlob

IMAGES_KEPT = 24


class VisionImages:
    """Whole images by (asset, region), kept in this process; tiles in the blob table, for every process."""

    def __init__(self, size: int = IMAGES_KEPT):
        self.size = size
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def image(
        self, fray: Fray, campaign_id: str, scene: Scene, explored: Any, fog: tuple[FogOp, ...]
    ) -> tuple[str, bytes, str] | None:
        """(ETag, bytes, media type) of the whole image, only the explored region less the fog kept;
        None without an image."""
        region = kept_region(explored, fog, scene.width, scene.height)
        if scene.asset is None or not map_images.holds(fray, campaign_id, scene.asset):
            return None
        etag = image_version(scene.asset, region, scene.width, scene.height)
        with self._lock:
            if etag in self._items:
                self._items.move_to_end(etag)
                return etag, self._items[etag], MIME
        with map_images.image_work():
            decoded = map_images.MASKS.decoded(fray, campaign_id, scene.asset)
            if decoded is None:
                return None
            made = blank_outside(decoded, region)
            del decoded
        with self._lock:
            self._items[etag] = made
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return etag, made, MIME

    def tile(
        self,
        fray: Fray,
        campaign_id: str,
        scene: Scene,
        explored: Any,
        fog: tuple[FogOp, ...],
        tx: int,
        ty: int,
    ) -> tuple[str, bytes, str] | None:
        """(ETag, bytes, media type) of one tile, clipped to the explored region less the fog; None off
        the image, outside the region or without an image."""
        region = kept_region(explored, fog, scene.width, scene.height)
        box = tile_box(tx, ty, scene.width, scene.height)
        if scene.asset is None or box is None or not map_images.holds(fray, campaign_id, scene.asset):
            return None
        x, y, w, h = box
        clipped = tile_of(region, tx, ty, scene.width, scene.height)
        if clipped is None:
            return None
        key = tile_key(scene.asset, tx, ty, clipped)
        with fray.db.read() as session:
            row = session.get(AssetBlob, key)
            if row is not None:
                return key[:20], bytes(row.data), row.mime
        with map_images.image_work():
            decoded = map_images.MASKS.decoded(fray, campaign_id, scene.asset)
            if decoded is None:
                return None
            made = blank_outside(decoded.crop(x, y, w, h), clipped, x, y)
            del decoded
        try:
            with fray.db.write() as session:
                if session.get(AssetBlob, key) is None:
                    session.add(AssetBlob(id=key, mime=MIME, width=w, height=h, size=len(made), data=made))
        except IntegrityError:  # another process made the same tile at the same time: the same bytes
            pass
        return key[:20], made, MIME


VISION = VisionImages()
