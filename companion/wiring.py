"""The one place that builds the real or simulated adapters and wires them up.

Why one place: the rest of the program talks to a :class:`Device` and never
asks whether the buttons are gpiozero pins on a Pi, a keyboard on a desktop
or MockFactory pins pressed by the demo, or whether the frames come from the
Pi camera, a webcam or the rendered virtual table. This module decides, from
the :class:`~companion.config.Config` and a few command-line choices, and it
is the only module that imports gpiozero and the vision code for the app.

Threads: seat presses arrive on gpiozero's threads and cards on the scanner's
thread. Each callback is handed to ``post`` (the app passes a function that
schedules it on the Kivy clock), so the :class:`~companion.table.Table` is
only ever touched from the UI thread. Adapter failures are logged and shown
on the table's status line; they never end the app.

No Kivy import here: the UI gives ``post``; tests give a plain call.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import i18n
from companion.choices import Choice
from companion.config import Config
from companion.events import Start
from companion.i18n import _
from companion.store import Store, open_or_set_aside
from companion.table import Table

__all__ = ["Device", "FrameStepper", "Post", "build", "direct"]

_log = logging.getLogger(__name__)

Post = Callable[[Callable[[], None]], None]
SEAT_INPUTS = ("auto", "gpio", "keyboard", "mock")
CAMERAS = ("config", "virtual", "none")
HIDDEN_TENTS = "hidden_tents"  # a per-game option kept in the data file
LANGUAGE = "language"  # the set-up screen's choice, kept in the data file


def direct(fn: Callable[[], None]) -> None:
    """A ``post`` that runs the callback at once (tests, single-threaded demo)."""
    fn()


@dataclass(frozen=True)
class CardSeen:
    """What one scanner step produced, for the demo's timing figures."""

    card: str
    frame: int


class FrameStepper:
    """The real scanner (decoder and tracker) stepped one frame per :meth:`step`.

    Why not its thread: the demo needs the same frames read in the same order
    on every run (same seed, same game), and the virtual table renders a
    frame only when asked. The frames still go through ``Scanner.process``,
    the path the scanner thread takes.
    """

    def __init__(self, scanner: Any) -> None:
        self.scanner = scanner
        self.frames = 0

    @property
    def tracker(self) -> Any:
        return self.scanner.tracker

    def step(self) -> list[CardSeen]:
        """Render (or take) one frame and run it through the scanner."""
        from vision.tracker import CardPlaced

        source = self.scanner.source
        next_image = getattr(source, "next_image", None)
        if next_image is not None:
            image = next_image()
        else:
            frame = source.latest()
            if frame is None:
                return []
            image = frame.image
        self.frames += 1
        return [
            CardSeen(e.card, e.frame)
            for e in self.scanner.process(image)
            if isinstance(e, CardPlaced)
        ]


