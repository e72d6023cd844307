"""The process's heap: what the app dropped collected and the free pages
handed back to the system (glibc only), and Python's cycle collector kept
quiet while the app starts.

The camera's thread, the renderer and the labels allocate and free
megabytes every second in several of glibc's arenas; what is freed stays
with the process as scattered free pages, so its resident memory creeps up
over an evening although what it holds does not (measured with
``mallinfo2``: 7 MB more arena over 7 minutes of sped-up play, of which
about 2 MB in use). ``malloc_trim(0)`` returns every whole free page of
every arena. The app calls :func:`release_free_memory` at each round's end,
a moment when nobody waits for the screen.

What the app drops is not all free, though: Kivy's widgets hold one another
in reference cycles, so a closed window, a screen's old labels or a
finished game's states are freed only by a full pass of the cycle
collector, with their GL buffers and textures. Python makes that pass when
the objects new since the last one reach a quarter of those that lived
through it; until then the heap grows past the garbage, and the trim finds
little to hand back. So the round's end collects first, then trims:
``bench/memory.py --minutes 1.5`` once warm went from +55.8 and +54.4 MB
over its reference to +49.3 and +50.1. The pass costs 64 to 78 ms here
(median of a minute's round ends; a Pi 4 is 4 to 6 times slower), at the
frame after the round's summary or bust is drawn; the passes Python makes
on its own, at any moment of play, stayed as few (5 a minute of sped-up
play, against 6).

Before the first screen Python's cycle collector ran about 110 times, 17 to
24 ms here: a young pass every 700 new objects while the modules load and
the set-up screen is built, and the full pass Kivy forces as it makes its
window, which walked every module loaded until then.
:func:`collect_less_until_drawn` takes what exists before the window out of
the collector's walks (it lives as long as the process) and makes the young
passes rarer until the first frame is drawn: about 30 passes, 13 to 18 ms.
"""

from __future__ import annotations

import ctypes
import functools
import gc
import logging
import time
from collections.abc import Callable

__all__ = ["START_THRESHOLD", "collect_less_until_drawn", "release_free_memory", "trimmer"]

#: New objects between two young passes of the cycle collector while the app
#: starts (Python's own is 700): the first screen came 7 to 11 ms sooner here
#: (median of 25 interleaved starts), 50,000 no sooner than that.
START_THRESHOLD = 10_000

_log = logging.getLogger(__name__)


@functools.cache  # looked up once, at the first call
def trimmer() -> Callable[[], int] | None:
    """glibc's ``malloc_trim`` as a function of no argument, or None where the
    C library has none (musl, macOS)."""
    try:  # the process's own symbols, libc's among them (no ldconfig to run)
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return lambda: int(trim(0))


def release_free_memory() -> None:
    """Collect the garbage in reference cycles, then return the free heap
    pages to the system (where the C library can)."""
    started = time.perf_counter()
    found = gc.collect()
    collected = time.perf_counter()
    trim = trimmer()
    released = trim() if trim is not None else 0
    _log.debug("collected %d objects in %.1f ms; malloc_trim: %s in %.1f ms", found,
               (collected - started) * 1e3, "released" if released else "nothing",
               (time.perf_counter() - collected) * 1e3)


def collect_less_until_drawn() -> Callable[[], None]:
    """Freeze what exists now out of the cycle collector's walks and make its
    young passes rarer; the function returned brings Python's thresholds back,
    for the first frame drawn.

    What is frozen stays for the process's life, garbage or not: call it
    while only modules, the config and the data file's opener exist.
    """
    gc.freeze()
    saved = gc.get_threshold()
    gc.set_threshold(max(saved[0], START_THRESHOLD), *saved[1:])
    return lambda: gc.set_threshold(*saved)
