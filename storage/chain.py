"""The log proves itself: every stored event carries a hash chained to the one
before it, and the last event acknowledged is written down outside SQLite.

- **The chain** (schema 3, table ``chain``): event ``seq`` of game ``g`` has
  ``hash = sha256(previous hash + its line)``, the first one's "previous" being
  ``incan-companion:<g>``. An event altered, removed or moved within a game, or
  a game's events moved to another game, breaks the chain at that event, and
  :func:`verify` names it. SQLite's integrity check cannot see such a change:
  the file is well formed, only its story is not the one that was played.
- **The tail** (``games.sqlite.tail`` beside the data file): after each
  committed event the writer records that event's game, number and hash (not
  synced: see :func:`write_tail`). A
  flipped bit in the ``-wal`` makes SQLite drop that commit and every later one
  at the next open, silently, leaving a shorter but well-formed log; the tail
  says how far the log went, so a lost end is found and named
  (:func:`lost_tail`) instead of being replayed as a shorter game.

The tail file is opened without following a symlink and must be a regular
file: it is never the way to write anywhere else. A torn or foreign tail
record is ignored with a warning (the chain still holds for what is there).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "Break", "Tail", "first_hash", "forget_tail", "lost_tail", "next_hash", "read_tail",
    "tail_path", "verify", "write_tail",
]  # fmt: skip

_log = logging.getLogger(__name__)
#: The tail record's mark and size: "IGT1 <game> <seq> <hash hex> <crc32 hex>\n", padded.
_TAIL_MARK = "IGT1"
_TAIL_SIZE = 128


def first_hash(game: int) -> bytes:
    """The "previous hash" of a game's first event."""
    return _sha256(f"incan-companion:{game}".encode())


def next_hash(previous: bytes, line: bytes) -> bytes:
    """The hash of an event whose stored line is ``line`` (its UTF-8 bytes), after
    the event hashed ``previous``.

    >>> a = next_hash(first_hash(1), b'{"event": "draw", "card": "T1"}')
    >>> a == next_hash(first_hash(2), b'{"event": "draw", "card": "T1"}')  # another game's
    False
    """
    return _sha256(previous + line)


def _sha256(data: bytes) -> bytes:
    # hashlib loads OpenSSL (about 10 ms): not before the first screen, which
    # writes nothing.
    import hashlib

    return hashlib.sha256(data).digest()


@dataclass(frozen=True)
class Break:
    """Where a game's stored story stops being the one that was written."""

    game: int
    seq: int  # the first event that does not match (its number in the game, from 0)
    why: str  # "altered", "missing", "unchained"

    def __str__(self) -> str:
        return {
            "altered": f"game {self.game}: event {self.seq} is not the one stored (altered "
                       "or moved)",
            "missing": f"game {self.game}: event {self.seq} is missing",
            "unchained": f"game {self.game}: event {self.seq} has no hash in the chain",
        }[self.why]  # fmt: skip


def verify(
    rows: Iterable[tuple[int, int, bytes | None, bytes | None]], *, hashes: bool = True
) -> list[Break]:
    """Check ``(game, seq, line, hash)`` rows, ordered by game then seq; the first
    break of each game whose chain does not hold (empty: every game is whole).
    ``hashes=False``: a file from before the chain, checked for gaps only."""
    import hashlib  # here, as in _sha256: not before the first screen

    sha256 = hashlib.sha256  # next_hash, inlined: the loop runs once per stored event
    breaks: list[Break] = []
    game: int | None = None
    previous = b""
    expected_seq = 0
    broken = False
    for g, seq, line, stored in rows:
        if g != game:
            game, previous, expected_seq, broken = g, first_hash(g), 0, False
        if broken:
            continue
        if seq != expected_seq:
            breaks.append(Break(g, expected_seq, "missing"))
            broken = True
            continue
        if not hashes:
            expected_seq += 1
            continue
        if stored is None:
            breaks.append(Break(g, seq, "unchained"))
            broken = True
            continue
        previous = sha256(previous + (b"" if line is None else bytes(line))).digest()
        if previous != bytes(stored):
            breaks.append(Break(g, seq, "altered"))
            broken = True
        expected_seq += 1
    return breaks


