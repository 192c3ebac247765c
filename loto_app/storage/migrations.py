"""Run Alembic migrations from code (the CLI, the app's start-up and the tests)."""

from __future__ import annotations

from pathlib import Path

from alembic.config import Config

from alembic import command

ROOT = Path(__file__).resolve().parents[2]


def alembic_config(url: str | None = None) -> Config:
    """The project's Alembic configuration, optionally on another database URL."""
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "alembic"))
    cfg.attributes["configure_logger"] = False
    if url:
        cfg.attributes["url"] = url
    return cfg


def upgrade(url: str | None = None) -> None:
    """Bring the database schema to the latest revision."""
    command.upgrade(alembic_config(url), "head")
