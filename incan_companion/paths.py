"""Where the config file and the data file are, by the environment or XDG.

Apart from :mod:`incan_companion.config` so that a command can see that there
is no config file without loading the reader (and its TOML parser).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Container
    from typing import BinaryIO

__all__ = [
    "CONFIG_ENV",
    "DATA_ENV",
    "configured_language",
    "default_cache_file",
    "default_config_path",
    "default_data_file",
]

CONFIG_ENV = "INCAN_CONFIG"
DATA_ENV = "INCAN_DATA"


def default_config_path() -> Path:
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "incan-companion" / "config.toml"


def default_data_file() -> Path:
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "incan-companion" / "games.sqlite"


def default_cache_file(name: str) -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "incan-companion" / name


# A config file changed less than this long ago is not remembered: a second
# edit within one tick of the file system's clock could leave every field of
# its status as it was (git calls such an entry "racily clean").
SETTLED_S = 2.0


def configured_language(path: Path, known: Container[str]) -> str:
    """The config file's ``[game] language`` if it is one of ``known``, else
    ``""`` (the system's): for a command that prints words and needs nothing
    else of the config. The full reader (:func:`incan_companion.config.load`,
    its checks of every key and the pins) costs a command's start-up a third
    again; a file it would refuse is reported by the commands that use it.

    The answer is remembered in the cache folder against the file's status:
    the TOML parser's import alone put `replay` with a config file at 2.64x
    a bare Python's start against 2.39x without one (``bench/engine.py``),
    and a device's config file changes far less often than commands run."""
    import stat

    try:
        # Opened without waiting (a FIFO there would hold the command for ever)
        # and read only if it is a regular file.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return ""
    with os.fdopen(fd, "rb") as f:
        status = os.fstat(f.fileno())
        if not stat.S_ISREG(status.st_mode):
            return ""
        # ctime, which no program can set back, rather than mtime alone.
        key = (f"{os.path.abspath(path)}\0{status.st_mtime_ns} {status.st_ctime_ns}"
               f" {status.st_size} {status.st_ino} {status.st_dev}\0")
        cache = default_cache_file("config-language")
        try:
            remembered = cache.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            remembered = ""
        if remembered.startswith(key):
            language = remembered[len(key):]
            return language if language in known else ""
        language = _read_language(f, known)
    import time

    if time.time_ns() - status.st_ctime_ns >= SETTLED_S * 1e9:
        _remember(cache, key + language)
    return language


def _read_language(f: BinaryIO, known: Container[str]) -> str:
    import tomllib

    try:
        game = tomllib.load(f).get("game")
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return ""
    language = game.get("language") if isinstance(game, dict) else None
    return language if isinstance(language, str) and language in known else ""


def _remember(cache: Path, text: str) -> None:
    """Written whole or not at all; a cache that cannot be written only costs
    the next command the parse."""
    partial = cache.with_name(f"{cache.name}.{os.getpid()}")
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, cache)
    except OSError:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
