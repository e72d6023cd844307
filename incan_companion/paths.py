"""Where the config file and the data file are, by the environment or XDG.

Apart from :mod:`incan_companion.config` so that a command can see that there
is no config file without loading the reader (and its TOML parser).
"""

from __future__ import annotations

import os
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Container

__all__ = [
    "CONFIG_ENV",
    "DATA_ENV",
    "configured_language",
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


def configured_language(path: Path, known: Container[str]) -> str:
    """The config file's ``[game] language`` if it is one of ``known``, else
    ``""`` (the system's): for a command that prints words and needs nothing
    else of the config. The full reader (:func:`incan_companion.config.load`,
    its checks of every key and the pins) costs a command's start-up a third
    again; a file it would refuse is reported by the commands that use it."""
    import stat
    import tomllib

    try:
        # Opened without waiting (a FIFO there would hold the command for ever)
        # and read only if it is a regular file.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return ""
            game = tomllib.load(f).get("game")
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return ""
    language = game.get("language") if isinstance(game, dict) else None
    return language if isinstance(language, str) and language in known else ""
