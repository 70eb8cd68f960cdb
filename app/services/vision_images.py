"""A vision scene's players' images and tiles made and kept: whole images in this process, tiles in the
database's blob table by their content key, for every process (what they hold: `map_tiles`)."""

from __future__ import annotations

import threading
from collections import OrderedDict

from sqlalchemy.exc import IntegrityError

from app.rules.map.sight import Sight
from app.rules.map.state import Scene
from app.rules.map.tiles import viewer_tiles
from app.services import map_images, tile_budget
from app.services.context import Fray
from app.services.map_tiles import MIME, blank_outside
from app.store.models import AssetBlob, VisionTile

IMAGES_KEPT = 24


class VisionImages:
    """Whole images by their key (of their tiles' keys), kept in this process; tiles in the blob table,
    for every process."""

    def __init__(self, size: int = IMAGES_KEPT):
        self.size = size
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def image(
        self, fray: Fray, campaign_id: str, scene: Scene, sight: Sight
    ) -> tuple[str, bytes, str] | None:
        """(ETag, bytes, media type) of the whole image as this sight may hold it (`tiles.viewer_tiles`:
        the ETag is the view's `image_url` key); None without an image."""
        tiles = viewer_tiles(sight, scene)
        if tiles is None or not map_images.holds(fray, campaign_id, tiles.asset):
            return None
        etag = tiles.version
        with self._lock:
            if etag in self._items:
                self._items.move_to_end(etag)
                return etag, self._items[etag], MIME
        with map_images.image_work():
            decoded = map_images.MASKS.decoded(fray, campaign_id, tiles.asset)
            if decoded is None:
                return None
            made = blank_outside(decoded, tiles.region, tiles=tiles)
            del decoded
        with self._lock:
            self._items[etag] = made
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return etag, made, MIME

    def tile(
        self, fray: Fray, campaign_id: str, scene: Scene, sight: Sight, tx: int, ty: int
    ) -> tuple[str, bytes, str] | None:
        """(ETag, bytes, media type) of one tile as this sight may hold it (`tiles.viewer_tiles`: the
        ETag is the `v` of the view's URL for it); None off the image, outside the region or without an
        image."""
        tiles = viewer_tiles(sight, scene)
        tile = tiles.tile(tx, ty) if tiles is not None else None
        if tiles is None or tile is None or not map_images.holds(fray, campaign_id, tiles.asset):
            return None
        x, y, w, h, clipped, key = tile.x, tile.y, tile.w, tile.h, tile.clipped, tile.key
        with fray.db.read() as session:
            row = session.get(AssetBlob, key)
            if row is not None:
                return key[:20], bytes(row.data), row.mime
        with map_images.image_work():
            decoded = map_images.MASKS.decoded(fray, campaign_id, tiles.asset)
            if decoded is None:
                return None
            made = blank_outside(decoded.crop(x, y, w, h), clipped, x, y)
            del decoded
        stored = False
        try:
            with fray.db.write() as session:
                if session.get(AssetBlob, key) is None:
                    session.add(AssetBlob(id=key, mime=MIME, width=w, height=h, size=len(made), data=made))
                    session.add(VisionTile(id=key, size=len(made)))
                    stored = True
        except IntegrityError:  # another process made the same tile at the same time: the same bytes
            stored = False
        if stored:
            tile_budget.BUDGET.made(fray, len(made))
        return key[:20], made, MIME


VISION = VisionImages()
