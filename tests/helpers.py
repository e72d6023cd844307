"""Small builders for readable rules tests."""

from __future__ import annotations

from companion.events import Correct, Draw, Event, Reveal, Start, Undo
from companion.session import Session

NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal")


def play(seats: int, rules: str, *steps: str | list[int]) -> Session:
    """A session: a str step draws that card, a list step reveals those seats as camp."""
    session = Session.start(Start(NAMES[:seats], rules))
    for step in steps:
        event: Event = Reveal(tuple(step)) if isinstance(step, list) else Draw(step)
        session.apply(event)
    return session


def lefts(session: Session) -> list[int]:
    return [p.left for p in session.state.path]


__all__ = ["NAMES", "Correct", "Draw", "Reveal", "Start", "Undo", "lefts", "play"]
