"""The device's configuration: one TOML file, validated on start.

A missing file means the defaults; a bad file is never silently replaced by
them: :class:`ConfigError` names the file and the key that is wrong.

    [game]
    seats = 4               # seat count offered first in setup (3..8)
    rules = "incan-gold"    # incan-gold | incan-gold-2020 | diamant
    language = ""           # en, pl, es, ja; "" = the system's language
    hidden_tents = false    # banked totals only at the end of the game
    countdown = 2.0         # seconds between the last choice and the reveal

    [buttons]
    debounce_ms = 30

    [sound]
    volume = 0.8            # 0..1; the in-game menu's choice outranks it
    muted = false

    [camera]
    source = "auto"         # auto | picamera | v4l2 | virtual | none
    device = 0              # V4L2 device number
    width = 640
    height = 480
    above_table_cm = 35     # the Pi camera's lens above the table: its focus

    [pins]                  # BCM numbers per seat: [torch, camp, led]
    seat1 = [2, 3, 4]

    [data]
    file = "~/.local/share/incan-companion/games.sqlite"

    [web]                   # the phones' pages (off until the table turns them on)
    addresses = ["lan"]     # "lan": this device's address on the local network; or IPs
    port = 8080
"""

from __future__ import annotations

import ipaddress
import os
import stat
from dataclasses import dataclass, field, replace
from pathlib import Path

from companion.choices import DEFAULT_COUNTDOWN
from companion.engine import DEFAULT_SEATS, MAX_SEATS, MIN_SEATS
from companion.rules import DEFAULT_RULES, RULE_SETS
from hardware.pins import DEFAULT_PINS, USABLE_GPIO, SeatPins, clash

# Also the config's own names, as they were before the paths had a module.
from incan_companion.paths import CONFIG_ENV as CONFIG_ENV
from incan_companion.paths import DATA_ENV as DATA_ENV
from incan_companion.paths import default_config_path as default_config_path
from incan_companion.paths import default_data_file as default_data_file
from vision import CAMERA_SOURCES, SourceKind

TYPE_CHECKING = False  # mypy reads it as true; typing is 1.5 ms that only a file's parse needs
if TYPE_CHECKING:
    from typing import Any

LANGUAGE_CODES = ("", "en", "pl", "es", "ja")
#: A config file is a few hundred bytes; more than this is not one.
MAX_CONFIG_BYTES = 1024 * 1024


class ConfigError(ValueError):
    """The config file cannot be used; the message names the file and key."""


@dataclass(frozen=True)
class CameraConfig:
    """The config file's ``[camera]``: which camera, a webcam's device and size,
    and how high a Pi camera stands over the table."""

    source: SourceKind = SourceKind.AUTO
    device: int = 0
    width: int = 640
    height: int = 480
    #: A Camera Module 3 is focused there (autofocus would hunt at every hand),
    #: and the scan zone is sized from it until a card read measures the table.
    above_table_cm: float = 35.0


#: The address the phones' pages are served on by default: the LAN's.
LAN = "lan"
DEFAULT_WEB_PORT = 8080


@dataclass(frozen=True)
class WebConfig:
    """Where the phones' pages are served: ``lan`` (this device's address on the
    local network) or IP addresses, and one port."""

    addresses: tuple[str, ...] = (LAN,)
    port: int = DEFAULT_WEB_PORT


def web_address(text: str) -> str:
    """``lan`` or an IP address, as written; raises ValueError otherwise.

    >>> web_address("192.168.1.20"), web_address("lan"), web_address("::1")
    ('192.168.1.20', 'lan', '::1')
    """
    if text == LAN:
        return text
    address = ipaddress.ip_address(text)
    if address.is_unspecified or address.is_multicast:
        # A phone must be able to reach the address in its link, and the
        # server answers only requests that name one of its own addresses.
        raise ValueError(f"{text} is no address a phone can reach")
    return str(address)


