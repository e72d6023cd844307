"""What every part of the data file shares: its one connection, its
transactions, and SQLite's errors turned into the StoreError they mean."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeVar

from companion.ports import WallClock
from storage.errors import sqlite_problem

__all__ = ["Tables", "Transaction", "sqlite_errors", "stamp"]

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T", bound="Tables")


class Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or a rollback on any error."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *rest: object) -> None:
        # SQLite rolls a transaction back by itself on some errors (a full
        # disk): a ROLLBACK then would fail and hide the error that counts.
        if kind is None:
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error:
                self._rollback()
                raise
        else:
            self._rollback()

    def _rollback(self) -> None:
        if self._db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")


class Tables:
    """The state the parts of :class:`storage.store.Store` share: each part
    (the log, the settings, the players, the history) is a class of its own
    over these."""

    path: Path
    readonly: bool
    _db: sqlite3.Connection
    _version: int  # the schema the file holds (1: a read-only old file)
    _clock: WallClock

    def _transaction(self) -> Transaction:
        return Transaction(self._db)

    def _now(self) -> str:
        return stamp(self._clock)


def stamp(clock: WallClock) -> str:
    """The time stored beside a row: ISO 8601, to the millisecond, with its zone."""
    return clock().isoformat(timespec="milliseconds")


def sqlite_errors(method: Callable[Concatenate[T, P], R]) -> Callable[Concatenate[T, P], R]:
    """SQLite errors met while reading or writing become the StoreError they mean."""

    @wraps(method)
    def wrapper(self: T, /, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(self, *args, **kwargs)
        except (sqlite3.ProgrammingError, sqlite3.InterfaceError):
            raise  # our own mistake (a closed store): a bug with its trace, not a disk
        except sqlite3.Error as e:
            raise sqlite_problem(self.path, e) from None

    return wrapper
