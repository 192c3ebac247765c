"""Untrusted input read into checked values: handler arguments, the organiser's program form, the
tie and dispute forms (pure)."""
