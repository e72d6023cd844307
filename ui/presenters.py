"""What each screen shows, as plain data: state in, frozen view model out.

The screens only copy these fields into Kivy properties, so every word and
number the table reads is decided here, where a test can check it exactly
without opening a window. No Kivy import.

>>> gem_pieces(13)
(1, 0, 3)
>>> pieces_text(13)  # doctest: +SKIP
'1 x 10, 0 x 5, 3 x 1' (with multiplication signs)
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from companion.cards import (
    ARTIFACTS,
    CATALOGUE,
    EDITIONS,
    HAZARD_TYPES,
    HAZARDS,
    ROUNDS,
    TREASURE_IDS,
    edition,
)
from companion.engine import MAX_SEATS, MIN_SEATS, Bust, Phase, Revealed, State, TreasureSplit
from companion.events import STRATEGIES, Draw, Move, Start
from companion.notices import CameraStatus, CardHeld, Corrected, Reason
from companion.odds import odds
from companion.players import COLOURS as PLAYER_COLOURS
from companion.review import review
from companion.rules import RULE_SETS
from companion.session import Session
from ui.i18n import _, ngettext, text_width
from ui.words import (
    camera_text,
    card_name,
    decimal,
    hazard_name,
    last_event,
    listed,
    names,
    notice_text,
    phase_name,
    signed,
    status_name,
    strategy_name,
)

__all__ = [
    "BOT_MARK",
    "DECK_CHOICES",
    "HIDDEN",
    "SEAT_KINDS",
    "CardFace",
    "ChartView",
    "FinalSeat",
    "GameOverView",
    "LogPage",
    "PathCardView",
    "PickerTile",
    "PickerView",
    "ReviewRow",
    "ReviewView",
    "RoundEndSeat",
    "RoundEndView",
    "ScoreColumns",
    "SeatView",
    "TableView",
    "bot_name",
    "bots_label",
    "card_face",
    "chart_view",
    "countdown_text",
    "deck_label",
    "game_over_view",
    "gem_pieces",
    "odds_text",
    "picker_view",
    "pieces_text",
    "place_name",
    "review_view",
    "round_end_view",
    "round_log",
    "round_log_pages",
    "rules_label",
    "seat_kind_label",
    "table_view",
]

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
    kept = text
    while text_width(kept) > MAX_NAME_COLUMNS:
        kept = kept[:-1]
    return kept

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


def _colour(i: int, colours: Sequence[Colour] | None) -> Colour:
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


# --- card faces ------------------------------------------------------------------


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


# --- the table screen --------------------------------------------------------------


#: The longest path a round can show: every treasure, one hazard of each kind
#: and every artifact (round 5, none turned before) lie on it before the next
#: card must be a second hazard, which ends the round on the path too (26).
LONGEST_PATH = len(TREASURE_IDS) + len(HAZARD_TYPES) + len(ARTIFACTS) + 1


def longest_path(state: State) -> int:
    """The most cards this round's path can hold, the bust's pair included: the
    box's treasures, one hazard of each kind still in the game, and the
    artifacts shuffled in for this round (those on its path count, carried
    out or lost as they may be by now, so the figure holds all round long).

    >>> from companion.engine import new_game
    >>> seats = ["Ana", "Bo", "Cy"]
    >>> longest_path(new_game(seats)), longest_path(new_game(seats, "diamant"))
    (22, 21)
    """
    on_path = {p.card for p in state.path}
    artifacts = sum(
        1 for a in ARTIFACTS
        if state.rules.artifacts and a.order <= state.round
        and (a.id in on_path or a.id not in (*state.lost, *state.carried))
    )
    kinds = {c.hazard for c in HAZARDS if c.id not in state.removed}
    return len(edition(state.edition)) + len(kinds) + artifacts + 1


@dataclass(frozen=True)
class PathCardView:
    pos: int
    face: CardFace
    left: str  # "2 left" or ""
    note: str  # "Ana took it", "worth 5", "second!" or ""
    faded: bool  # an artifact already carried out
    highlight: bool = False  # one of the pair of hazards that just ended the round
    # The tile's picture (ui/icons): the hazard's kind, "gem" or "artifact".
    icon: str = ""
    value: str = ""  # the big number: a treasure's gems, an artifact's worth now
    gems: str = ""  # the gems still lying on the card, as a number, or ""
    chance: str = ""  # the odds' chance that the next card is this hazard's pair
    taker: Colour | None = None  # the colour of the seat that carried the artifact out


@dataclass(frozen=True)
class SeatView:
    index: int
    name: str
    colour: Colour
    status: str  # "in temple" | "in camp" | "busted"
    status_key: str  # "in" | "camp" | "busted", for the row's look
    hand: str
    banked: str  # the total, or HIDDEN
    artifacts: str  # "5 + 10" or ""
    choice: str  # "chosen" | "choosing…" | ""
    chosen: bool
    artifacts_worth: str = ""  # what the artifacts add to the score: "15", or ""


@dataclass(frozen=True)
class TableView:
    heading: str  # "Round 2 of 5"
    rules: str  # "Incan Gold"
    prompt: str  # what the table does now
    prompt_short: str  # the same when the long one has no room: who waits, as a count
    event: str  # what the last event did, in words
    pieces: str  # gem pieces to hand out, or ""
    hazards: str  # "Hazards: spiders, fire" or ""
    remove: str  # "Take spiders (SPIDER2) out of the game." or ""
    countdown: str  # "2" while the reveal countdown runs, else ""
    status: str  # camera and the last notice
    status_level: str  # "info" | "warning" | "error"
    path: tuple[PathCardView, ...]
    seats: tuple[SeatView, ...]
    can_undo: bool
    can_enter: bool  # a card can be entered by hand now
    on_path: str = ""  # the pooled remainder as a path total: "On the path: 3 gems"
    bust: str = ""  # the round just ended on a second hazard: the moment, in words
    artifacts_column: bool = True  # the rule set has artifacts
    game_over: bool = False
    odds: str = ""  # the odds panel, when the table chose to see it
    # The same without the chance per hazard (each hazard's tile shows its own).
    odds_short: str = ""
    status_short: str = ""  # the status without the camera's part, when both do not fit
    path_room: int = LONGEST_PATH  # the slots the path keeps: longest_path()


def _hidden(state: State, hidden_tents: bool) -> bool:
    return hidden_tents and state.phase is not Phase.GAME_OVER


def _artifacts(values: Sequence[int]) -> str:
    return " + ".join(str(v) for v in values)


def payout_pieces(state: State) -> str:
    """The gem pieces each receiving seat takes for the last event, or ""."""
    out = state.last
    each = 0
    if isinstance(out, TreasureSplit):
        each = out.each
    elif isinstance(out, Revealed) and out.camp:
        each = out.share
    if each <= 0:
        return ""
    return _("Gems for each: {pieces}").format(pieces=pieces_text(each))


def prompt(
    state: State,
    *,
    waiting: Collection[int] = (),
    countdown: float | None = None,
    held: str | None = None,
    short: bool = False,
    ending: bool = False,
    asking: bool = False,
) -> str:
    """The one line telling the table what to do now (``short``: without names).

    ``ending``: the round's end is on show (its bust, its summary), so the
    next card is not asked for yet. ``asking``: Undo's question is open.
    """
    if state.phase is Phase.GAME_OVER:
        return _("The game is over.")
    if state.phase is Phase.ROUND_OVER and ending:
        return _("Round {round} is over. Tap for the round's summary.").format(round=state.round)
    if state.phase is Phase.ROUND_OVER:
        return _("Round {round} is over. Turn the first card of round {next}.").format(
            round=state.round, next=state.round + 1
        )
    if state.phase is Phase.CHOOSE:
        if asking:  # Undo's question holds the reveal
            return _("The reveal waits: tap Undo again, or press a seat's button to go on.")
        if countdown is not None:
            return _("Everyone has chosen. Reveal in {n}…").format(n=math.ceil(countdown))
        if short:
            n = len(waiting)
            return ngettext(
                "Torch or camp? {n} seat still has to choose.",
                "Torch or camp? {n} seats still have to choose.",
                n,
            ).format(n=n) if n else ""
        who = names(state, sorted(waiting))
        return _("Torch or camp? Waiting for {names}.").format(names=who) if who else ""
    if not state.path:
        return _("{name} turns the first card.").format(name=state.seats[state.start_seat].name)
    return _("Turn the next card.")


def countdown_text(left: float | None) -> str:
    """The countdown as the table sees it: whole seconds, "" when it does not run."""
    return "" if left is None else str(math.ceil(left))


def take_out_line(card: str | None) -> str:
    """What the table takes out of the game after a bust ("" when nothing):
    said on the table and on the round's summary alike."""
    if not card:
        return ""
    return _("Take one {hazard} card ({card}) out of the game.").format(
        hazard=card_name(card), card=card
    )


