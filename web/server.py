"""The pages and their websockets: Starlette under uvicorn, on a thread of its own.

The server has its own event loop on its own thread; the table never waits
for it. The UI thread hands it each new view of the table
(:meth:`WebServer.publish`, thread-safe), and it hands the phones' choices
back through ``on_choose`` (the composition root posts them to the inbox,
like a button press). Each connection has a writer of its own that sends only
the newest view, so a slow phone never holds up the others or the table.

What a browser may do (docs/web.md, the threat model):

- every request must name this server in ``Host`` (one of its own
  addresses): a page of another site that a DNS name was pointed at us from
  (DNS rebinding) gets nothing;
- a websocket must come from our own pages: its ``Origin`` must be
  ``http://`` + its ``Host``; anything else is refused before it is accepted;
- only GET and HEAD exist, and no GET changes anything; every change (a
  choice) comes over a seat's websocket;
- the pages and their two files are held in memory: no path reaches a file,
  the data file, the camera or the system;
- uvicorn's access log is off and our own logs never name a token.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import socket
import threading
import warnings
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from companion.choices import Choice
from companion.engine import MAX_SEATS
from web.pairing import Pairing

__all__ = ["LAN", "MAX_CLIENTS", "WebFailed", "WebServer", "lan_addresses"]

_log = logging.getLogger(__name__)

MAX_CLIENTS = 120  # 8 phones and a room full of watchers, with room to spare
#: Each kind has its own share of MAX_CLIENTS, so that no kind can crowd out
#: another: watchers never take the seats' places, nor do sockets that have
#: not said (or will never say) which seat they are.
MAX_WATCHERS = 88
PHONES_PER_SEAT = 2
MAX_SEAT_PHONES = MAX_SEATS * PHONES_PER_SEAT  # 16
MAX_WAITING = MAX_CLIENTS - MAX_WATCHERS - MAX_SEAT_PHONES  # 16 seat pages before their hello
MAX_MESSAGE = 2048  # bytes: a choice is a few dozen
#: Open connections of every kind (the pages' own requests too): past it the
#: newest is closed at once, so that a flood of idle sockets never uses up the
#: process's files (the data file, its tail and the camera need some).
MAX_CONNECTIONS = MAX_CLIENTS + 40
#: Connections waiting to be accepted, and accepted at one go: the server
#: closes those past MAX_CONNECTIONS only after accepting them.
BACKLOG = 64
HEADERS_S = 10.0  # a request's headers come whole within this, or its connection is closed
HELLO_S = 10.0  # a seat page says who it is within this, or is closed
#: Messages a page may send: a burst of this many, then this many a second. A
#: person taps a few times a second at most; a flood of choices would keep the
#: table's thread busy, so a page past it is closed (1008).
BURST, PER_SECOND = 20, 5.0
#: A seat's choice ids are kept for the turn they name, so that a choice sent
#: twice counts once however many came between; past this many in one turn
#: (two hundred seconds of a flood at the allowed pace) the seat's new ones for
#: that turn are refused.
SEEN_IDS = 1000
#: Close codes (4000-4999 are the application's own).
REFUSED, FULL = 4403, 4429
LANGUAGE_RE = re.compile(r"^[a-z]{2}$")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

#: ``(seat, choice, turn, generation, answer)``: ``answer`` is called (on any
#: thread) with None if the choice counted at the table, else why it did not.
OnChoose = Callable[[int, Choice, str, int, Callable[[str | None], None]], None]


# The implementation chosen in WebServer.start is one uvicorn calls deprecated,
# knowingly: not a warning for the kiosk's journal at every start of the pages.
warnings.filterwarnings("ignore", message="The `websockets` implementation is deprecated")


class _RequestNoise(logging.Filter):
    """uvicorn's words on a request it could not read, or could not answer
    once it had refused it, made debug lines without a traceback: anyone on
    the network can send such requests, a traceback each time, and the
    kiosk's journal would fill with them. An error of our own pages keeps its
    traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is not None and type(error).__module__.startswith("h11"):
            record.msg, record.args = "a request refused: %s: %s", (type(error).__name__, error)
            record.exc_info = record.exc_text = None
        elif record.msg != "Invalid HTTP request received.":
            return True
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


_REQUEST_NOISE = _RequestNoise()


class WebFailed(RuntimeError):
    """The server could not start (an address in use, no such address)."""