@dataclass(frozen=True)
class Config:
    """What the config file sets, each setting at its default where the file is silent."""

    seats: int = DEFAULT_SEATS
    rules: str = DEFAULT_RULES
    language: str = ""
    hidden_tents: bool = False
    countdown: float = DEFAULT_COUNTDOWN
    debounce_ms: int = 30
    volume: float = 0.8
    muted: bool = False
    camera: CameraConfig = field(default_factory=CameraConfig)
    pins: tuple[SeatPins, ...] = DEFAULT_PINS
    data_file: Path = field(default_factory=default_data_file)
    web: WebConfig = field(default_factory=WebConfig)
    path: Path | None = None  # the file it came from, if any


_KNOWN: dict[str, set[str]] = {
    "game": {"seats", "rules", "language", "hidden_tents", "countdown"},
    "buttons": {"debounce_ms"},
    "sound": {"volume", "muted"},
    "camera": {"source", "device", "width", "height", "above_table_cm"},
    "pins": {f"seat{n}" for n in range(1, MAX_SEATS + 1)},
    "data": {"file"},
    "web": {"addresses", "port"},
}


class _Reader:
    def __init__(self, where: str, table: dict[str, Any]) -> None:
        self.where = where
        self.table = table

    def fail(self, key: str, message: str) -> ConfigError:
        return ConfigError(f"{self.where}: {key}: {message}")

    def integer(self, section: str, key: str, default: int, lo: int, hi: int) -> int:
        value = self.table.get(section, {}).get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise self.fail(f"[{section}] {key}", f"must be a whole number from {lo} to {hi}")
        return value

    def number(self, section: str, key: str, default: float, lo: float, hi: float) -> float:
        value = self.table.get(section, {}).get(key, default)
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not lo <= value <= hi:
            raise self.fail(f"[{section}] {key}", f"must be a number from {lo:g} to {hi:g}")
        return float(value)

    def choice(self, section: str, key: str, default: str, options: tuple[str, ...]) -> str:
        value = self.table.get(section, {}).get(key, default)
        if value not in options:
            shown = ", ".join(repr(o) for o in options)
            raise self.fail(f"[{section}] {key}", f"must be one of {shown}")
        return str(value)

    def boolean(self, section: str, key: str, default: bool) -> bool:
        value = self.table.get(section, {}).get(key, default)
        if not isinstance(value, bool):
            raise self.fail(f"[{section}] {key}", "must be true or false")
        return value


def parse(text: str, where: str = "config") -> Config:
    """The configuration in a TOML text; raises ConfigError naming the bad key."""
    import tomllib  # 4 ms: with no config file, `replay`'s table and `stats` never parse one

    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{where}: not valid TOML: {e}") from None
    except RecursionError:
        raise ConfigError(f"{where}: not valid TOML: nested too deeply") from None
    except ValueError as e:  # an integer of more than 4300 digits
        said = "a number with more than 4300 digits" if "integer string" in str(e) else str(e)
        raise ConfigError(f"{where}: not valid TOML: {said}") from None
    for section, value in table.items():
        if section not in _KNOWN:
            raise ConfigError(f"{where}: unknown section [{section}]")
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: {section} must be a [{section}] table")
        for key in value:
            if key not in _KNOWN[section]:
                raise ConfigError(f"{where}: [{section}] {key}: unknown key")
    r = _Reader(where, table)
    config = Config(
        seats=r.integer("game", "seats", DEFAULT_SEATS, MIN_SEATS, MAX_SEATS),
        rules=r.choice("game", "rules", DEFAULT_RULES, tuple(RULE_SETS)),
        language=r.choice("game", "language", "", LANGUAGE_CODES),
        hidden_tents=r.boolean("game", "hidden_tents", False),
        countdown=r.number("game", "countdown", DEFAULT_COUNTDOWN, 0.0, 30.0),
        debounce_ms=r.integer("buttons", "debounce_ms", 30, 1, 500),
        volume=r.number("sound", "volume", 0.8, 0.0, 1.0),
        muted=r.boolean("sound", "muted", False),
        camera=CameraConfig(
            source=SourceKind(r.choice("camera", "source", "auto", CAMERA_SOURCES)),
            device=r.integer("camera", "device", 0, 0, 63),
            width=r.integer("camera", "width", 640, 160, 4096),
            height=r.integer("camera", "height", 480, 120, 3072),
            above_table_cm=r.number("camera", "above_table_cm", 35.0, 15.0, 60.0),
        ),
        pins=_pins(r),
        web=_web(r),
    )
    data = table.get("data", {}).get("file")
    if data is not None:
        # INCAN_DATA still wins: it is how a test, a bench or the service
        # points one run elsewhere without editing the device's config.
        if not isinstance(data, str) or not data.strip() or "\x00" in data:
            raise r.fail("[data] file", "must be a file path")
        if data.endswith(("/", "/.", "/..")) or data in (".", "..", "~"):
            # A path names a folder there: the data file would be made beside it.
            raise r.fail("[data] file", "must be a file path, not a folder")
        if not os.environ.get(DATA_ENV):
            config = replace(config, data_file=Path(data).expanduser())
    return config


