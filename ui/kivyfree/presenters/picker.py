"""The card picker: the cards a path card may have been, or the next one by hand.

State in, frozen view model out; no Kivy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.cards import CATALOGUE
from companion.engine import State
from ui.kivyfree.i18n import _
from ui.kivyfree.presenters.cards import CardFace, card_face
from ui.kivyfree.words import card_name


@dataclass(frozen=True)
class PickerTile:
    face: CardFace
    enabled: bool  # the rules allow this card here


@dataclass(frozen=True)
class PickerView:
    title: str
    faces: tuple[CardFace, ...]  # the cards that can be picked
    empty: str  # shown when there is nothing to pick
    tiles: tuple[PickerTile, ...] = ()  # every card of the rule set, in fixed places


def _distinct(cards: Sequence[str]) -> tuple[str, ...]:
    """One card per face: the two "5" treasures look the same, offer one of them.

    Which physical copy does not matter to the rules, so the picker keeps the
    first one the rules allow, in catalogue order.
    """
    seen: set[tuple[str, str]] = set()
    out = []
    for cid in sorted(cards, key=lambda c: list(CATALOGUE).index(c)):
        face = card_face(cid)
        key = (face.title, face.subtitle)
        if key not in seen:
            seen.add(key)
            out.append(cid)
    return tuple(out)


def picker_view(state: State, options: Sequence[str], pos: int | None = None) -> PickerView:
    """The cards to pick from: a correction of path position ``pos``, or a card by hand."""
    if pos is None:
        title = _("Which card was turned?")
    else:
        current = state.path[pos].card if pos < len(state.path) else ""
        title = _("Card {n} is really… (now: {card})").format(
            n=pos + 1, card=card_name(current) if current else "?"
        )
    allowed = _distinct(options)
    by_face = {(f.title, f.subtitle): f for f in (card_face(c) for c in allowed)}
    tiles = []
    # Every face of the rule set keeps its place, so a tap never lands on a
    # card that moved because another one was used up; those are disabled.
    for cid in _distinct([c.id for c in CATALOGUE.values()
                          if state.rules.artifacts or not c.is_artifact]):
        face = card_face(cid)
        found = by_face.get((face.title, face.subtitle))
        tiles.append(PickerTile(found or face, found is not None))
    return PickerView(
        title=title,
        faces=tuple(card_face(c) for c in allowed),
        empty=_("No other card is possible here.") if not options else "",
        tiles=tuple(tiles),
    )