class Device:
    """The adapters of one running app, and the game table they feed.

    ``seat_input`` says what the seat buttons are: ``gpio`` (a SeatPanel on the
    Pi's lgpio pins), ``keyboard`` (keys from the UI, see hardware.keyboard),
    or ``mock`` (a SeatPanel on gpiozero's MockFactory, pressed by the demo).
    ``camera_kind`` is the frame source's name, or ``none``.
    """

    def __init__(
        self,
        config: Config,
        store: Store,
        *,
        post: Post = direct,
        clock: Callable[[], float] = time.monotonic,
        store_message: str | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.post = post
        self.clock = clock
        self.store_message = store_message
        self.table: Table | None = None
        self.seat_input = "keyboard"
        self.pin_factory: Any = None
        self.panel: Any = None
        self.source: Any = None
        self.virtual: Any = None
        self.scanner: Any = None
        self.stepper: FrameStepper | None = None
        self.camera_kind = "none"
        self.camera_status = _("no camera")
        self.problems: list[str] = []  # adapter failures at start-up, for the status line
        self._unlisten: Callable[[], None] | None = None
        self._rng = random.Random()

    # --- games ---------------------------------------------------------------

    def new_game(self, start: Start, *, hidden_tents: bool = False) -> Table:
        """Start a new game in the data file and make it the table's game."""
        table = Table.new(self.store, start, countdown=self.config.countdown, clock=self.clock)
        self.store.set_option(table.game, HIDDEN_TENTS, "1" if hidden_tents else "0")
        self._use(table)
        return table

    def chosen_language(self) -> str | None:
        """The language last picked on the set-up screen, if any."""
        return _chosen_language(self.store)

    def remember_language(self, code: str) -> None:
        try:
            self.store.set_setting(LANGUAGE, code)
        except Exception:
            _log.exception("storing the chosen language")  # still used for this run

    def hidden_tents(self, game: int) -> bool:
        """Whether the table chose hidden tents for ``game`` (the config's
        default for a game stored before the option was kept)."""
        try:
            said = self.store.option(game, HIDDEN_TENTS)
        except Exception:
            _log.exception("reading the game's options")
            said = None
        return self.config.hidden_tents if said is None else said == "1"

    def resume(self, game: int) -> Table:
        """Continue a stored game."""
        table = Table.resume(self.store, game, countdown=self.config.countdown, clock=self.clock)
        self._use(table)
        return table

    def unfinished(self) -> int | None:
        try:
            return self.store.unfinished()
        except Exception:
            _log.exception("looking for an unfinished game")
            return None

    def _use(self, table: Table) -> None:
        if self._unlisten is not None:
            self._unlisten()
        if self.table is not None:
            self.table.close()
        self.table = table
        table.set_scanner_status(self.camera_status)
        for text in [*self.problems, *([self.store_message] if self.store_message else [])]:
            table.say(text, "warning")
        self._unlisten = table.listen(self._show_leds)
        self._show_leds(table)

    def _show_leds(self, table: Table) -> None:
        if self.panel is None:
            return
        try:
            self.panel.set_leds(table.collector.leds())
        except Exception as e:
            _log.exception("seat LEDs")
            self.panel = None  # one notice, not one per change
            table.say(_("Seat lights failed: {error}").format(error=e), "error")

    # --- input from the adapters (any thread) ----------------------------------------

    def _press(self, seat: int, choice: Choice) -> None:
        self.post(lambda: self._on_ui_thread(lambda t: t.press(seat, choice)))

    def _card(self, card_id: str) -> None:
        self.post(lambda: self._on_ui_thread(lambda t: t.scan(card_id)))

    def _notice(self, text: str) -> None:
        self.post(lambda: self._on_ui_thread(lambda t: t.say(text, "warning")))

    def _status(self, status: str) -> None:
        text = _camera_words(self, status)

        def show(t: Table) -> None:
            t.set_scanner_status(text)

        self.camera_status = text
        self.post(lambda: self._on_ui_thread(show))

    def _on_ui_thread(self, action: Callable[[Table], object]) -> None:
        table = self.table
        if table is None:
            return
        try:
            action(table)
        except Exception as e:  # an adapter's input must never end the app
            _log.exception("adapter input")
            table.say(_("Input failed: {error}").format(error=e), "error")

    def key(self, name: str) -> bool:
        """A key from the UI: a seat's torch or camp when the keyboard stands in."""
        if self.seat_input != "keyboard" or self.table is None:
            return False
        from hardware.keyboard import choice_for_key

        hit = choice_for_key(name, len(self.table.state.seats))
        if hit is None:
            return False
        self.table.press(*hit)
        return True

    def turn_virtual_card(self, rng: random.Random | None = None) -> str | None:
        """Lay a random card the table could turn now on the virtual table.

        The card then goes through the real scanner like a real one. Returns
        the card, or None if there is no virtual table or no card can come.
        """
        table = self.table
        if self.virtual is None or table is None:
            return None
        options = table.entry_options()
        if not options:
            return None
        cid = (rng or self._rng).choice(options)
        self.virtual.place(cid)
        return cid

    def step_camera(self) -> list[CardSeen]:
        """One synchronous scanner step, where there is no scanner thread."""
        if self.stepper is None:
            return []
        try:
            return self.stepper.step()
        except Exception as e:
            _log.exception("scanner step")
            self.stepper = None
            self._status("no camera")
            self._notice(_("Camera failed: {error}").format(error=e))
            return []

    # --- the end ---------------------------------------------------------------

    def close(self) -> None:
        """Stop the scanner and camera, switch the LEDs off, close the data file."""
        for what, stop in (
            ("scanner", getattr(self.scanner, "stop", None)),
            ("camera", getattr(self.source, "stop", None)),
            ("seat panel", getattr(self.panel, "close", None)),
        ):
            if stop is None:
                continue
            try:
                stop()
            except Exception:
                _log.exception("closing the %s", what)
        self.scanner = self.source = self.panel = None
        if self.table is not None:
            self.table.close()
        try:
            self.store.close()
        except Exception:
            _log.exception("closing the data file")


# --- building -----------------------------------------------------------------------


def build(
    config: Config,
    *,
    post: Post = direct,
    clock: Callable[[], float] = time.monotonic,
    seat_input: str = "auto",
    camera: str = "config",
    data_file: Path | None = None,
    set_aside: bool = True,
    seed: int = 0,
    threaded: bool = True,
) -> Device:
    """A device with its adapters built and started.

    ``seat_input``: ``auto`` (the Pi's buttons when this is a Pi, else the
    keyboard), ``gpio``, ``keyboard`` or ``mock``. ``camera``: ``config``
    (the configured source, the virtual table where none is found),
    ``virtual`` or ``none``. ``threaded=False`` steps the scanner from the
    caller (:meth:`Device.step_camera`) for a repeatable demo. ``set_aside``
    renames a damaged or foreign data file and starts a new one (the app);
    without it such a file raises StoreError (the demo's bad input).
    Missing hardware never raises: it falls back and says so.
    """
    path = data_file if data_file is not None else config.data_file
    if set_aside:
        store, message = open_or_set_aside(path)
    else:
        store, message = Store(path), None
    chosen = _chosen_language(store)
    if chosen:
        # The set-up screen's last choice outranks the config's language; set
        # before anything below words a notice.
        try:
            i18n.set_language(chosen)
        except ValueError:
            _log.warning("the data file names language %r, which is not available", chosen)
    device = Device(config, store, post=post, clock=clock, store_message=message)
    try:
        _build_seats(device, seat_input)
        _build_camera(device, camera, seed=seed, threaded=threaded)
    except BaseException:
        device.close()
        raise
    return device


def _chosen_language(store: Store) -> str | None:
    try:
        return store.setting(LANGUAGE)
    except Exception:
        _log.exception("reading the chosen language")
        return None


def _build_seats(device: Device, seat_input: str) -> None:
    if seat_input not in SEAT_INPUTS:
        raise ValueError(f"unknown seat input {seat_input!r} (one of {', '.join(SEAT_INPUTS)})")
    if seat_input == "keyboard":
        device.seat_input = "keyboard"
        return
    factory: Any = None
    if seat_input == "mock":
        from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

        factory = MockFactory()
    else:
        from hardware.gpio import NoGPIO, pin_factory_or_none

        try:
            factory = pin_factory_or_none()
        except NoGPIO as e:
            device.problems.append(_("No seat buttons: {reason}").format(reason=e))
            factory = None
        if factory is None:
            if seat_input == "gpio":
                device.problems.append(_("No GPIO here: the keyboard stands in for the buttons."))
            device.seat_input = "keyboard"
            return
    try:
        from hardware.panel import SeatPanel

        device.panel = SeatPanel(
            device.config.pins,
            on_press=device._press,
            pin_factory=factory,
            clock=device.clock,
            debounce_s=device.config.debounce_ms / 1000.0,
        )
    except Exception as e:
        _log.exception("seat panel")
        device.problems.append(_("Seat buttons failed: {error}").format(error=e))
        device.seat_input = "keyboard"
        return
    device.pin_factory = factory
    device.seat_input = "mock" if seat_input == "mock" else "gpio"


def _build_camera(device: Device, camera: str, *, seed: int, threaded: bool) -> None:
    if camera not in CAMERAS:
        raise ValueError(f"unknown camera {camera!r} (one of {', '.join(CAMERAS)})")
    cfg = device.config.camera
    kind = cfg.source if camera == "config" else camera
    if kind == "none":
        device.camera_kind = "none"
        device.camera_status = _("no camera: enter cards by tapping")
        return
    try:
        from vision.sources import VirtualTable, open_source

        if kind == "virtual" or not threaded:
            source: Any = VirtualTable(seed, fps=15.0 if threaded else None)
        else:
            source = open_source(kind, device=cfg.device, width=cfg.width, height=cfg.height,
                                 seed=seed)
    except Exception as e:
        _log.exception("camera")
        device.problems.append(_("Camera failed: {error}").format(error=e))
        device.camera_status = _("no camera: enter cards by tapping")
        return
    device.source = source
    device.camera_kind = str(getattr(source, "name", kind))
    if isinstance(source, VirtualTable):
        device.virtual = source
    try:
        from vision.scanner import Scanner

        scanner = Scanner(source, device._card, device._notice, device._status)
        if threaded:
            scanner.start()  # starts the source too
            device.scanner = scanner
        else:
            device.stepper = FrameStepper(scanner)
    except Exception as e:
        _log.exception("scanner")
        device.problems.append(_("Scanner failed: {error}").format(error=e))
    device.camera_status = _camera_words(device, "ok" if kind == "virtual" else "")


def _camera_words(device: Device, status: str) -> str:
    """The scanner's status ("ok", "no camera") in words for the status line."""
    if device.virtual is not None:
        return _("virtual table: tap Turn a card")
    if status == "ok":
        return _("camera ok")
    if status == "no camera":
        return _("no camera: enter cards by tapping")
    return _("camera starting…")
