"""The data file as a file: is it there, is it SQLite, may we write it, and
where a file that is not ours is set aside. Reads 16 bytes at most."""

from __future__ import annotations

import contextlib
import errno
import glob
import os
import stat
from datetime import datetime
from pathlib import Path

from storage.errors import NoAccess, NotOurFile, os_problem

__all__ = [
    "SQLITE_MAGIC", "check_writable", "clear_leftovers", "is_sqlite", "same_file", "set_aside",
    "sniff",
]

SQLITE_MAGIC = b"SQLite format 3\x00"
#: The files SQLite keeps beside a data file in WAL mode, and the log's tail
#: (storage/chain.py); they go where it goes.
COMPANIONS = ("", "-wal", "-shm", ".tail")


def is_sqlite(path: Path) -> bool:
    """Whether ``path`` is a regular file that starts like a SQLite file (False
    when there is no such file, or it is a folder, a pipe or a device). A file
    that cannot be read raises :class:`NoAccess`: it is never taken for
    "not SQLite". Reads 16 bytes at most."""
    st = _stat(path)
    if st is None or not stat.S_ISREG(st.st_mode) or st.st_size < len(SQLITE_MAGIC):
        return False
    return _starts_like_sqlite(path)


def _stat(path: Path) -> os.stat_result | None:
    """The file's status, None when there is no file; NoAccess when it cannot be looked at."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise os_problem(path, e, "cannot read it") from None
    except ValueError:  # a NUL in the name
        raise NoAccess(f"{path!r} is not a usable file name") from None


def _starts_like_sqlite(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError as e:
        raise os_problem(path, e, "cannot read it") from None


def sniff(path: Path) -> bool:
    """True when there is no data file yet at ``path`` (no file, or 0 bytes).

    Raises NotOurFile for a file that is not SQLite, NoAccess for one that
    cannot be read or is no regular file.
    """
    st = _stat(path)
    if st is None:
        return True
    if stat.S_ISDIR(st.st_mode):
        raise NoAccess(f"{path} is a folder, not a data file")
    if not stat.S_ISREG(st.st_mode):
        raise NoAccess(f"{path} is not a regular file (a data file cannot be a pipe or device)")
    if st.st_size == 0:
        return True
    if st.st_size < len(SQLITE_MAGIC) or not _starts_like_sqlite(path):
        raise NotOurFile(f"{path} is not an incan-companion data file (not SQLite)")
    return False


def check_writable(path: Path) -> None:
    """Refuse a read-only disk or folder, or a file we may not write, before
    SQLite meets them half-way through opening."""
    folder = path.parent
    try:
        read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        read_only = False
    if read_only:
        raise NoAccess(f"{path}: cannot write: the disk holding it is read-only")
    effective = os.access in os.supports_effective_ids
    if not os.access(folder, os.W_OK | os.X_OK, effective_ids=effective):
        raise NoAccess(f"{path}: cannot write in its folder {folder}: Permission denied")
    if path.exists():
        try:
            os.close(os.open(path, os.O_RDWR | os.O_CLOEXEC))
        except OSError as e:
            raise os_problem(path, e, "cannot open it for writing") from None


def set_aside(path: Path, when: datetime, problem: str) -> Path:
    """Keep the file (and its WAL files) under a name beside itself, stamped with
    the local time ``when`` (``games.sqlite.bad-20261122-101500``); the new name.

    The whole set is first linked under the new name, then the ``-wal`` and
    ``-shm`` leave the old one: a crash at any moment leaves every byte of the
    set under one name or the other, and never a ``-wal`` beside a file it is
    not of (SQLite would delete it, with the set-aside file's last commits,
    when the next file is made). The data file itself stays at ``path``, still
    locked, until :func:`storage.lock.start_anew` puts a new one there. On a
    disk with no hard links (FAT) the files are renamed, ``-wal`` first.
    """
    aside = _free_name(path.with_name(f"{path.name}.bad-{when.astimezone():%Y%m%d-%H%M%S}"))
    try:
        try:
            for suffix in ("-wal", "-shm", ".tail", ""):
                extra = Path(f"{path}{suffix}")
                if extra.exists():
                    os.link(extra, f"{aside}{suffix}")
        except OSError as e:
            if e.errno not in _NO_LINKS:
                raise
            for suffix in ("-wal", "-shm", ".tail", ""):
                extra = Path(f"{path}{suffix}")
                if extra.exists():
                    os.replace(extra, f"{aside}{suffix}")
            return aside
        for suffix in ("-wal", "-shm", ".tail"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{path}{suffix}")
    except OSError as e:
        raise os_problem(path, e, f"{problem}; it cannot be set aside") from None
    return aside


#: What link() says on a file system with no hard links.
_NO_LINKS = {errno.EPERM, errno.EXDEV, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK}


def clear_leftovers(path: Path) -> None:
    """Remove the empty new files a crash left in the middle of starting a new data
    file (``games.sqlite.new-PID``). Called with the path's lock held: whoever made
    them is gone, and a new file is empty until it is moved into place."""
    for leftover in path.parent.glob(f"{glob.escape(path.name)}.new-*"):
        with contextlib.suppress(OSError):
            st = leftover.lstat()
            if stat.S_ISREG(st.st_mode) and st.st_size == 0:
                leftover.unlink()


def same_file(a: Path, b: Path) -> bool:
    """Whether two names are links to one file."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _free_name(wanted: Path) -> Path:
    # Two bad files set aside within one second must not land on each other.
    name, n = wanted, 1
    while any(Path(f"{name}{suffix}").exists() for suffix in COMPANIONS):
        n += 1
        name = wanted.with_name(f"{wanted.name}-{n}")
    return name
