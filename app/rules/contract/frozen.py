"""The base of the contract's value objects: immutable, and refusing fields they do not know."""

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
