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
from web.pairing import Pairing

__all__ = ["LAN", "MAX_CLIENTS", "WebFailed", "WebServer", "lan_addresses"]

_log = logging.getLogger(__name__)

MAX_CLIENTS = 120  # 8 phones and a room full of watchers, with room to spare
#: Each kind has its own share of MAX_CLIENTS, so that no kind can crowd out
#: another: watchers never take the seats' places, nor do sockets that have
#: not said (or will never say) which seat they are.
MAX_WATCHERS = 88
MAX_SEAT_PHONES = 16  # two phones a seat
MAX_WAITING = MAX_CLIENTS - MAX_WATCHERS - MAX_SEAT_PHONES  # 16 seat pages before their hello
MAX_MESSAGE = 2048  # bytes: a choice is a few dozen
HELLO_S = 10.0  # a seat page says who it is within this, or is closed
#: Messages a page may send: a burst of this many, then this many a second. A
#: person taps a few times a second at most; a flood of choices would keep the
#: table's thread busy, so a page past it is closed (1008).
BURST, PER_SECOND = 20, 5.0
SEEN_IDS = 64  # a seat's last choice ids kept: a choice sent twice counts once
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
    allowance: float = float(BURST)
    checked: float = 0.0

    def may_send(self, now: float) -> bool:
        """Whether one more message is within the page's allowance (a token bucket)."""
        self.allowance = min(float(BURST), self.allowance + (now - self.checked) * PER_SECOND)
        self.checked = now
        if self.allowance < 1.0:
            return False
        self.allowance -= 1.0
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
                 on_language: Callable[[str], None]) -> None:
        self.pairing = pairing
        self.on_choose = on_choose
        self.on_language = on_language
        self.clients: set[Client] = set()
        self.waiting = 0  # seat pages accepted that have not said which seat they are
        self.latest = Latest()
        #: Per seat, its last choice ids and the table's answer to each.
        self.seen: dict[int, dict[str, str | None]] = {}
        #: The choices handed to the table, their answers not back yet: who awaits each.
        self.deciding: dict[tuple[int, str], list[Client]] = {}
        self.asked: set[str] = set()

    def watchers(self) -> int:
        return sum(1 for c in self.clients if c.seat is None)

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
        self.asked -= set(views)
        for client in list(self.clients):
            self.offer(client)

    def offer(self, client: Client) -> None:
        """Give ``client`` the newest view in its language (asked for if not made)."""
        if client.close_code is not None:
            return  # its last words are on their way: nothing may overwrite them
        view = self.latest.views.get(client.language)
        if view is None:
            # Before the table's first view nothing is asked: that view is coming.
            if self.latest.made and client.language not in self.asked:
                self.asked.add(client.language)
                self.on_language(client.language)
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
        seen = self.seen.get(seat, {})
        if cid in seen:
            return _answer(cid, seen[cid], again=True)
        self.deciding[(seat, cid)] = [client]
        loop = asyncio.get_running_loop()

        def answer(reason: str | None) -> None:  # on the UI thread
            with contextlib.suppress(RuntimeError):  # the server stopped: nobody to tell
                loop.call_soon_threadsafe(self.answered, seat, cid, reason)

        self.on_choose(seat, Choice(choice), turn, client.generation, answer)
        return None

    def answered(self, seat: int, cid: str, reason: str | None) -> None:
        """The table's answer to a choice: to every page that sent it (a page
        that reconnected sent it again), and kept for a later retry."""
        seen = self.seen.setdefault(seat, {})
        seen[cid] = reason
        if len(seen) > SEEN_IDS:
            del seen[next(iter(seen))]
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
                    hello = await asyncio.wait_for(ws.receive_text(), HELLO_S)
                    found = hub.pairing.seat_of(str(json.loads(hello).get("token", ""))[:100])
                except (TimeoutError, ValueError, RecursionError, AttributeError, KeyError,
                        TypeError):  # fmt: skip
                    found = None  # late, not JSON (or nested past reading), not an object, binary
                finally:
                    hub.waiting -= 1
                if found is None:
                    await ws.send_text(json.dumps({"type": "refused", "reason": "token"}))
                    await ws.close(code=REFUSED)
                    return
                if len(hub.clients) - hub.watchers() >= MAX_SEAT_PHONES:
                    await self._full(ws)
                    return
                client.seat, client.generation = found
            hub.clients.add(client)
            writer = client.writer = asyncio.get_running_loop().create_task(
                self._write(ws, client))
            async with client.sending:
                await ws.send_text(json.dumps({"type": "welcome", "seat": client.seat,
                                               "language": client.language}))
            hub.offer(client)
            loop = asyncio.get_running_loop()
            client.checked = loop.time()
            while not client.closed:
                text = await ws.receive_text()
                if not client.may_send(loop.time()):
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
            hub.clients.discard(client)
            if writer is not None:
                with contextlib.suppress(Exception):
                    await writer

    @staticmethod
    async def _full(ws: Any) -> None:
        await ws.send_text(json.dumps({"type": "full"}))
        await ws.close(code=FULL)

    def _on_message(self, client: Client, text: str) -> dict[str, Any] | None:
        if len(text) > MAX_MESSAGE:
            return {"type": "error", "reason": "too long"}
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
        sock.listen(128)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


class WebServer:
    """The pages on ``addresses`` at ``port`` (0: any free port, for tests), served
    from a thread of its own once :meth:`start` is called.

    ``on_choose(seat, choice, turn, generation, answer)`` is called on the
    server's thread for each new choice of a paired seat, and ``answer(why)``
    back from any thread with None if it counted, else why not; ``on_language(code)`` when a
    page wants a language no view was made in yet; ``on_stopped(error)`` if the
    server ends by itself (a failure).
    """

    def __init__(
        self,
        addresses: tuple[str, ...],
        port: int,
        pairing: Pairing,
        *,
        on_choose: OnChoose,
        on_language: Callable[[str], None],
        on_stopped: Callable[[str], None] = lambda error: None,
        languages: tuple[str, ...] = ("en", "pl", "es", "ja"),
        default_language: Callable[[], str] = lambda: "en",
    ) -> None:
        self.addresses = addresses
        self.port = port
        self.pairing = pairing
        self.on_stopped = on_stopped
        self.hub = Hub(pairing, on_choose, on_language)
        self._languages = languages
        self._default_language = default_language
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: Any = None
        self._hosts: frozenset[str] = frozenset()
        self._stopping = False
        self._shutting: asyncio.Task[None] | None = None
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
            ws="websockets", http="h11", loop="none",
            ws_max_size=MAX_MESSAGE, ws_per_message_deflate=False,
            timeout_graceful_shutdown=2,
        )  # fmt: skip
        self._server = uvicorn.Server(config)
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

    def stop(self, timeout: float = 5.0) -> None:
        """Close every connection and stop the server; waits for its thread."""
        self._stopping = True
        loop, server, thread = self._loop, self._server, self._thread
        if loop is None or thread is None:
            return

        async def shut() -> None:
            writers = [c.writer for c in self.hub.clients if c.writer is not None]
            self.hub.close_all()
            # The writers send their last words and close first, then the server stops.
            if writers:
                await asyncio.wait(writers, timeout=timeout / 2)
            server.should_exit = True

        def begin() -> None:
            self._shutting = loop.create_task(shut())  # kept: a task nobody holds may go

        self._call(begin)
        thread.join(timeout)
        self._thread = None


def _host(address: str) -> str:
    return f"[{address}]" if ":" in address else address
