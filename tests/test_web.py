"""The phones' pages on a real server (uvicorn on its own thread, loopback only),
spoken to with a real websocket client: the seats' links, what a watcher is
told before a reveal, choices sent twice or late, foreign sites, the logs,
a server that cannot start, and closing.

The test's own thread plays the UI thread: the phones' choices reach the
table through the inbox's ``post``, which queues them here (as Kivy's clock
does in the app) until :func:`pump` runs them.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import re
import select
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from companion.choices import Choice
from companion.events import Start
from companion.games import Games
from companion.inbox import Inbox
from companion.memory import MemoryStore
from companion.notices import Failed, Step
from companion.simulate import VirtualClock
from web.pairing import Pairing
from web.phones import Phones
from web.server import MAX_SEAT_PHONES, MAX_WAITING, MAX_WATCHERS, choose_language

NAMES = ("Ana", "Bo", "Cy")
WAIT_S = 10.0  # the most any step may take before the test fails (never slept)


class Table:
    """A table with phones, on loopback: the test's thread is its UI thread."""

    def __init__(self, countdown: float = 2.0) -> None:
        self.posted: queue.Queue[Callable[[], None]] = queue.Queue()
        self.clock = VirtualClock(0.0)
        self.games = Games(MemoryStore(), countdown=countdown, clock=self.clock)
        self.inbox = Inbox(self.games, self.posted.put)
        self.phones = Phones(self.inbox, self.posted.put, addresses=("127.0.0.1",), port=0,
                             language=lambda: "en")
        self.connections = contextlib.ExitStack()

    def new_game(self, names: tuple[str, ...] = NAMES) -> Any:
        table = self.games.new_game(Start(names))
        self.phones.follow(table)
        return table

    @property
    def table(self) -> Any:
        return self.games.table

    def pump(self, until: Callable[[], bool]) -> None:
        """Run what the server posted until ``until()`` holds (or fail after WAIT_S)."""
        deadline = time.monotonic() + WAIT_S
        while not until():
            try:
                self.posted.get(timeout=max(0.0, deadline - time.monotonic()))()
            except queue.Empty:
                raise AssertionError("the table never got there") from None

    def base(self) -> str:
        return self.phones.links().watch.removesuffix("/watch")

    def ws(self, role: str, *, origin: str | None = None, lang: str = "") -> ClientConnection:
        base = self.base()
        query = f"?lang={lang}" if lang else ""
        return self.connections.enter_context(connect(
            base.replace("http://", "ws://") + f"/ws/{role}{query}",
            origin=origin or base, proxy=None, open_timeout=WAIT_S,  # type: ignore[arg-type]
        ))

    def choose(self, ws: ClientConnection, choice: str, turn: str, cid: str,
               got: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """Send a choice; the table's answer to it (ack, error or refused), and
        every message up to it in ``got``. The answer comes from the UI thread,
        which this runs while waiting for it."""
        ws.send(json.dumps({"type": "choose", "choice": choice, "turn": turn, "id": cid}))
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                self.posted.get(timeout=0.01)()
            with contextlib.suppress(TimeoutError):
                m = dict(json.loads(ws.recv(timeout=0.01)))
                if got is not None:
                    got.append(m)
                if m["type"] in ("ack", "refused", "error"):
                    return m
        raise AssertionError("no answer to the choice")

    def seat(self, seat: int, token: str | None = None) -> ClientConnection:
        ws = self.ws("seat")
        token = token if token is not None else self.phones.links().seats[seat][1].split("#")[1]
        ws.send(json.dumps({"type": "hello", "token": token}))
        return ws


def recv(ws: ClientConnection) -> dict[str, Any]:
    return dict(json.loads(ws.recv(timeout=WAIT_S)))


def recv_until(ws: ClientConnection,
               done: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
    """Every message up to and including the first that ``done`` says is it."""
    got = []
    while True:
        m = recv(ws)
        got.append(m)
        if done(m):
            return got


@pytest.fixture
def t() -> Iterator[Table]:
    table = Table()
    table.new_game()
    assert table.phones.turn_on(), table.phones.error
    yield table
    # The server ends on its own thread, as when a player turns phones off:
    # waiting for uvicorn's shutdown (its 0.1 s ticks) took 0.2 s a test.
    table.phones.turn_off()
    table.phones.close()
    table.connections.close()




def seat_state(ws: ClientConnection) -> dict[str, Any]:
    """The first seat message (after the welcome)."""
    return recv_until(ws, lambda m: m["type"] == "seat")[-1]


# --- pairing ------------------------------------------------------------------------------


def test_a_seat_link_acts_for_its_own_seat_and_no_other(t: Table) -> None:
    t.table.enter_card("T5A")
    bo = t.seat(1)
    assert recv(bo) == {"type": "welcome", "seat": 1, "language": "en"}
    state = seat_state(bo)
    assert state["seat"] == 1 and state["table"]["seats"][1]["name"] == "Bo"
    assert t.choose(bo, "camp", state["table"]["turn"], "a1") == {"type": "ack", "id": "a1"}
    t.pump(lambda: t.table.collector.chosen == {1})
    # Bo's token says nothing of Ana's seat, and a made-up or shortened one is refused.
    for token in ("x" * 43, t.phones.links().seats[0][1].split("#")[1][:-1], ""):
        other = t.seat(0, token)
        assert recv(other) == {"type": "refused", "reason": "token"}
        with pytest.raises(ConnectionClosed) as closed:
            other.recv(timeout=WAIT_S)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    assert t.table.collector.chosen == {1}
    bo.close()


def test_a_new_game_or_new_codes_stop_the_old_links(t: Table) -> None:
    old = t.phones.links().seats[2][1]
    cy = t.seat(2)
    seat_state(cy)
    t.phones.repair()  # the table's "New codes"
    assert recv_until(cy, lambda m: m["type"] == "refused")[-1] == {
        "type": "refused", "reason": "unpaired"}
    new = t.phones.links().seats[2][1]
    assert new != old and len(new.split("#")[1]) == 43  # 32 random bytes, base64url
    assert recv(t.seat(2, old.split("#")[1]))["type"] == "refused"
    assert recv(t.seat(2, new.split("#")[1]))["type"] == "welcome"
    t.new_game(("Ana", "Bo", "Cy", "Di"))
    assert recv(t.seat(2, new.split("#")[1]))["type"] == "refused"
    assert len(t.phones.links().seats) == 4


def test_a_phone_that_comes_back_gets_its_seat_and_state(t: Table) -> None:
    t.table.enter_card("T7A")
    ana = t.seat(0)
    turn = seat_state(ana)["table"]["turn"]
    t.choose(ana, "torch", turn, "b1")
    t.pump(lambda: t.table.collector.chosen == {0})
    ana.close()  # the phone slept, or reloaded
    again = t.seat(0)
    state = seat_state(again)
    assert state["seat"] == 0 and state["table"]["turn"] == turn
    assert state["table"]["seats"][0]["chosen"] is True and state["table"]["seats"][0]["due"]


def test_every_phone_of_a_seat_shows_the_choice_the_table_holds(t: Table) -> None:
    t.table.enter_card("T5A")
    one, two, bo = t.seat(0), t.seat(0), t.seat(1)
    turn = seat_state(one)["table"]["turn"]
    assert seat_state(two)["mine"] is None and seat_state(bo)["mine"] is None

    def mine(ws: ClientConnection, choice: str, got: list[dict[str, Any]]) -> None:
        """The seat's phone is told ``choice`` (in ``got`` already, or still to come)."""
        if not any(m["type"] == "seat" and m["mine"] == choice for m in got):
            got += recv_until(ws, lambda m: m["type"] == "seat" and m["mine"] == choice)

    told: dict[str, list[dict[str, Any]]] = {"one": [], "two": [], "bo": []}
    assert t.choose(one, "torch", turn, "p1", told["one"])["type"] == "ack"
    mine(one, "torch", told["one"])
    mine(two, "torch", told["two"])
    assert t.choose(two, "camp", turn, "p2", told["two"])["type"] == "ack"
    mine(one, "camp", told["one"])
    mine(two, "camp", told["two"])
    # The seat's own button changes it too: its phones follow the table.
    t.table.press(0, Choice.TORCH)
    mine(one, "torch", told["one"])
    mine(two, "torch", told["two"])
    assert t.choose(bo, "camp", turn, "q1", told["bo"])["type"] == "ack"
    mine(bo, "camp", told["bo"])
    # Bo's phone was never told Ana's choice: before his own, it was told none.
    views = [m for m in told["bo"] if m["type"] == "seat"]
    assert [m["mine"] for m in views][-1] == "camp"
    assert all(m["mine"] is None for m in views[:-1])
    t.table.press(2, Choice.TORCH)
    t.clock.advance(2.0)
    assert t.table.tick()
    # Revealed: nothing is held for the next turn.
    assert recv_until(one, lambda m: m["type"] == "seat" and m["table"]["revealed"] == 1)[
        -1]["mine"] is None


def test_a_choice_sent_again_from_a_new_socket_gets_the_tables_answer(t: Table) -> None:
    t.table.enter_card("T5A")
    gone = t.seat(0)
    turn = seat_state(gone)["table"]["turn"]
    gone.send(json.dumps({"type": "choose", "choice": "camp", "turn": turn, "id": "r1"}))
    press = t.posted.get(timeout=WAIT_S)  # on its way to the table, not there yet
    gone.close()  # the phone slept before the answer came
    back = t.seat(0)
    seat_state(back)
    back.send(json.dumps({"type": "choose", "choice": "camp", "turn": turn, "id": "r1"}))
    back.send(json.dumps({"type": "ping"}))
    assert recv_until(back, lambda m: m["type"] == "pong")[-1] == {"type": "pong"}
    assert t.table.collector.chosen == frozenset()
    press()  # the table takes it: the new socket, which sent it again, is told
    assert recv_until(back, lambda m: m["type"] == "ack")[-1] == {"type": "ack", "id": "r1"}
    assert t.table.collector.chosen == {0}
    assert t.table.collector.choice_of(0) is Choice.CAMP


# --- choices -----------------------------------------------------------------------------


def test_a_choice_sent_twice_counts_once(t: Table) -> None:
    t.table.enter_card("T5A")
    phones = [t.seat(s) for s in range(3)]
    turn = seat_state(phones[0])["table"]["turn"]
    for ws in phones[1:]:
        seat_state(ws)
    assert t.choose(phones[0], "torch", turn, "c1") == {"type": "ack", "id": "c1"}
    assert t.choose(phones[0], "camp", turn, "c2") == {"type": "ack", "id": "c2"}
    # The first message again (a retry after a lost acknowledgement) changes nothing.
    assert t.choose(phones[0], "torch", turn, "c1") == {"type": "ack", "id": "c1", "again": True}
    t.choose(phones[1], "torch", turn, "d1")
    t.choose(phones[2], "torch", turn, "e1")
    t.pump(lambda: t.table.collector.chosen == {0, 1, 2})
    t.clock.advance(2.0)
    assert t.table.tick()
    log = t.table.session.log
    assert log[-1].camp == (0,)  # Ana's second choice, camp, is the one revealed
    # 5 gems split 3 ways: 1 each and 2 left; Ana leaves alone and banks 1 + 2.
    assert [s.banked for s in t.table.state.seats] == [3, 0, 0]


def test_a_choice_for_a_turn_already_revealed_does_not_count_in_the_next(t: Table) -> None:
    t.table.enter_card("T5A")
    ana = t.seat(0)
    first = seat_state(ana)["table"]["turn"]
    for seat in (0, 1, 2):
        t.table.press(seat, Choice.TORCH)
    t.clock.advance(2.0)
    assert t.table.tick()
    t.table.enter_card("T7A")
    second = t.table.state
    assert second.phase.value == "choose" and first == "1.1.1"
    # Sent before the reveal, arriving after it: not counted, and the phone is told so.
    assert t.choose(ana, "camp", first, "late") == {
        "type": "error", "reason": "old turn", "id": "late"}
    assert t.table.collector.chosen == frozenset()
    assert t.choose(ana, "camp", "1.1.2", "now") == {"type": "ack", "id": "now"}
    assert t.table.collector.chosen == {0}
    # Sent again after a lost answer: the same answer, and nothing more is done.
    assert t.choose(ana, "torch", first, "late") == {
        "type": "error", "reason": "old turn", "id": "late", "again": True}


def test_a_choice_the_table_cannot_take_is_answered_with_why(t: Table) -> None:
    t.table.enter_card("T5A")
    ana, bo = t.seat(0), t.seat(1)
    turn = seat_state(ana)["table"]["turn"]
    seat_state(bo)
    assert t.choose(ana, "camp", turn, "a") == {"type": "ack", "id": "a"}
    t.table.press(1, Choice.TORCH)
    t.table.press(2, Choice.TORCH)
    t.clock.advance(2.0)
    assert t.table.tick() and t.table.state.phase.value == "draw"
    # Revealed, and no card drawn yet: the turn the choice names is over.
    assert t.choose(bo, "camp", turn, "b") == {"type": "error", "reason": "old turn", "id": "b"}
    t.table.enter_card("T7A")
    now = t.table.state
    assert now.phase.value == "choose" and now.seats[0].status.value == "camp"
    # Ana camped: no choice of hers is due for the rest of the round.
    assert t.choose(ana, "torch", "1.1.2", "c") == {"type": "error", "reason": "not due", "id": "c"}
    assert t.table.collector.chosen == frozenset()
    assert t.choose(bo, "torch", "1.1.2", "d") == {"type": "ack", "id": "d"}
    assert t.table.collector.chosen == {1}


# --- secrets ------------------------------------------------------------------------------


def _watch_until_reveal(choices: tuple[str, str, str]) -> tuple[list[str], dict[str, Any]]:
    """A game where the seats choose ``choices`` on their phones: every raw message
    a watcher gets before the reveal (waiting for each step's own), and the first
    after it."""
    t = Table()
    t.new_game()
    assert t.phones.turn_on()
    try:
        watcher = t.ws("watch")
        raw: list[str] = []

        def watch_until(done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
            while True:
                raw.append(str(watcher.recv(timeout=WAIT_S)))
                message = json.loads(raw[-1])
                if message["type"] == "table" and done(message["table"]):
                    return dict(message)

        watch_until(lambda table: table["path"] == [])
        t.table.enter_card("T5A")
        watch_until(lambda table: len(table["path"]) == 1)
        phones = [t.seat(s) for s in range(3)]
        turn = seat_state(phones[0])["table"]["turn"]
        for seat, (ws, choice) in enumerate(zip(phones, choices, strict=True)):
            t.choose(ws, choice, turn, f"id{seat}")
            t.pump(lambda seat=seat: len(t.table.collector.chosen) == seat + 1)
            watch_until(lambda table, n=seat + 1: sum(s["chosen"] for s in table["seats"]) == n)
        t.clock.advance(2.0)
        assert t.table.tick()
        before = list(raw)
        return before, watch_until(lambda table: table["revealed"] == 1)
    finally:
        t.phones.close()
        t.connections.close()


def test_a_watcher_is_told_who_has_chosen_never_what_until_the_reveal() -> None:
    one, revealed_one = _watch_until_reveal(("torch", "camp", "torch"))
    other, revealed_other = _watch_until_reveal(("camp", "torch", "camp"))
    # What a watcher got before the reveal is the same, byte for byte, whatever
    # the seats chose: it cannot say which way anyone went.
    # The welcome, no card, a card, then one, two and three seats chosen.
    assert len(one) == 6, [(json.loads(x).get("table") or {}).get("prompt") for x in one]
    for mine, theirs in zip(one, other, strict=True):
        assert mine == theirs
    last = json.loads(one[-1])["table"]
    assert [s["chosen"] for s in last["seats"]] == [True, True, True]
    assert [s["choice"] for s in last["seats"]] == ["chosen"] * 3
    assert all('"choice":"chosen"' in text or '"choice":"choosing…"' in text
               for text in one[3:])
    # After it, the reveal says it: Bo left (1 + 2 gems), then Ana and Cy.
    assert [s["status_key"] for s in revealed_one["table"]["seats"]] == ["in", "camp", "in"]
    assert [s["banked"] for s in revealed_one["table"]["seats"]] == ["0", "3", "0"]
    assert [s["status_key"] for s in revealed_other["table"]["seats"]] == ["camp", "in", "camp"]
    assert [s["banked"] for s in revealed_other["table"]["seats"]] == ["2", "0", "2"]


def test_no_token_reaches_any_log(t: Table, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    token = t.phones.links().seats[0][1].split("#")[1]
    with urllib.request.urlopen(t.phones.links().seats[0][1]) as page:  # the fragment stays here
        assert page.status == 200
    bad = t.seat(0, token[:-2] + "zz")
    assert recv(bad)["type"] == "refused"
    good = t.seat(0, token)
    seat_state(good)
    good.close()
    logged = [r.getMessage() for r in caplog.records]
    assert logged, "nothing was logged at all: the capture is not looking"
    # The test's own client logs what it sends (at DEBUG); the server's side never.
    server_side = [r for r in caplog.records if not r.name.startswith("websockets.client")]
    assert not [(r.name, r.getMessage()) for r in server_side if token[:-2] in r.getMessage()]
    # uvicorn's websockets log every frame at DEBUG: its logger stays above that.
    assert logging.getLogger("uvicorn.error").getEffectiveLevel() >= logging.WARNING
    assert not any(r.name == "uvicorn.access" for r in caplog.records)


# --- other sites --------------------------------------------------------------------------


def test_another_sites_page_is_refused(t: Table) -> None:
    for origin in ("http://evil.example", "http://127.0.0.1:1", "null", t.base() + ".evil"):
        with pytest.raises(InvalidStatus) as refused:
            t.ws("watch", origin=origin)
        assert refused.value.response.status_code == 403
    # A name pointed at us from elsewhere (DNS rebinding): not our Host, nothing given.
    request = urllib.request.Request(t.base() + "/watch", headers={"Host": "evil.example:80"})
    with pytest.raises(urllib.error.HTTPError) as wrong:
        urllib.request.urlopen(request)
    assert wrong.value.code == 421
    # A websocket naming another Host is refused before it opens, as docs/web.md says.
    port = int(t.base().rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) as raw:
        raw.sendall(b"GET /ws/watch HTTP/1.1\r\nHost: evil.example:80\r\n"
                    b"Origin: http://evil.example:80\r\nUpgrade: websocket\r\n"
                    b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
        assert raw.recv(64).startswith(b"HTTP/1.1 403 ")
    # Nothing is changed by a request: every method but GET is refused.
    post = urllib.request.Request(t.base() + "/watch", data=b"choice=torch", method="POST",
                                  headers={"Origin": t.base()})
    with pytest.raises(urllib.error.HTTPError) as refused_post:
        urllib.request.urlopen(post)
    assert refused_post.value.code == 405


def test_no_path_reaches_a_file(t: Table) -> None:
    for path in ("/static/../server.py", "/static/%2e%2e/server.py", "/static/seat.html",
                 "/etc/passwd", "/static/", "/ws/seat"):
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(t.base() + path)
        assert missing.value.code == 404, path
    with urllib.request.urlopen(t.base() + "/static/app.js") as js:
        headers = js.headers
        assert js.status == 200 and b"WebSocket" in js.read()
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["Cache-Control"] == "no-store"


# --- languages ----------------------------------------------------------------------------


def test_each_page_in_its_viewers_language(t: Table) -> None:
    request = urllib.request.Request(t.base() + "/watch",
                                     headers={"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"})
    with urllib.request.urlopen(request) as page:
        html = page.read().decode("utf-8")
    assert '<html lang="pl">' in html and '"torch": "Pochodnia"' in html
    t.table.enter_card("T5A")
    ja = t.ws("watch", lang="ja")
    en = t.ws("watch")
    t.pump(lambda: t.posted.empty() and t.phones.published >= 1)
    message = recv_until(ja, lambda m: m["type"] == "table")[-1]
    assert message["table"]["heading"] == "ラウンド 1/5"
    assert recv_until(en, lambda m: m["type"] == "table")[-1]["table"]["heading"] == "Round 1 of 5"
    assert choose_language(None, "es-ES,es;q=0.9", ("en", "pl", "es", "ja"), "pl") == "es"
    assert choose_language(None, "de, fr;q=0.5", ("en", "pl", "es", "ja"), "pl") == "pl"


# --- failing, closing ----------------------------------------------------------------------


def test_a_server_that_cannot_start_never_stops_the_table() -> None:
    t = Table()
    table = t.new_game()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        t.phones.port = taken.getsockname()[1]
        assert not t.phones.turn_on()
    assert not t.phones.on and "127.0.0.1" in t.phones.error
    notice = table.notice
    assert notice is not None and notice.lasting and notice.level == "error"
    assert isinstance(notice.reason, Failed) and notice.reason.step is Step.PHONES
    assert table.enter_card("T5A")  # the table plays on
    assert [s.hand for s in table.state.seats] == [1, 1, 1]


def test_closing_the_app_closes_every_connection(t: Table) -> None:
    watchers = [t.ws("watch") for _ in range(3)]
    seat = t.seat(1)
    seat_state(seat)
    for ws in watchers:
        recv(ws)
    port = int(t.base().rsplit(":", 1)[1])
    t.phones.close()
    for ws in (*watchers, seat):
        assert recv_until(ws, lambda m: m["type"] == "closing")
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=WAIT_S)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=WAIT_S)


def test_pairing_compares_every_token() -> None:
    p = Pairing()
    p.pair(1, 8)
    tokens = p.tokens()
    assert len(set(tokens)) == 8
    assert [p.seat_of(tok) for tok in tokens] == [(s, p.generation) for s in range(8)]
    assert p.seat_of("é" * 43) is None  # not ASCII: refused, not an error


# --- the composition root and the command line ------------------------------------------


def test_the_device_wires_phones_like_buttons_and_remembers_them(tmp_path: Any) -> None:
    from incan_companion.compose import PHONES_ON, build
    from incan_companion.config import Config
    from storage import Store

    posted: queue.Queue[Callable[[], None]] = queue.Queue()
    data = tmp_path / "games.sqlite"
    config = Config(countdown=0.0, data_file=data)
    device = build(config, post=posted.put, seat_input="keyboard", camera="none", phones=True)
    try:
        phones = device.phones
        assert phones is not None and not device.phones_later  # off until the table says
        assert device.controls().phones is phones and device.controls().start is None
        table = device.games.new_game(Start(NAMES))
        phones.follow(table)
        phones.port = 0
        phones.addresses = ("127.0.0.1",)
        assert phones.switch(True)
        assert device.store.setting(PHONES_ON) == "1"
        table.enter_card("T5A")
        tokens = [link.split("#")[1] for _name, link in phones.links().seats]
        base = phones.links().watch.removesuffix("/watch")
        with contextlib.ExitStack() as stack:
            for seat, choice in enumerate(("camp", "torch", "torch")):
                ws = stack.enter_context(connect(base.replace("http", "ws") + "/ws/seat",
                                                 origin=base, proxy=None))  # type: ignore[arg-type]
                ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
                turn = seat_state(ws)["table"]["turn"]
                # A "seat" field is no way to act for another seat: the token decides.
                ws.send(json.dumps({"type": "choose", "choice": choice, "turn": turn,
                                    "id": f"w{seat}", "seat": 2}))
                deadline = time.monotonic() + WAIT_S
                while (len(table.collector.chosen) < seat + 1
                       and type(table.session.log[-1]).__name__ != "Reveal"):
                    posted.get(timeout=max(0.0, deadline - time.monotonic()))()
        assert table.session.log[-1].camp == (0,)  # type: ignore[union-attr]
    finally:
        device.close()
    assert not phones.on
    # Stored the same way as a button's: the reveal is in the data file.
    with Store(data, readonly=True) as store:
        game = store.session(table.game)
    assert [type(e).__name__ for e in game.log] == ["Start", "Draw", "Reveal"]
    assert game.state.seats[0].banked == 3
    # Remembered: the next start turns the phones on after the first screen.
    again = build(config, post=posted.put, seat_input="keyboard", camera="none", phones=True)
    try:
        assert again.phones_later and again.controls().start is not None
    finally:
        again.close()


@pytest.mark.parametrize("value, said", [
    ("99999", "the port must be a number from 1 to 65535"),
    ("example.com:8080", "'example.com' is neither an IP address a phone can reach nor"),
    ("0.0.0.0:8080", "'0.0.0.0' is neither an IP address a phone can reach nor"),
    ("8080x", "the port must be a number"),
    ("\u00b2", "the port must be a number"),  # "²".isdigit(), which int() refuses
    ("lan:\u00b9\u00b2", "the port must be a number"),
])
def test_run_web_refuses_a_bad_address_in_one_line(
    value: str, said: str, capsys: pytest.CaptureFixture[str], tmp_path: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from incan_companion.cli import main

    monkeypatch.setenv("INCAN_CONFIG", str(tmp_path / "none.toml"))
    assert main(["run", "--web", value]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and err.startswith("incan-companion: run: --web")


def test_the_web_section_of_the_config() -> None:
    from incan_companion.config import ConfigError, WebConfig, parse

    assert parse("").web == WebConfig(("lan",), 8080)
    assert parse('[web]\naddresses = ["127.0.0.1", "::1"]\nport = 9000').web == WebConfig(
        ("127.0.0.1", "::1"), 9000)
    for text, said in (('[web]\naddresses = ["my-pi"]', "neither an IP address"),
                       ('[web]\naddresses = ["::"]', "neither an IP address a phone can reach"),
                       ("[web]\naddresses = []", "must be a list"),
                       ('[web]\naddresses = ["lan", "lan"]', "given twice"),
                       ("[web]\nport = 0", "[web] port: must be a whole number from 1"),
                       ("[web]\nhost = 1", "[web] host: unknown key")):
        with pytest.raises(ConfigError, match=re.escape(said)):
            parse(text)


def test_the_kiosk_unit_opens_only_what_the_pages_need() -> None:
    from pathlib import Path

    from incan_companion.config import DEFAULT_WEB_PORT

    unit = (Path(__file__).resolve().parent.parent / "deploy" / "incan-companion.service")
    keys: dict[str, list[str]] = {}
    for line in unit.read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            keys.setdefault(key, []).append(value)
    assert keys["IPAddressDeny"] == ["any"]
    allowed = keys["IPAddressAllow"][0].split()
    assert allowed == ["localhost", "link-local", "10.0.0.0/8", "172.16.0.0/12",
                       "192.168.0.0/16", "fc00::/7"]  # this machine and private ranges only
    assert keys["SocketBindAllow"] == [f"tcp:{DEFAULT_WEB_PORT}"]
    assert keys["SocketBindDeny"] == ["any"]
    assert set(keys["RestrictAddressFamilies"][0].split()) == {
        "AF_UNIX", "AF_NETLINK", "AF_INET", "AF_INET6"}


def test_undo_and_correction_treat_a_phones_choice_as_a_buttons(t: Table) -> None:
    t.table.enter_card("T5A")
    ana = t.seat(0)
    turn = seat_state(ana)["table"]["turn"]
    t.choose(ana, "camp", turn, "u1")
    t.pump(lambda: t.table.collector.chosen == {0})
    # Undo warns first (a seat has chosen), then takes the card back and the choice with it.
    assert not t.table.undo() and t.table.undo()
    view = recv_until(ana, lambda m: m["type"] == "seat" and m["table"]["path"] == [])
    assert view[-1]["table"]["turn"] == "" and not view[-1]["table"]["seats"][0]["due"]
    # The card again: the same turn, nobody chosen; Ana chooses anew.
    t.table.enter_card("T5A")
    view = recv_until(ana, lambda m: m["type"] == "seat" and m["table"]["turn"] == turn)
    assert view[-1]["table"]["seats"][0]["chosen"] is False
    t.choose(ana, "torch", turn, "u2")
    t.pump(lambda: t.table.collector.chosen == {0})
    # A correction that leaves the same turn keeps the choice, as a button's.
    assert t.table.correct(0, "T7A")
    assert t.table.collector.chosen == {0}
    view = recv_until(ana, lambda m: m["type"] == "seat" and m["table"]["path"][0]["card"] == "T7A")
    assert view[-1]["table"]["seats"][0]["chosen"] is True
    assert view[-1]["table"]["seats"][0]["hand"] == "2"  # 7 split 3 ways


def test_a_page_that_floods_the_table_is_closed(t: Table) -> None:
    t.table.enter_card("T5A")
    bo = t.seat(1)
    turn = seat_state(bo)["table"]["turn"]
    sent = 0
    with pytest.raises(ConnectionClosed) as closed:
        for n in range(200):
            sent += 1
            assert t.choose(bo, ("torch", "camp")[n % 2], turn, f"f{n}")["type"] == "ack"
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    # Past the burst of 20 within far less than the 4 s it would earn back.
    assert 20 <= sent <= 40
    t.pump(lambda: t.posted.empty())
    assert t.table.collector.chosen == {1}


def test_a_binary_or_malformed_message_closes_nothing_but_that_page(t: Table) -> None:
    bad = t.ws("seat")
    bad.send(b"\x00\x01")  # a binary frame for a hello: no token, refused
    assert recv(bad) == {"type": "refused", "reason": "token"}
    with pytest.raises(ConnectionClosed):
        recv(bad)
    watcher = t.ws("watch")
    assert recv(watcher)["type"] == "welcome"
    watcher.send("not json")
    assert recv_until(watcher, lambda m: m["type"] == "error")[-1]["reason"] == "not JSON"
    watcher.send(json.dumps({"type": "choose", "choice": "torch", "turn": "1.1.1", "id": "x"}))
    assert recv_until(watcher, lambda m: m["type"] == "refused")[-1]["reason"] == "unpaired"


def test_a_room_full_of_watchers_leaves_the_seats_their_places(t: Table) -> None:
    """Each kind of page has its own share: watchers never take a seat's
    place, nor do pages that never say which seat they are."""
    watchers = [t.ws("watch") for _ in range(MAX_WATCHERS)]
    for w in watchers:
        assert recv(w)["type"] == "welcome"
    one_more = t.ws("watch")
    assert recv(one_more) == {"type": "full"}
    with pytest.raises(ConnectionClosed) as closed:
        recv(one_more)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
    # Seat pages that say nothing hold only their own share.
    silent = [t.ws("seat") for _ in range(MAX_WAITING)]
    late = t.ws("seat")
    assert recv(late) == {"type": "full"}
    for page in silent:
        page.close()
    # Every seat's phone still gets in, two a seat.
    phones = [t.seat(seat) for seat in range(len(NAMES)) for _ in range(2)]
    assert len(phones) <= MAX_SEAT_PHONES
    for phone in phones:
        assert recv(phone)["type"] == "welcome"


def test_json_nested_past_reading_is_refused_like_any_bad_message(t: Table) -> None:
    deep = "[" * 1500  # under 2 KiB: json.loads gives up on its depth before its end
    watcher = t.ws("watch")
    assert recv(watcher)["type"] == "welcome"
    watcher.send(deep)
    assert recv_until(watcher, lambda m: m["type"] == "error")[-1]["reason"] == "not JSON"
    page = t.ws("seat")
    page.send(deep)  # as its hello
    assert recv(page) == {"type": "refused", "reason": "token"}


def test_a_watcher_sees_the_final_scores(t: Table) -> None:
    watcher = t.ws("watch")
    table = t.table

    def reveal(camp: tuple[int, ...]) -> None:
        for seat in table.collector.due:
            table.press(seat, Choice.CAMP if seat in camp else Choice.TORCH)
        t.clock.advance(2.0)
        assert table.tick()

    # Five rounds: a treasure, Ana leaves alone with it, the two others bust.
    for treasure, hazard in (("T5A", "SNAKE"), ("T7A", "SPIDER"), ("T9", "MUMMY"),
                             ("T11A", "FIRE"), ("T13", "ROCKS")):
        table.enter_card(treasure)
        reveal((0,))
        table.enter_card(f"{hazard}1")
        reveal(())
        table.enter_card(f"{hazard}2")
    assert table.state.phase.value == "game_over"
    final = recv_until(watcher, lambda m: m["type"] == "table" and m["table"]["final"])[-1]
    rows = final["table"]["final"]["rows"]
    # Ana's share of each treasure split 3 ways, and its leftover as she leaves
    # alone: 1+2, 2+1, 3+0, 3+2, 4+1.
    assert [(r["rank"], r["name"], r["score"], r["winner"]) for r in rows] == [
        ("1st", "Ana", "19", True), ("2nd", "Bo", "0", False), ("2nd", "Cy", "0", False)]
    assert final["table"]["final"]["winners"] == "Winner: Ana"


def test_phones_kept_off_load_nothing_of_the_server(tmp_path: Any) -> None:
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys\n"
        "from incan_companion.compose import build\n"
        "from incan_companion.config import Config\n"
        f"d = build(Config(data_file={str(tmp_path / 'g.sqlite')!r}), seat_input='keyboard',"
        " camera='none', phones=True)\n"
        "assert d.phones is not None\n"
        "print(sorted(m for m in ('web.server', 'uvicorn', 'starlette', 'websockets', 'asyncio')"
        " if m in sys.modules))\n"
        "d.close()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parent.parent, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"


def test_a_server_that_stops_by_itself_is_said_and_the_table_plays_on(t: Table) -> None:
    server = t.phones.server
    assert server is not None and server._loop is not None
    # uvicorn's own way out, as on a fatal error in its loop: the table did not ask.
    server._loop.call_soon_threadsafe(setattr, server._server, "should_exit", True)
    t.pump(lambda: t.phones.server is None)
    assert not t.phones.on and t.phones.error == "stopped"
    notice = t.table.notice
    assert notice is not None and notice.lasting and notice.reason == Failed(Step.PHONES, "stopped")
    assert t.table.enter_card("T5A")
    assert t.phones.turn_on()  # the table turns them on again
    assert recv(t.ws("watch"))["type"] == "welcome"


def test_the_inbox_answers_every_phones_choice_once_even_with_no_game() -> None:
    from companion.ports import direct

    games = Games(MemoryStore())
    answers: list[bool] = []
    inbox = Inbox(games, direct)
    inbox.press_if(0, Choice.TORCH, lambda table: True, answers.append)
    assert answers == [False]  # no game at the table: nothing to count it in
    table = games.new_game(Start(NAMES))
    table.enter_card("T5A")
    inbox.press_if(0, Choice.TORCH, lambda table: False, answers.append)
    inbox.press_if(1, Choice.CAMP, lambda table: True, answers.append)
    assert answers == [False, False, True] and table.collector.chosen == {1}

    def broken(table: Any) -> bool:
        raise ValueError("a check that fails")

    inbox.press_if(2, Choice.CAMP, broken, answers.append)
    assert answers == [False, False, True, False] and table.collector.chosen == {1}
    assert table.notices[-1].reason == Failed(Step.INPUT, "a check that fails")


def test_a_socket_that_sends_pings_and_never_reads_is_not_answered_into_memory(
    t: Table,
) -> None:
    """uvicorn's "websockets-sansio" answered every ping into the connection's
    buffer, reading on: 700 MB in 40 s from one socket on /ws/watch (no token).
    A server that stops reading such a socket lets us send only what the
    kernel's buffers hold; its pongs waiting in memory stay small."""
    port = int(t.base().rsplit(":", 1)[1])
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # we read nothing
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET /ws/watch HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                 b"Origin: http://127.0.0.1:%d\r\nUpgrade: websocket\r\n"
                 b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                 b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n" % (port, port))
    assert sock.recv(12) == b"HTTP/1.1 101"
    pings = (bytes([0x89, 0x80 | 125]) + bytes(4) + b"p" * 125) * 512  # masked, 66 KB
    sent, limit = 0, 64 * 2**20
    sock.setblocking(False)
    try:
        # Until nothing more is taken for a second: the server stopped reading.
        while sent < limit and select.select([], [sock], [], 1.0)[1]:
            with contextlib.suppress(BlockingIOError):
                sent += sock.send(pings)
    finally:
        sock.close()
    assert sent < 16 * 2**20, f"{sent / 2**20:.0f} MB of pings taken and answered"



def test_a_connection_that_never_sends_a_whole_request_is_closed(
    t: Table, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One that sends nothing, and one that sends a header line and stops
    (about a thousand of either used up the process's files), are closed
    once the headers are due; a websocket open longer than that stays."""
    import web.server

    monkeypatch.setattr(web.server, "HEADERS_S", 0.2)
    watcher = t.ws("watch")
    assert recv(watcher)["type"] == "welcome"
    port = int(t.base().rsplit(":", 1)[1])
    idle = socket.create_connection(("127.0.0.1", port), timeout=WAIT_S)
    half = socket.create_connection(("127.0.0.1", port), timeout=WAIT_S)
    half.sendall(b"GET /watch HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % port)
    try:
        for sock in (idle, half):
            assert sock.recv(1) == b"", "closed by the server, nothing answered"
    finally:
        idle.close()
        half.close()
    # The watcher came before both and outlived their deadline: still served.
    watcher.send(json.dumps({"type": "ping"}))
    assert recv_until(watcher, lambda m: m["type"] == "pong")


def test_connections_past_the_limit_are_closed_at_once_and_said_once(
    t: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    import web.server

    monkeypatch.setattr(web.server, "MAX_CONNECTIONS", 3)
    port = int(t.base().rsplit(":", 1)[1])
    watcher = t.ws("watch")
    assert recv(watcher)["type"] == "welcome"
    held = [socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) for _ in range(2)]
    with caplog.at_level(logging.WARNING, logger="web.server"):
        for _ in range(3):
            extra = socket.create_connection(("127.0.0.1", port), timeout=WAIT_S)
            with extra, contextlib.suppress(ConnectionResetError):
                assert extra.recv(1) == b""
    crowded = [r.getMessage() for r in caplog.records if r.name == "web.server"]
    assert crowded == ["more than 3 connections open: the newest are closed"]
    for sock in held:
        sock.close()
    # Places free again: a page gets in (the server sees the closes in its own time).
    deadline = time.monotonic() + WAIT_S
    while True:
        try:
            again = t.ws("watch")
            assert recv(again)["type"] == "welcome"
            break
        except (OSError, ConnectionClosed, InvalidStatus, ValueError):
            assert time.monotonic() < deadline, "no place came free"


def test_a_seat_link_opens_on_two_phones_at_most(t: Table) -> None:
    """One seat's link took all sixteen seat-phone places: now two a seat."""
    ana = [t.seat(0) for _ in range(2)]
    for phone in ana:
        assert recv(phone)["type"] == "welcome"
    third = t.seat(0)
    assert recv(third) == {"type": "full"}
    with pytest.raises(ConnectionClosed) as closed:
        recv(third)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
    bo = [t.seat(1) for _ in range(2)]
    for phone in bo:
        assert recv(phone)["type"] == "welcome"
    ana[0].close()
    deadline = time.monotonic() + WAIT_S
    while True:  # once the server has seen Ana's first phone go, a new one gets in
        again = t.seat(0)
        if recv(again)["type"] == "welcome":
            break
        assert time.monotonic() < deadline, "Ana's place never came free"


def test_a_seats_new_socket_brings_no_new_allowance(
    t: Table, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The allowance was each socket's: a page that opened a new one for
    each burst sent 1,370 choices a second. Now a seat's phones share one."""
    import web.server

    monkeypatch.setattr(web.server, "PER_SECOND", 0.0)  # nothing earned back while testing
    first = t.seat(1)
    assert recv(first)["type"] == "welcome"
    for _ in range(web.server.BURST):
        first.send(json.dumps({"type": "ping"}))
        assert recv_until(first, lambda m: m["type"] == "pong")
    first.close()
    second = t.seat(1)
    assert recv(second)["type"] == "welcome"
    second.send(json.dumps({"type": "ping"}))
    with pytest.raises(ConnectionClosed) as closed:
        recv_until(second, lambda m: m["type"] == "pong")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    # Another seat's allowance is its own.
    cy = t.seat(2)
    assert recv(cy)["type"] == "welcome"
    cy.send(json.dumps({"type": "ping"}))
    assert recv_until(cy, lambda m: m["type"] == "pong")


def test_a_choice_id_counts_once_however_many_choices_follow_it(
    t: Table, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ids were kept 64 at a time: the 65th choice after one made it count
    again. Now they are kept for the turn they name; past SEEN_IDS in one
    turn, new ones are refused, and the next turn starts afresh."""
    import web.server

    monkeypatch.setattr(web.server, "BURST", 1000)
    monkeypatch.setattr(web.server, "SEEN_IDS", 80)
    t.table.enter_card("T5A")
    ana = t.seat(0)
    turn = seat_state(ana)["table"]["turn"]
    assert t.choose(ana, "camp", turn, "first") == {"type": "ack", "id": "first"}
    for n in range(70):
        assert t.choose(ana, "torch", turn, f"n{n}")["type"] == "ack"
    assert t.choose(ana, "camp", turn, "first") == {"type": "ack", "id": "first", "again": True}
    assert t.table.collector.held_choices == ((0, Choice.TORCH),)
    for n in range(70, 79):
        assert t.choose(ana, "torch", turn, f"n{n}")["type"] == "ack"
    assert t.choose(ana, "camp", turn, "one too many") == {
        "type": "error", "reason": "too many", "id": "one too many"}
    assert t.table.collector.held_choices == ((0, Choice.TORCH),)
    for seat in (1, 2):
        t.table.press(seat, Choice.TORCH)
    t.clock.advance(2.0)
    assert t.table.tick()
    t.table.enter_card("T7A")
    assert t.choose(ana, "camp", "1.1.2", "next turn") == {"type": "ack", "id": "next turn"}


def test_turning_the_phones_off_never_waits_on_the_pages(t: Table) -> None:
    """The table's thread waited for the server to close every page: 2.7 s
    with 20 watchers that read nothing, 4.6 s on slow links. It now goes on
    at once; the port is given back for the phones to be turned on again."""
    port = int(t.base().rsplit(":", 1)[1])
    watcher = t.ws("watch")
    assert recv(watcher)["type"] == "welcome"
    server = t.phones.server
    assert server is not None
    t.phones.port = port
    t.phones.switch(False)
    assert server._thread is not None and server._thread.is_alive(), (
        "turn_off returned only once the server had finished")
    assert t.phones.switch(True), t.phones.error
    assert t.base().endswith(f":{port}")
    again = t.ws("watch")
    assert recv(again)["type"] == "welcome"
    assert recv_until(watcher, lambda m: m["type"] == "closing")


def test_views_are_made_in_the_languages_of_the_pages_open_only(t: Table) -> None:
    polish = t.ws("watch", lang="pl")
    assert recv(polish) == {"type": "welcome", "seat": None, "language": "pl"}
    t.posted.get(timeout=WAIT_S)()  # the table, told of a page in Polish, makes its view
    assert recv(polish)["table"]["heading"] == "Runda 1 z 5"
    assert t.phones.languages == {"en", "pl"}
    polish.close()
    deadline = time.monotonic() + WAIT_S
    while t.phones.languages != {"en"}:
        assert time.monotonic() < deadline, "views are still made in Polish for nobody"
        time.sleep(0.01)


def test_a_hello_must_say_it_is_one(t: Table) -> None:
    token = t.phones.links().seats[0][1].split("#")[1]
    page = t.ws("seat")
    page.send(json.dumps({"type": "choose", "token": token}))
    assert recv(page) == {"type": "refused", "reason": "token"}


def test_a_request_refused_by_uvicorn_writes_no_traceback(
    t: Table, caplog: pytest.LogCaptureFixture,
) -> None:
    """A chunked body that is not one: uvicorn answers 400, then logged our
    page's answer failing after it as an error with its traceback, for any
    such request from the network."""
    port = int(t.base().rsplit(":", 1)[1])
    with caplog.at_level(logging.DEBUG), socket.create_connection(
            ("127.0.0.1", port), timeout=WAIT_S) as sock:
        sock.sendall(b"GET /watch HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nTransfer-Encoding: chunked"
                     b"\r\nConnection: close\r\n\r\nzz\r\n" % port)
        got = b""
        while chunk := sock.recv(4096):
            got += chunk
        assert got.startswith(b"HTTP/1.1 400 ")
        # Our page's answer, tried after uvicorn's, is said once it has failed.
        deadline = time.monotonic() + WAIT_S
        while not any(r.name == "uvicorn.error" and (r.exc_info or "a request refused"
                      in r.getMessage()) for r in caplog.records):  # fmt: skip
            assert time.monotonic() < deadline, "uvicorn never said the request failed"
            time.sleep(0.01)
    noisy = [r for r in caplog.records if r.name.startswith("uvicorn")]
    assert noisy and all(r.levelno == logging.DEBUG and not r.exc_info for r in noisy), [
        (r.levelname, r.getMessage()) for r in noisy]


def test_a_server_turned_off_has_no_say_in_the_languages_made(t: Table) -> None:
    """A server turned off closes its pages on its own thread, after the
    table may have turned on a new one: its last page going must not stop
    the views that the new server's pages read."""
    old = t.phones.server
    assert old is not None
    t.phones.switch(False)
    assert t.phones.switch(True), t.phones.error
    polish = t.ws("watch", lang="pl")
    assert recv(polish)["type"] == "welcome"
    t.posted.get(timeout=WAIT_S)()
    assert recv(polish)["table"]["heading"] == "Runda 1 z 5"
    old.hub.on_languages(frozenset(), False)  # the old server's last page, gone late
    assert t.phones.languages == {"en", "pl"}


def test_a_body_that_never_ends_does_not_hold_its_connection(t: Table) -> None:
    """No page sends a body; one still coming once the request is answered
    (a POST, a GET with a Content-Length, a chunk a minute) held its
    connection for good, as a header line a minute did."""
    port = int(t.base().rsplit(":", 1)[1])
    host = b"Host: 127.0.0.1:%d\r\n" % port
    for request, status in (
        (b"POST /watch HTTP/1.1\r\n" + host + b"Content-Length: 100000\r\n\r\nab", b"405"),
        (b"GET /watch HTTP/1.1\r\n" + host + b"Content-Length: 100000\r\n\r\nab", b"200"),
        (b"GET /watch HTTP/1.1\r\n" + host + b"Transfer-Encoding: chunked\r\n\r\n1\r\na\r\n",
         b"200"),
    ):
        with socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) as sock:
            sock.sendall(request)
            sock.settimeout(0.2)
            got, deadline = b"", time.monotonic() + WAIT_S
            with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                while True:
                    try:
                        chunk = sock.recv(65536)
                    except TimeoutError:
                        # A byte more of the body now and then (which also keeps
                        # uvicorn's keep-alive timer from closing it).
                        assert time.monotonic() < deadline, "the connection is still held"
                        sock.sendall(b"a")
                        continue
                    if not chunk:
                        break
                    got += chunk
            assert got.startswith(b"HTTP/1.1 " + status), got[:40]
