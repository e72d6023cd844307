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
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from companion.cards import CATALOGUE, ROUNDS
from companion.engine import MAX_SEATS, MIN_SEATS, Bust, Phase, Revealed, State, TreasureSplit
from companion.notices import CameraStatus, Reason
from companion.rules import RULE_SETS
from ui.i18n import _, ngettext
from ui.words import (
    camera_text,
    card_name,
    hazard_name,
    last_event,
    names,
    notice_text,
    phase_name,
    status_name,
)

__all__ = [
    "HIDDEN",
    "CardFace",
    "ChartView",
    "FinalSeat",
    "GameOverView",
    "PathCardView",
    "PickerView",
    "RoundEndSeat",
    "RoundEndView",
    "SeatView",
    "TableView",
    "card_face",
    "chart_view",
    "game_over_view",
    "gem_pieces",
    "picker_view",
    "pieces_text",
    "round_end_view",
    "rules_label",
    "table_view",
]

HIDDEN = "•••"  # what a hidden tent shows instead of its total

Colour = tuple[float, float, float, float]

# High contrast on a dark table background; text colour is chosen per face.
TREASURE_BG: Colour = (0.96, 0.76, 0.18, 1)
HAZARD_BG: Colour = (0.78, 0.16, 0.14, 1)
ARTIFACT_BG: Colour = (0.20, 0.55, 0.90, 1)
DARK_TEXT: Colour = (0.08, 0.06, 0.02, 1)
LIGHT_TEXT: Colour = (1, 1, 1, 1)
SEAT_COLOURS: tuple[Colour, ...] = (
    (0.95, 0.35, 0.30, 1),
    (0.30, 0.75, 0.95, 1),
    (0.55, 0.85, 0.35, 1),
    (0.98, 0.80, 0.25, 1),
    (0.80, 0.50, 0.95, 1),
    (0.98, 0.55, 0.15, 1),
    (0.35, 0.90, 0.80, 1),
    (0.95, 0.55, 0.75, 1),
)


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


@dataclass(frozen=True)
class PathCardView:
    pos: int
    face: CardFace
    left: str  # "2 left" or ""
    note: str  # "Ana took it", "second!" or ""
    faded: bool  # an artifact already carried out


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


@dataclass(frozen=True)
class TableView:
    heading: str  # "Round 2 of 5"
    rules: str  # "Incan Gold"
    prompt: str  # what the table does now
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
) -> str:
    """The one line telling the table what to do now."""
    if state.phase is Phase.GAME_OVER:
        return _("The game is over.")
    if state.phase is Phase.ROUND_OVER:
        return _("Round {round} is over. Turn the first card of round {next}.").format(
            round=state.round, next=state.round + 1
        )
    if state.phase is Phase.CHOOSE:
        if countdown is not None:
            return _("Everyone has chosen. Reveal in {n}…").format(n=math.ceil(countdown))
        who = names(state, sorted(waiting))
        return _("Torch or camp? Waiting for {names}.").format(names=who) if who else ""
    if not state.path:
        return _("{name} turns the first card.").format(name=state.seats[state.start_seat].name)
    return _("Turn the next card.")


