"""What the device remembers between runs, as one typed record.

The data file keeps each value as a text setting under a fixed name: a flag
as ``"1"`` or ``"0"``, the volume as ``"0.80"``, the last table as a JSON
list of names. Those names and strings never change, so a data file of any
earlier version reads the same; a value that does not read is its default.

>>> from companion.memory import MemoryStore
>>> store = MemoryStore()
>>> remember(store, odds=True, volume=0.8, muted=False, last_table=("Zofia", "Bo", "Cy"))
>>> [store.setting(k) for k in (SettingKey.ODDS, SettingKey.SOUND_VOLUME, SettingKey.LAST_TABLE)]
['1', '0.80', '["Zofia", "Bo", "Cy"]']
>>> said = recall(store)
>>> said.odds, said.volume, said.muted, said.last_table, said.language
(True, 0.8, False, ('Zofia', 'Bo', 'Cy'), None)
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass

from companion.cards import DEFAULT_EDITION, EDITIONS
from companion.ports import Settings

__all__ = ["GameOption", "Remembered", "SettingKey", "flag", "recall", "remember"]


class SettingKey(enum.StrEnum):
    """The device's settings, by the names the data file keeps them under."""

    LANGUAGE = "language"  # the set-up screen's choice
    LAST_TABLE = "last_table"  # the names of the last table that played, in seat order
    SOUND_VOLUME = "sound_volume"  # the menu's choices
    SOUND_MUTED = "sound_muted"
    ODDS = "odds"  # the odds panel shown or not
    DECK = "deck"  # the edition of the box the last game was played with


class GameOption(enum.StrEnum):
    """A game's options beside its log, by their stored names."""

    HIDDEN_TENTS = "hidden_tents"
    ABANDONED = "abandoned"  # the table left it: never offered again
    #: A card turned and waiting (for a reveal, or for the round's summary): it
    #: is no event of the log until drawn, and a restart would forget it.
    HELD = "held"
    #: "1" while a person has pressed in the turn now due. Presses are secret
    #: and never stored; this only tells a restart whether any were lost.
    PRESSED = "pressed"


@dataclass(frozen=True)
class Remembered:
    """The device's settings as read (None: never chosen, the caller's default)."""

    language: str | None = None
    last_table: tuple[str, ...] = ()
    deck: str = DEFAULT_EDITION
    odds: bool = False
    volume: float | None = None  # 0.0 to 1.0
    muted: bool | None = None


def flag(on: bool) -> str:
    """A yes or no as the data file keeps it."""
    return "1" if on else "0"


def read_flag(said: str | None) -> bool | None:
    """A stored flag (None: none, or not one)."""
    return {"1": True, "0": False}.get(said or "")


def recall(settings: Settings) -> Remembered:
    """Every setting of the device, read (raises what the store raises)."""
    deck = settings.setting(SettingKey.DECK)
    return Remembered(
        language=settings.setting(SettingKey.LANGUAGE),
        last_table=_names(settings.setting(SettingKey.LAST_TABLE)),
        deck=deck if deck in EDITIONS else DEFAULT_EDITION,
        odds=read_flag(settings.setting(SettingKey.ODDS)) is True,
        volume=_volume(settings.setting(SettingKey.SOUND_VOLUME)),
        muted=read_flag(settings.setting(SettingKey.SOUND_MUTED)),
    )


def remember(
    settings: Settings,
    *,
    language: str | None = None,
    last_table: tuple[str, ...] | None = None,
    deck: str | None = None,
    odds: bool | None = None,
    volume: float | None = None,
    muted: bool | None = None,
) -> None:
    """Keep the settings given (None: left as they are), in their stored form."""
    said: dict[SettingKey, str | None] = {
        SettingKey.LANGUAGE: language,
        SettingKey.LAST_TABLE: None if last_table is None
        else json.dumps(list(last_table), ensure_ascii=False),
        SettingKey.DECK: deck,
        SettingKey.ODDS: None if odds is None else flag(odds),
        SettingKey.SOUND_VOLUME: None if volume is None else f"{volume:.2f}",
        SettingKey.SOUND_MUTED: None if muted is None else flag(muted),
    }  # fmt: skip
    for key, value in said.items():
        if value is not None:
            settings.set_setting(key, value)


def _volume(said: str | None) -> float | None:
    try:
        return None if said is None else min(1.0, max(0.0, float(said)))
    except ValueError:
        return None


def _names(said: str | None) -> tuple[str, ...]:
    if not said:
        return ()
    try:
        names = json.loads(said)
    except ValueError:
        return ()
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return ()
    return tuple(names)
