"""What goes wrong with the data file, and how a failure of SQLite or of the
system becomes one of these, each with a one-line message for a person.

- :class:`NotOurFile`, :class:`DamagedFile`: the file itself is to blame (not
  SQLite, another program's, or what SQLite calls
  corruption). It is never written to; the app sets it aside
  (:func:`storage.store.open_or_set_aside`).
- :class:`NewerFile`: written by a newer version of the app. Never written to
  and never set aside either (that would hide every game from the newer
  version too): refused in one line, left where it is.
- :class:`InUse`: another process writes the file.
- :class:`NoAccess`: the file or its folder cannot be read or written
  (permissions, a read-only disk, a folder or pipe at the path).
- :class:`StorageFailed`: the disk is full or failed, or SQLite failed for a
  reason that is not damage; it may pass.

Only the first two ever set a file aside. What the ports themselves refuse
(no such game, a name taken, a merge of two people) are the core's
exceptions (:mod:`companion.ports`), the same for every store.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

from companion.ports import StoredDataError
from companion.text import one_line

__all__ = [
    "DamagedFile",
    "InUse",
    "NewerFile",
    "NoAccess",
    "NotOurFile",
    "StorageFailed",
    "StoreError",
    "os_problem",
    "sqlite_problem",
]

# SQLite's primary result codes (the low byte of an extended code).
_ERROR = 1
#: What SQLite says, with its generic SQLITE_ERROR, of a file whose header it cannot read.
_HEADER_DAMAGE = frozenset({"unsupported file format"})
_PERM, _BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _AUTH, _NOTADB = (
    3, 5, 6, 8, 10, 11, 13, 14, 23, 26,
)  # fmt: skip


class StoreError(StoredDataError):
    """The data file cannot be used; the message says why, for a person, in one line."""


class NotOurFile(StoreError):
    """Not a data file of this app: set aside by the app."""


class NewerFile(StoreError):
    """Written by a newer version of the app: refused, and left in place."""


class DamagedFile(StoreError):
    """What SQLite calls corruption or "not a database": set aside by the app."""


class InUse(StoreError):
    """Another process writes the data file (it holds the lock)."""


class NoAccess(StoreError):
    """The file or its folder cannot be read or written: permissions, a read-only
    disk, a folder or a pipe at the path. Not the file's fault: never set aside."""


class StorageFailed(StoreError):
    """The disk is full or failed, or SQLite failed for a reason that is not
    damage. It may pass; the file is left as it is."""


def sqlite_problem(path: Path, e: sqlite3.Error, doing: str = "") -> StoreError:
    """The StoreError for a SQLite error, by SQLite's own result code."""
    code = getattr(e, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    said = one_line(str(e))
    if primary in (_CORRUPT, _NOTADB):
        return DamagedFile(f"{path} is damaged: {said}")
    if primary == _ERROR and said in _HEADER_DAMAGE:
        # A damaged header (its schema format byte, offset 47) is SQLite's generic
        # error at open: the same on every start, so not a passing fault.
        return DamagedFile(f"{path} is damaged: {said}")
    if primary == _CANTOPEN and _no_inodes(path):
        return StorageFailed(f"{path}: {doing}the disk has no free inodes left ({said})")
    if primary in (_READONLY, _CANTOPEN, _PERM, _AUTH):
        return NoAccess(f"{path}: {doing}{said}")
    if primary == _FULL or (primary == _IOERR and _disk_full(path)):
        # SQLite says "disk I/O error" when the disk is too full for the -shm
        return StorageFailed(f"{path}: {doing}the disk is full ({said})")
    if primary == _IOERR:
        return StorageFailed(f"{path}: {doing}the disk failed ({said})")
    if primary in (_BUSY, _LOCKED):
        return StorageFailed(f"{path}: {doing}another program holds it locked ({said})")
    return StorageFailed(f"{path}: {doing}{said}")


def _disk_full(path: Path) -> bool:
    """Whether the disk holding ``path`` has less than 64 KiB, or no inode, left for us."""
    try:
        st = os.statvfs(path.parent)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 64 * 1024 or (st.f_files > 0 and st.f_favail == 0)


def _no_inodes(path: Path) -> bool:
    """Whether the disk holding ``path`` has no inode left for us (so no new file,
    such as the ``-wal``, can be made: SQLite then says it cannot open the file)."""
    try:
        st = os.statvfs(path.parent)
    except OSError:
        return False
    return st.f_files > 0 and st.f_favail == 0


def os_problem(path: Path, e: OSError, doing: str) -> StoreError:
    """The StoreError for an error of the system: a full or failing disk may
    pass; anything else (permissions, a read-only disk, a bad path) will not."""
    said = e.strerror or str(e)
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        return StorageFailed(f"{path}: {doing}: the disk is full ({said})")
    if e.errno == errno.EIO:
        return StorageFailed(f"{path}: {doing}: the disk failed ({said})")
    if e.errno == errno.EROFS:
        return NoAccess(f"{path}: cannot write: the disk holding it is read-only")
    return NoAccess(f"{path}: {doing}: {said}")