def table_view(
    state: State,
    *,
    hidden_tents: bool = False,
    due: Collection[int] = (),
    chosen: Collection[int] = (),
    waiting: Collection[int] | None = None,
    countdown: float | None = None,
    held: str | None = None,
    camera: CameraStatus | None = None,
    notice: Reason | None = None,
    notice_level: str = "info",
    can_undo: bool = False,
    show_odds: bool = False,
    bots: Collection[int] = (),
    ending: bool = False,
    asking: bool = False,
    colours: Sequence[Colour] | None = None,
) -> TableView:
    """The main screen. ``due``/``chosen``/``waiting`` come from the ChoiceCollector
    (``waiting_for``): who, never what; ``waiting`` defaults to the due seats
    that have not chosen. ``colours``: each seat's (:func:`seat_colours`); the
    palette's by seat when None."""
    hide = _hidden(state, hidden_tents)
    hazards_seen: set[str] = set()
    bust = state.last if isinstance(state.last, Bust) else None
    bust_kind = CATALOGUE[bust.card].hazard if bust is not None else None
    worth = state.artifact_worth()
    chances = _pair_chances(state) if show_odds else {}
    path = []
    for pos, p in enumerate(state.path):
        c = p.kind
        note = ""
        if c.is_hazard:
            assert c.hazard is not None
            if c.hazard in hazards_seen:
                note = _("second!")
            hazards_seen.add(c.hazard)
        if c.is_artifact and p.taken_by is not None:
            note = _("{name} took it").format(name=state.seats[p.taken_by].name)
        elif p.card in worth:
            # What the decision depends on: this artifact to a seat leaving alone now.
            note = _("worth {value}").format(value=worth[p.card])
        # After a pooled split the remainder belongs to the path, not to a card.
        own = p.left - (state.pooled[1] if state.pooled and state.pooled[0] == pos else 0)
        left = ngettext("{n} left", "{n} left", own).format(n=own) if own else ""
        taken = c.is_artifact and p.taken_by is not None
        value = str(c.value) if c.is_treasure else str(worth[p.card]) if p.card in worth else ""
        first = c.is_hazard and note == ""
        path.append(
            PathCardView(
                pos, card_face(p.card), left, note, taken,
                highlight=bust_kind is not None and c.hazard == bust_kind,
                icon=(c.hazard or "").lower() if c.is_hazard else "artifact" if c.is_artifact
                else "gem",
                value=value,
                gems=str(own) if own else "",
                chance=chances.get(c.hazard or "", "") if first else "",
                taker=_colour(p.taken_by, colours) if taken and p.taken_by is not None else None,
            )
        )
    seats = []
    for i, s in enumerate(state.seats):
        is_due = i in due
        seats.append(
            SeatView(
                index=i,
                name=bot_name(s.name) if i in bots else s.name,
                colour=_colour(i, colours),
                status=status_name(s.status),
                status_key=s.status.value,
                hand=str(s.hand),
                banked=HIDDEN if hide else str(s.banked),
                artifacts=_artifacts([a.value for a in s.artifacts]),
                choice=(_("chosen") if i in chosen else _("choosing…")) if is_due else "",
                chosen=is_due and i in chosen,
                artifacts_worth=str(sum(a.value for a in s.artifacts)) if s.artifacts else "",
            )
        )
    hazards = state.hazards_on_path()
    hazard_line = (
        _("Hazards: {list}").format(
            list=listed([hazard_name(CATALOGUE[h].hazard or "") for h in hazards])
        )
        if hazards
        else ""
    )
    remove = take_out_line(state.to_remove)
    # After the game no card is read: the camera's "tap Turn a card" is no instruction.
    over = state.phase is Phase.GAME_OVER
    status_parts = [camera_text(camera)] if camera is not None and not over else []
    if held and state.phase is Phase.CHOOSE and notice != CardHeld(held):  # said already
        status_parts.append(
            _("Waiting for the reveal: {card}").format(card=card_name(held))
        )
    if isinstance(notice, Corrected) and hide:
        notice = replace(notice, tents=())  # hidden tents: a correction says no tent
    if notice is not None:
        status_parts.append(notice_text(notice))
    # What the table must do now comes before what it already knows (the camera).
    short_parts = status_parts[1:] if camera is not None and len(status_parts) > 1 else (
        status_parts)
    if waiting is None:
        waiting = [i for i in due if i not in chosen]
    on_path = ""
    if state.pooled and state.phase is Phase.CHOOSE:
        rest = state.pooled[1]
        on_path = ngettext(
            "Shared leftover on the path: {n} gem", "Shared leftover on the path: {n} gems", rest
        ).format(n=rest)
    bust_text = ""
    if bust is not None:
        bust_text = _("Second {hazard}! Everyone still in the temple loses their gems.").format(
            hazard=card_name(bust.card)
        )
    return TableView(
        heading=_("Round {round} of {rounds}").format(round=state.round, rounds=ROUNDS),
        rules=rules_label(state.rules.name),
        prompt=prompt(
            state, waiting=waiting, countdown=countdown, held=held, ending=ending, asking=asking
        ),
        prompt_short=prompt(
            state, waiting=waiting, countdown=countdown, held=held, short=True, ending=ending,
            asking=asking,
        ),
        on_path=on_path,
        bust=bust_text,
        artifacts_column=state.rules.artifacts,
        odds=odds_text(state) if show_odds else "",
        odds_short=odds_text(state, per_hazard=False) if show_odds else "",
        status_short=" · ".join(short_parts),
        path_room=longest_path(state),
        game_over=state.phase is Phase.GAME_OVER,
        event=last_event(state),
        pieces=payout_pieces(state),
        hazards=hazard_line,
        remove=remove,
        countdown=countdown_text(countdown),
        status=" · ".join(status_parts),
        status_level=notice_level if notice is not None else "info",
        path=tuple(path),
        seats=tuple(seats),
        can_undo=can_undo,
        can_enter=state.phase in (Phase.DRAW, Phase.ROUND_OVER, Phase.CHOOSE),
    )


