#!/usr/bin/env python3
"""Synthesise the app's sound cues into ``ui/sounds/`` (or ``--out DIR``).

Every cue is made here from sine partials, envelopes and a hashed noise
source, with no randomness and no third-party material, so running this
again writes the same bytes. The files are 16-bit mono WAV at 22050 Hz,
each well under a second, peaking at -4 dBFS (the tick at -8), with a short fade at both
ends so that no cue starts or stops with a click.

    .venv/bin/python scripts/make_sounds.py            # writes ui/sounds/*.wav
    .venv/bin/python scripts/make_sounds.py --out DIR  # writes DIR/*.wav
"""

from __future__ import annotations

import argparse
import wave
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

RATE = 22050  # samples per second
PEAK_DBFS = -4.0  # each cue is scaled to peak exactly here (the tick a little lower)
FADE_IN_S = 0.004
FADE_OUT_S = 0.030
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "ui" / "sounds"

Signal = NDArray[np.float64]


# --- building blocks ---------------------------------------------------------


def _time(seconds: float) -> Signal:
    return np.arange(round(seconds * RATE), dtype=np.float64) / RATE


def _tone(
    freq: float, seconds: float, decay: float, partials: Sequence[tuple[float, float, float]] = ()
) -> Signal:
    """A struck tone: a sine at ``freq`` dying away with time constant ``decay`` s,
    plus ``(ratio, level, decay)`` partials above it."""
    t = _time(seconds)
    out = np.sin(2 * np.pi * freq * t) * np.exp(-t / decay)
    for ratio, level, part_decay in partials:
        out += level * np.sin(2 * np.pi * freq * ratio * t) * np.exp(-t / part_decay)
    # Whatever is left at the end dies away rather than stopping short.
    return _release(out, min(seconds / 3, 0.08))


def _ramp(n: int) -> Signal:
    """A raised-cosine ramp from 0 to 1 over ``n`` samples."""
    return 0.5 - 0.5 * np.cos(np.pi * np.arange(n, dtype=np.float64) / n)


def _attack(signal: Signal, seconds: float) -> Signal:
    n = min(len(signal), max(1, round(seconds * RATE)))
    out = signal.copy()
    out[:n] *= _ramp(n)
    return out


def _release(signal: Signal, seconds: float) -> Signal:
    n = min(len(signal), max(1, round(seconds * RATE)))
    out = signal.copy()
    out[-n:] *= _ramp(n)[::-1]
    return out


def _mix(length_s: float, *parts: tuple[float, Signal]) -> Signal:
    """Lay each ``(start_s, signal)`` into a silence of ``length_s`` seconds."""
    out = np.zeros(round(length_s * RATE), dtype=np.float64)
    for start_s, part in parts:
        at = round(start_s * RATE)
        end = min(len(out), at + len(part))
        out[at:end] += part[: end - at]
    return out


def _noise(n: int, seed: int) -> Signal:
    """White noise in [-1, 1) from an integer hash: the same on every machine and numpy."""
    offset = (seed * 0x9E3779B97F4A7C15) % (1 << 64)
    x = np.arange(n, dtype=np.uint64) + np.uint64(offset)
    x ^= x >> np.uint64(33)
    x *= np.uint64(0xFF51AFD7ED558CCD)
    x ^= x >> np.uint64(33)
    x *= np.uint64(0xC4CEB9FE1A85EC53)
    x ^= x >> np.uint64(33)
    return (x >> np.uint64(11)).astype(np.float64) / float(1 << 53) * 2.0 - 1.0


def _lowpass(signal: Signal, cutoff: float) -> Signal:
    """A gentle one-pole low-pass filter."""
    a = float(np.exp(-2 * np.pi * cutoff / RATE))
    out = np.empty_like(signal)
    y = 0.0
    for i, x in enumerate(signal.tolist()):
        y = (1.0 - a) * x + a * y
        out[i] = y
    return out


def _finish(signal: Signal, peak_dbfs: float = PEAK_DBFS) -> NDArray[np.int16]:
    """Fade both ends, scale to the peak level and quantise to 16 bits."""
    out = signal - float(np.mean(signal))  # no DC offset
    n_in, n_out = round(FADE_IN_S * RATE), round(FADE_OUT_S * RATE)
    out[:n_in] *= _ramp(n_in)
    out[-n_out:] *= _ramp(n_out)[::-1]
    out[0] = out[-1] = 0.0
    peak = 10 ** (peak_dbfs / 20) * 32767
    out *= peak / float(np.max(np.abs(out)))
    return np.round(out).astype(np.int16)


