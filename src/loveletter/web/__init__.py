"""The browser game: ``loveletter serve`` (FastAPI app, SQLAlchemy store, a page of our own)."""
