"""Love Letter: rules engine, game records, terminal game and bots."""

__version__ = "0.1.0"
