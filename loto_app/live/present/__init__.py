"""What screens show, as plain values (pure): the public picture, a player's private view, the
report's summary."""
