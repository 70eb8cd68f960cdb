"""The players' vision tiles kept within their budget in the database (`FRAY_VISION_TILE_BYTES`).

A tile is made from its image and the region its viewer may hold (app/services/vision_images.py), and
every step of a token into the dark makes new ones; kept for good, a campaign played weekly would add
hundreds of megabytes a year of tiles no phone asks for any more. Tiles are a cache: one missing is made
again, the same bytes under the same name, when a phone asks. So once all tiles weigh more than the
budget, the oldest made go until they weigh three quarters of it. Whether to look is decided by what this
process made since it last looked (an eighth of the budget), so a tile served costs no query; several
processes each look for themselves, and deleting what another deleted first deletes nothing.
"""

from __future__ import annotations

import threading

from sqlalchemy import delete, func, select
from sqlmodel import col

from app.services.context import Fray
from app.store.models import AssetBlob, CampaignAsset, VisionTile

KEPT_AFTER = 0.75  # of the budget, once it was passed: a look every few tiles would be a look per tile
BATCH = 500  # ids a DELETE names at once


class TileBudget:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._made: int | None = None  # bytes of tiles made since the last look; None: never looked

    def made(self, fray: Fray, size: int) -> int:
        """Count a tile this process made; look at all tiles when an eighth of the budget was made since
        the last look (or at the first tile since start). Returns the tiles dropped."""
        budget = fray.settings.vision_tile_bytes
        with self._lock:
            made = (self._made or 0) + size
            due = self._made is None or made >= budget // 8
            self._made = 0 if due else made
        return keep_within(fray, budget) if due else 0


def keep_within(fray: Fray, budget: int) -> int:
    """Drop the oldest tiles while all weigh more than the budget, down to `KEPT_AFTER` of it. A blob a
    campaign holds is never dropped, whatever the tile table says. Returns how many went."""
    with fray.db.write() as session:
        total = session.scalar(select(func.coalesce(func.sum(VisionTile.size), 0))) or 0
        if total <= budget:
            return 0
        # Read whole before any delete: no cursor is left open on the table the deletes change.
        oldest = session.execute(
            select(col(VisionTile.id), col(VisionTile.size)).order_by(
                col(VisionTile.made_at), col(VisionTile.id)
            )
        ).all()
        dropped: list[str] = []
        for tile_id, size in oldest:
            if total <= budget * KEPT_AFTER:
                break
            dropped.append(tile_id)
            total -= size
        held = select(col(CampaignAsset.asset_id))
        for start in range(0, len(dropped), BATCH):
            ids = dropped[start : start + BATCH]
            session.execute(delete(VisionTile).where(col(VisionTile.id).in_(ids)))
            session.execute(
                delete(AssetBlob).where(col(AssetBlob.id).in_(ids), col(AssetBlob.id).not_in(held))
            )
    return len(dropped)


BUDGET = TileBudget()