# --- the pages ------------------------------------------------------------------------


def _asset(name: str) -> bytes:
    return resources.files("web").joinpath("static", name).read_bytes()


@dataclass(frozen=True)
class Assets:
    """The pages and their files, read once when the server starts."""

    seat: str
    watch: str
    files: dict[str, tuple[bytes, str]]

    @classmethod
    def load(cls) -> Assets:
        # One page around each page's own main part: the head is written once.
        page = _asset("page.html").decode("utf-8")
        return cls(
            seat=page.replace("__PAGE__", "seat").replace(
                "__MAIN__", _asset("seat.html").decode("utf-8")),
            watch=page.replace("__PAGE__", "watch").replace(
                "__MAIN__", _asset("watch.html").decode("utf-8")),
            files={
                "app.js": (_asset("app.js"), "text/javascript; charset=utf-8"),
                "style.css": (_asset("style.css"), "text/css; charset=utf-8"),
            },
        )


def choose_language(query: str | None, accept: str, languages: tuple[str, ...],
                    default: str) -> str:
    """The page's language: ``?lang=`` if we have it, else the browser's first
    one we have (``Accept-Language``, by its weights), else the table's.

    >>> choose_language(None, "de-DE,de;q=0.9,pl;q=0.8,en;q=0.5", ("en", "pl"), "en")
    'pl'
    >>> choose_language("ja", "pl", ("en", "pl", "ja"), "en")
    'ja'
    >>> choose_language(None, "", ("en", "pl"), "pl")
    'pl'
    """
    if query in languages:
        return query
    wanted: list[tuple[float, int, str]] = []
    for n, part in enumerate(accept.split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        code = tag.split("-")[0].strip().lower()
        if code in languages and weight > 0:
            wanted.append((-weight, n, code))
    return min(wanted)[2] if wanted else default


# --- the connections ------------------------------------------------------------------


@dataclass(eq=False)
class Client:
    """One open websocket: a seat's phone or a watcher."""

    language: str
    seat: int | None = None  # None: a watcher
    generation: int = 0
    pending: str | None = None
    view: str | None = None  # the table's view last given to it
    mine: str | None = None  # the seat's own choice last given to it (a seat's phone)
    #: Answers to its choices, sent before any view: they are never dropped.
    answers: deque[str] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False
    close_code: int | None = None
    writer: asyncio.Task[None] | None = None
    #: One frame at a time: the reader's replies and the writer's views share the socket.
    sending: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: A watcher's own allowance; a seat's phones share their seat's (Hub.allowances).
    allowance: Allowance | None = None


@dataclass
class Allowance:
    """Messages one may send: a burst of BURST, then PER_SECOND (a token bucket)."""

    checked: float
    left: float = field(default_factory=lambda: float(BURST))

    def take(self, now: float) -> bool:
        """Whether one more message is within the allowance (it is then counted)."""
        self.left = min(float(BURST), self.left + (now - self.checked) * PER_SECOND)
        self.checked = now
        if self.left < 1.0:
            return False
        self.left -= 1.0
        return True


@dataclass
class Latest:
    """The newest view of the table: its facts and its JSON in each language made."""

    game: int | None = None
    views: dict[str, str] = field(default_factory=dict)  # language -> the table's JSON
    made: bool = False  # False until the table's first view
    mine: dict[int, str] = field(default_factory=dict)  # seat -> its choice this turn


class Hub:
    """Every connection, on the server's loop only."""

    def __init__(self, pairing: Pairing, on_choose: OnChoose,
                 on_languages: Callable[[frozenset[str], bool], None]) -> None:
        self.pairing = pairing
        self.on_choose = on_choose
        self.on_languages = on_languages
        self.clients: set[Client] = set()
        self.waiting = 0  # seat pages accepted that have not said which seat they are
        self.latest = Latest()
        #: Per seat, the turns its choices named last (two at most) and, for
        #: each, the table's answer to each choice id.
        self.seen: dict[int, dict[str, dict[str, str | None]]] = {}
        #: Per seat, the messages its phones may send: one allowance for all of
        #: them, so that a new socket never brings a new one.
        self.allowances: dict[int, Allowance] = {}
        #: The choices handed to the table, their answers not back yet: who awaits each.
        self.deciding: dict[tuple[int, str], list[Client]] = {}
        self.languages: frozenset[str] = frozenset()  # those of the pages open

    def join(self, client: Client) -> None:
        self.clients.add(client)
        self._languages_changed()

    def leave(self, client: Client) -> None:
        self.clients.discard(client)
        self._languages_changed()

    def _languages_changed(self) -> None:
        """The table makes views in the languages of the pages open, no more:
        it is told when a page in a new language comes (``more`` if no view
        in it was made yet) and when the last page in one goes."""
        languages = frozenset(c.language for c in self.clients)
        if languages != self.languages:
            self.languages = languages
            self.on_languages(languages, not languages <= self.latest.views.keys())

    def watchers(self) -> int:
        return sum(1 for c in self.clients if c.seat is None)

    def phones(self, seat: int) -> int:
        return sum(1 for c in self.clients if c.seat == seat)

    def may_send(self, client: Client, now: float) -> bool:
        """Whether one more message from ``client`` is within its allowance."""
        if client.seat is None:
            if client.allowance is None:
                client.allowance = Allowance(now)
            return client.allowance.take(now)
        allowance = self.allowances.get(client.seat)
        if allowance is None:
            allowance = self.allowances[client.seat] = Allowance(now)
        return allowance.take(now)

    # -- views in --

    def update(self, game: int | None, views: dict[str, dict[str, Any] | None],
               mine: dict[int, str]) -> None:
        if game != self.latest.game:
            self.seen.clear()  # a new game: choice ids start again
        made = {code: json.dumps(view, ensure_ascii=False, separators=(",", ":"))
                for code, view in views.items()}
        # An unchanged view stays the same string, so a client is not sent it twice.
        kept = self.latest.views
        self.latest = Latest(game, {code: kept[code] if kept.get(code) == text else text
                                    for code, text in made.items()}, made=True, mine=mine)
        for client in list(self.clients):
            self.offer(client)

    def offer(self, client: Client) -> None:
        """Give ``client`` the newest view in its language (none yet: it is coming,
        as the table was told of the language when the page came)."""
        if client.close_code is not None:
            return  # its last words are on their way: nothing may overwrite them
        view = self.latest.views.get(client.language)
        if view is None:
            return
        mine = None if client.seat is None else self.latest.mine.get(client.seat)
        if view is client.view and mine == client.mine:
            return  # the same view again (a change the pages do not show): nothing new
        client.view, client.mine = view, mine
        if client.seat is None:
            client.pending = f'{{"type":"table","table":{view}}}'
        else:
            client.pending = (f'{{"type":"seat","seat":{client.seat},'
                              f'"game":{json.dumps(self.latest.game)},'
                              f'"mine":{json.dumps(mine)},"table":{view}}}')
        client.wake.set()

    # -- the seats' pairing --

    def repaired(self) -> None:
        """The table re-paired (or a new game): the old seat links stop now."""
        for client in list(self.clients):
            if client.seat is not None and not self.pairing.is_current(client.generation):
                self.refuse(client, "unpaired")

    def refuse(self, client: Client, reason: str) -> None:
        client.pending = json.dumps({"type": "refused", "reason": reason})
        client.close_code = REFUSED
        client.wake.set()

    def choose(self, client: Client, message: dict[str, Any]) -> dict[str, Any] | None:
        """A seat's choice; the reply, or None after a refusal."""
        seat = client.seat
        if seat is None or not self.pairing.is_current(client.generation):
            self.refuse(client, "unpaired")
            return None
        choice, turn, cid = message.get("choice"), message.get("turn"), message.get("id")
        if (choice not in ("torch", "camp") or not isinstance(turn, str) or len(turn) > 40
                or not isinstance(cid, str) or not 0 < len(cid) <= 64):
            return {"type": "error", "reason": "bad choice"}
        # Sent again (no answer reached the page): it counts once.
        waiting = self.deciding.get((seat, cid))
        if waiting is not None:
            waiting.append(client)
            return None  # the answer comes when the table gives it
        seen = self.seen.get(seat, {}).get(turn, {})
        if cid in seen:
            return _answer(cid, seen[cid], again=True)
        if len(seen) >= SEEN_IDS:
            return _answer(cid, "too many")
        self.deciding[(seat, cid)] = [client]
        loop = asyncio.get_running_loop()

        def answer(reason: str | None) -> None:  # on the UI thread
            with contextlib.suppress(RuntimeError):  # the server stopped: nobody to tell
                loop.call_soon_threadsafe(self.answered, seat, turn, cid, reason)

        self.on_choose(seat, Choice(choice), turn, client.generation, answer)
        return None

    def answered(self, seat: int, turn: str, cid: str, reason: str | None) -> None:
        """The table's answer to a choice: to every page that sent it (a page
        that reconnected sent it again), and kept for a later retry."""
        turns = self.seen.setdefault(seat, {})
        turns.setdefault(turn, {})[cid] = reason
        if len(turns) > 2:
            # A turn before the last two is over: a choice sent for it again is
            # answered "old turn" by the table, whatever it was the first time.
            del turns[next(iter(turns))]
        for client in self.deciding.pop((seat, cid), ()):
            if not client.closed and client.close_code is None:
                client.answers.append(json.dumps(_answer(cid, reason)))
                client.wake.set()

    def close_all(self) -> None:
        for client in list(self.clients):
            client.pending = json.dumps({"type": "closing"})
            client.close_code = 1001
            client.wake.set()


def _answer(cid: str, reason: str | None, *, again: bool = False) -> dict[str, Any]:
    """A choice's answer: ``ack`` if it counted, else ``error`` with why not."""
    said: dict[str, Any] = ({"type": "ack", "id": cid} if reason is None
                            else {"type": "error", "reason": reason, "id": cid})
    if again:
        said["again"] = True
    return said


# --- the ASGI app -------------------------------------------------------------------


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return ""


def _query(scope: Scope, name: str) -> str | None:
    from urllib.parse import parse_qs

    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get(name)
    return values[0] if values else None


class App:
    """The ASGI app: Starlette's responses and websockets behind our own checks."""

    def __init__(self, hub: Hub, assets: Assets, hosts: Callable[[], frozenset[str]],
                 languages: tuple[str, ...], default_language: Callable[[], str]) -> None:
        self.hub = hub
        self.assets = assets
        self.hosts = hosts
        self.languages = languages
        self.default_language = default_language

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            return
        host = _header(scope, b"host")
        if host not in self.hosts():
            await self._refuse(scope, receive, send, 421, "not this server")
            return
        if kind == "websocket":
            origin = _header(scope, b"origin")
            if origin != f"http://{host}":
                _log.info("websocket from another site refused")
                await self._refuse(scope, receive, send, 403, "foreign origin")
                return
            await self._websocket(scope, receive, send)
            return
        await self._http(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, status: int,
                      why: str) -> None:
        from starlette.responses import PlainTextResponse
        from starlette.websockets import WebSocket

        if scope["type"] == "websocket":
            await WebSocket(scope, receive, send).close(code=1008, reason=why)
            return
        await PlainTextResponse(why, status_code=status, headers=_headers(""))(
            scope, receive, send
        )

    def _language(self, scope: Scope) -> str:
        return choose_language(_query(scope, "lang"), _header(scope, b"accept-language"),
                               self.languages, self.default_language())

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        from starlette.responses import PlainTextResponse, RedirectResponse, Response

        from web.views import page_words

        path = scope.get("path", "")
        if scope.get("method") not in ("GET", "HEAD"):
            # Nothing changes by a request: a choice comes over the websocket.
            response: Response = PlainTextResponse("only GET", status_code=405,
                                                   headers={**_headers(""), "Allow": "GET, HEAD"})
        elif path == "/":
            response = RedirectResponse("/watch", status_code=303, headers=_headers(""))
        elif path in ("/seat", "/watch"):
            code = self._language(scope)
            page = self.assets.seat if path == "/seat" else self.assets.watch
            words = json.dumps(page_words(code), ensure_ascii=False).replace("<", "\\u003c")
            html = page.replace("__LANG__", code).replace("__WORDS__", words)
            response = Response(html, media_type="text/html; charset=utf-8",
                                headers=_headers(_header(scope, b"host")))
        elif path.startswith("/static/") and path[8:] in self.assets.files:
            body, media = self.assets.files[path[8:]]
            response = Response(body, media_type=media, headers=_headers(""))
        else:
            response = PlainTextResponse("not found", status_code=404, headers=_headers(""))
        await response(scope, receive, send)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        from starlette.websockets import WebSocket, WebSocketDisconnect

        path = scope.get("path", "")
        ws = WebSocket(scope, receive, send)
        if path not in ("/ws/seat", "/ws/watch"):
            await ws.close(code=1008)
            return
        hub = self.hub
        seat_page = path == "/ws/seat"
        await ws.accept()
        if (hub.waiting >= MAX_WAITING if seat_page else hub.watchers() >= MAX_WATCHERS):
            await self._full(ws)
            return
        client = Client(self._language(scope))
        writer: asyncio.Task[None] | None = None
        try:
            if seat_page:
                hub.waiting += 1
                try:
                    hello = json.loads(await asyncio.wait_for(ws.receive_text(), HELLO_S))
                    found = (hub.pairing.seat_of(str(hello.get("token", ""))[:100])
                             if hello.get("type") == "hello" else None)
                except (TimeoutError, ValueError, RecursionError, AttributeError, KeyError,
                        TypeError):  # fmt: skip
                    found = None  # late, not JSON (or nested past reading), not an object, binary
                finally:
                    hub.waiting -= 1
                if found is None:
                    await ws.send_text(json.dumps({"type": "refused", "reason": "token"}))
                    await ws.close(code=REFUSED)
                    return
                if hub.phones(found[0]) >= PHONES_PER_SEAT:
                    await self._full(ws)
                    return
                client.seat, client.generation = found
            hub.join(client)
            writer = client.writer = asyncio.get_running_loop().create_task(
                self._write(ws, client))
            async with client.sending:
                await ws.send_text(json.dumps({"type": "welcome", "seat": client.seat,
                                               "language": client.language}))
            hub.offer(client)
            loop = asyncio.get_running_loop()
            while not client.closed:
                text = await ws.receive_text()
                if not hub.may_send(client, loop.time()):
                    _log.info("a page sent too many messages: closed")
                    await ws.close(code=1008)
                    break
                reply = self._on_message(client, text)
                if reply is not None and not client.closed:
                    async with client.sending:
                        await ws.send_text(json.dumps(reply))
        except (WebSocketDisconnect, RuntimeError, OSError, KeyError, TypeError):
            pass  # gone, or a binary frame (KeyError): the page is closed either way
        finally:
            client.closed = True
            client.wake.set()
            hub.leave(client)
            if writer is not None:
                with contextlib.suppress(Exception):
                    await writer

    @staticmethod
    async def _full(ws: Any) -> None:
        await ws.send_text(json.dumps({"type": "full"}))
        await ws.close(code=FULL)

    def _on_message(self, client: Client, text: str) -> dict[str, Any] | None:
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):  # nested past what json reads: not JSON to us
            return {"type": "error", "reason": "not JSON"}
        if not isinstance(message, dict):
            return {"type": "error", "reason": "not an object"}
        kind = message.get("type")
        if kind == "ping":
            return {"type": "pong"}
        if kind == "choose":
            return self.hub.choose(client, message)
        return {"type": "error", "reason": "unknown type"}

    async def _write(self, ws: Any, client: Client) -> None:
        """Send the client's newest message whenever there is one (older ones are
        dropped: only the newest view of the table matters)."""
        try:
            while not client.closed:
                await client.wake.wait()
                client.wake.clear()
                while client.answers:
                    async with client.sending:
                        await ws.send_text(client.answers.popleft())
                text, client.pending = client.pending, None
                if text is not None:
                    async with client.sending:
                        await ws.send_text(text)
                if client.close_code is not None:
                    client.closed = True
                    await ws.close(code=client.close_code)
        except Exception:  # the connection went: the reader ends it
            client.closed = True