# --- the card picker ------------------------------------------------------------------


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


# --- round end and game end --------------------------------------------------------------


@dataclass(frozen=True)
class ScoreColumns:
    """The headers of the end screens' score columns, in the table's language.

    The signs say how a score is made, so nobody wonders whether a tent
    holds the artifacts: ``tent`` (gems only) ``+ artifacts`` ``= score``.
    ``artifacts`` is "" under rules without artifacts (Diamant): no such
    column at all then.
    """

    seat: str
    tent: str
    artifacts: str
    score: str
    round: str = ""  # "this round": the round summary only


def _score_columns(state: State, *, this_round: bool) -> ScoreColumns:
    return ScoreColumns(
        seat=_("seat"),
        tent=_("tent"),
        # The signs are the same in every language; only the words are translated.
        artifacts="+ " + _("artifacts") if state.rules.artifacts else "",
        score="= " + _("score"),
        round=_("this round") if this_round else "",
    )


@dataclass(frozen=True)
class RoundEndSeat:
    name: str
    colour: Colour
    result: str  # what the round gave: "kept 12 gems", "busted, lost 7"
    banked: str  # the tent: gems only, or HIDDEN
    artifacts: str  # the value of every artifact the seat has: "5 + 10", or ""
    new_artifacts: str  # those carried out this round, the end of ``artifacts``: "10", or ""
    score: str  # tent + artifacts, or HIDDEN
    busted: bool  # lost the gems in hand this round


