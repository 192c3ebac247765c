"""Alembic environment: the project's SQLModel metadata on the configured database."""

from __future__ import annotations

from logging.config import fileConfig

from sqlmodel import SQLModel

from alembic import context
from loto_app.storage import models  # noqa: F401  (registers the tables)
from loto_app.storage.db import database_url, make_engine

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = SQLModel.metadata


def _url() -> str:
    return config.attributes.get("url") or database_url()


def run_migrations_offline() -> None:
    """Emit SQL without a connection."""
    context.configure(
        url=_url(), target_metadata=target_metadata, literal_binds=True, render_as_batch=True
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run migrations on a live connection."""
    connectable = config.attributes.get("connection") or make_engine(_url())
    if hasattr(connectable, "connect"):
        with connectable.connect() as connection:
            _run(connection)
    else:
        _run(connectable)


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
