"""Contact-bounce filtering for the seat buttons, in our own code.

Why not gpiozero's ``bounce_time``: its mock pins ignore it (so it cannot be
tested), and on real pin factories it is known to drop genuine events. We
filter here instead, with an injected clock, and test it with fake time.

The rule, per pin: **a press is accepted at once if the pin had been quiet (no
edge at all) for the whole window before it.** Every edge, accepted or not,
restarts that pin's quiet period.

- A burst of edges while the contacts settle counts once: its first edge
  follows a quiet line and is taken; the rest follow an edge less than a
  window ago and are dropped.
- The bounce on *release* cannot fake a press: those falling edges come less
  than a window after the rising edge that started the release.
- The press is taken on its first edge, with no waiting. The alternative
  ("accept once the level has been stable for the window") is immune to a
  single noise spike but adds the whole window to every press and needs a
  timer thread; inside a small box with pull-ups and short wires, spikes are
  rare, and a wrong choice can be changed before the reveal anyway.
- No debounced level is kept, only the time of the last edge, so a missed
  edge (the level seen twice) cannot leave a pin stuck "pressed".

The window (``debounce_ms`` in the config, default 30 ms): common tactile and
arcade buttons settle within about 1 to 10 ms, worn ones within 20 ms; a human
press or release lasts 50 ms or more (fast tapping is about 7 a second), so
30 ms sits well above the bounce and well below any real press.

Pins are independent: one pin bouncing, or held down for ever, never delays or
blocks another. The object is safe to call from several callback threads.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable

__all__ = ["DEFAULT_WINDOW", "Debouncer"]

DEFAULT_WINDOW = 0.030  # seconds; see the module docstring


class Debouncer:
    """Decides, edge by edge, which presses are real.

    >>> now = [0.0]
    >>> d = Debouncer(0.030, clock=lambda: now[0])
    >>> [d.edge("torch", level) for level in (True, False, True)]  # a bouncing press
    [True, False, False]
    >>> now[0] = 0.2; d.edge("torch", False)                       # released
    False
    >>> now[0] = 0.4; d.edge("torch", True)                        # pressed again
    True
    """

    def __init__(
        self, window: float = DEFAULT_WINDOW, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if window < 0:
            raise ValueError(f"debounce window must be 0 or more seconds, not {window!r}")
        self.window = float(window)
        self._clock = clock
        self._last_edge: dict[Hashable, float] = {}
        self._lock = threading.Lock()

    def edge(self, pin: Hashable, pressed: bool) -> bool:
        """An edge on ``pin`` (now pressed or released); True if it is a real press."""
        now = self._clock()
        with self._lock:
            last = self._last_edge.get(pin)
            self._last_edge[pin] = now
        quiet = last is None or now - last >= self.window
        return pressed and quiet

    def forget(self) -> None:
        """Forget every pin's history (after the pins were closed and reopened)."""
        with self._lock:
            self._last_edge.clear()