@dataclass(frozen=True)
class RoundEndView:
    heading: str
    how: str  # why the round ended
    columns: ScoreColumns
    seats: tuple[RoundEndSeat, ...]
    remove: str  # the card to take out of the game, or ""
    lost: str  # artifacts gone for good, or ""
    next_artifact: str  # which artifact to shuffle in next, or ""
    button: str  # "Show the table" after rounds 1 to 4, "Final scores" after the last
    goes_to: str  # the screen the button shows: "table" or "game_over"


def round_end_view(state: State, *, hidden_tents: bool = False,
                   colours: Sequence[Colour] | None = None) -> RoundEndView:
    """What each seat kept in the round that just ended, its tent, artifacts and
    score, and what to do with the cards. Round 5 too: its button leads to the
    final scores."""
    end = state.round_end
    rnd = end.round if end else state.round
    hide = _hidden(state, hidden_tents)
    zero = tuple(0 for _s in state.seats)
    after = state.history[-1] if state.history else zero
    before = state.history[-2] if len(state.history) > 1 else zero
    losses = dict(state.last.losses) if isinstance(state.last, Bust) else {}
    # Artifacts carried out this round: those on the ended path that a seat took.
    # A seat's artifacts are kept in the order carried, so these are its last ones.
    new: dict[int, int] = {}
    for p in state.path:
        if p.taken_by is not None:
            new[p.taken_by] = new.get(p.taken_by, 0) + 1
    seats = []
    for i, s in enumerate(state.seats):
        kept = after[i] - before[i]
        if i in losses:
            result = _("busted, lost {n}").format(n=losses[i])
        else:
            result = ngettext("kept {n} gem", "kept {n} gems", kept).format(n=kept)
        values = [a.value for a in s.artifacts]
        fresh = values[len(values) - new.get(i, 0):] if new.get(i) else []
        seats.append(
            RoundEndSeat(
                name=s.name,
                colour=_colour(i, colours),
                result=result,
                banked=HIDDEN if hide else str(s.banked),
                artifacts=_artifacts(values),
                new_artifacts=_artifacts(fresh),
                score=HIDDEN if hide else str(s.score),
                busted=i in losses,
            )
        )
    bust = isinstance(state.last, Bust)
    how = last_event(state) if bust else _("Everyone has left the temple.")
    remove = take_out_line(state.to_remove)
    lost = ""
    if end and end.lost:
        lost = ngettext(
            "Left on the path and gone for good: {cards}.",
            "Left on the path and gone for good: {cards}.",
            len(end.lost),
        ).format(cards=listed([card_name(c) for c in end.lost]))
    nxt = ""
    if state.phase is Phase.ROUND_OVER and state.next_artifact:
        nxt = _("Shuffle {card} ({id}) into the deck for round {round}.").format(
            card=card_name(state.next_artifact), id=state.next_artifact, round=rnd + 1
        )
    over = state.phase is Phase.GAME_OVER
    return RoundEndView(
        heading=_("Round {round} is over").format(round=rnd),
        how=how,
        columns=_score_columns(state, this_round=True),
        seats=tuple(seats),
        remove=remove,
        lost=lost,
        next_artifact=nxt,
        button=_("Final scores") if over else _("Show the table"),
        goes_to="game_over" if over else "table",
    )


