"""A card's face as every screen draws it: its colours, its big number or sign.

State in, frozen view model out; no Kivy.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.cards import CATALOGUE
from ui.kivyfree.i18n import _
from ui.kivyfree.presenters.common import (
    ARTIFACT_BG,
    DARK_TEXT,
    HAZARD_BG,
    LIGHT_TEXT,
    TREASURE_BG,
    Colour,
)
from ui.kivyfree.words import hazard_name


@dataclass(frozen=True)
class CardFace:
    """How one card is drawn: a coloured face with a big title and a small line."""

    card: str
    title: str
    subtitle: str
    background: Colour
    text: Colour


def card_face(card_id: str) -> CardFace:
    c = CATALOGUE[card_id]
    if c.is_treasure:
        return CardFace(card_id, str(c.value), _("gems"), TREASURE_BG, DARK_TEXT)
    if c.is_artifact:
        return CardFace(
            card_id, _("Artifact"), _("no. {number}").format(number=c.order), ARTIFACT_BG,
            LIGHT_TEXT,
        )
    assert c.hazard is not None
    return CardFace(card_id, hazard_name(c.hazard).capitalize(), _("hazard"), HAZARD_BG, LIGHT_TEXT)
