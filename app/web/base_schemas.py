"""The two kinds of reply model: closed (exactly these fields) and open (a view a system may add to)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Closed(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Open(BaseModel):
    """Typed where every system agrees; whatever else a system sends is kept as it is."""

    model_config = ConfigDict(extra="allow")
