"""The table screen: the path, the seats, what to do now, the countdown.

State in, frozen view model out; no Kivy.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from companion.cards import (
    ARTIFACTS,
    CATALOGUE,
    HAZARDS,
    ROUNDS,
    edition,
)
from companion.cards import LONGEST_PATH as LONGEST_PATH  # the package's name for it
from companion.engine import Bust, Phase, Revealed, State, TreasureSplit
from companion.notices import CameraStatus, CardHeld, Corrected, Reason
from ui.kivyfree.i18n import _, ngettext
from ui.kivyfree.notice_words import camera_text, notice_text
from ui.kivyfree.presenters.cards import CardFace, card_face
from ui.kivyfree.presenters.common import (
    HIDDEN,
    Colour,
    artifacts_text,
    clipped_name,
    pieces_text,
    rules_label,
    seat_colour,
    take_out_line,
    tents_hidden,
)
from ui.kivyfree.presenters.seats import bot_name
from ui.kivyfree.words import (
    card_name,
    hazard_name,
    last_event,
    listed,
    names,
    status_name,
)


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
    # With the odds on, while choices are due: the choice window can be opened.
    choice_odds: bool = False
    status_short: str = ""  # the status without the camera's part, when both do not fit
    path_room: int = LONGEST_PATH  # the slots the path keeps: longest_path()


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
        if short:
            return _("Round {round} is over. Turn the first card of round {next}.").format(
                round=state.round, next=state.round + 1
            )
        # The start seat passes to the left: said as in round 1, by name.
        starts = clipped_name(state.seats[state.start_seat_of(state.round + 1)].name)
        return _("Round {round} is over. {name} turns the first card of round {next}.").format(
            round=state.round, name=starts, next=state.round + 1
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
        return _("{name} turns the first card.").format(
            name=clipped_name(state.seats[state.start_seat].name))
    return _("Turn the next card.")


def countdown_text(left: float | None) -> str:
    """The countdown as the table sees it: whole seconds, "" when it does not run."""
    return "" if left is None else str(math.ceil(left))


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
    hide = tents_hidden(state, hidden_tents)
    hazards_seen: set[str] = set()
    bust = state.last if isinstance(state.last, Bust) else None
    bust_kind = CATALOGUE[bust.card].hazard if bust is not None else None
    worth = state.artifact_worth()
    # The odds (their rollouts' module too) load when the table first shows them.
    from ui.kivyfree.presenters.odds import odds_text, pair_chances

    chances = pair_chances(state) if show_odds else {}
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
            note = _("{name} took it").format(name=clipped_name(state.seats[p.taken_by].name))
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
                taker=(seat_colour(p.taken_by, colours)
                       if taken and p.taken_by is not None else None),
            )
        )
    seats = []
    for i, s in enumerate(state.seats):
        is_due = i in due
        seats.append(
            SeatView(
                index=i,
                name=bot_name(s.name) if i in bots else clipped_name(s.name),
                colour=seat_colour(i, colours),
                status=status_name(s.status),
                status_key=s.status.value,
                hand=str(s.hand),
                banked=HIDDEN if hide else str(s.banked),
                artifacts=artifacts_text([a.value for a in s.artifacts]),
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
    # While the round goes on: the next leavers share it, between the cards too.
    if state.pooled and state.phase in (Phase.DRAW, Phase.CHOOSE):
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
        choice_odds=show_odds and state.phase is Phase.CHOOSE and bool(state.due),
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
