"""Names for a scene's image by what it shows: the same image under the same fog has the same key.

Pure: a hash of the strokes, so an undo that lowers `fog_version` or a swapped image never reuses a URL a
browser holds for other pixels.
"""

from __future__ import annotations

import hashlib

import numpy as np
from pydantic import BaseModel

from app.rules.contract.frozen import kept
from app.rules.map.state import FogOp


def fog_key(fog: tuple[FogOp, ...], owner: BaseModel | None = None) -> str:
    """A digest of the fog's strokes. `owner`: the scene the fog belongs to, where the digest is kept
    (`kept`): a scene's fog is one tuple from change to change, hashed once however many views name it."""
    if owner is not None:
        return kept(owner, "_fog_key", (fog,), lambda: _digest(fog))
    return _digest(fog)


def _digest(fog: tuple[FogOp, ...]) -> str:
    # The strokes' numbers as little-endian doubles: a scene of long outlines is hashed in a millisecond,
    # where a JSON dump took a good part of a second; the same bytes in every process.
    digest = hashlib.sha256()
    for op in fog:
        digest.update(op.op.encode())
        for shape in (op.rect, op.polygon):
            digest.update(b"-" if shape is None else b"|" + np.asarray(shape, dtype="<f8").tobytes())
    return digest.hexdigest()[:32]


def image_key(asset: str, fog: tuple[FogOp, ...], owner: BaseModel | None = None) -> str:
    """The players' image's key: of the image and its fog, and naming neither (the asset id stays hidden).
    `owner` as for `fog_key`."""
    return hashlib.sha256(f"{asset}/{fog_key(fog, owner)}".encode()).hexdigest()[:20]
