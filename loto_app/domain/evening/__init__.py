"""The evening, one module a concern (see engine.py for the whole)."""