@dataclass(frozen=True)
class FinalSeat:
    name: str
    colour: Colour
    banked: str
    artifacts: str
    score: str
    winner: bool
    place: int  # 1 for the best; seats still tied after the artifacts share a place
    rank: str  # the place in words: "1st", "2nd"


@dataclass(frozen=True)
class ChartView:
    """The score (tent + artifacts) of each seat after each round, scaled to ``top``."""

    rounds: int
    top: int
    series: tuple[tuple[int, ...], ...]  # per seat: score after round 1, 2, ...
    colours: tuple[Colour, ...]
    labels: tuple[str, ...]


@dataclass(frozen=True)
class GameOverView:
    heading: str
    winners: str
    tie_break: str  # how ties on score were settled, or ""
    columns: ScoreColumns
    seats: tuple[FinalSeat, ...]  # best first
    chart: ChartView


def chart_view(state: State, colours: Sequence[Colour] | None = None) -> ChartView:
    """Scores after each round: what the final scores add up to, artifacts included."""
    series = tuple(
        tuple(row[i] for row in state.score_history) for i in range(len(state.seats))
    )
    top = max([v for s in series for v in s] + [1])
    # A round number as the axis' top: 10, 20, 50, 100 ...
    step = 10 if top <= 50 else 20 if top <= 100 else 50
    return ChartView(
        rounds=ROUNDS,
        top=int(math.ceil(top / step) * step),
        series=series,
        colours=tuple(_colour(i, colours) for i in range(len(state.seats))),
        labels=tuple(s.name for s in state.seats),
    )


