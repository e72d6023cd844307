"""The seats' links: one random token a seat, for the game at the table.

A token is ``secrets.token_urlsafe(32)`` (256 bits), carried in the link's
fragment (``/seat#TOKEN``), so it is never in a request line, a log or a
``Referer``; the page hands it to the server over its websocket. A token acts
for its own seat only, and only while the table plays the game it was made
for: the next game, or the table's "new codes", makes new ones and the old
stop at once.

The UI thread pairs, the server's thread checks: every method takes the lock.

>>> p = Pairing()
>>> p.pair(game=7, seats=3)
>>> seat, generation = p.seat_of(p.tokens()[1]); seat
1
>>> p.seat_of("not a token"), p.is_current(generation)
(None, True)
>>> p.pair(game=8, seats=3); p.is_current(generation)
False
"""

from __future__ import annotations

import threading

__all__ = ["TOKEN_BYTES", "Pairing", "turn_key"]

TOKEN_BYTES = 32  # 256 random bits; the issue asks for at least 128


def turn_key(game: int, round_: int, path: int) -> str:
    """The turn a phone's choice is for: a choice sent for a turn already
    revealed must not count in the next one.

    >>> turn_key(3, 2, 5)
    '3.2.5'
    """
    return f"{game}.{round_}.{path}"


class Pairing:
    """The tokens of the seats of one game (none before a game starts)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tokens: tuple[str, ...] = ()
        self._game: int | None = None
        self._generation = 0

    def pair(self, game: int | None, seats: int) -> None:
        """New tokens for ``seats`` seats of ``game`` (None, 0: no game, no links)."""
        # secrets and hmac load OpenSSL's hashes (about 5 ms): here, at the
        # first game's pairing, not while the first screen waits for the app.
        import secrets

        with self._lock:
            self._game = game
            self._tokens = tuple(
                secrets.token_urlsafe(TOKEN_BYTES) for _ in range(seats if game is not None else 0)
            )
            self._generation += 1

    def follow(self, game: int | None, seats: int) -> bool:
        """The table plays ``game`` now: new tokens if it is another game (True then)."""
        with self._lock:
            same = game == self._game and len(self._tokens) == (seats if game is not None else 0)
        if not same:
            self.pair(game, seats)
        return not same

    @property
    def game(self) -> int | None:
        with self._lock:
            return self._game

    @property
    def generation(self) -> int:
        with self._lock:
            return self._generation

    def tokens(self) -> tuple[str, ...]:
        """The seats' tokens in seat order (for their links and QR codes)."""
        with self._lock:
            return self._tokens

    def seat_of(self, token: str) -> tuple[int, int] | None:
        """The seat a token acts for, with the pairing it belongs to; None if none.

        Every token is compared, each in constant time, so the answer's timing
        says nothing of which seat, or how much of a token, matched.
        """
        import hmac

        given = token.encode("utf-8", "replace")
        with self._lock:
            tokens, generation = self._tokens, self._generation
        found = None
        for seat, known in enumerate(tokens):
            if hmac.compare_digest(given, known.encode("ascii")):
                found = seat
        return None if found is None else (found, generation)

    def is_current(self, generation: int) -> bool:
        """Whether a seat found with :meth:`seat_of` still acts (no re-pairing since)."""
        with self._lock:
            return generation == self._generation