def _headers(host: str) -> dict[str, str]:
    """What every response says: nothing cached, never framed, no referrer, only
    our own scripts, and websockets only back to this server."""
    connect = f" ws://{host}" if host else ""
    return {
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "X-Frame-Options": "DENY",
        "Content-Security-Policy": (
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
            f"connect-src 'self'{connect}; base-uri 'none'; form-action 'none'; "
            "frame-ancestors 'none'"
        ),
    }


# --- the server's thread ------------------------------------------------------------

LAN = "lan"
#: An address of the documentation range (RFC 5737): "connecting" a UDP socket
#: to it sends nothing, but makes the kernel pick the interface of the default
#: route, whose address is the device's address on the local network.
_ROUTE_PROBE = ("192.0.2.1", 9)


def lan_addresses(addresses: tuple[str, ...]) -> tuple[str, ...]:
    """The config's addresses with ``lan`` made this device's address on the
    local network; raises :class:`WebFailed` when it has none."""
    out = []
    for address in addresses:
        if address != LAN:
            out.append(address)
            continue
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect(_ROUTE_PROBE)
                found = str(probe.getsockname()[0])
        except OSError:
            found = ""
        if not found or found.startswith("127.") or found == "0.0.0.0":
            raise WebFailed("no local network: this device has no address on one")
        out.append(found)
    return tuple(dict.fromkeys(out))



