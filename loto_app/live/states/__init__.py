"""Reflex states: what each screen holds, its handlers (check the caller, play a move)."""