def place_name(place: int) -> str:
    """A place in the final ranking as the table says it: 1 -> "1st"."""
    words = (
        _("1st"), _("2nd"), _("3rd"), _("4th"), _("5th"), _("6th"), _("7th"), _("8th"),
    )  # fmt: skip
    return words[place - 1] if 1 <= place <= len(words) else str(place)


def _places(state: State) -> list[int]:
    """Each seat's place: the rules' order (score, then artifacts), ties shared (1, 1, 3)."""
    keys = [(s.score, len(s.artifacts)) for s in state.seats]
    return [1 + sum(other > key for other in keys) for key in keys]


def _tie_breaks(state: State, winners: Sequence[int]) -> str:
    """One sentence per score two or more seats share, best first."""
    scores = state.scores
    said = []
    for score in sorted(set(scores), reverse=True):
        tied = [i for i, s in enumerate(scores) if s == score]
        if len(tied) < 2:
            continue
        top = score == max(scores)
        broken = len({len(state.seats[i].artifacts) for i in tied}) > 1
        if top and len(winners) != 1:
            broken = False  # the best are still tied: the win is shared
        if broken:
            said.append(_("Tied on {score}; more artifacts decide.").format(score=score))
        elif not state.rules.artifacts:  # no artifacts to count (Diamant)
            text = _("Tied on {score}: a shared win.") if top else _(
                "Tied on {score}: a shared place."
            )
            said.append(text.format(score=score))
        else:
            text = _("Tied on {score} and on artifacts: a shared win.") if top else _(
                "Tied on {score} and on artifacts: a shared place."
            )
            said.append(text.format(score=score))
    return " ".join(said)


def game_over_view(state: State, colours: Sequence[Colour] | None = None) -> GameOverView:
    """Final scores ranked by the rules (score, then artifacts), the winner(s), the
    tie-breaks, and the chart of scores."""
    winners = state.winners if state.phase is Phase.GAME_OVER else ()
    # Two msgids, not ngettext: "Winner: {names}" is the command line's msgid
    # too (ui/words.py), and "Winners" is only ever said of two or more seats.
    one = len(winners) == 1
    win_text = (_("Winner: {names}") if one else _("Winners: {names}")).format(
        names=names(state, list(winners))
    )
    places = _places(state)
    order = sorted(range(len(state.seats)), key=lambda i: (places[i], i))
    seats = tuple(
        FinalSeat(
            name=state.seats[i].name,
            colour=_colour(i, colours),
            banked=str(state.seats[i].banked),
            artifacts=_artifacts([a.value for a in state.seats[i].artifacts]),
            score=str(state.seats[i].score),
            winner=i in winners,
            place=places[i],
            rank=place_name(places[i]),
        )
        for i in order
    )
    return GameOverView(
        heading=phase_name(Phase.GAME_OVER).capitalize(),
        winners=win_text,
        tie_break=_tie_breaks(state, winners),
        columns=_score_columns(state, this_round=False),
        seats=seats,
        chart=chart_view(state, colours),
    )


# --- set-up -------------------------------------------------------------------------


RULE_CHOICES: tuple[str, ...] = tuple(RULE_SETS)


def setup_problem(names_given: Sequence[str], kinds: Sequence[str] = ()) -> str:
    """Why these seat names (and seat kinds) cannot start a game, or "" if they can."""
    cleaned = [n.strip() for n in names_given]
    if cleaned and kinds and all(k != "person" for k in kinds[: len(cleaned)]):
        return _("At least one seat must be a person.")
    if not MIN_SEATS <= len(cleaned) <= MAX_SEATS:
        return _("A game has {least} to {most} seats.").format(least=MIN_SEATS, most=MAX_SEATS)
    for i, n in enumerate(cleaned):
        if not n:
            return _("Seat {n} has no name.").format(n=i + 1)
        if text_width(n) > MAX_NAME_COLUMNS:
            return _("Seat {n}'s name is too long.").format(n=i + 1)
    for n in cleaned:
        if cleaned.count(n) > 1:
            return _("Two seats are called {name}.").format(name=n)
    return ""


