"""The composition root: the one place that builds the device from its config.

The rest of the program never asks whether the seat buttons are gpiozero
pins on a Pi, a keyboard on a desktop or mock pins pressed by the demo, or
whether the frames come from the Pi camera, a webcam or the rendered
virtual table. :func:`build` decides, from the
:class:`~incan_companion.config.Config` and the command line's choices, and
wires every adapter to the core's ports:

- the SQLite :class:`~storage.store.Store` is the games'
  :class:`~companion.ports.EventStore`;
- the core's :class:`~companion.inbox.Inbox` receives presses and cards from
  the adapters' threads and posts them to the UI thread through ``post``;
- the seat panel (or its mock) is the :class:`~companion.ports.SeatLights`;
- the scanner (threaded, or stepped by the demo) is the card feed.

Missing hardware never raises: it falls back and says so on the status line.
Vision, gpiozero and Kivy are imported only when a part is built, so the
command line stays fast.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.games import Games
from companion.inbox import Inbox
from companion.notices import (
    CameraStatus,
    DataFileSetAside,
    Failed,
    Level,
    NoCameraFound,
    NoCardToTurn,
    NoGpio,
    Reason,
    Step,
)
from companion.ports import CardFeed, CardSink, Clock, Post, SeatLights, SeatPress, direct
from incan_companion.config import Config
from incan_companion.heap import release_free_memory
from incan_companion.options import CAMERA_CHOICES, SEAT_INPUTS, CameraChoice, SeatInput
from storage import Store, open_or_set_aside
from ui.kivyfree.controls import Controls
from vision import SourceKind

if TYPE_CHECKING:
    from hardware.fake import MockSeats
    from hardware.keyboard import KeyboardSeats
    from vision.scanner import FrameStepper, Scanner
    from vision.sources import FrameSource, VirtualTable
    from web.phones import Phones

__all__ = ["CAMERA_CHOICES", "PHONES_ON", "SEAT_INPUTS", "Camera", "Device", "Seats", "build"]

_log = logging.getLogger(__name__)

#: The table's choice in the Phones window, kept in the data file like the odds'.
PHONES_ON = "phones"


@dataclass
class Seats:
    """The seat buttons as built: ``kind`` is gpio, keyboard or mock."""

    kind: SeatInput = SeatInput.KEYBOARD
    lights: SeatLights | None = None
    mock: MockSeats | None = None
    keyboard: KeyboardSeats | None = None


@dataclass
class Camera:
    """The card camera as built: ``kind`` is the source's name (a
    :class:`~vision.SourceKind` for ours), or none."""

    kind: str = SourceKind.NONE
    source: FrameSource | None = None
    virtual: VirtualTable | None = None
    scanner: Scanner | None = None  # on its own thread
    stepper: FrameStepper | None = None  # stepped by the caller instead
    status: CameraStatus = CameraStatus.NO_CAMERA
    #: When the stepped virtual table rendered the first frame of its card at
    #: rest (``time.perf_counter()``): where the demo times the payout from.
    rest_at: float | None = None
    frames: int = 0  # frames the stepped virtual table has rendered
    #: The camera choice put off until :meth:`Device.start_camera` (build's
    #: ``camera_later``); None once started, or when nothing was put off.
    later: CameraChoice | None = None


@dataclass
class Device:
    """The built parts of one running app."""

    config: Config
    store: Store
    games: Games
    inbox: Inbox
    seats: Seats = field(default_factory=Seats)
    camera: Camera = field(default_factory=Camera)
    rng: random.Random = field(default_factory=random.Random)
    seed: int = 0
    #: The phones' pages (None: not built, as in the demo).
    phones: Phones | None = None
    #: Whether the phones' server starts with the camera, after the first screen.
    phones_later: bool = False
    #: Asks the system to switch the device off (None: nothing would act on it).
    switch_off: Callable[[], None] | None = None

    def controls(self) -> Controls:
        """What the screens drive besides the game.

        While the camera is put off, the controls are what it will most
        likely be (the chosen kind); :meth:`start_camera` gives the real ones.
        """
        camera = self.camera
        virtual = camera.virtual is not None or camera.later is CameraChoice.VIRTUAL
        return Controls(
            key=self.key,
            turn_card=self.turn_virtual_card if virtual else None,
            step_camera=self.step_camera if camera.stepper is not None else None,
            camera=camera.source is not None or camera.later not in (None, CameraChoice.NONE),
            close=self.close,
            start=self.start_camera if camera.later is not None or self.phones_later else None,
            phones=self.phones,
            release_memory=release_free_memory,
            switch_off=self.switch_off,
        )

    def start_camera(self) -> Controls:
        """Build the camera that :func:`build` put off (``camera_later``), on the
        UI thread; its notices (no camera found, say) go to the table as the
        start-up's do. The controls that follow from it."""
        choice, self.camera.later = self.camera.later, None
        if self.phones_later and self.phones is not None:
            self.phones_later = False
            self.phones.turn_on()
        if choice is not None:
            startup: list[tuple[Reason, Level]] = []
            self.camera = _build_camera(self, choice, startup, seed=self.seed, threaded=True)
            self.games.startup += tuple(startup)
            table = self.games.table
            if table is not None:
                for reason, level in startup:
                    table.say(reason, level, lasting=True)
            self.games.set_camera(self.camera.status)
        return self.controls()

    def key(self, name: str) -> bool:
        """A key from the window: a seat's torch or camp when the keyboard stands in."""
        return self.seats.keyboard is not None and self.seats.keyboard.key(name)

    def turn_virtual_card(self) -> str | None:
        """Lay a random card the table could turn now on the virtual table.

        The card then goes through the real scanner like a real one. Returns
        the card, or None (with a notice) when no card can come.
        """
        table = self.games.table
        if self.camera.virtual is None or table is None:
            return None
        options = table.entry_options()
        if not options:
            table.say(NoCardToTurn())
            return None
        cid = self.rng.choice(options)
        table.will_lay(cid)
        self.camera.virtual.place(cid)
        return cid

    def step_camera(self) -> list[str]:
        """One synchronous scanner step, where there is no scanner thread."""
        stepper = self.camera.stepper
        if stepper is None:
            return []
        try:
            return [placed.card for placed in stepper.step()]
        except Exception as e:
            _log.exception("scanner step")
            self.camera.stepper = None
            self.inbox.camera(CameraStatus.NO_CAMERA)
            self.inbox.failed(Step.CAMERA, e)
            return []

    def close(self) -> None:
        """Close the phones' connections, stop the scanner and camera, switch the
        LEDs off, close the data file."""
        camera, seats = self.camera, self.seats
        stops = [
            ("phones' server", self.phones.close if self.phones is not None else None),
            ("scanner", camera.scanner.stop if camera.scanner is not None else None),
            ("camera", camera.source.stop if camera.source is not None else None),
            ("seat panel", seats.lights.close if seats.lights is not None else None),
        ]
        for what, stop in stops:
            if stop is None:
                continue
            try:
                stop()
            except Exception:
                _log.exception("closing the %s", what)
        camera.scanner = camera.source = None
        seats.lights = None
        self.games.close()
        try:
            self.store.close()
        except Exception:
            _log.exception("closing the data file")