def _bind(address: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind((address, port))
        sock.listen(BACKLOG)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


def _guarded_http() -> type[asyncio.Protocol]:
    """uvicorn's HTTP/1.1 protocol with two limits it lacks: no more than
    :data:`MAX_CONNECTIONS` open at once, and a request's headers within
    :data:`HEADERS_S` of its first byte (or of the connection, for one that
    sends nothing), and no body read past the answer. Without them a socket
    that never sends, or sends a header line or a byte of a body now and then,
    was held for good, and about a thousand of them left no file free: no
    page could connect and asyncio logged an error on every try to accept."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    crowded = [False]  # said once per crowding, not once per connection closed

    class Guarded(H11Protocol):
        headers_due: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            # uvicorn's own set, which holds its websockets too once upgraded.
            if len(self.connections) > MAX_CONNECTIONS:
                if not crowded[0]:
                    crowded[0] = True
                    _log.warning("more than %d connections open: the newest are closed",
                                 MAX_CONNECTIONS)
                transport.abort()
                return
            crowded[0] = False
            self._wait_for_headers()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.transport.get_protocol() is not self or self.conn.their_state is not h11.IDLE:
                self._stop_waiting()  # a websocket now, or a whole request came
            else:
                self._wait_for_headers()  # part of a request: its headers are due

        def on_response_complete(self) -> None:
            super().on_response_complete()
            # No page sends a body and none is read: one still coming once the
            # answer is out (a POST that never ends) would hold the connection.
            if self.conn.their_state is h11.SEND_BODY and not self.transport.is_closing():
                self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_waiting()
            super().connection_lost(exc)

        def _wait_for_headers(self) -> None:
            if self.headers_due is None:
                self.headers_due = self.loop.call_later(HEADERS_S, self._headers_late)

        def _stop_waiting(self) -> None:
            if self.headers_due is not None:
                self.headers_due.cancel()
                self.headers_due = None

        def _headers_late(self) -> None:
            self.headers_due = None
            transport = self.transport
            if (transport.get_protocol() is self and not transport.is_closing()
                    and self.conn.their_state is h11.IDLE):
                transport.close()

    return Guarded


class WebServer:
    """The pages on ``addresses`` at ``port`` (0: any free port, for tests), served
    from a thread of its own once :meth:`start` is called.

    ``on_choose(seat, choice, turn, generation, answer)`` is called on the
    server's thread for each new choice of a paired seat, and ``answer(why)``
    back from any thread with None if it counted, else why not;
    ``on_languages(codes, more)`` when the languages of the pages open change
    (``more``: one came that may have no view yet); ``on_stopped(error)`` if the
    server ends by itself (a failure).
    """

    def __init__(
        self,
        addresses: tuple[str, ...],
        port: int,
        pairing: Pairing,
        *,
        on_choose: OnChoose,
        on_languages: Callable[[frozenset[str], bool], None],
        on_stopped: Callable[[str], None] = lambda error: None,
        languages: tuple[str, ...] = ("en", "pl", "es", "ja"),
        default_language: Callable[[], str] = lambda: "en",
    ) -> None:
        self.addresses = addresses
        self.port = port
        self.pairing = pairing
        self.on_stopped = on_stopped
        self.hub = Hub(pairing, on_choose, on_languages)
        self._languages = languages
        self._default_language = default_language
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: Any = None
        self._hosts: frozenset[str] = frozenset()
        self._stopping = False
        self._shutting: asyncio.Task[None] | None = None
        #: Set once the server listens no more (its port may be bound again).
        self.released = threading.Event()
        self.error: str | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive() and self.error is None

    def hosts(self) -> frozenset[str]:
        return self._hosts

    def base_urls(self) -> tuple[str, ...]:
        """``http://address:port`` of each address served, in the config's order."""
        return tuple(f"http://{_host(a)}:{self.port}" for a in self.addresses)

    def start(self) -> None:
        """Bind every address and start serving; raises :class:`WebFailed` with
        the reason if an address cannot be bound (nothing is left open then)."""
        import uvicorn

        socks: list[socket.socket] = []
        port = self.port
        try:
            for address in self.addresses:
                sock = _bind(address, port)
                port = sock.getsockname()[1]  # port 0: the others take the one given
                socks.append(sock)
        except OSError as e:
            for sock in socks:
                sock.close()
            raise WebFailed(f"{address}:{port}: {e.strerror or e}") from None
        self.port = port
        self._hosts = frozenset(_host(a) + f":{port}" for a in self.addresses) | (
            frozenset(_host(a) for a in self.addresses) if port == 80 else frozenset()
        )
        app = App(self.hub, Assets.load(), self.hosts, self._languages, self._default_language)
        # uvicorn's "websockets" implementation, not "websockets-sansio": the
        # latter answers every ping with no flow control, so a socket that sends
        # pings and never reads grew this process by 700 MB in 40 s (15 MB a
        # second on loopback); this one stops reading it instead, and stayed
        # flat (tests/test_web.py floods one). uvicorn calls it deprecated.
        config = uvicorn.Config(
            app, log_config=None, access_log=False, log_level="warning",
            proxy_headers=False, server_header=False, lifespan="off",
            ws="websockets", http=_guarded_http(), loop="none",
            ws_max_size=MAX_MESSAGE, ws_per_message_deflate=False,
            timeout_graceful_shutdown=2, backlog=BACKLOG,
        )  # fmt: skip
        self._server = uvicorn.Server(config)
        logging.getLogger("uvicorn.error").addFilter(_REQUEST_NOISE)  # once: a set of one
        loop = asyncio.new_event_loop()
        self._loop = loop
        started = threading.Event()

        def serve() -> None:
            asyncio.set_event_loop(loop)
            error = ""
            try:
                loop.call_soon(started.set)
                loop.run_until_complete(self._server.serve(sockets=socks))
            except BaseException as e:  # never past this thread: the table goes on
                _log.exception("web server")
                error = str(e) or type(e).__name__
            finally:
                for sock in socks:
                    sock.close()
                with contextlib.suppress(Exception):
                    loop.run_until_complete(loop.shutdown_asyncgens())
                loop.close()
            self.released.set()
            if not self._stopping:
                self.error = error or "stopped"
                self.on_stopped(self.error)

        self._thread = threading.Thread(target=serve, name="web-server", daemon=True)
        self._thread.start()
        started.wait(5.0)

    def publish(self, game: int | None, views: dict[str, dict[str, Any] | None],
                mine: dict[int, str]) -> None:
        """The table's newest view, in each language made, and each seat's own
        choice this turn, for its phones alone (any thread)."""
        self._call(self.hub.update, game, views, dict(mine))

    def repaired(self) -> None:
        """New seat links were made: the old ones' pages are told and closed."""
        self._call(self.hub.repaired)

    def _call(self, fn: Callable[..., None], *args: Any) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # closed in between: nobody to tell
            loop.call_soon_threadsafe(fn, *args)

    def stop(self, timeout: float = 5.0, *, wait: bool = True) -> None:
        """Close every connection and stop the server, within ``timeout``.

        With ``wait`` false it returns at once (the table's thread must not
        wait on phones that stopped reading: that took 2.7 to 4.6 s); its
        addresses are given back first, within a moment (:attr:`released`)."""
        self._stopping = True
        loop, server, thread = self._loop, self._server, self._thread
        if loop is None or thread is None:
            self.released.set()
            return

        async def shut() -> None:
            for listening in getattr(server, "servers", ()):
                listening.close()  # the port is free for a server started now
            self.released.set()
            writers = [c.writer for c in self.hub.clients if c.writer is not None]
            self.hub.close_all()
            # The writers send their last words and close first, then the server stops.
            if writers:
                await asyncio.wait(writers, timeout=timeout / 2)
            server.should_exit = True

        def begin() -> None:
            self._shutting = loop.create_task(shut())  # kept: a task nobody holds may go

        self._call(begin)
        if wait:
            thread.join(timeout)


def _host(address: str) -> str:
    return f"[{address}]" if ":" in address else address
