"""Vision tiles weighed apart from the blobs, so that they can be kept within a budget.

Tiles made before are the blobs no campaign holds: each gets its row, made when its blob was.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "vision_tile",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("vision_tile") as batch:
        batch.create_index("ix_vision_tile_made_at", ["made_at"])
    op.execute(
        "INSERT INTO vision_tile (id, size, made_at)"
        " SELECT id, size, created_at FROM asset"
        " WHERE id NOT IN (SELECT asset_id FROM campaign_asset)"
    )


def downgrade() -> None:
    with op.batch_alter_table("vision_tile") as batch:
        batch.drop_index("ix_vision_tile_made_at")
    op.drop_table("vision_tile")