# --- building -----------------------------------------------------------------------


def build(
    config: Config,
    *,
    post: Post = direct,
    clock: Clock = time.monotonic,
    seat_input: SeatInput | str = SeatInput.AUTO,
    camera: CameraChoice | str = CameraChoice.CONFIG,
    data_file: Path | None = None,
    set_aside: bool = True,
    seed: int = 0,
    threaded: bool = True,
    camera_later: bool = False,
    opened: tuple[Store, DataFileSetAside | None] | None = None,
    phones: bool = False,
    web: tuple[tuple[str, ...], int] | None = None,
    switch_off: Callable[[], None] | None = None,
) -> Device:
    """A device with its adapters built and started.

    ``seat_input``: ``auto`` (the Pi's buttons when this is a Pi, else the
    keyboard), ``gpio``, ``keyboard`` or ``mock``. ``camera``: ``config``
    (the configured source, the virtual table where none is found),
    ``virtual`` or ``none``. ``threaded=False`` steps the scanner from the
    caller (:meth:`Device.step_camera`) for a repeatable demo. ``set_aside``
    renames a damaged or foreign data file and starts a new one (the app);
    without it such a file raises StoreError (the demo's bad input).
    ``camera_later`` puts the camera off until :meth:`Device.start_camera`
    (its controls' ``start``): OpenCV and the decoders take a fifth of a
    second to load, which the app spends after its first screen is drawn.
    ``opened``: the data file already opened by :func:`open_or_set_aside`
    (the app does it while Kivy starts).
    ``phones``: build the phones' pages (the app; off until the table turns
    them on, or ``web`` is given: then on at the start, on those addresses
    and that port instead of the config's). They start with the camera,
    after the first screen. ``switch_off``: what asks the system to switch
    the device off (the kiosk's :class:`hardware.power.SwitchOffRequest`),
    offered in the menu; None offers nothing.
    """
    if seat_input not in SEAT_INPUTS:
        raise ValueError(f"unknown seat input {seat_input!r} (one of {', '.join(SEAT_INPUTS)})")
    if camera not in CAMERA_CHOICES:
        raise ValueError(f"unknown camera {camera!r} (one of {', '.join(CAMERA_CHOICES)})")
    seat_input, camera = SeatInput(seat_input), CameraChoice(camera)
    path = data_file if data_file is not None else config.data_file
    startup: list[tuple[Reason, Level]] = []
    if opened is not None:
        store, aside = opened
        if aside is not None:
            startup.append((aside, "warning"))
    elif set_aside:
        store, aside = open_or_set_aside(path)
        if aside is not None:
            startup.append((aside, "warning"))
    else:
        store = Store(path)
    games = Games(store, countdown=config.countdown, clock=clock,
                  hidden_tents=config.hidden_tents)
    device = Device(config, store, games, Inbox(games, post), seed=seed, switch_off=switch_off)
    try:
        device.seats = _build_seats(device, seat_input, startup)
        kind = config.camera.source if camera is CameraChoice.CONFIG else camera
        if camera_later and threaded and kind != SourceKind.NONE:
            device.camera = Camera(status=CameraStatus.STARTING, later=camera)
            games.camera = CameraStatus.STARTING
        else:
            device.camera = _build_camera(device, camera, startup, seed=seed,
                                          threaded=threaded)
    except BaseException:
        device.close()
        raise
    games.lights = device.seats.lights
    games.startup = tuple(startup)
    if phones or web is not None:
        device.phones = _build_phones(device, web)
        device.phones_later = web is not None or _phones_were_on(store)
    return device