def table_view(
    state: State,
    *,
    hidden_tents: bool = False,
    due: Collection[int] = (),
    chosen: Collection[int] = (),
    countdown: float | None = None,
    held: str | None = None,
    camera: CameraStatus | None = None,
    notice: Reason | None = None,
    notice_level: str = "info",
    can_undo: bool = False,
) -> TableView:
    """The main screen. ``due``/``chosen`` come from the ChoiceCollector: who, never what."""
    hide = _hidden(state, hidden_tents)
    hazards_seen: set[str] = set()
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
        left = ngettext("{n} left", "{n} left", p.left).format(n=p.left) if p.left else ""
        taken = c.is_artifact and p.taken_by is not None
        path.append(PathCardView(pos, card_face(p.card), left, note, taken))
    seats = []
    for i, s in enumerate(state.seats):
        is_due = i in due
        seats.append(
            SeatView(
                index=i,
                name=s.name,
                colour=SEAT_COLOURS[i % len(SEAT_COLOURS)],
                status=status_name(s.status),
                status_key=s.status.value,
                hand=str(s.hand),
                banked=HIDDEN if hide else str(s.banked),
                artifacts=_artifacts([a.value for a in s.artifacts]),
                choice=(_("chosen") if i in chosen else _("choosing…")) if is_due else "",
                chosen=is_due and i in chosen,
            )
        )
    hazards = state.hazards_on_path()
    hazard_line = (
        _("Hazards: {list}").format(
            list=", ".join(hazard_name(CATALOGUE[h].hazard or "") for h in hazards)
        )
        if hazards
        else ""
    )
    remove = ""
    if state.to_remove:
        remove = _("Take one {hazard} card ({card}) out of the game.").format(
            hazard=card_name(state.to_remove), card=state.to_remove
        )
    status_parts = [camera_text(camera)] if camera is not None else []
    if held:
        status_parts.append(
            _("Waiting for the reveal: {card}").format(card=card_name(held))
        )
    if notice is not None:
        status_parts.append(notice_text(notice))
    waiting = [i for i in due if i not in chosen]
    return TableView(
        heading=_("Round {round} of {rounds}").format(round=state.round, rounds=ROUNDS),
        rules=rules_label(state.rules.name),
        prompt=prompt(state, waiting=waiting, countdown=countdown, held=held),
        event=last_event(state),
        pieces=payout_pieces(state),
        hazards=hazard_line,
        remove=remove,
        countdown=str(math.ceil(countdown)) if countdown is not None else "",
        status=" · ".join(status_parts),
        status_level=notice_level if notice is not None else "info",
        path=tuple(path),
        seats=tuple(seats),
        can_undo=can_undo,
        can_enter=state.phase in (Phase.DRAW, Phase.ROUND_OVER, Phase.CHOOSE),
    )


# --- the card picker ------------------------------------------------------------------


@dataclass(frozen=True)
class PickerView:
    title: str
    faces: tuple[CardFace, ...]
    empty: str  # shown when there is nothing to pick


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
    return PickerView(
        title=title,
        faces=tuple(card_face(c) for c in _distinct(options)),
        empty=_("No other card is possible here.") if not options else "",
    )


# --- round end and game end --------------------------------------------------------------


@dataclass(frozen=True)
class RoundEndSeat:
    name: str
    colour: Colour
    result: str  # "kept 12", "lost 7", "kept 5 and artifact 5"
    banked: str


@dataclass(frozen=True)
class RoundEndView:
    heading: str
    how: str  # why the round ended
    seats: tuple[RoundEndSeat, ...]
    remove: str  # the card to take out of the game, or ""
    lost: str  # artifacts gone for good, or ""
    next_artifact: str  # which artifact to shuffle in next, or ""
    button: str


def round_end_view(state: State, *, hidden_tents: bool = False) -> RoundEndView:
    """What each seat kept in the round that just ended, and what to do with the cards."""
    end = state.round_end
    rnd = end.round if end else state.round
    hide = _hidden(state, hidden_tents)
    after = state.history[-1] if state.history else tuple(0 for _s in state.seats)
    before = state.history[-2] if len(state.history) > 1 else tuple(0 for _s in state.seats)
    losses = dict(state.last.losses) if isinstance(state.last, Bust) else {}
    # Artifacts carried out this round: those on the ended path that a seat took.
    arts: dict[int, list[int]] = {}
    for p in state.path:
        if p.taken_by is not None:
            seat = state.seats[p.taken_by]
            value = next((a.value for a in seat.artifacts if a.card == p.card), 0)
            arts.setdefault(p.taken_by, []).append(value)
    seats = []
    for i, s in enumerate(state.seats):
        kept = after[i] - before[i]
        if i in losses:
            result = _("busted, lost {n}").format(n=losses[i])
        else:
            result = ngettext("kept {n} gem", "kept {n} gems", kept).format(n=kept)
        if i in arts:
            result += ngettext(
                " and the artifact worth {values}", " and the artifacts worth {values}",
                len(arts[i]),
            ).format(values=_artifacts(arts[i]))
        seats.append(
            RoundEndSeat(
                s.name,
                SEAT_COLOURS[i % len(SEAT_COLOURS)],
                result,
                HIDDEN if hide else str(s.banked),
            )
        )
    bust = isinstance(state.last, Bust)
    how = last_event(state) if bust else _("Everyone has left the temple.")
    remove = ""
    if state.to_remove:
        remove = _("Take one {hazard} card ({card}) out of the game.").format(
            hazard=card_name(state.to_remove), card=state.to_remove
        )
    lost = ""
    if end and end.lost:
        lost = ngettext(
            "Left on the path and gone for good: {cards}.",
            "Left on the path and gone for good: {cards}.",
            len(end.lost),
        ).format(cards=", ".join(card_name(c) for c in end.lost))
    nxt = ""
    if state.phase is Phase.ROUND_OVER and state.next_artifact:
        nxt = _("Shuffle {card} ({id}) into the deck for round {round}.").format(
            card=card_name(state.next_artifact), id=state.next_artifact, round=rnd + 1
        )
    return RoundEndView(
        heading=_("Round {round} is over").format(round=rnd),
        how=how,
        seats=tuple(seats),
        remove=remove,
        lost=lost,
        next_artifact=nxt,
        button=_("Show the table"),
    )