def _pins(r: _Reader) -> tuple[SeatPins, ...]:
    given = r.table.get("pins", {})
    pins = list(DEFAULT_PINS)
    for n in range(1, MAX_SEATS + 1):
        key = f"seat{n}"
        if key not in given:
            continue
        value = given[key]
        if (
            not isinstance(value, list)
            or len(value) != 3
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in value)
        ):
            raise r.fail(f"[pins] {key}", "must be [torch, camp, led] as three BCM numbers")
        bad = [p for p in value if p not in USABLE_GPIO]
        if bad:
            raise r.fail(f"[pins] {key}", f"GPIO {bad[0]} is not on the header (BCM 2 to 27)")
        pins[n - 1] = SeatPins(*value)
    twice = clash(pins)
    if twice is not None:
        gpio, part, earlier_part = twice.gpio, twice.part, twice.earlier_part
        seat, earlier = f"seat{twice.seat}", f"seat{twice.earlier_seat}"
        # Name the seat the file gave, and say which pins are a default it left.
        if seat not in given and earlier in given:
            raise r.fail(f"[pins] {earlier}", f"GPIO {gpio} ({earlier_part}) is {seat}'s default "
                         f"{part} pin: give {seat} pins of its own too")
        if seat in given and earlier not in given:
            raise r.fail(f"[pins] {seat}", f"GPIO {gpio} ({part}) is {earlier}'s default "
                         f"{earlier_part} pin: give {earlier} pins of its own too")
        raise r.fail(f"[pins] {seat}", f"GPIO {gpio} ({part}) is already used by {twice.earlier}")
    return tuple(pins)


def _web(r: _Reader) -> WebConfig:
    given = r.table.get("web", {}).get("addresses", [LAN])
    if not isinstance(given, list) or not given or not all(isinstance(a, str) for a in given):
        raise r.fail("[web] addresses", 'must be a list of IP addresses or "lan"')
    addresses = []
    for text in given:
        try:
            addresses.append(web_address(text))
        except ValueError:
            said = f'{text!r} is neither an IP address a phone can reach nor "lan"'
            raise r.fail("[web] addresses", said) from None
    if len(set(addresses)) != len(addresses):
        raise r.fail("[web] addresses", "an address is given twice")
    port = r.integer("web", "port", DEFAULT_WEB_PORT, 1, 65535)
    return WebConfig(tuple(addresses), port)


def load(path: Path | None = None, *, named: bool = False) -> Config:
    """The configuration at ``path`` (default: $INCAN_CONFIG or the XDG config file).

    A missing file gives the defaults, unless ``named`` (the user typed its name:
    a typo must not quietly play with the defaults); an unreadable or bad one
    raises ConfigError.
    """
    path = path if path is not None else default_config_path()
    try:
        # Non-blocking, then checked: a FIFO (or a device) at the path would
        # otherwise hold the start for ever, waiting for a writer.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        if named:
            raise ConfigError(f"{path}: no such config file") from None
        return Config()
    except (OSError, ValueError) as e:
        raise ConfigError(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ConfigError(f"{path}: cannot read: not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as f:
            raw = f.read(MAX_CONFIG_BYTES + 1)
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: larger than a config file can be "
                          f"({MAX_CONFIG_BYTES // 1024} KiB)")  # fmt: skip
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark first (Notepad's) is dropped
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: cannot read: {e}") from None
    return replace(parse(text, str(path)), path=path)

