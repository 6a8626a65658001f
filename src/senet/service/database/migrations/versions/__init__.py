"""The migrations, one file each, numbered in the order they apply.

A file's revision id is the name it was first given (``0005_players``, ``0006_bots``, ...):
existing databases keep that id in ``alembic_version``, so it never changes; the file names were
renumbered once to sort in the order of the chain (``tests/service/test_schema.py``).
"""