def resume_text(state: State) -> str:
    """A stored unfinished game as the setup screen offers it."""
    return _("Resume: round {round}, {names}").format(
        round=state.round, names=listed([s.name for s in state.seats])
    )



# --- bots and the post-game review ------------------------------------------------------

#: Before a bot seat's name wherever the table sees it: the device plays that seat.
BOT_MARK = "\u25c6"
#: What a seat on the set-up screen can be: a person, or a bot of each strategy.
SEAT_KINDS: tuple[str, ...] = ("person", *STRATEGIES)


def bot_name(name: str) -> str:
    """A bot seat's name as the screens show it."""
    return f"{BOT_MARK} {name}"


def seat_kind_label(kind: str) -> str:
    """The set-up's word for what a seat is: a person, or the bot's strategy."""
    if kind == "person":
        return _("person")
    return _("bot: {strategy}").format(strategy=strategy_name(kind))


def bots_label(kinds: Sequence[str]) -> str:
    """The set-up's Bots button: how many seats the device plays."""
    n = sum(1 for k in kinds if k != "person")
    if not n:
        return _("Bots: none")
    return ngettext("Bots: {n} seat", "Bots: {n} seats", n).format(n=n)


def deck_label(deck: str) -> str:
    """The set-up's name of a box edition."""
    return {
        "incan-gold": _("Box: 15 treasures"),
        "14-treasures": _("Box: 14 treasures"),
    }.get(deck, deck)


DECK_CHOICES: tuple[str, ...] = tuple(EDITIONS)


@dataclass(frozen=True)
class ReviewRow:
    name: str
    colour: Colour
    total: str
    choices: str
    luck: str


@dataclass(frozen=True)
class ReviewView:
    title: str
    explain: str
    headers: tuple[str, str, str, str]
    rows: tuple[ReviewRow, ...]


def review_view(session: Session, bots: Collection[int] = (),
                colours: Sequence[Colour] | None = None) -> ReviewView:
    """The game-over review: per seat its total, and its choices against its luck."""
    result = review(session)
    rows = tuple(
        ReviewRow(
            name=bot_name(s.name) if s.seat in bots else s.name,
            colour=_colour(s.seat, colours),
            total=str(s.total),
            choices=signed(s.choices),
            luck=signed(s.luck),
        )
        for s in result.seats
    )
    return ReviewView(
        title=_("Choices vs luck"),
        explain=_(
            "Choices: what each torch or camp gained over the other choice, at the odds of "
            "the moment. Luck: what the cards gave beyond their average."
        ),
        headers=(_("seat"), _("score"), _("choices"), _("luck")),
        rows=rows,
    )


# --- the odds of the next card ---------------------------------------------------------


def _pair_chances(state: State) -> dict[str, str]:
    """Per hazard kind on the path, the chance that the next card is its pair: "2/13"."""
    o = odds(state)
    if o is None:
        return {}
    return {kind: f"{f.numerator}/{f.denominator}" for kind, f in o.by_hazard}


def odds_text(state: State, *, per_hazard: bool = True) -> str:
    """The odds panel: the chance the next card busts (``per_hazard``: and of each
    hazard kind on the path), and what the deck still holds."""
    o = odds(state)
    if o is None:
        return ""

    def chance(f: Fraction) -> str:
        return _("{fraction} ({percent} %)").format(
            fraction=f"{f.numerator}/{f.denominator}" if f else "0", percent=round(f * 100)
        )

    if o.by_hazard and per_hazard:
        kinds = listed([
            _("{hazard} {fraction}").format(
                hazard=hazard_name(kind), fraction=f"{f.numerator}/{f.denominator}"
            )
            for kind, f in o.by_hazard
        ])
        bust = _("Next card busts: {chance}: {kinds}").format(chance=chance(o.bust), kinds=kinds)
    else:
        bust = _("Next card busts: {chance}").format(chance=chance(o.bust))
    # Each count in a phrase of its own: "1 card and 1 gems" came from one plural for both.
    left = _("{cards} and {gems} left; {treasure}").format(
        cards=ngettext("{n} card", "{n} cards", o.cards_left).format(n=o.cards_left),
        gems=ngettext("{n} gem", "{n} gems", o.gems_left).format(n=o.gems_left),
        treasure=ngettext(
            "{n} seat still in: a treasure gives about {each}",
            "a treasure gives each of the {n} about {each}",
            o.seats_in,
        ).format(n=o.seats_in, each=decimal(float(o.treasure_each))),
    )
    return f"{bust}\n{left}"


