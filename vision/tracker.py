"""Per-frame reads -> "this card was placed" events (pure Python, no OpenCV).

A camera reads the same card many times a second, misses it in some frames
(blur, glare, a hand) and sometimes catches a card that is only passing
through.  The tracker turns that stream into one event per placement:

* **Placed**: a card is reported when it was read in ``confirm`` of the last
  ``window`` frames (default: 2 of 3).  One read is never the wrong card (a
  QR payload is checked by Reed-Solomon at level H; the benchmark has never
  seen a wrong read), so the second read is not about identity but about
  intent: it shows the card is still there a frame or two later, i.e. it was
  put down rather than swept over the spot on its way to the path.  Allowing
  one missed frame in between (2 of 3, not 2 in a row) keeps a resting card
  that fails one frame in two recognised within 5 frames; the benchmark
  measures that rate on rendered placements.
* **Not again while it stays**: a reported card is *present* until it has
  not been read for ``leave`` consecutive frames (default 15, half a second
  at 30 fps): a hand passing over it, a missed frame or a nudge do not end
  its stay, so they never report it twice.
* **Again after it left**: once it has been gone for ``leave`` frames, the
  same card placed again is a new placement and is reported again (the
  controller and the engine decide whether that draw is allowed).
* **A different card**: another card becoming steady is reported at once,
  even while the previous card is still in view (a card put down on top of
  the last one).
* **Two new cards at once**: if two cards that were not yet reported become
  steady in the same frame, the tracker cannot know which one was turned:
  it reports neither and emits one :class:`TwoCards`; the one that stays is
  reported once the other has left (``leave`` frames without a read).
* **Not a card**: a foreign code (any payload that is not a sticker) gives
  one :class:`ForeignPlaced` event per appearance, not one per frame.

>>> t = Tracker()
>>> t.step(["T11A"]), t.step(["T11A"]), t.step(["T11A"])
([], [CardPlaced(card='T11A', frame=1)], [])
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: Reads needed within the window before a card is reported.
CONFIRM = 2
#: Frames in which those reads must fall.
WINDOW = 3
#: Frames without a read after which a present card (or code) has left.
LEAVE = 15


@dataclass(frozen=True)
class CardPlaced:
    """A card was put on the scan spot (reported once per placement)."""

    card: str
    frame: int


@dataclass(frozen=True)
class ForeignPlaced:
    """A code that is not a card sticker came into view."""

    text: str
    frame: int


@dataclass(frozen=True)
class TwoCards:
    """Two or more unreported cards are in view at once: nothing was reported."""

    cards: tuple[str, ...]
    frame: int


Event = CardPlaced | ForeignPlaced | TwoCards


class Tracker:
    """Steps on the reads of each frame and returns the events it caused.

    ``step`` takes the card ids read in one frame (any order, duplicates
    allowed) and the foreign payloads read in it.  Frames are numbered from
    0 in the order they are stepped.
    """

    def __init__(self, confirm: int = CONFIRM, window: int = WINDOW, leave: int = LEAVE) -> None:
        if not 1 <= confirm <= window:
            raise ValueError("need 1 <= confirm <= window")
        if leave < 1:
            raise ValueError("leave must be at least 1 frame")
        self.confirm, self.window, self.leave = confirm, window, leave
        self.frame = -1
        self._hits: dict[str, list[int]] = {}
        self._last_seen: dict[str, int] = {}
        self._present: set[str] = set()  # reported and not yet left
        self._foreign_seen: dict[str, int] = {}
        self._ambiguous: tuple[str, ...] = ()
        self._contested: set[str] = set()  # unreported cards seen steady together

    @property
    def present(self) -> frozenset[str]:
        """Cards reported and still on the table (not yet gone ``leave`` frames)."""
        return frozenset(self._present)

    def reset(self) -> None:
        """Forget everything: every card in view will be reported again."""
        self.__init__(self.confirm, self.window, self.leave)  # type: ignore[misc]

    def step(self, cards: Iterable[str], foreign: Iterable[str] = ()) -> list[Event]:
        """Advance one frame; ``cards`` and ``foreign`` are what it read."""
        self.frame += 1
        n = self.frame
        events: list[Event] = []
        for c in set(cards):
            self._hits.setdefault(c, []).append(n)
            self._last_seen[c] = n
        oldest = n - self.window + 1
        for c in list(self._hits):
            kept = [f for f in self._hits[c] if f >= oldest]
            if kept:
                self._hits[c] = kept
            else:
                del self._hits[c]
        for c in list(self._last_seen):
            if n - self._last_seen[c] >= self.leave:
                del self._last_seen[c]
                self._present.discard(c)
        self._contested &= self._last_seen.keys()  # a rival that left no longer counts
        steady = {
            c for c, hits in self._hits.items()
            if len(hits) >= self.confirm and c not in self._present
        }
        rivals = tuple(sorted(steady | self._contested))
        if len(steady) == 1 and len(rivals) == 1:
            card = rivals[0]
            self._present.add(card)
            self._contested.clear()
            self._ambiguous = ()
            events.append(CardPlaced(card, n))
        elif steady and len(rivals) > 1:
            self._contested |= steady
            if rivals != self._ambiguous:
                events.append(TwoCards(rivals, n))
            self._ambiguous = rivals
        elif not self._contested:
            self._ambiguous = ()
        for text in foreign:
            if text not in self._foreign_seen:
                events.append(ForeignPlaced(text, n))
            self._foreign_seen[text] = n
        for text in [t for t, f in self._foreign_seen.items() if n - f >= self.leave]:
            del self._foreign_seen[text]
        return events
