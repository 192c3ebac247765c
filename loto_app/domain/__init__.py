"""The rules of the loto evening, in pure Python: the engine, the cartons, the verdicts, the
till. Knows nothing of Reflex, the database or the servers (pyproject.toml: import-linter)."""
