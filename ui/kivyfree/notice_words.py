"""The notices and the camera's status in words: every :mod:`companion.notices`
reason as the sentence the status line shows.

Apart from :mod:`ui.kivyfree.words` (whose card names and lists it uses) so
that the command line's tables, which never show a notice, do not load the
notices' types.
"""

from __future__ import annotations

from companion.cards import NotACardError, card_from_payload
from companion.engine import Unplayable
from companion.events import Correct, Draw, Reveal
from companion.notices import (
    CameraMissed,
    CameraStatus,
    CannotCome,
    CardHeld,
    ChooseAgain,
    Corrected,
    DataFileSetAside,
    Failed,
    FromEndedRound,
    GameIsOver,
    HeldDropped,
    HeldForSummary,
    HeldReturned,
    NoCameraFound,
    NoCardToTurn,
    NoGpio,
    NotACard,
    NothingToUndo,
    Reason,
    Step,
    StepRefused,
    TwoCardsInView,
    Undone,
    UndoWouldDropChoices,
)
from companion.session import NothingToUndoError
from companion.text import cut, printable
from ui.kivyfree.i18n import _, ngettext, pgettext
from ui.kivyfree.words import card_name, joined, listed

__all__ = ["camera_text", "notice_text"]


def _corrected(c: Corrected) -> str:
    """ "Card 4: snakes → treasure 11; Ana: hand 3 → 6", seats alike said together."""
    parts = [_("Card {n}: {was} → {now}").format(n=c.pos + 1, was=card_name(c.was),
                                                  now=card_name(c.now))]
    for changes, hand in ((c.hands, True), (c.tents, False)):
        alike: dict[tuple[int, int], list[str]] = {}
        for name, before, after in changes:
            alike.setdefault((before, after), []).append(name)
        for (before, after), who in alike.items():
            if hand:
                text = ngettext("{names}: hand {before} → {after}",
                                "{names}: hands {before} → {after}", len(who))
            else:
                text = ngettext("{names}: tent {before} → {after}",
                                "{names}: tents {before} → {after}", len(who))
            parts.append(text.format(names=joined(who), before=before, after=after))
    # i18n: between the changes a correction made: "Card 4: …; Ana: hand 3 → 6"
    return pgettext("changes", "; ").join(parts)


def notice_text(reason: Reason) -> str:
    """A notice's reason as the sentence the status line shows."""
    match reason:
        case NotACard(text) if _names_a_card(text):
            # Only a Micro QR below level Q is refused with a card's payload: a
            # home-made sticker, which a bare "Not a card" would contradict.
            return _("\u201c{text}\u201d is not one of this game's stickers: its Micro QR "
                     "is below level Q.").format(text=_shorten(text))
        case NotACard(text):
            # Quoted: a space before or after the code is what makes it no card.
            return _("Not a card: \u201c{text}\u201d").format(text=_shorten(text))
        case TwoCardsInView(cards):
            return _("Two cards under the camera ({cards}): take one away.").format(
                cards=listed([card_name(c) for c in cards])
            )
        case GameIsOver(card):
            return _("The game is over; {card} is not needed.").format(card=card_name(card))
        case CannotCome(card, why):
            return _why_not(card, why)
        case CardHeld(card):
            return _("{card} waits until the choices are revealed.").format(
                card=card_name(card).capitalize()
            )
        case HeldForSummary(card):
            # Said on the table too, where the summary's button is not: no button named.
            return _("{card} waits for the next round: it goes on the path after the "
                     "round's summary.").format(
                card=card_name(card).capitalize()
            )
        case FromEndedRound(card):
            return _("{card} was on the path of the round that just ended: not taken. "
                     "If it opens the next round, lay it again.").format(
                card=card_name(card).capitalize()
            )
        case HeldReturned(card):
            return _("Nobody is left in the temple: shuffle {card} back in.").format(
                card=card_name(card)
            )
        case HeldDropped(card):
            return _("{card} is no longer waiting.").format(card=card_name(card).capitalize())
        case NothingToUndo():
            return _("Nothing to undo.")
        case Undone(event, dropped):
            text = _undone(event)
            if dropped:
                text += " " + ngettext(
                    "{n} seat's choice was cleared.", "{n} seats' choices were cleared.", dropped
                ).format(n=dropped)
            return text
        case Corrected():
            return _corrected(reason)
        case ChooseAgain(who):
            return ngettext(
                "Resumed: choices pressed before the stop are not kept. {names} chooses again.",
                "Resumed: choices pressed before the stop are not kept. {names} choose again.",
                len(who),
            ).format(names=joined(list(who)))
        case UndoWouldDropChoices(chosen, event):
            return ngettext(
                "{n} seat has chosen: tap Undo again to take back {what} and clear that choice.",
                "{n} seats have chosen: tap Undo again to take back {what} and clear "
                "their choices.",
                chosen,
            ).format(n=chosen, what=_step_name(event))
        case StepRefused(rule, detail):
            if rule == NothingToUndoError.__name__:  # the session's own refusal
                return _("Nothing to undo.")
            return detail  # the log reader's own text: a bug's trace, not a table's event
        case Failed(step, error):
            return _FAILED[step]().format(error=_shorten(error, 160))
        case NoGpio(detail):
            if detail:
                return _("No seat buttons: {reason}").format(reason=detail)
            return _("No GPIO here: the keyboard stands in for the buttons.")
        case DataFileSetAside(problem, aside):
            return " ".join((
                _("{problem}. It was set aside as {name}; a new data file was started.").format(
                    problem=problem, name=aside
                ),
                _("To save its games: incan-companion recover {name}").format(name=aside),
            ))  # fmt: skip
        case CameraMissed(card):
            return _("The camera missed {card}: entered by hand.").format(card=card)
        case NoCameraFound():
            return _("No camera found: tap Enter card to enter each card.")
        case NoCardToTurn():
            return _("No card can be turned now.")
    raise AssertionError(f"no words for {reason!r}")  # the words test covers every reason