def chained_rows(db: sqlite3.Connection, game: int | None = None) -> sqlite3.Cursor:
    """The rows :func:`verify` reads, of one game or of all."""
    sql = ("SELECT e.game, e.seq, CAST(e.line AS BLOB), c.hash FROM events e "
           "LEFT JOIN chain c ON c.game = e.game AND c.seq = e.seq")  # fmt: skip
    if game is None:
        return db.execute(f"{sql} ORDER BY e.game, e.seq")
    return db.execute(f"{sql} WHERE e.game = ? ORDER BY e.seq", (game,))


# --- the tail, beside the file -------------------------------------------------------


@dataclass(frozen=True)
class Tail:
    """The last event acknowledged to the table: its game, number and hash."""

    game: int
    seq: int
    hash: bytes


def tail_path(data: Path) -> Path:
    """Beside the data file itself (a symlink to it is followed: one file, one tail)."""
    real = Path(os.path.realpath(data))
    return real.with_name(f"{real.name}.tail")


def _open_tail(data: Path, flags: int) -> int | None:
    """The tail file's descriptor (never through a symlink, only a regular file)."""
    try:
        fd = os.open(tail_path(data), flags | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, 0o644)
    except FileNotFoundError:
        return None
    except OSError as e:
        _log.warning("%s: cannot open it: %s", tail_path(data), e.strerror or e)
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        _log.warning("%s: not a regular file, left alone", tail_path(data))
        return None
    return fd


def write_tail(data: Path, tail: Tail) -> None:
    """Record ``tail`` (one fixed-size write in place); a failure is logged, never
    raised: the event itself is already committed.

    Not synced: a second sync per event would double an append's cost on a card
    (bench/chain.py), and the kernel writes it back within seconds. A power cut
    before that leaves a tail older than the log, which is never a false alarm;
    damage to the ``-wal`` found at a later start is still seen."""
    body = f"{_TAIL_MARK} {tail.game} {tail.seq} {tail.hash.hex()}"
    record = f"{body} {zlib.crc32(body.encode()):08x}\n".ljust(_TAIL_SIZE).encode()
    fd = _open_tail(data, os.O_WRONLY | os.O_CREAT)
    if fd is None:
        return
    try:
        os.pwrite(fd, record, 0)
    except OSError as e:
        _log.warning("%s: cannot write it: %s", tail_path(data), e.strerror or e)
    finally:
        os.close(fd)


def forget_tail(data: Path) -> None:
    """No tail any more (its game was deleted); a symlink there is removed, not followed."""
    try:
        os.unlink(tail_path(data))
    except FileNotFoundError:
        pass
    except OSError as e:
        _log.warning("%s: cannot remove it: %s", tail_path(data), e.strerror or e)


def read_tail(data: Path) -> Tail | None:
    """The recorded tail, or None when there is none or it cannot be trusted."""
    fd = _open_tail(data, os.O_RDONLY)
    if fd is None:
        return None
    try:
        raw = os.pread(fd, _TAIL_SIZE, 0)
    except OSError:
        return None
    finally:
        os.close(fd)
    fields = raw.decode("ascii", "replace").split()
    if len(fields) != 5 or fields[0] != _TAIL_MARK:
        _log.warning("%s: not a tail record, ignored", tail_path(data))
        return None
    body = " ".join(fields[:4])
    try:
        if int(fields[4], 16) != zlib.crc32(body.encode()):
            raise ValueError("checksum")
        return Tail(int(fields[1]), int(fields[2]), bytes.fromhex(fields[3]))
    except ValueError:
        _log.warning("%s: a torn or damaged tail record, ignored", tail_path(data))
        return None


def lost_tail(db: sqlite3.Connection, tail: Tail | None) -> str | None:
    """What of the acknowledged log is missing from the file, in one line, or None."""
    if tail is None:
        return None
    row = db.execute("SELECT hash FROM chain WHERE game = ? AND seq = ?",
                     (tail.game, tail.seq)).fetchone()  # fmt: skip
    if row is not None and bytes(row[0]) == tail.hash:
        return None
    held = db.execute("SELECT COUNT(*) FROM events WHERE game = ?", (tail.game,)).fetchone()[0]
    if row is None:
        return (f"game {tail.game} ends at event {held - 1} in the file, but its events up to "
                f"{tail.seq} were stored: the last {tail.seq + 1 - held} are lost")  # fmt: skip
    return f"game {tail.game}: event {tail.seq} is not the one stored last"
