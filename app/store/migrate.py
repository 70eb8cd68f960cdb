"""Apply Alembic migrations from code (`fray db upgrade`, `make run`, the tests)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from app.resources import ROOT

# PostgreSQL advisory lock held while migrating ("FRAY"): processes starting together migrate one at a time.
MIGRATION_LOCK = 0x46524159


def alembic_config(database_url: str) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["database_url"] = database_url
    config.attributes["configure_logger"] = False
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(database_url), revision)
