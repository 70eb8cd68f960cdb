"""Which campaign holds which image: a campaign reads only the blobs it uploaded or imported.

Existing campaigns keep the images their logs added (`map.asset_added`) whose blobs are here.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27
"""

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "campaign_asset",
        sa.Column("campaign_id", sa.String(32), sa.ForeignKey("campaign.id"), primary_key=True),
        sa.Column("asset_id", sa.String(64), sa.ForeignKey("asset.id"), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("campaign_asset") as batch:
        batch.create_index("ix_campaign_asset_asset_id", ["asset_id"])
    connection = op.get_bind()
    event = sa.table("event", sa.column("campaign_id"), sa.column("type"), sa.column("data", sa.JSON))
    blobs = set(connection.scalars(sa.text("SELECT id FROM asset")))
    held = {
        (row.campaign_id, row.data["asset"]["id"])
        for row in connection.execute(
            sa.select(event.c.campaign_id, event.c.data).where(event.c.type == "map.asset_added")
        )
        if isinstance(row.data, dict) and isinstance(row.data.get("asset"), dict)
    }
    rows = [
        {"campaign_id": cid, "asset_id": aid, "created_at": datetime.now(UTC)}
        for cid, aid in sorted(held)
        if aid in blobs
    ]
    if rows:
        table = sa.table(
            "campaign_asset",
            sa.column("campaign_id", sa.String),
            sa.column("asset_id", sa.String),
            sa.column("created_at", sa.DateTime(timezone=True)),
        )
        op.bulk_insert(table, rows)


def downgrade() -> None:
    with op.batch_alter_table("campaign_asset") as batch:
        batch.drop_index("ix_campaign_asset_asset_id")
    op.drop_table("campaign_asset")
