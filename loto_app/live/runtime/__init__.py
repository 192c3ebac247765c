"""The move path and the fan-out, no Reflex state in them: the registry, the evening in memory, the
broadcast, the reaper, the hall screens' pairing codes."""