@dataclass(frozen=True)
class FinalSeat:
    name: str
    colour: Colour
    banked: str
    artifacts: str
    score: str
    winner: bool


@dataclass(frozen=True)
class ChartView:
    """Banked total of each seat after each round, scaled to ``top``."""

    rounds: int
    top: int
    series: tuple[tuple[int, ...], ...]  # per seat: banked after round 1, 2, ...
    colours: tuple[Colour, ...]
    labels: tuple[str, ...]


@dataclass(frozen=True)
class GameOverView:
    heading: str
    winners: str
    tie_break: str  # how the artifacts decided, or ""
    seats: tuple[FinalSeat, ...]
    chart: ChartView


def chart_view(state: State) -> ChartView:
    series = tuple(
        tuple(row[i] for row in state.history) for i in range(len(state.seats))
    )
    top = max([v for s in series for v in s] + [1])
    # A round number as the axis' top: 10, 20, 50, 100 ...
    step = 10 if top <= 50 else 20 if top <= 100 else 50
    return ChartView(
        rounds=5,
        top=int(math.ceil(top / step) * step),
        series=series,
        colours=tuple(SEAT_COLOURS[i % len(SEAT_COLOURS)] for i in range(len(state.seats))),
        labels=tuple(s.name for s in state.seats),
    )


def game_over_view(state: State) -> GameOverView:
    """Final scores, the winner(s) after the artifact tie-break, and the chart."""
    winners = state.winners if state.phase is Phase.GAME_OVER else ()
    top = max(state.scores)
    tied_on_score = [i for i, s in enumerate(state.scores) if s == top]
    tie_break = ""
    if len(tied_on_score) > 1:
        if len(winners) == 1:
            tie_break = _("Tied on {score}; more artifacts decide.").format(score=top)
        else:
            tie_break = _("Tied on {score} and on artifacts: a shared win.").format(score=top)
    # Two msgids, not ngettext: "Winner: {names}" is describe.py's msgid too,
    # and "Winners" is only ever said of two or more seats.
    one = len(winners) == 1
    win_text = (_("Winner: {names}") if one else _("Winners: {names}")).format(
        names=names(state, list(winners))
    )
    seats = tuple(
        FinalSeat(
            s.name,
            SEAT_COLOURS[i % len(SEAT_COLOURS)],
            str(s.banked),
            _artifacts([a.value for a in s.artifacts]),
            str(s.score),
            i in winners,
        )
        for i, s in enumerate(state.seats)
    )
    return GameOverView(
        heading=phase_name(Phase.GAME_OVER).capitalize(),
        winners=win_text,
        tie_break=tie_break,
        seats=seats,
        chart=chart_view(state),
    )


# --- set-up -------------------------------------------------------------------------


RULE_CHOICES: tuple[str, ...] = tuple(RULE_SETS)


def setup_problem(names_given: Sequence[str]) -> str:
    """Why these seat names cannot start a game, or "" if they can."""
    cleaned = [n.strip() for n in names_given]
    if not 3 <= len(cleaned) <= 8:
        return _("A game has {least} to {most} seats.").format(least=MIN_SEATS, most=MAX_SEATS)
    for i, n in enumerate(cleaned):
        if not n:
            return _("Seat {n} has no name.").format(n=i + 1)
    for n in cleaned:
        if cleaned.count(n) > 1:
            return _("Two seats are called {name}.").format(name=n)
    return ""


def resume_text(state: State) -> str:
    """A stored unfinished game as the setup screen offers it."""
    return _("Resume: round {round}, {names}").format(
        round=state.round, names=", ".join(s.name for s in state.seats)
    )

