"""Snapshots of folded state, so no request re-folds the whole log."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, insert, select

from app.store.db import Executor
from app.store.models import Snapshot, table_of, utcnow

T = table_of(Snapshot)


def latest(
    session: Executor, campaign_id: str, at_most: int | None = None
) -> tuple[int, str, dict[str, Any]] | None:
    query = select(T.c.seq, T.c.version, T.c.state).where(T.c.campaign_id == campaign_id)
    if at_most is not None:
        query = query.where(T.c.seq <= at_most)
    row = session.execute(query.order_by(T.c.seq.desc()).limit(1)).first()
    return (row.seq, row.version, row.state) if row else None


def save(session: Executor, campaign_id: str, seq: int, version: str, state: dict[str, Any]) -> None:
    session.execute(
        insert(T),
        [{"campaign_id": campaign_id, "seq": seq, "version": version, "state": state, "at": utcnow()}],
    )


def drop_from(session: Executor, campaign_id: str, seq: int) -> None:
    """Forget snapshots that include `seq`: an undo took it back."""
    session.execute(delete(T).where(T.c.campaign_id == campaign_id, T.c.seq >= seq))