def _phones_were_on(store: Store) -> bool:
    try:
        return store.setting(PHONES_ON) == "1"
    except Exception:
        _log.exception("reading the phones setting")
        return False


def _build_phones(device: Device, web: tuple[tuple[str, ...], int] | None) -> Phones:
    """The phones' pages, wired to the inbox like the seat buttons (not started)."""
    from ui.kivyfree import i18n
    from web.phones import Phones

    games, store = device.games, device.store
    addresses, port = web if web is not None else (device.config.web.addresses,
                                                    device.config.web.port)

    def remember(on: bool) -> None:
        try:
            store.set_setting(PHONES_ON, "1" if on else "0")
        except Exception:
            _log.exception("storing the phones setting")

    return Phones(device.inbox, device.inbox.post, addresses=addresses, port=port,
                  language=i18n.language, hidden_tents=games.hidden_tents,
                  odds=games.odds_shown, remember=remember)


def _timed_render(camera: Camera, virtual: VirtualTable) -> Callable[[], Any]:
    """The virtual table's next frame, noting when its card's first frame at rest came."""

    def render() -> Any:
        image = virtual.next_image()
        if virtual.rest_index == camera.frames:
            camera.rest_at = time.perf_counter()
        camera.frames += 1
        return image

    return render


def _build_seats(
    device: Device, seat_input: SeatInput, startup: list[tuple[Reason, Level]]
) -> Seats:
    config = device.config
    press: SeatPress = device.inbox.press
    debounce_s = config.debounce_ms / 1000.0

    def keyboard() -> Seats:
        from hardware.keyboard import KeyboardSeats

        def seats() -> int:
            table = device.games.table
            return 0 if table is None else len(table.state.seats)

        return Seats(SeatInput.KEYBOARD, keyboard=KeyboardSeats(press, seats))

    if seat_input is SeatInput.KEYBOARD:
        return keyboard()
    if seat_input is SeatInput.MOCK:
        from hardware.fake import MockSeats

        mock = MockSeats(config.pins, on_press=press, clock=device.games.clock,
                         debounce_s=debounce_s)
        return Seats(SeatInput.MOCK, lights=mock, mock=mock)
    from hardware.gpio import NoGPIO, pin_factory_or_none

    try:
        factory = pin_factory_or_none()
    except NoGPIO as e:
        startup.append((NoGpio(str(e)), "warning"))
        return keyboard()
    if factory is None:
        if seat_input is SeatInput.GPIO:
            startup.append((NoGpio(), "warning"))
        return keyboard()
    try:
        from hardware.panel import SeatPanel

        panel = SeatPanel(config.pins, on_press=press, pin_factory=factory,
                          clock=device.games.clock, debounce_s=debounce_s)
    except Exception as e:
        _log.exception("seat panel")
        startup.append((Failed(Step.SEAT_BUTTONS, str(e)), "warning"))
        return keyboard()
    # GPIOZERO_PIN_FACTORY=mock: no hand presses simulated pins, so the keyboard
    # stands in beside them. Told by its module: importing it costs a Pi's start.
    if type(factory).__module__ == "gpiozero.pins.mock":
        return Seats(SeatInput.GPIO, lights=panel, keyboard=keyboard().keyboard)
    return Seats(SeatInput.GPIO, lights=panel)


