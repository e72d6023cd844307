"""The SQLite adapter: every game's event log, the settings, the remembered
players and the history in one data file (docs/game-log.md).

It knows the core and nothing else (an import contract in pyproject.toml).
Each job has a module of its own:

| module | job |
|---|---|
| ``store`` | :class:`Store`, the file opened, and :func:`open_or_set_aside` |
| ``lock`` | the writer's lock, on the data file itself |
| ``files`` | is it there, is it SQLite, may we write it, setting a bad file aside |
| ``errors`` | :class:`StoreError` and its kinds; SQLite's and the system's errors classified |
| ``schema`` | the tables: made, checked on every open, migrated forward |
| ``db`` | the connection's transactions, shared by the parts below |
| ``log`` | the event log: new game, append, read back |
| ``settings`` | a game's options and the device's settings |
| ``players`` | the remembered players and who sat where |
| ``history`` | the read model: games newest first with their summaries, the unfinished game |
"""

from storage.errors import (
    DamagedFile,
    InUse,
    NewerFile,
    NoAccess,
    NotOurFile,
    StorageFailed,
    StoreError,
)
from storage.files import is_sqlite
from storage.log import GameInfo
from storage.schema import APPLICATION_ID, SCHEMA_VERSION
from storage.store import Store, open_or_set_aside, utc_now

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "DamagedFile",
    "GameInfo",
    "InUse",
    "NewerFile",
    "NoAccess",
    "NotOurFile",
    "StorageFailed",
    "Store",
    "StoreError",
    "is_sqlite",
    "open_or_set_aside",
    "utc_now",
]
