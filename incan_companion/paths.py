"""Where the config file and the data file are, by the environment or XDG.

Apart from :mod:`incan_companion.config` so that a command can see that there
is no config file without loading the reader (and its TOML parser). The
command line's way (:func:`config_file_name`, :func:`configured_language`)
works on names and ``os``: pathlib, with the ``fnmatch``, ``urllib.parse``
and ``ipaddress`` it imports, took 7 of an installed `replay`'s 117 ms on
a desktop (``bench/engine.py``).
"""

from __future__ import annotations

import contextlib
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Container
    from pathlib import Path
    from typing import BinaryIO

__all__ = [
    "CONFIG_ENV",
    "DATA_ENV",
    "config_file_name",
    "configured_language",
    "default_cache_file",
    "default_config_path",
    "default_data_file",
]

CONFIG_ENV = "INCAN_CONFIG"
DATA_ENV = "INCAN_DATA"


def config_file_name() -> str:
    """Where the config file is: ``$INCAN_CONFIG``, else under ``$XDG_CONFIG_HOME``."""
    return _named(CONFIG_ENV, "XDG_CONFIG_HOME", ".config", "config.toml")


def default_config_path() -> Path:
    from pathlib import Path

    return Path(config_file_name())


def default_data_file() -> Path:
    from pathlib import Path

    return Path(_named(DATA_ENV, "XDG_DATA_HOME", os.path.join(".local", "share"), "games.sqlite"))


def default_cache_file(name: str) -> Path:
    from pathlib import Path

    return Path(_cache_file_name(name))


def _cache_file_name(name: str) -> str:
    return os.path.join(_xdg("XDG_CACHE_HOME", ".cache"), "incan-companion", name)


def _named(env: str, xdg: str, fallback: str, name: str) -> str:
    """The file named by ``env``, else ``name`` in our folder of the XDG base
    folder ``xdg`` (``~/fallback`` when it is unset or empty)."""
    given = os.environ.get(env)
    if given:
        return os.path.expanduser(given)
    return os.path.join(_xdg(xdg, fallback), "incan-companion", name)


def _xdg(xdg: str, fallback: str) -> str:
    return os.environ.get(xdg) or os.path.join(os.path.expanduser("~"), fallback)


# A config file changed less than this long ago is not remembered: a second
# edit within one tick of the file system's clock could leave every field of
# its status as it was (git calls such an entry "racily clean").
SETTLED_S = 2.0


def configured_language(path: str | os.PathLike[str], known: Container[str]) -> str:
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
        cache = _cache_file_name("config-language")
        try:
            with open(cache, encoding="utf-8") as remembered_file:
                remembered = remembered_file.read()
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
        game = tomllib.loads(f.read().decode("utf-8-sig")).get("game")  # as config.load
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return ""
    language = game.get("language") if isinstance(game, dict) else None
    return language if isinstance(language, str) and language in known else ""


def _remember(cache: str, text: str) -> None:
    """Written whole or not at all; a cache that cannot be written only costs
    the next command the parse."""
    partial = f"{cache}.{os.getpid()}"
    try:
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        with open(partial, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(partial, cache)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(partial)
