"""Alembic migrations of the game database (SQLite and PostgreSQL alike).

They ship inside the package: :func:`senet.service.games.storage.Storage.init` (so ``senet serve``)
and ``senet migrate`` upgrade the schema to ``head``; ``env.py`` takes the URL from the app's
configuration (``DATABASE_URL``), or a connection handed over by the caller.
"""