def _build_camera(
    device: Device, choice: CameraChoice, startup: list[tuple[Reason, Level]], *, seed: int,
    threaded: bool
) -> Camera:
    cfg = device.config.camera
    kind = SourceKind(cfg.source if choice is CameraChoice.CONFIG else choice)
    if kind is SourceKind.NONE:
        return Camera()
    try:
        from vision.sources import VirtualTable, open_source

        source: FrameSource
        if kind is SourceKind.VIRTUAL or not threaded:
            source = VirtualTable(seed, fps=15.0 if threaded else None)
        else:
            from hardware.gpio import is_raspberry_pi

            # The virtual table is a desktop's stand-in; on the device it would
            # invent cards nobody turned.
            source = open_source(kind, device=cfg.device, width=cfg.width, height=cfg.height,
                                 above_table_mm=cfg.above_table_cm * 10, seed=seed,
                                 fallback="none" if is_raspberry_pi() else "virtual")
    except Exception as e:
        _log.exception("camera")
        startup.append((Failed(Step.CAMERA, str(e)), "warning"))
        return Camera()
    if source.name == SourceKind.NONE:
        startup.append((NoCameraFound(), "warning"))
        return Camera()
    virtual = source if isinstance(source, VirtualTable) else None
    camera = Camera(
        kind=source.name, source=source, virtual=virtual,
        status=CameraStatus.VIRTUAL if virtual is not None else CameraStatus.STARTING,
    )
    # Said before the scanner thread can report "ok", never after it.
    device.games.camera = camera.status
    sink: CardSink = device.inbox
    try:
        from vision.scanner import FrameStepper, Scanner

        # The virtual table's status stays "virtual": the scanner's "ok"
        # would hide that the cards are rendered ones.
        on_status = None if virtual is not None else sink.camera
        scanner = Scanner(source, sink.card, sink.notice, on_status)
        if threaded:
            feed: CardFeed = scanner
            feed.start()  # starts the source too
            camera.scanner = scanner
        else:
            assert virtual is not None  # a stepped camera is always the virtual table
            camera.stepper = FrameStepper(scanner, _timed_render(camera, virtual))
    except Exception as e:
        _log.exception("scanner")
        startup.append((Failed(Step.SCANNER, str(e)), "warning"))
    return camera
