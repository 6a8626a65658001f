"""The site's database: its connections and transactions (:mod:`.connections`), its tables
described once (:mod:`.schema`), their Alembic migrations (:mod:`.migrations`), a row into
its dataclass and back (:mod:`.rows`), and backups (:mod:`.backups`).

The package's face: the names the rest of the site uses, whichever module defines them.
"""

from .backups import BackupError, BackupReport, backup, restore
from .connections import MIGRATIONS, Database, StorageTables, to_the_end, upgrade_schema
from .schema import metadata

__all__ = [
    "BackupError",
    "BackupReport",
    "Database",
    "MIGRATIONS",
    "StorageTables",
    "backup",
    "metadata",
    "restore",
    "to_the_end",
    "upgrade_schema",
]
