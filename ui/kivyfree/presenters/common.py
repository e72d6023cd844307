"""What several screens share: colours, the rule sets' names, gem pieces, a
seat's name cut to its row, a hidden tent, the line that takes a card out.

>>> gem_pieces(13)
(1, 0, 3)
>>> pieces_text(13)  # doctest: +SKIP
'1 x 10, 0 x 5, 3 x 1' (with multiplication signs)

State in, frozen view model out; no Kivy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.engine import Phase, State
from companion.players import COLOURS as PLAYER_COLOURS
from ui.kivyfree.i18n import _, text_width
from ui.kivyfree.words import card_name

HIDDEN = "•••"  # what a hidden tent shows instead of its total


#: The longest name a seat may have, in columns (a Japanese character takes
#: two): it fits one seat row at the table's reading size, in every language.
MAX_NAME_COLUMNS = 12


def clipped_name(text: str) -> str:
    """``text`` cut to fit a seat row at the table's reading size: at most
    :data:`MAX_NAME_COLUMNS` columns, a Japanese character taking two.

    >>> clipped_name("Bartholomäus-Maximilian"), clipped_name("渡辺みなみ子さくら")
    ('Bartholomäus', '渡辺みなみ子')
    """
    # Column by column from the start: a stored name may be any length (a
    # 20,000-letter one cut from its end was 200 million column counts).
    columns = 0
    for end, letter in enumerate(text):
        columns += text_width(letter)
        if columns > MAX_NAME_COLUMNS:
            return text[:end]
    return text


Colour = tuple[float, float, float, float]


# High contrast on a dark table background; text colour is chosen per face.
TREASURE_BG: Colour = (0.96, 0.76, 0.18, 1)


HAZARD_BG: Colour = (0.78, 0.16, 0.14, 1)


ARTIFACT_BG: Colour = (0.20, 0.55, 0.90, 1)


DARK_TEXT: Colour = (0.08, 0.06, 0.02, 1)


LIGHT_TEXT: Colour = (1, 1, 1, 1)


def hex_colour(text: str) -> Colour | None:
    """"#rrggbb" as a Kivy colour, or None for anything else."""
    try:
        r, g, b = (int(text[i : i + 2], 16) / 255 for i in (1, 3, 5))
    except (ValueError, IndexError):
        return None
    return (r, g, b, 1) if len(text) == 7 and text[0] == "#" else None


#: The remembered players' palette (companion.players), so a seat that is
#: nobody remembered still wears a colour a player could have.
SEAT_COLOURS: tuple[Colour, ...] = tuple(
    c for c in (hex_colour(h) for h in PLAYER_COLOURS) if c is not None
)


def seat_colours(names_at: Sequence[str], remembered: Mapping[str, Colour]) -> tuple[Colour, ...]:
    """Each seat's colour: its player's own, as the set-up chips and the
    statistics show it; a seat nobody remembers, or whose colour an earlier
    seat already wears, the first of the palette no seat wears.

    >>> seat_colours(["Bo", "Ana"], {"Ana": SEAT_COLOURS[0]}) == (SEAT_COLOURS[1], SEAT_COLOURS[0])
    True
    """
    own = [remembered.get(n) for n in names_at]
    worn: list[Colour] = []
    for i, colour in enumerate(own):
        if colour is None or colour in worn:
            later = {c for c in own[i + 1:] if c is not None}
            colour = next((c for c in SEAT_COLOURS if c not in worn and c not in later),
                          SEAT_COLOURS[i % len(SEAT_COLOURS)])
        worn.append(colour)
    return tuple(worn)


def seat_colour(i: int, colours: Sequence[Colour] | None) -> Colour:
    if colours is not None and i < len(colours):
        return colours[i]
    return SEAT_COLOURS[i % len(SEAT_COLOURS)]


def rules_label(name: str) -> str:
    """A rule set as the setup screen names it."""
    return {
        "incan-gold": _("Incan Gold"),
        "incan-gold-2020": _("Incan Gold (2020)"),
        "diamant": _("Diamant"),
    }.get(name, name)


def gem_pieces(n: int) -> tuple[int, int, int]:
    """The fewest 10/5/1 gem pieces worth ``n``: (tens, fives, ones)."""
    tens, rest = divmod(max(0, n), 10)
    fives, ones = divmod(rest, 5)
    return tens, fives, ones


def pieces_text(n: int) -> str:
    tens, fives, ones = gem_pieces(n)
    text = _("{tens} × 10, {fives} × 5, {ones} × 1")  # noqa: RUF001
    return text.format(tens=tens, fives=fives, ones=ones)


def tents_hidden(state: State, hidden_tents: bool) -> bool:
    return hidden_tents and state.phase is not Phase.GAME_OVER


def artifacts_text(values: Sequence[int]) -> str:
    return " + ".join(str(v) for v in values)


def take_out_line(card: str | None) -> str:
    """What the table takes out of the game after a bust ("" when nothing):
    said on the table and on the round's summary alike."""
    if not card:
        return ""
    return _("Take one {hazard} card ({card}) out of the game.").format(
        hazard=card_name(card), card=card
    )