# --- the cues ------------------------------------------------------------------

_BRIGHT = ((2.0, 0.35, 0.08), (3.0, 0.12, 0.05), (4.0, 0.05, 0.03))


def reveal() -> Signal:
    """The torch/camp reveal: a bright rising fourth, E5 then A5."""
    first = _attack(_tone(659.25, 0.30, 0.10, _BRIGHT), 0.004)
    second = _attack(_tone(880.00, 0.32, 0.12, _BRIGHT), 0.004)
    return _mix(0.42, (0.0, 0.8 * first), (0.10, second))


def bust() -> Signal:
    """A second hazard: a low thud that falls away into a rumble."""
    seconds = 0.62
    t = _time(seconds)
    # The pitch falls from 140 Hz to 48 Hz; the phase is the integral of the frequency.
    f0, f1, fall = 140.0, 48.0, 0.18
    phase = 2 * np.pi * (f1 * t + (f0 - f1) * fall * (1 - np.exp(-t / fall)))
    body = np.sin(phase) + 0.45 * np.sin(2 * phase) + 0.2 * np.sin(3 * phase)
    body *= np.exp(-t / 0.20)
    thud = np.tanh(1.4 * body)  # a little grit on the thud
    rumble = _noise(len(t), seed=7)
    for _ in range(4):  # four poles: only the low rumble is left of the noise
        rumble = _lowpass(rumble, 220.0)
    rumble *= 9.0 * np.exp(-t / 0.26) * (1 - np.exp(-t / 0.04))
    thud = _lowpass(thud + rumble, 1800.0)
    return _release(_attack(thud, 0.003), 0.12)


def artifact() -> Signal:
    """An artifact carried out: a sparkling rising arpeggio, C6 E6 G6 C7."""
    sparkle = ((2.0, 0.25, 0.10), (3.0, 0.10, 0.06), (5.04, 0.06, 0.04))
    notes = (1046.50, 1318.51, 1567.98, 2093.00)
    parts = [
        (0.07 * i, _attack(_tone(f, 0.40, 0.16 if i < 3 else 0.22, sparkle), 0.003))
        for i, f in enumerate(notes)
    ]
    return _mix(0.70, *((start, (0.7 + 0.1 * i) * p) for i, (start, p) in enumerate(parts)))


def round_end() -> Signal:
    """The round ended: a soft gong, G3 with inharmonic partials that beat and fade."""
    partials = (
        (1.003, 0.6, 0.45),  # a slow beat against the fundamental
        (1.52, 0.45, 0.30),
        (2.09, 0.35, 0.22),
        (2.76, 0.22, 0.15),
        (3.41, 0.12, 0.10),
        (4.18, 0.06, 0.07),
    )
    gong = _tone(196.0, 0.86, 0.40, partials)
    return _release(_attack(gong, 0.020), 0.30)


def tick() -> Signal:
    """The countdown's last seconds: a short wooden click-beep."""
    beep = _tone(1480.0, 0.07, 0.018, ((2.0, 0.2, 0.008),))
    click = _noise(len(beep), seed=3) * np.exp(-_time(0.07) / 0.002) * 0.25
    return _attack(beep + click, 0.0015)


# name: (how it is made, its peak in dBFS); the tick comes every second, so it is quieter.
CUES: dict[str, tuple[Callable[[], Signal], float]] = {
    "reveal": (reveal, PEAK_DBFS),
    "bust": (bust, PEAK_DBFS),
    "artifact": (artifact, PEAK_DBFS),
    "round_end": (round_end, PEAK_DBFS),
    "tick": (tick, -8.0),
}


def write_wav(path: Path, samples: NDArray[np.int16]) -> None:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(samples.astype("<i2").tobytes())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder for the WAV files")
    args = parser.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    for name, (make, peak_dbfs) in CUES.items():
        samples = _finish(make(), peak_dbfs)
        path = out / f"{name}.wav"
        write_wav(path, samples)
        print(f"{path}: {len(samples) / RATE:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
