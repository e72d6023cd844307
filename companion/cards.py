"""The quest cards: every physical card has one id (docs/cards-and-stickers.md).

>>> card("t11a")
Card(id='T11A', kind=<Kind.TREASURE: 'treasure'>, value=11, hazard=None, order=0)
>>> card_from_payload("IG:SPIDER2").hazard
'SPIDER'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

PAYLOAD_PREFIX = "IG:"


class Kind(enum.Enum):
    TREASURE = "treasure"
    HAZARD = "hazard"
    ARTIFACT = "artifact"


@dataclass(frozen=True)
class Card:
    """One physical quest card.

    ``value`` is the gems on a treasure and the printed value of an artifact;
    ``order`` is the round an artifact is shuffled in (A1 in round 1, ...).
    """

    id: str
    kind: Kind
    value: int = 0
    hazard: str | None = None
    order: int = 0

    @property
    def is_treasure(self) -> bool:
        return self.kind is Kind.TREASURE

    @property
    def is_hazard(self) -> bool:
        return self.kind is Kind.HAZARD

    @property
    def is_artifact(self) -> bool:
        return self.kind is Kind.ARTIFACT


class UnknownCard(ValueError):
    """A card id that no physical card carries."""

    def __init__(self, text: str) -> None:
        super().__init__(f"unknown card {text!r}")
        self.text = text


class NotACardError(ValueError):
    """A scanned payload that is not one of our stickers."""

    def __init__(self, payload: str) -> None:
        super().__init__(f"not a card: {payload!r}")
        self.payload = payload


TREASURE_IDS: tuple[tuple[str, int], ...] = (
    ("T1", 1), ("T2", 2), ("T3", 3), ("T4", 4), ("T5A", 5), ("T5B", 5),
    ("T7A", 7), ("T7B", 7), ("T9", 9), ("T11A", 11), ("T11B", 11),
    ("T13", 13), ("T14", 14), ("T15", 15), ("T17", 17),
)  # fmt: skip
# The editions of the box: which treasure cards it holds (docs/rules.md, "The
# table's own deck"). The hazards and artifacts are the same in every box.
DEFAULT_EDITION = "incan-gold"
EDITIONS: dict[str, tuple[str, ...]] = {
    # The catalogue's 15 treasures, sum 124.
    "incan-gold": tuple(cid for cid, _v in TREASURE_IDS),
    # 14 treasures, 1 to 15, without the 17 (sum 107): the online Incan Gold's deck.
    "14-treasures": tuple(cid for cid, _v in TREASURE_IDS if cid != "T17"),
}


class UnknownEdition(ValueError):
    """A box edition we do not know."""


def edition(name: object) -> tuple[str, ...]:
    """The treasure ids of the box edition ``name``.

    >>> len(edition("14-treasures")), "T17" in edition("14-treasures")
    (14, False)
    """
    if isinstance(name, str) and name in EDITIONS:
        return EDITIONS[name]
    raise UnknownEdition(f"unknown deck {name!r} (one of {', '.join(EDITIONS)})")


HAZARD_TYPES: tuple[str, ...] = ("SNAKE", "SPIDER", "MUMMY", "FIRE", "ROCKS")
ARTIFACT_PRINTED_VALUES: tuple[int, ...] = (5, 7, 8, 10, 12)
ROUNDS = 5


def _catalogue() -> dict[str, Card]:
    cards: list[Card] = [Card(cid, Kind.TREASURE, value=v) for cid, v in TREASURE_IDS]
    cards += [
        Card(f"{kind}{n}", Kind.HAZARD, hazard=kind) for kind in HAZARD_TYPES for n in (1, 2, 3)
    ]
    cards += [
        Card(f"A{r}", Kind.ARTIFACT, value=v, order=r)
        for r, v in enumerate(ARTIFACT_PRINTED_VALUES, start=1)
    ]
    return {c.id: c for c in cards}


CATALOGUE: dict[str, Card] = _catalogue()
ALL_IDS: tuple[str, ...] = tuple(CATALOGUE)
TREASURES: tuple[Card, ...] = tuple(c for c in CATALOGUE.values() if c.is_treasure)
HAZARDS: tuple[Card, ...] = tuple(c for c in CATALOGUE.values() if c.is_hazard)
ARTIFACTS: tuple[Card, ...] = tuple(c for c in CATALOGUE.values() if c.is_artifact)
#: The longest path a round can show: every treasure, one hazard of each kind
#: and every artifact (round 5, none turned before) lie on it before the next
#: card must be a second hazard, which ends the round on the path too (26).
LONGEST_PATH = len(TREASURE_IDS) + len(HAZARD_TYPES) + len(ARTIFACTS) + 1


def card(text: str) -> Card:
    """The card with this id, matched case-insensitively."""
    if not isinstance(text, str):
        raise UnknownCard(repr(text))
    # ASCII only: str.upper() folds the long s (U+017F) to "S" and the ligature
    # U+FB01 to "FI", which are no case of an id.
    found = CATALOGUE.get(text.upper()) if text.isascii() else None
    if found is None:
        raise UnknownCard(text)
    return found


def payload(card_id: str) -> str:
    """The text a sticker carries for this card (docs/cards-and-stickers.md)."""
    return PAYLOAD_PREFIX + card(card_id).id


def card_from_payload(text: str) -> Card:
    """The card a sticker payload names; anything else raises :class:`NotACardError`.

    Only ``IG:`` followed by a catalogue id counts: no spaces, no extra text.
    """
    if (
        not isinstance(text, str)
        or not text.isascii()  # as card(): no letter folded into an id's
        or len(text) > len(PAYLOAD_PREFIX) + 7
        or text[: len(PAYLOAD_PREFIX)].upper() != PAYLOAD_PREFIX
    ):
        raise NotACardError(str(text))
    found = CATALOGUE.get(text[len(PAYLOAD_PREFIX) :].upper())
    if found is None:
        raise NotACardError(text)
    return found
