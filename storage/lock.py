"""The writer's lock: one process writes a data file at a time.

A writable store holds an exclusive ``flock`` on the data file itself, from
before it looks at the file until it is closed. The lock belongs to the
file's identity (its inode), not to a name: a second path to the same file
(a symlink, a hard link, ``..`` in the path) meets the same lock, and there
is no lock file beside it that could be deleted, replaced by a symlink or
truncated. The kernel drops the lock when the process dies, so a crash
blocks nothing. A second writer gets :class:`~storage.errors.InUse`, naming
the process that holds the lock (from ``/proc/locks``); readers take no lock
and read on.

``flock`` and the POSIX record locks SQLite takes are separate on Linux, so
this lock never meets SQLite's own. SQLite's locks do end, though, when the
process closes *any* descriptor of the file: the one held here is closed
only after the last store of this process on that file has closed its
connection.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import threading
from pathlib import Path

from companion.text import one_line, printable
from storage.errors import InUse, NoAccess, os_problem

__all__ = ["Held", "prepare", "start_anew", "unlock"]

#: A lock this process holds: the data file's (device, inode).
Held = tuple[int, int]

# The locks this process holds, by the file's (device, inode): its descriptor
# and how many holders share it. flock belongs to an open file, so a second
# open of the same file in this process would be refused by the first; the
# stores of one process share one lock instead.
_held: dict[Held, list[int]] = {}
_held_guard = threading.Lock()


def prepare(data: Path) -> Held:
    """Make the data file's folder if needed and take the lock for writing it
    (an empty file is made when there is none: the lock needs something to hold)."""
    try:
        data.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise os_problem(data, e, f"cannot make its folder {data.parent}") from None
    return _take(data, _open(data))


def _open(data: Path) -> int:
    """A descriptor of the data file (made if missing), never blocking on a FIFO."""
    flags = os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOCTTY
    try:
        fd = os.open(data, flags | os.O_RDWR | os.O_CREAT, 0o644)
    except PermissionError as e:
        # A file we may only read (another user's): it can still be locked,
        # and opening it for writing later names the real problem.
        try:
            fd = os.open(data, flags | os.O_RDONLY)
        except FileNotFoundError:
            raise os_problem(data, e, f"cannot write in its folder {data.parent}") from None
        except OSError as e2:
            raise os_problem(data, e2, "cannot open it") from None
    except IsADirectoryError:
        raise NoAccess(f"{data} is a folder, not a data file") from None
    except OSError as e:
        raise os_problem(data, e, "cannot open it") from None
    except ValueError:  # a NUL in the name
        raise NoAccess(f"{data!r} is not a usable file name") from None
    try:
        mode = os.fstat(fd).st_mode
    except OSError as e:
        os.close(fd)
        raise os_problem(data, e, "cannot look at it") from None
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise NoAccess(f"{data} is not a regular file (a data file cannot be a pipe or device)")
    return fd


def _take(data: Path, fd: int) -> Held:
    """Lock the open file ``fd`` for writing (shared within this process); InUse
    naming the holder when another process has it."""
    kept = False
    try:
        st = os.fstat(fd)
        key = (st.st_dev, st.st_ino)
        with _held_guard:
            held = _held.get(key)
            if held is not None:
                held[1] += 1
                return key
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise InUse(f"{data} is in use by {_holder(key)}: one program at a time "
                            "writes a data file") from None  # fmt: skip
            except OSError as e:
                raise os_problem(data, e, "cannot lock it") from None
            _held[key] = [fd, 1]
            kept = True
    finally:
        if not kept:
            os.close(fd)
    return key


def start_anew(data: Path, old: Held) -> Held:
    """Put a new, empty, locked data file at ``data`` in one step, while ``old``
    (the file there, already linked under its set-aside name) stays locked:
    no other process can find ``data`` unlocked at any moment. The lock on the
    new file is returned; ``old`` is let go."""
    temp = data.with_name(f"{data.name}.new-{os.getpid()}")
    with contextlib.suppress(FileNotFoundError):
        temp.unlink()  # left by a crash of this very pid number: never anyone's data
    try:
        fd = os.open(temp, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
    except OSError as e:
        raise os_problem(data, e, "cannot start a new data file") from None
    new = _take(temp, fd)
    try:
        os.replace(temp, data)
    except OSError as e:
        unlock(new)
        with contextlib.suppress(OSError):
            temp.unlink()
        raise os_problem(data, e, "cannot start a new data file") from None
    unlock(old)
    return new


def _holder(key: Held) -> str:
    """The process that holds the flock on the file ``key``, as "process N (command)"."""
    device = f"{os.major(key[0]):02x}:{os.minor(key[0]):02x}:{key[1]}"
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            entries = [line.split() for line in f]
    except OSError:
        return "another process"
    for fields in entries:
        # "1: FLOCK  ADVISORY  WRITE 1168 fe:00:16039949 0 EOF"
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == device:
            pid = fields[4]
            return f"process {pid}{_command(pid)}"
    return "another process"


def _command(pid: str) -> str:
    """`` (its command line)`` of process ``pid``, when it can be read."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().rstrip(b"\0").split(b"\0")
    except OSError:
        return ""
    words = [w.decode("utf-8", "replace") for w in argv if w]
    if not words:
        return ""
    words[0] = Path(words[0]).name
    if len(words) > 2 and words[1] == "-m":  # python -m incan_companion ...
        words = words[2:]
    return f" ({one_line(printable(' '.join(words), strict=True), 200)})"


def unlock(key: Held) -> None:
    """Let go of a lock taken by :func:`prepare` (the last holder in this process frees it)."""
    with _held_guard:
        held = _held.get(key)
        if held is None:
            return
        held[1] -= 1
        if held[1] > 0:
            return
        del _held[key]
    os.close(held[0])  # releases the flock
