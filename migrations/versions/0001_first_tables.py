"""The first tables: campaign, seat, the event log, snapshots, participant and encounter projections.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _when(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "campaign",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("system", sa.String(32), nullable=False),
        sa.Column("invite_code", sa.String(64), nullable=False, unique=True),
        sa.Column("spectator_code", sa.String(64), nullable=False, unique=True),
        _when("created_at"),
    )
    op.create_table(
        "seat",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("campaign_id", sa.String(32), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        _when("created_at"),
        _when("revoked_at", nullable=True),
    )
    with op.batch_alter_table("seat") as batch:
        batch.create_index("ix_seat_campaign_id", ["campaign_id"])
    op.create_table(
        "event",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("campaign_id", sa.String(32), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("type", sa.String(64), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("audience", sa.String(400), nullable=False),
        sa.Column("actor", sa.String(32), nullable=True),
        sa.Column("encounter_id", sa.String(32), nullable=True),
        sa.Column("batch", sa.Integer, nullable=False),
        sa.Column("command_id", sa.String(64), nullable=True),
        _when("at"),
        sa.UniqueConstraint("campaign_id", "seq", name="uq_event_campaign_seq"),
        sa.UniqueConstraint("campaign_id", "command_id", name="uq_event_campaign_command"),
    )
    with op.batch_alter_table("event") as batch:
        batch.create_index("ix_event_campaign_encounter", ["campaign_id", "encounter_id", "seq"])
        batch.create_index("ix_event_campaign_batch", ["campaign_id", "batch"])
    op.create_table(
        "snapshot",
        sa.Column("campaign_id", sa.String(32), sa.ForeignKey("campaign.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("version", sa.String(32), nullable=False),
        sa.Column("state", sa.JSON, nullable=False),
        _when("at"),
    )
    op.create_table(
        "participant",
        sa.Column("campaign_id", sa.String(32), sa.ForeignKey("campaign.id"), primary_key=True),
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("owner_seat_id", sa.String(32), nullable=True),
        sa.Column("hidden", sa.Boolean, nullable=False),
    )
    op.create_table(
        "encounter",
        sa.Column("campaign_id", sa.String(32), sa.ForeignKey("campaign.id"), primary_key=True),
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("started_seq", sa.Integer, nullable=True),
        sa.Column("ended_seq", sa.Integer, nullable=True),
    )


def downgrade() -> None:
    for table in ("encounter", "participant", "snapshot", "event", "seat", "campaign"):
        op.drop_table(table)
