"""The terminal game's screens."""
