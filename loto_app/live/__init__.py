"""The live game: thin Reflex states. Check the caller, call the engine, commit, publish."""
