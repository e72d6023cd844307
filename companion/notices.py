"""What the table has to tell the players, as values: the UI words them.

The core never builds a sentence. A :class:`Notice` carries a *reason*, one
of the small frozen types below, with the facts a sentence needs (a card
id, a seat, an error's own text); ``ui.kivyfree.words`` turns each into a sentence in
the table's language. A new reason needs its wording there, and the test of
the words checks that every reason has one.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Literal

from companion.engine import Unplayable
from companion.events import Correct, Draw, Reveal

__all__ = [
    "CameraMissed",
    "CameraStatus",
    "CannotCome",
    "CardHeld",
    "ChooseAgain",
    "Corrected",
    "DataFileSetAside",
    "Failed",
    "FromEndedRound",
    "GameIsOver",
    "HeldDropped",
    "HeldForSummary",
    "HeldReturned",
    "Level",
    "NoCameraFound",
    "NoCardToTurn",
    "NoGpio",
    "NotACard",
    "NothingToUndo",
    "Notice",
    "Reason",
    "Step",
    "StepRefused",
    "TwoCardsInView",
    "UndoWouldDropChoices",
    "Undone",
]

Level = Literal["info", "warning", "error"]


class CameraStatus(enum.Enum):
    """What the card camera is doing, for the status line."""

    STARTING = "starting"
    OK = "ok"
    NO_CAMERA = "no camera"  # none configured, or it failed: cards are entered by tapping
    VIRTUAL = "virtual"  # the rendered virtual table of a desktop
    # frames arrive, but zxing-cpp cannot be loaded: pyzbar reads the QR half
    # of each label and no Micro QR
    QR_ONLY = "qr only"


class Step(enum.Enum):
    """What failed, in a :class:`Failed` notice."""

    PRESS = "press"  # a seat's button press
    REVEAL = "reveal"
    CHECK = "check"  # checking a step against the rules
    SAVE = "save"  # storing a step in the data file
    INPUT = "input"  # an adapter's input on its way to the table
    SEAT_LIGHTS = "seat lights"
    SEAT_BUTTONS = "seat buttons"
    CAMERA = "camera"
    SCANNER = "scanner"
    PHONES = "phones"  # the LAN pages' server


@dataclass(frozen=True)
class NotACard:
    """A code or an entry that is no quest card (a foreign QR code, a typo)."""

    text: str


@dataclass(frozen=True)
class TwoCardsInView:
    """Two or more cards under the camera at once: none is taken until one is
    moved away."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class GameIsOver:
    """A card came after the fifth round ended."""

    card: str


@dataclass(frozen=True)
class CannotCome:
    """A card that cannot be the next draw, and why."""

    card: str
    why: Unplayable


@dataclass(frozen=True)
class CardHeld:
    """A card turned while choices are due waits for the reveal."""

    card: str


@dataclass(frozen=True)
class HeldForSummary:
    """A card turned while a round's end is on show (its bust, its summary)
    waits until the summary has been seen, so no summary is skipped."""

    card: str


@dataclass(frozen=True)
class FromEndedRound:
    """A card of the round that just ended was read while its end is on
    show: it may be lying on the scan spot still, uncovered by a hand or a
    card lifted off it. Not taken; the same card read again (laid again) is."""

    card: str


@dataclass(frozen=True)
class HeldReturned:
    """Everyone left: the held card goes back into the deck."""

    card: str


@dataclass(frozen=True)
class HeldDropped:
    """Undo dropped the held card."""

    card: str


@dataclass(frozen=True)
class NothingToUndo:
    """An undo with nothing left to take back."""


@dataclass(frozen=True)
class Undone:
    """What an undo took back: ``event`` is the step cancelled (a Draw, a
    Reveal or a Correct of :mod:`companion.events`); ``dropped`` counts the
    seats whose choices of the open turn went with it."""

    event: Draw | Reveal | Correct
    dropped: int = 0


@dataclass(frozen=True)
class ChooseAgain:
    """A game resumed while choices were due: presses made before the stop
    were never stored (a choice stays secret until the reveal), so these
    seats (their names) choose again."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class Corrected:
    """A correction was taken: path card ``pos`` (0-based) was ``was`` and is
    ``now``; ``hands`` and ``tents`` are what it changed, (seat name, before,
    after) for each seat whose hand or tent is not what it was."""

    pos: int
    was: str
    now: str
    hands: tuple[tuple[str, int, int], ...] = ()
    tents: tuple[tuple[str, int, int], ...] = ()


@dataclass(frozen=True)
class UndoWouldDropChoices:
    """Undo was tapped while seats had already chosen: a second tap confirms."""

    chosen: int
    event: Draw | Reveal | Correct


@dataclass(frozen=True)
class StepRefused:
    """The rules refused a step; ``rule`` is the refusal's class name
    (e.g. ``CorrectionRefused``), ``detail`` the log reader's own text."""

    rule: str
    detail: str


@dataclass(frozen=True)
class Failed:
    """Something outside the rules failed (a disk, a device); ``error`` is its own text."""

    step: Step
    error: str


@dataclass(frozen=True)
class NoGpio:
    """The seat buttons were asked for, but this machine has no GPIO."""

    detail: str = ""


@dataclass(frozen=True)
class DataFileSetAside:
    """The data file was damaged or not ours: renamed, and a new one started."""

    problem: str
    aside: str


@dataclass(frozen=True)
class CameraMissed:
    """The demo's hand entered a card the camera did not read."""

    card: str


@dataclass(frozen=True)
class NoCameraFound:
    """The device found no camera: the table enters cards by tapping."""


@dataclass(frozen=True)
class NoCardToTurn:
    """The virtual table has no card that can come now."""


Reason = (
    NotACard
    | TwoCardsInView
    | GameIsOver
    | CannotCome
    | CardHeld
    | HeldForSummary
    | FromEndedRound
    | HeldReturned
    | HeldDropped
    | NothingToUndo
    | Undone
    | Corrected
    | ChooseAgain
    | UndoWouldDropChoices
    | StepRefused
    | Failed
    | NoGpio
    | DataFileSetAside
    | CameraMissed
    | NoCameraFound
    | NoCardToTurn
)


@dataclass(frozen=True)
class Notice:
    """One line for the status bar: what happened that the table should know.

    A notice is about the moment it was said: it ends with the next thing the
    table does (``step`` counts the table's actions when it was said), unless
    it is ``lasting``: a fact about the device (no camera, no GPIO) that stays
    true.
    """

    reason: Reason
    level: Level = "info"
    at: float = 0.0
    step: int = 0
    lasting: bool = False