# Called, not looked up at import: the words must be in the language in use.
_FAILED = {
    Step.PRESS: lambda: _("A button press failed: {error}"),
    Step.REVEAL: lambda: _("The reveal failed: {error}"),
    Step.CHECK: lambda: _("That step could not be checked: {error}"),
    Step.SAVE: lambda: _("Could not save the game, the step was not taken: {error}"),
    Step.INPUT: lambda: _("Input failed: {error}"),
    Step.SEAT_LIGHTS: lambda: _("Seat lights failed: {error}"),
    Step.SEAT_BUTTONS: lambda: _("Seat buttons failed: {error}"),
    Step.CAMERA: lambda: _("Camera failed: {error}"),
    Step.SCANNER: lambda: _("Scanner failed: {error}"),
    Step.PHONES: lambda: _("Phones failed, the table plays on: {error}"),
}


def _step_name(event: Draw | Reveal | Correct) -> str:
    """A step of the game as the object of "take back …"."""
    match event:
        case Draw(card):
            return card_name(card, as_object=True)
        case Reveal():
            return _("the reveal")
        case Correct(pos):
            return _("the correction of card {n}").format(n=pos + 1)
    raise AssertionError(event)


def _undone(event: Draw | Reveal | Correct) -> str:
    """What an undo took back, and what the table does about it."""
    match event:
        case Draw(card):
            return _("Undone: {card} is off the path; take it back.").format(
                card=card_name(card).capitalize()
            )
        case Reveal():
            return _("Undone: the reveal; choose again.")
        case Correct(pos):
            return _("Undone: the correction of card {n}.").format(n=pos + 1)
    raise AssertionError(event)


def _why_not(card: str, why: Unplayable) -> str:
    """Why ``card`` cannot be the next draw, for a person at the table."""
    named = f"{card_name(card).capitalize()} ({card})"
    if why is Unplayable.ON_PATH:
        return _("{card} is already on the path.").format(card=named)
    if why is Unplayable.TAKEN_OUT:
        return _("{card} was taken out of the game.").format(card=named)
    if why in (Unplayable.LOST, Unplayable.CARRIED):
        return _("{card} has left the game.").format(card=named)
    if why is Unplayable.NO_ARTIFACTS:
        return _("{card} is not played with these rules.").format(card=named)
    if why is Unplayable.NOT_IN_BOX:
        return _("{card} is not in this table's box.").format(card=named)
    return _("{card} cannot come now.").format(card=named)


def _names_a_card(text: str) -> bool:
    try:
        card_from_payload(text)
    except NotACardError:
        return False
    return True


def _shorten(text: str, limit: int = 40) -> str:
    """Anything a camera or a device said, printable and short enough for one line."""
    return cut(printable(text, strict=True, replace="?"), limit)


def camera_text(status: CameraStatus) -> str:
    """The camera's status for the status line."""
    return {
        CameraStatus.VIRTUAL: _("virtual table: tap Turn a card"),
        CameraStatus.OK: _("camera ok"),
        # i18n: the reader of the stickers' Micro QR is missing: only their QR is read
        CameraStatus.QR_ONLY: _("camera ok, no Micro QR"),
        CameraStatus.NO_CAMERA: _("no camera: enter cards by tapping"),
        CameraStatus.STARTING: _("camera starting…"),
    }[status]
