"""Tables. The event log is the truth; participant and encounter rows are projections of it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, DateTime, Index, Integer, LargeBinary, Table, UniqueConstraint
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(UTC)


def table_of(model: type[SQLModel]) -> Table:
    """The Core table SQLAlchemy maps a model to (SQLModel's type hints leave `__table__` out)."""
    table: Table = model.__table__  # type: ignore[attr-defined]  # set by SQLAlchemy's mapping
    return table


def _when(**kwargs: Any) -> Any:
    return Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False), **kwargs)


class Campaign(SQLModel, table=True):
    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(max_length=60)
    system: str = Field(max_length=32)
    invite_code: str = Field(max_length=64, unique=True)
    spectator_code: str = Field(max_length=64, unique=True)
    created_at: datetime = _when()


class Seat(SQLModel, table=True):
    id: str = Field(primary_key=True, max_length=32)
    campaign_id: str = Field(foreign_key="campaign.id", index=True, max_length=32)
    role: str = Field(max_length=16)  # gm | player | spectator
    name: str = Field(max_length=40)
    token_hash: str = Field(max_length=64, unique=True)  # sha256 of a random 32-byte token
    created_at: datetime = _when()
    revoked_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )


class EventRow(SQLModel, table=True):
    __tablename__ = "event"
    __table_args__ = (
        # The concurrency control: two writers race for the next seq, exactly one wins.
        UniqueConstraint("campaign_id", "seq", name="uq_event_campaign_seq"),
        UniqueConstraint("campaign_id", "command_id", name="uq_event_campaign_command"),
        Index("ix_event_campaign_encounter", "campaign_id", "encounter_id", "seq"),
        Index("ix_event_campaign_batch", "campaign_id", "batch"),
    )

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: str = Field(foreign_key="campaign.id", max_length=32)
    seq: int
    type: str = Field(max_length=64)
    data: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    # The version of its type's payload the record was written at (app/rules/events.py): kept as written,
    # upcast on load. Rows from before versions existed are version 1.
    version: int = Field(default=1, sa_column=Column(Integer, nullable=False, server_default="1"))
    audience: str = Field(default="all", max_length=400)
    actor: str | None = Field(default=None, max_length=32)
    encounter_id: str | None = Field(default=None, max_length=32)
    batch: int
    command_id: str | None = Field(default=None, max_length=64)  # only on a command's first event
    at: datetime = _when()


class Snapshot(SQLModel, table=True):
    campaign_id: str = Field(foreign_key="campaign.id", primary_key=True, max_length=32)
    seq: int = Field(primary_key=True)
    version: str = Field(max_length=32)
    state: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    at: datetime = _when()


class ParticipantRow(SQLModel, table=True):
    __tablename__ = "participant"

    campaign_id: str = Field(foreign_key="campaign.id", primary_key=True, max_length=32)
    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(max_length=60)
    kind: str = Field(max_length=8)
    owner_seat_id: str | None = Field(default=None, max_length=32)
    hidden: bool = False


class EncounterRow(SQLModel, table=True):
    __tablename__ = "encounter"

    campaign_id: str = Field(foreign_key="campaign.id", primary_key=True, max_length=32)
    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(max_length=60)
    status: str = Field(max_length=16)
    started_seq: int | None = None
    ended_seq: int | None = None


class AssetBlob(SQLModel, table=True):
    """An uploaded image, re-encoded, kept in the database by its content hash so every process serves it.

    Which campaigns may read it is in `campaign_asset`, never in a log: a log can be forged, the table
    is written only by the upload and import code, for the bytes they were given.
    """

    __tablename__ = "asset"

    id: str = Field(primary_key=True, max_length=64)  # sha256 of `data`
    mime: str = Field(max_length=32)
    width: int
    height: int
    size: int
    data: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    created_at: datetime = _when()


class VisionTile(SQLModel, table=True):
    """A vision tile kept in the blob table: a cache, made again from its image whenever it is asked for
    and missing, so the oldest go when tiles pass their budget (`FRAY_VISION_TILE_BYTES`). Its own table
    so that weighing them never reads the blobs themselves."""

    __tablename__ = "vision_tile"

    id: str = Field(primary_key=True, max_length=64)  # its blob's id
    size: int
    made_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False, index=True)
    )


class CampaignAsset(SQLModel, table=True):
    """A campaign holds an image: it uploaded or imported these bytes. The only key to reading a blob."""

    __tablename__ = "campaign_asset"

    campaign_id: str = Field(foreign_key="campaign.id", primary_key=True, max_length=32)
    asset_id: str = Field(foreign_key="asset.id", primary_key=True, max_length=64, index=True)
    created_at: datetime = _when()
