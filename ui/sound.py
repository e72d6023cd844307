"""The sound cues played through Kivy's audio (SDL2), and a silent stand-in.

:class:`SoundBoard` loads ``ui/sounds/<cue>.wav`` the first time a cue is
played and plays it at the board's volume unless muted. A table without a
sound card is normal (a desktop, a kiosk with no speaker): a cue that cannot
be loaded or played is logged once and then skipped; playing never raises.
:class:`SilentBoard` has the same interface and only records what it was
asked to play, for tests and the demo. Both fit the :class:`Sounds` protocol.

Kivy is imported only inside :meth:`SoundBoard.play`, so this module can be
imported (and the silent board used) without loading Kivy.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ui.cues import Cue

SOUNDS = Path(__file__).resolve().parent / "sounds"

_log = logging.getLogger(__name__)


def sound_file(cue: Cue, folder: Path = SOUNDS) -> Path:
    """Where the sound of ``cue`` is kept."""
    return folder / f"{cue.value}.wav"


def clamp_volume(value: float) -> float:
    """``value`` brought into 0.0..1.0 (not a number counts as 0.0, silent)."""
    value = float(value)
    if math.isnan(value):
        return 0.0
    return min(1.0, max(0.0, value))


@runtime_checkable
class Sounds(Protocol):
    """What the app needs of a sound board."""

    @property
    def volume(self) -> float: ...

    @volume.setter
    def volume(self, value: float) -> None: ...

    @property
    def muted(self) -> bool: ...

    @muted.setter
    def muted(self, value: bool) -> None: ...

    def play(self, cue: Cue) -> None: ...

    @property
    def available(self) -> bool: ...


class SoundBoard:
    """The cues through Kivy's SoundLoader, each loaded on its first play."""

    def __init__(self, folder: Path = SOUNDS, *, volume: float = 1.0, muted: bool = False) -> None:
        self._folder = folder
        self._volume = clamp_volume(volume)
        self._muted = bool(muted)
        self._sounds: dict[Cue, Any] = {}  # loaded and playable (Kivy Sound objects)
        self._failed: set[Cue] = set()  # could not be loaded or played: logged, skipped

    @property
    def folder(self) -> Path:
        return self._folder

    @property
    def volume(self) -> float:
        """0.0 (silent) to 1.0 (the files' own level); set values are clamped."""
        return self._volume

    @volume.setter
    def volume(self, value: float) -> None:
        self._volume = clamp_volume(value)  # a loaded sound takes it at its next play

    @property
    def muted(self) -> bool:
        """Muted: nothing is loaded or played; muting stops what is playing."""
        return self._muted

    @muted.setter
    def muted(self, value: bool) -> None:
        self._muted = bool(value)
        if self._muted:
            for cue, sound in list(self._sounds.items()):
                self._guard(cue, "stop", sound.stop)

    @property
    def available(self) -> bool:
        """Whether sound can be heard here: a cue loads (the first is tried if
        none has been yet). False with no audio output, or no sound files: the
        menu then offers no volume that nothing would follow."""
        if self._sounds:
            return True
        untried = [cue for cue in Cue if cue not in self._failed]
        return bool(untried) and self._load(untried[0]) is not None

    @property
    def loaded(self) -> frozenset[Cue]:
        """The cues whose sounds are loaded and ready to play."""
        return frozenset(self._sounds)

    @property
    def failed(self) -> frozenset[Cue]:
        """The cues that could not be loaded or played (each logged once, then skipped)."""
        return frozenset(self._failed)

    def play(self, cue: Cue) -> None:
        """Play ``cue`` from its start (again, if it is already playing); never raises."""
        if self._muted or self._volume <= 0.0 or cue in self._failed:
            return
        sound = self._sounds.get(cue)
        if sound is None:
            sound = self._load(cue)
            if sound is None:
                return

        def start() -> None:
            sound.volume = self._volume
            sound.play()  # SDL2's play() stops the sound first: a repeat starts over

        self._guard(cue, "play", start)

    def _load(self, cue: Cue) -> Any:
        path = sound_file(cue, self._folder)
        if not path.is_file():
            self._fail(cue, f"no sound file {path}")
            return None
        try:
            from kivy.core.audio import SoundLoader

            sound = SoundLoader.load(str(path))
            length = 0.0 if sound is None else float(sound.length)
        except Exception as e:  # Kivy or SDL may fail in many ways; a cue is not worth a crash
            self._fail(cue, f"cannot load {path}: {type(e).__name__}: {e}")
            return None
        if sound is None or not length > 0.0:
            # SDL loads nothing (length 0) when it cannot open an audio device.
            self._fail(cue, f"cannot load {path} (no audio output?)")
            return None
        self._sounds[cue] = sound
        return sound

    def _guard(self, cue: Cue, what: str, action: Callable[[], object]) -> None:
        try:
            action()
        except Exception as e:
            self._sounds.pop(cue, None)
            self._fail(cue, f"cannot {what} {cue.value}: {type(e).__name__}: {e}")

    def _fail(self, cue: Cue, why: str) -> None:
        if cue not in self._failed:
            self._failed.add(cue)
            _log.warning("Sound cue %s is off: %s", cue.value, why)


class SilentBoard(SoundBoard):
    """A sound board that plays nothing: it records the cues it is asked for.

    ``asked`` is every cue asked for, in order; ``played`` those a real board
    would have played (not muted, volume above 0).
    """

    def __init__(self, *, volume: float = 1.0, muted: bool = False) -> None:
        super().__init__(volume=volume, muted=muted)
        self.asked: list[Cue] = []
        self.played: list[Cue] = []

    @property
    def available(self) -> bool:
        return True  # it stands for a board that plays

    def play(self, cue: Cue) -> None:
        self.asked.append(cue)
        if not self._muted and self._volume > 0.0:
            self.played.append(cue)
