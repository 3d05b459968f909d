"""Alembic migrations of the web app's database, run at startup by ``storage.migrate``."""
