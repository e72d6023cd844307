"""The phones at the table, as the composition root builds them.

:class:`Phones` owns the :class:`~web.server.WebServer` (none while the
table has it off), the seats' :class:`~web.pairing.Pairing`, and the link
between the two threads:

- on the UI thread it follows the table (:meth:`follow`): after every change
  it makes the pages' view in each language a page wants and publishes it;
- on the server's thread a seat's choice arrives; it is posted to the inbox
  as a press that counts only if, on the UI thread, the table still plays
  the turn it was sent for and the seat's link is still the current one
  (:meth:`companion.inbox.Inbox.press_if`). From there it is a button press
  like any other: stored the same way, undone, corrected, counted down and
  resumed the same way.

A server that fails to start or stops by itself never stops the table: the
table says so on its status line (a lasting notice) and plays on. Nothing of
the server is loaded until the table turns the phones on.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.choices import Choice
from companion.engine import Phase
from companion.inbox import Inbox
from companion.notices import Failed, Step
from companion.ports import Post
from companion.table import Table
from web.pairing import Pairing, turn_key

if TYPE_CHECKING:
    from web.server import WebServer

__all__ = ["Links", "Phones"]

_log = logging.getLogger(__name__)

#: The longest the table waits, turning the phones on, for the server it just
#: turned off to give its port back (that takes a turn of its loop).
RELEASE_S = 2.0


@dataclass(frozen=True)
class Links:
    """What the table's Phones window shows: a link per seat and the watchers' link."""

    watch: str  # "" while the server is off
    seats: tuple[tuple[str, str], ...]  # (the seat's name, its link), in seat order


class Phones:
    """The LAN pages of one device, off until :meth:`turn_on`."""

    def __init__(
        self,
        inbox: Inbox,
        post: Post,
        *,
        addresses: tuple[str, ...],
        port: int,
        language: Callable[[], str],
        hidden_tents: Callable[[int], bool] = lambda game: False,
        odds: Callable[[], bool] = lambda: False,
        remember: Callable[[bool], None] = lambda on: None,
    ) -> None:
        self.inbox = inbox
        self.post = post
        self.addresses = addresses
        self.port = port
        self.language = language
        self.hidden_tents = hidden_tents
        self.odds = odds
        self.remember = remember
        #: The table's language, as the UI thread last saw it: the pages' default.
        self.table_language = language()
        self.pairing = Pairing()
        self.server: WebServer | None = None
        self._stopping: WebServer | None = None  # turned off, perhaps still closing
        self.error = ""  # why the server is not running, when it failed
        self.published = 0  # views published (the tests and the bench wait on it)
        self._table: Table | None = None
        self._unlisten: Callable[[], None] | None = None
        self._hidden: tuple[int, bool] | None = None
        self._wanted: set[str] = set()
        self._servers = 0  # servers started: the newest is the one whose languages count
        self._lock = threading.Lock()  # _wanted: the server's thread sets it

    # --- on and off (UI thread) ---------------------------------------------------

    @property
    def on(self) -> bool:
        return self.server is not None and self.server.running

    def switch(self, on: bool) -> bool:
        """The table's choice in its Phones window, remembered for the next start."""
        if on:
            done = self.turn_on()
        else:
            self.turn_off()
            done = True
        self.remember(on)
        return done

    def turn_on(self) -> bool:
        """Start serving; False (and the reason in :attr:`error`) if it cannot."""
        if self.on:
            return True
        self.turn_off()
        stopping, self._stopping = self._stopping, None
        if stopping is not None and not stopping.released.wait(RELEASE_S):
            _log.warning("the pages' last server still holds its port")
        # The server's modules (asyncio, uvicorn) load only now: never before the
        # first screen, nor at all while the table keeps the phones off.
        from web.server import WebFailed, WebServer, lan_addresses

        with self._lock:
            self._servers += 1
            started = self._servers
        try:
            server = WebServer(
                lan_addresses(self.addresses), self.port, self.pairing,
                on_choose=self._on_choose,
                on_languages=lambda codes, more: self._on_languages(started, codes, more),
                on_stopped=self._on_stopped, default_language=lambda: self.table_language,
            )  # fmt: skip
            server.start()
        except WebFailed as e:
            self.error = str(e)
            self._say_failed()
            return False
        except Exception as e:  # uvicorn or Starlette missing or broken: the table plays on
            _log.exception("web server")
            self.error = str(e) or type(e).__name__
            self._say_failed()
            return False
        self.error = ""
        self.server = server
        self.publish()
        return True

    def turn_off(self, *, wait: bool = False) -> None:
        """Close every connection and stop the server. The table goes on at once
        (the server finishes on its own thread) unless ``wait``, as at the app's
        end, where the pages' last words are waited for."""
        server, self.server = self.server, None
        if server is not None:
            self._stopping = server
            try:
                server.stop(wait=wait)
            except Exception:
                _log.exception("stopping the web server")

    def close(self) -> None:
        self.turn_off(wait=True)
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None
        self._table = None

    # --- the table (UI thread) ---------------------------------------------------------

    def follow(self, table: Table | None) -> None:
        """The table plays ``table`` now (None: no game): its changes go to the pages,
        and a new game makes new seat links (the old ones stop)."""
        if table is not self._table:
            if self._unlisten is not None:
                self._unlisten()
                self._unlisten = None
            self._table = table
            if table is not None:
                self._unlisten = table.listen(lambda t: self.publish())
        game = table.game if table is not None else None
        seats = len(table.state.seats) if table is not None else 0
        if self.pairing.follow(game, seats) and self.server is not None:
            self.server.repaired()
        self.publish()

    def repair(self) -> None:
        """New links for every seat: the phones paired so far stop acting for it."""
        table = self._table
        self.pairing.pair(table.game if table is not None else None,
                          len(table.state.seats) if table is not None else 0)
        if self.server is not None:
            self.server.repaired()
        self.publish()

    def publish(self) -> None:
        """The table's view, in every language a page wants, to the server."""
        server = self.server
        if server is None:
            return
        table = self._table
        with self._lock:
            wanted = set(self._wanted)
        self.table_language = self.language()
        wanted.add(self.table_language)
        if table is None:
            server.publish(None, dict.fromkeys(wanted), {})
            return
        from web.views import table_facts, table_json

        try:
            facts = table_facts(table)
            hidden = self._hidden_tents(table.game)
            odds = self.odds()
            views: dict[str, dict[str, Any] | None] = {
                code: table_json(table, facts, code=code, hidden_tents=hidden, odds=odds)
                for code in sorted(wanted)
            }
        except Exception:  # a page's view must never stop the table
            _log.exception("the pages' view")
            return
        # Each seat's own choice goes to that seat's phones alone (the server sees to it).
        mine = {seat: choice.value for seat, choice in table.collector.held_choices}
        self.published += 1
        server.publish(table.game, views, mine)

    def _hidden_tents(self, game: int) -> bool:
        if self._hidden is None or self._hidden[0] != game:
            self._hidden = (game, self.hidden_tents(game))
        return self._hidden[1]

    @property
    def languages(self) -> frozenset[str]:
        """The languages the pages' views are made in: the table's, and those of
        the pages open."""
        with self._lock:
            return frozenset(self._wanted) | {self.table_language}

    # --- what the Phones window shows ----------------------------------------------------

    def links(self) -> Links:
        """The links of the first address served (the one in the QR codes)."""
        server = self.server
        if server is None or not self.on:
            return Links("", ())
        base = server.base_urls()[0]
        table = self._table
        names = [s.name for s in table.state.seats] if table is not None else []
        tokens = self.pairing.tokens()
        seats = tuple((name, f"{base}/seat#{token}")
                      for name, token in zip(names, tokens, strict=False))
        return Links(f"{base}/watch", seats)

    # --- from the server's thread ---------------------------------------------------------

    def _on_choose(self, seat: int, choice: Choice, turn: str, generation: int,
                   answer: Callable[[str | None], None]) -> None:
        """``answer`` hears, on the UI thread, None if the choice counted, else why not."""
        why = ["not due"]  # the table refused the press: the seat camped, busted or is a bot

        def still(table: Table) -> bool:
            state = table.state
            if not self.pairing.is_current(generation):
                why[0] = "unpaired"
            elif state.phase is not Phase.CHOOSE or turn != turn_key(
                    table.game, state.round, len(state.path)):
                why[0] = "old turn"
            else:
                return True
            return False

        self.inbox.press_if(seat, choice, still, lambda yes: answer(None if yes else why[0]))

    def _on_languages(self, server: int, codes: frozenset[str], more: bool) -> None:
        with self._lock:
            if server != self._servers:
                return  # a server turned off, its pages closing: not the ones open now
            self._wanted = set(codes)
        if more:
            self.post(self.publish)

    def _on_stopped(self, error: str) -> None:
        def stopped() -> None:
            self.error = error
            self.server = None
            self._say_failed()

        self.post(stopped)

    def _say_failed(self) -> None:
        table = self._table
        if table is not None:
            table.say(Failed(Step.PHONES, self.error), "error", lasting=True)
