"""Names for a scene's image by what it shows: the same image under the same fog has the same key.

Pure: a hash of the strokes, so an undo that lowers `fog_version` or a swapped image never reuses a URL a
browser holds for other pixels.
"""

from __future__ import annotations

import hashlib

import numpy as np
import shapely

from app.rules.map.state import FogOp

# Fog digests by the identity of the fog tuple (kept alive with it, so the id is not reused): a scene's fog
# is one tuple from change to change, hashed once however many views name it. Shared read-only.
_DIGESTS: dict[int, tuple[tuple[FogOp, ...], str]] = {}
_DIGESTS_KEPT = 4096


def fog_key(fog: tuple[FogOp, ...]) -> str:
    """A digest of the fog's strokes."""
    hit = _DIGESTS.get(id(fog))
    if hit is not None and hit[0] is fog:
        return hit[1]
    # The strokes' numbers as little-endian doubles: a scene of long outlines is hashed in a millisecond,
    # where a JSON dump took a good part of a second; the same bytes in every process.
    digest = hashlib.sha256()
    for op in fog:
        digest.update(op.op.encode())
        for shape in (op.rect, op.polygon):
            digest.update(b"-" if shape is None else b"|" + np.asarray(shape, dtype="<f8").tobytes())
    text = digest.hexdigest()[:32]
    if len(_DIGESTS) >= _DIGESTS_KEPT:
        _DIGESTS.clear()
    _DIGESTS[id(fog)] = (fog, text)
    return text


def image_key(asset: str, fog: tuple[FogOp, ...]) -> str:
    """The players' image's key: of the image and its fog, and naming neither (the asset id stays hidden)."""
    return hashlib.sha256(f"{asset}/{fog_key(fog)}".encode()).hexdigest()[:20]


def region_key(asset: str, region: shapely.Geometry) -> str:
    """The key of an image masked to a region (what a player explored): of the image and the region's
    outline in whole pixels (normalised, so the same area is the same key), naming neither."""
    shape = shapely.normalize(shapely.set_precision(region, 1.0))
    outline = hashlib.sha256(shapely.to_wkb(shape, byte_order=1)).hexdigest()
    return hashlib.sha256(f"{asset}/region/{outline}".encode()).hexdigest()[:20]
