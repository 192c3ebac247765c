"""Durable storage: SQLModel tables, Alembic migrations, and the evening's event log."""
