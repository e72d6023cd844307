"""Which sound cues a change on the table calls for (no Kivy here: plain rules).

The screen calls :func:`cues` each time it shows a new state, with the state
it showed before and the events logged since; :func:`tick_cue` with the
countdown's text before and now. ``ui.sound`` plays what they return.

>>> from companion.events import Draw, Reveal, Start
>>> from companion.session import Session
>>> s = Session.start(Start(("Ana", "Bo", "Cy")))
>>> before = s.state
>>> _ = s.apply(Draw("T5A")); _ = s.apply(Reveal((0, 1, 2)))
>>> cues(before, s.state, s.log[1:])
(<Cue.REVEAL: 'reveal'>, <Cue.ROUND_END: 'round_end'>)
>>> tick_cue("", "2"), tick_cue("2", "1"), tick_cue("1", "")
(<Cue.TICK: 'tick'>, <Cue.TICK: 'tick'>, None)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from companion.engine import Bust, Phase, State
from companion.events import Correct, Draw, Event, Reveal, Start, Undo

TICK_FROM = 3  # the countdown ticks at 3, 2 and 1 seconds left


class Cue(enum.Enum):
    """A sound cue; the value is its file's name in ``ui/sounds/`` (without ``.wav``)."""

    REVEAL = "reveal"  # the torch/camp choices are revealed
    BUST = "bust"  # a second hazard of a kind: everyone in the temple loses their hand
    ARTIFACT = "artifact"  # a lone leaver carried an artifact out
    ROUND_END = "round_end"  # the round (or the game) is over
    TICK = "tick"  # one of the countdown's last seconds


_ENDED = (Phase.ROUND_OVER, Phase.GAME_OVER)


def cues(before: State | None, after: State, new_events: Sequence[Event]) -> tuple[Cue, ...]:
    """The cues for going from ``before`` to ``after`` through ``new_events``.

    ``new_events`` are the events logged since the screen showed ``before``
    (the session's ``log[n:]``). Fixes are silent: any undo or correction
    among them means no cue at all, and so does a new game's start or a first
    show (``before`` None: a resumed game). Otherwise, in this order: REVEAL
    for a reveal, ARTIFACT when more artifacts have been carried out, BUST for
    a draw that busted, ROUND_END when the round (or the game) has just ended.
    """
    if before is None or any(isinstance(e, Undo | Correct | Start) for e in new_events):
        return ()
    found: list[Cue] = []
    if any(isinstance(e, Reveal) for e in new_events):
        found.append(Cue.REVEAL)
    if len(after.carried) > len(before.carried):
        found.append(Cue.ARTIFACT)
    if any(isinstance(e, Draw) for e in new_events) and (
        len(after.removed) > len(before.removed)
        or (isinstance(after.last, Bust) and after.last != before.last)
    ):
        found.append(Cue.BUST)
    if after.phase in _ENDED and (after.round, after.phase) != (before.round, before.phase):
        found.append(Cue.ROUND_END)
    return tuple(found)


def tick_cue(shown_before: str, shown_now: str) -> Cue | None:
    """TICK when the countdown's text turns to 3, 2 or 1 (whole seconds left), else None.

    The countdown shows ``""`` when it is not running: starting shows its
    first number (a TICK only if that is 3 or less), stopping shows ``""``
    (no cue). Text that is not a whole number never ticks.
    """
    if shown_now == shown_before:
        return None
    try:
        seconds = int(shown_now.strip())
    except ValueError:
        return None
    return Cue.TICK if 1 <= seconds <= TICK_FROM else None
