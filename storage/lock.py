"""The writer's lock: one process writes a data file at a time.

A writable store holds an exclusive ``flock`` on ``<file>.lock`` beside the
data file from before it looks at the file until it is closed (the kernel
drops it when the process dies, so a lock file left by a crash blocks
nothing). A second writer gets :class:`~storage.errors.InUse`, naming the
process that holds the lock; readers take no lock and read on.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import threading
from pathlib import Path

from companion.text import one_line, printable
from storage.errors import InUse, os_problem

__all__ = ["Held", "lock_path", "prepare", "unlock"]

#: A lock this process holds: the lock file's (device, inode).
Held = tuple[int, int]


def lock_path(path: str | Path) -> Path:
    """The lock file of a data file: ``games.sqlite.lock`` beside ``games.sqlite``."""
    path = Path(path)
    return path.with_name(f"{path.name}.lock")


# The locks this process holds, by the lock file's (device, inode): its
# descriptor and how many holders share it. flock belongs to an open file,
# so a second open of the same lock file in this process would be refused by
# the first; the stores of one process share one lock instead.
_held: dict[Held, list[int]] = {}
_held_guard = threading.Lock()


def _command() -> str:
    argv = list(sys.argv) or ["python"]
    name = Path(argv[0]).name
    if name == "__main__.py":  # python -m incan_companion
        name = Path(argv[0]).parent.name
    return _shown(" ".join([name, *argv[1:]]))


def _shown(text: str) -> str:
    """A command line as one line of at most 200 characters, escaped for a terminal."""
    return one_line(printable(text, strict=True), 200)


def prepare(data: Path) -> Held:
    """Make the data file's folder if needed and take the lock for writing it."""
    try:
        data.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise os_problem(data, e, f"cannot make its folder {data.parent}") from None
    return _lock(data)


def _lock(data: Path) -> Held:
    """Take the exclusive lock for writing ``data`` (shared within this process).

    Raises InUse naming the process that holds it, or NoAccess/StorageFailed
    when the lock file cannot be made.
    """
    where = lock_path(data)
    writable = True
    try:
        fd = os.open(where, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except PermissionError as e:
        # A lock file of another user (made by a manual run as root, say) can
        # still be locked through a read-only descriptor.
        writable = False
        try:
            fd = os.open(where, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            raise os_problem(data, e, f"cannot write in its folder {data.parent}") from None
        except OSError as e:
            raise os_problem(data, e, f"cannot open its lock file {where.name}") from None
    except OSError as e:
        raise os_problem(data, e, f"cannot make its lock file {where.name}") from None
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
                raise InUse(f"{data} is in use by {_holder(fd)}: one program at a time "
                            "writes a data file") from None  # fmt: skip
            except OSError as e:
                raise os_problem(data, e, f"cannot lock {where.name}") from None
            _held[key] = [fd, 1]
            kept = True
    finally:
        if not kept:
            os.close(fd)
    if writable:
        try:  # who holds it, for the next one who asks; the lock holds without it
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n{_command()}\n".encode(), 0)
        except OSError:
            pass
    return key


def _holder(fd: int) -> str:
    try:
        said = os.pread(fd, 4096, 0).decode("utf-8", "replace").split("\n")
    except OSError:
        said = []
    if said and said[0].strip().isdigit() and _alive(int(said[0])):
        command = f" ({_shown(said[1])})" if len(said) > 1 and said[1].strip() else ""
        return f"process {said[0].strip()}{command}"
    return "another process"


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a lock file another user wrote may name a dead one)."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:
        return True  # it runs, as someone else
    return True


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
    fd = held[0]
    with contextlib.suppress(OSError):  # no holder to name any more
        os.ftruncate(fd, 0)
    os.close(fd)  # releases the flock
