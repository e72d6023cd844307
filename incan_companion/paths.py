"""Where the config file and the data file are, by the environment or XDG.

Apart from :mod:`incan_companion.config` so that a command can see that there
is no config file without loading the reader (and its TOML parser).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["CONFIG_ENV", "DATA_ENV", "default_config_path", "default_data_file"]

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