# --- the round log ---------------------------------------------------------------------


@dataclass(frozen=True)
class LogPage:
    """A page of the round log: the round it shows, and its lines."""

    heading: str  # "Round 2"
    lines: tuple[str, ...]


def round_log(moves: Sequence[Move], states: Sequence[State]) -> tuple[str, ...]:
    """The game card by card, as Board Game Arena's log: what each card gave,
    who left with what, who busted on which hazard, the artifacts and their values.

    Built from the game's moves with every undo and correction already
    resolved (``Session.moves`` and ``Session.states``), so it follows both.
    """
    lines: list[str] = []
    for heading, said in _log_rounds(moves, states):
        lines += [heading, *said]
    return tuple(lines)


def round_log_pages(
    moves: Sequence[Move], states: Sequence[State], per_page: int
) -> tuple[LogPage, ...]:
    """The round log a page at a time, one round a page (a long round on
    several, each headed by its round), so every page says which round it is;
    the last page is the round on the table. ``per_page``: lines under the
    heading. A long round's pages are counted back from its newest line, so
    the page it opens on is full."""
    pages = []
    for heading, said in _log_rounds(moves, states):
        ends = range(len(said), 0, -per_page) if said else [0]
        pages += [LogPage(heading, tuple(said[max(0, end - per_page) : end]))
                  for end in reversed(ends)]
    return tuple(pages) or (LogPage(_("Round {round}").format(round=states[-1].round), ()),)


def _log_rounds(moves: Sequence[Move], states: Sequence[State]) -> list[tuple[str, list[str]]]:
    """The round log's lines, under each round's heading."""
    rounds: list[tuple[str, list[str]]] = []
    shown_round = 0
    for move, state in zip(moves, states, strict=True):
        if isinstance(move, Start):
            continue
        if state.round != shown_round:
            shown_round = state.round
            rounds.append((_("Round {round}").format(round=state.round), []))
        lines = rounds[-1][1]
        said = last_event(state)
        if isinstance(move, Draw) and CATALOGUE[move.card].is_treasure:
            # The split's sentence does not name its card; the others do.
            said = _("{card}: {what}").format(card=card_name(move.card).capitalize(), what=said)
        if said:
            lines.append(said)
        if isinstance(state.last, Bust) and state.last.losses:
            lines.append(_("Busted: {seats}").format(seats=listed([
                _("{name} (lost {n})").format(name=state.seats[seat].name, n=lost)
                for seat, lost in state.last.losses
            ])))
    return rounds


# --- the in-game menu ----------------------------------------------------------------


def rules_reminder(rules: str) -> str:
    """The rules a table forgets, for the menu: artifacts and leftovers under ``rules``."""
    rule_set = RULE_SETS[rules]
    lines = [_("A second hazard of one kind ends the round: everyone still in the temple "
               "loses the gems in hand.")]
    if not rule_set.artifacts:
        lines.append(_("No artifacts in this game."))
    elif rule_set.printed_artifact_values:
        lines.append(_("Artifacts keep their printed values: 5, 7, 8, 10 and 12. Only a seat "
                       "that leaves alone takes them."))
    else:
        lines.append(_("Artifacts: the first three carried out are worth 5 each, every later "
                       "one 10. Only a seat that leaves alone takes them."))
    if rule_set.pooled:
        lines.append(_("Leftovers: seats that leave together share all the gems left on the "
                       "path; what does not divide stays on the path."))
    else:
        lines.append(_("Leftovers: seats that leave together split each card's gems on its "
                       "own; what does not divide stays on that card."))
    return "\n".join(lines)

