"""The rules of Incan Gold / Diamant as pure functions over a frozen state.

A game is ``new_game`` followed by ``draw`` and ``reveal``; each returns a new
:class:`State` and never changes the old one, so undo is just "use an
earlier state". The camera supplies the cards: the engine only checks that a
card is one that can come now.

>>> s = new_game(["Ana", "Bo", "Cy"])
>>> s = draw(s, "T11A")
>>> [seat.hand for seat in s.seats], s.path[0].left
([3, 3, 3], 2)
>>> s = reveal(s, [0])
>>> s.seats[0].banked, s.path[0].left
(5, 0)
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from companion.cards import (
    ARTIFACTS,
    CATALOGUE,
    DEFAULT_EDITION,
    HAZARDS,
    ROUNDS,
    Card,
    UnknownEdition,
    card,
    edition,
)
from companion.rules import DEFAULT_RULES, RuleSet, rule_set

TYPE_CHECKING = False  # mypy reads it as true; importing typing costs 3 ms

if TYPE_CHECKING:
    from typing import Any

MIN_SEATS = 3
MAX_SEATS = 8
DEFAULT_SEATS = 4  # what set-up offers first


# --- errors -----------------------------------------------------------------


class RuleError(ValueError):
    """An input the rules do not allow; the state is left as it was."""


class BadStart(RuleError):
    """Seats or rules of a new game are not acceptable."""


class Unplayable(enum.Enum):
    """Why a card cannot be the next draw (a reason code; the UI words it)."""

    ON_PATH = "on_path"  # already turned this round
    TAKEN_OUT = "taken_out"  # a hazard removed after a bust
    NO_ARTIFACTS = "no_artifacts"  # the rule set has none
    LOST = "lost"  # an artifact left on the path when its round ended
    CARRIED = "carried"  # an artifact a seat carried out
    LATER_ROUND = "later_round"  # an artifact shuffled in at a later round
    NOT_IN_BOX = "not_in_box"  # a treasure the table's edition of the box does not have
    NOT_NOW = "not_now"  # anything else (e.g. the game is over)


class CardNotInDeck(RuleError):
    """A card that cannot be drawn now (already on the path, removed, lost, ...)."""

    def __init__(self, card_id: str, why: Unplayable, message: str) -> None:
        super().__init__(message)
        self.card = card_id
        self.why = why


class ChoiceDue(RuleError):
    """A card was drawn while seats still have to choose torch or camp."""


class NoChoiceDue(RuleError):
    """A reveal came when no choice was due."""


class BadSeat(RuleError):
    """A reveal named a seat that is out of range or not in the temple."""


class GameOver(RuleError):
    """Nothing can be played after the fifth round."""


# --- value types --------------------------------------------------------------


class Status(enum.Enum):
    IN = "in"
    CAMP = "camp"
    BUSTED = "busted"


class Phase(enum.Enum):
    DRAW = "draw"
    CHOOSE = "choose"
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"


@dataclass(frozen=True)
class Carried:
    """An artifact a seat carried out, with what it is worth to that seat."""

    card: str
    value: int


@dataclass(frozen=True)
class Seat:
    """A seat at the table: its player, in the temple or in its tent, the gems in
    hand this round, what it has banked and the artifacts it carried out."""

    name: str
    status: Status = Status.IN
    hand: int = 0
    banked: int = 0
    artifacts: tuple[Carried, ...] = ()

    @property
    def score(self) -> int:
        return self.banked + sum(a.value for a in self.artifacts)

    @property
    def in_temple(self) -> bool:
        return self.status is Status.IN


@dataclass(frozen=True)
class PathCard:
    """A card on the path, the gems left on it, and who carried it out (an artifact)."""

    card: str
    left: int = 0
    taken_by: int | None = None  # the seat that carried this artifact out

    @property
    def kind(self) -> Card:
        return CATALOGUE[self.card]


# What the latest draw or reveal did, for the screen and the log reader.


@dataclass(frozen=True)
class TreasureSplit:
    """A treasure shared among the seats still in; the rest stays on the card."""

    card: str
    value: int
    seats: tuple[int, ...]
    each: int
    left: int


@dataclass(frozen=True)
class ArtifactOnPath:
    """An artifact turned: it lies on the path until a seat leaves alone."""

    card: str


@dataclass(frozen=True)
class FirstHazard:
    """The first hazard of its kind on the path: no harm yet."""

    card: str


@dataclass(frozen=True)
class Bust:
    """The second hazard of a kind: the seats still in lose their hands."""

    card: str
    losses: tuple[tuple[int, int], ...]  # (seat, gems lost)
    removed: str  # the card to take out of the game


@dataclass(frozen=True)
class Revealed:
    """A reveal: who camped, who went on, and what the leavers took."""

    camp: tuple[int, ...]
    torch: tuple[int, ...]
    share: int  # what each leaver took from the path
    left: int  # what stays on the path
    banked: tuple[tuple[int, int], ...]  # (seat, gems banked now: hand + share)
    artifacts: tuple[Carried, ...]  # taken by a lone leaver


Outcome = TreasureSplit | ArtifactOnPath | FirstHazard | Bust | Revealed


@dataclass(frozen=True)
class RoundEnd:
    """A round's end: what was lost on the path and what goes back to the supply."""

    round: int
    lost: tuple[str, ...]  # artifacts left on the path, gone for good
    returned: int  # gems on the path that go back to the supply


@dataclass(frozen=True)
class State:
    """The whole game at one moment: every seat, the path, the round and what is due."""

    rules: RuleSet
    seats: tuple[Seat, ...]
    round: int = 1
    phase: Phase = Phase.DRAW
    path: tuple[PathCard, ...] = ()
    removed: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()
    carried: tuple[str, ...] = ()  # artifacts carried out, in order, whole game
    returned: int = 0  # gems back in the supply: busted hands, cleared paths
    last: Outcome | None = None
    round_end: RoundEnd | None = None
    history: tuple[tuple[int, ...], ...] = field(default=())  # banked after each ended round
    # Scores (banked + artifacts) after each ended round: what the final chart draws.
    score_history: tuple[tuple[int, ...], ...] = field(default=())
    # After a pooled split the remainder belongs to the path, not to a card: it
    # is kept on the last card (docs/state-json.md), and this says (card, gems).
    pooled: tuple[int, int] | None = None
    # The edition of the table's box: which treasure cards are in its deck.
    edition: str = DEFAULT_EDITION

    # -- what the app asks -------------------------------------------------

    @property
    def deck(self) -> tuple[str, ...]:
        """Cards still to come this round, sorted."""
        return tuple(sorted(_in_game(self, self.round) - {p.card for p in self.path}))

    @property
    def due(self) -> tuple[int, ...]:
        """Seats whose torch/camp choice is due now."""
        if self.phase is not Phase.CHOOSE:
            return ()
        return tuple(i for i, s in enumerate(self.seats) if s.in_temple)

    @property
    def in_temple(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.seats) if s.in_temple)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(s.score for s in self.seats)

    @property
    def winners(self) -> tuple[int, ...]:
        """Every seat tied for the top after the artifact tie-break."""
        best = max((s.score, len(s.artifacts)) for s in self.seats)
        return tuple(i for i, s in enumerate(self.seats) if (s.score, len(s.artifacts)) == best)

    @property
    def start_seat(self) -> int:
        """The seat that turns the cards this round (passes to the left each round)."""
        return self.start_seat_of(self.round)

    def start_seat_of(self, round_: int) -> int:
        """The seat that turns the cards of round ``round_`` (1 to 5)."""
        return (round_ - 1) % len(self.seats)

    @property
    def to_remove(self) -> str | None:
        """The physical card to take out of the game now, if any (none after the
        last round: there is no next round's deck to take it out of)."""
        if isinstance(self.last, Bust) and self.phase is Phase.ROUND_OVER:
            return self.last.removed
        return None

    @property
    def next_artifact(self) -> str | None:
        """The artifact to shuffle in when the next round starts."""
        if not self.rules.artifacts or self.round >= ROUNDS:
            return None
        return f"A{self.round + 1}"

    def possible_draws(self) -> tuple[str, ...]:
        """Cards the next draw may be (a scanned card is checked against these)."""
        if self.phase is Phase.DRAW:
            return self.deck
        if self.phase is Phase.ROUND_OVER:
            return tuple(sorted(_in_game(self, self.round + 1)))
        return ()

    def hazards_on_path(self) -> tuple[str, ...]:
        return tuple(p.card for p in self.path if p.kind.is_hazard)

    @property
    def left_on_path(self) -> int:
        """Gems lying on the path now."""
        return sum(p.left for p in self.path)

    def artifact_worth(self) -> dict[str, int]:
        """What each artifact on the path is worth if one seat leaves alone now.

        >>> s = draw(new_game(["Ana", "Bo", "Cy"], "incan-gold-2020"), "A1")
        >>> s.artifact_worth()
        {'A1': 5}
        >>> reveal(s, [0]).seats[0].score
        5
        """
        if self.phase is not Phase.CHOOSE:
            return {}
        # What carrying out would give, on a copy of the path.
        return {a.card: a.value for a in _carry_out(self, list(self.path), 0)}


def _in_game(state: State, rnd: int) -> set[str]:
    """Every card in the quest deck for round ``rnd`` before any is turned."""
    cards = set(edition(state.edition))
    cards |= {c.id for c in HAZARDS if c.id not in state.removed}
    if state.rules.artifacts:
        gone = set(state.lost) | set(state.carried)
        cards |= {c.id for c in ARTIFACTS if c.order <= rnd and c.id not in gone}
    return cards


# --- the moves -----------------------------------------------------------------


def new_game(
    seats: Sequence[str], rules: str | RuleSet = DEFAULT_RULES, deck: str = DEFAULT_EDITION
) -> State:
    ruleset = rules if isinstance(rules, RuleSet) else _rules(rules)
    try:
        edition(deck)
    except UnknownEdition as e:
        raise BadStart(str(e)) from None
    if not isinstance(seats, (list, tuple)):
        raise BadStart("seats must be a list of names")
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise BadStart(f"{len(seats)} seats: a game has {MIN_SEATS} to {MAX_SEATS}")
    for i, name in enumerate(seats):
        if not isinstance(name, str) or not any(map(_visible, name)):
            raise BadStart(f"seat {i} has no name")
    seats = [unicodedata.normalize("NFC", name) for name in seats]
    if len(set(seats)) != len(seats):
        dup = next(n for n in seats if seats.count(n) > 1)
        raise BadStart(f"two seats are named {dup!r}")
    return State(rules=ruleset, seats=tuple(Seat(name) for name in seats), edition=deck)


def _visible(ch: str) -> bool:
    """A letter, digit, punctuation or symbol: what a name must have one of (a
    space or a zero-width space alone names nobody)."""
    return unicodedata.category(ch)[0] in "LNPS"


def _rules(name: str) -> RuleSet:
    try:
        return rule_set(name)
    except ValueError as e:
        raise BadStart(str(e)) from None


def draw(state: State, card_id: str) -> State:
    """The next quest card turned onto the path."""
    if state.phase is Phase.GAME_OVER:
        raise GameOver("the game is over")
    if state.phase is Phase.CHOOSE:
        raise ChoiceDue("seats still have to choose torch or camp")
    found = card(card_id)
    if state.phase is Phase.ROUND_OVER:
        state = _next_round(state)
    if found.id not in state.deck:
        why = _unplayable(state, found)
        raise CardNotInDeck(
            found.id, why, _UNPLAYABLE[why].format(card=found.id, order=found.order, state=state)
        )

    in_temple = state.in_temple
    if found.is_treasure:
        each, left = divmod(found.value, len(in_temple))
        seats = tuple(
            replace(s, hand=s.hand + each) if s.in_temple else s for s in state.seats
        )
        return replace(
            state,
            seats=seats,
            path=(*state.path, PathCard(found.id, left)),
            phase=Phase.CHOOSE,
            last=TreasureSplit(found.id, found.value, in_temple, each, left),
        )
    path = (*state.path, PathCard(found.id))
    if found.is_artifact:
        return replace(state, path=path, phase=Phase.CHOOSE, last=ArtifactOnPath(found.id))
    if found.hazard not in {CATALOGUE[p.card].hazard for p in state.path}:
        return replace(state, path=path, phase=Phase.CHOOSE, last=FirstHazard(found.id))

    losses = tuple((i, state.seats[i].hand) for i in in_temple)
    seats = tuple(
        replace(s, status=Status.BUSTED, hand=0) if s.in_temple else s for s in state.seats
    )
    busted = replace(
        state,
        seats=seats,
        path=path,
        removed=(*state.removed, found.id),
        returned=state.returned + sum(lost for _, lost in losses),
        last=Bust(found.id, losses, found.id),
    )
    return _end_round(busted)


def why_unplayable(state: State, card_id: str) -> Unplayable | None:
    """Why ``card_id`` cannot be the next draw, or None if it can.

    >>> s = draw(new_game(["Ana", "Bo", "Cy"]), "T11A")
    >>> why_unplayable(s, "T11A"), why_unplayable(s, "A5")
    (<Unplayable.ON_PATH: 'on_path'>, <Unplayable.LATER_ROUND: 'later_round'>)
    """
    found = card(card_id)
    if state.phase is Phase.GAME_OVER:
        return Unplayable.NOT_NOW
    if state.phase is Phase.ROUND_OVER:
        state = _next_round(state)
    if found.id in state.deck:
        return None
    return _unplayable(state, found)


def _unplayable(state: State, found: Card) -> Unplayable:
    cid = found.id
    if any(p.card == cid for p in state.path):
        return Unplayable.ON_PATH
    if cid in state.removed:
        return Unplayable.TAKEN_OUT
    if found.is_artifact:
        if not state.rules.artifacts:
            return Unplayable.NO_ARTIFACTS
        if cid in state.lost:
            return Unplayable.LOST
        if cid in state.carried:
            return Unplayable.CARRIED
        return Unplayable.LATER_ROUND
    if found.is_treasure and cid not in edition(state.edition):
        return Unplayable.NOT_IN_BOX
    return Unplayable.NOT_NOW


# The log reader's words for each reason (the command line's "line N: ..."):
# the touchscreen words the same reasons in the table's language instead.
_UNPLAYABLE = {
    Unplayable.ON_PATH: "{card} is already on the path",
    Unplayable.TAKEN_OUT: "{card} was taken out of the game",
    Unplayable.NO_ARTIFACTS: "{state.rules.name} is played without artifacts",
    Unplayable.LOST: "{card} was lost in an earlier round",
    Unplayable.CARRIED: "{card} was carried out of the temple",
    Unplayable.LATER_ROUND: "{card} is shuffled in at round {order}, this is round {state.round}",
    Unplayable.NOT_IN_BOX: "{card} is not in the {state.edition} deck",
    Unplayable.NOT_NOW: "{card} cannot come now",
}


def reveal(state: State, camp: Iterable[int]) -> State:
    """The simultaneous torch/camp reveal: ``camp`` are the seats that leave."""
    if state.phase is not Phase.CHOOSE:
        raise NoChoiceDue(f"no choice is due now (phase {state.phase.value})")
    leavers = _check_leavers(state, camp)
    torch = tuple(i for i in state.in_temple if i not in leavers)
    path = list(state.path)
    share, left = _split_leftovers(state.rules, path, len(leavers))

    carried: tuple[Carried, ...] = ()
    if len(leavers) == 1:
        carried = _carry_out(state, path, leavers[0])
    seats = list(state.seats)
    banked = []
    for i in leavers:
        gain = seats[i].hand + share
        banked.append((i, gain))
        seats[i] = replace(
            seats[i],
            status=Status.CAMP,
            hand=0,
            banked=seats[i].banked + gain,
            artifacts=seats[i].artifacts + carried,
        )
    after = replace(
        state,
        seats=tuple(seats),
        path=tuple(path),
        carried=state.carried + tuple(a.card for a in carried),
        phase=Phase.DRAW,
        # A pooled split leaves one remainder (or none) in place of all before it.
        pooled=(
            ((len(path) - 1, left) if left else None)
            if state.rules.pooled and leavers
            else state.pooled
        ),
        last=Revealed(tuple(leavers), torch, share, left, tuple(banked), carried),
    )
    if not torch:
        return _end_round(after)
    return after


def _check_leavers(state: State, camp: Iterable[int]) -> tuple[int, ...]:
    if isinstance(camp, (str, bytes)) or not isinstance(camp, Iterable):
        raise BadSeat("camp must be a list of seat indexes")
    leavers = list(camp)
    for i in leavers:
        if not isinstance(i, int) or isinstance(i, bool):
            raise BadSeat(f"seat index {i!r} is not a whole number")
        if not 0 <= i < len(state.seats):
            raise BadSeat(f"seat {i} is out of range (seats 0 to {len(state.seats) - 1})")
        if not state.seats[i].in_temple:
            raise BadSeat(f"seat {i} ({state.seats[i].name}) is not in the temple")
    if len(set(leavers)) != len(leavers):
        raise BadSeat("a seat is named twice in camp")
    return tuple(sorted(leavers))


def _split_leftovers(rules: RuleSet, path: list[PathCard], leavers: int) -> tuple[int, int]:
    """Share the path's leftovers among ``leavers``; returns (each, staying). Mutates path."""
    if leavers == 0:
        return 0, sum(p.left for p in path)
    if rules.pooled:
        each, rest = divmod(sum(p.left for p in path), leavers)
        # The remainder stays on the path; which card holds it does not matter,
        # so it is shown on the last one (docs/state-json.md).
        for i, p in enumerate(path):
            path[i] = replace(p, left=rest if i == len(path) - 1 else 0)
        return each, rest
    each = 0
    for i, p in enumerate(path):
        got, rest = divmod(p.left, leavers)
        each += got
        path[i] = replace(p, left=rest)
    return each, sum(p.left for p in path)


def _carry_out(state: State, path: list[PathCard], seat: int) -> tuple[Carried, ...]:
    """A lone leaver takes every artifact still on the path. Mutates path."""
    carried: list[Carried] = []
    for i, p in enumerate(path):
        c = CATALOGUE[p.card]
        if c.is_artifact and p.taken_by is None:
            value = state.rules.artifact_value(c.value, len(state.carried) + len(carried))
            carried.append(Carried(c.id, value))
            path[i] = replace(p, taken_by=seat)
    return tuple(carried)


def _end_round(state: State) -> State:
    lost = tuple(p.card for p in state.path if p.kind.is_artifact and p.taken_by is None)
    ended = replace(
        state,
        phase=Phase.GAME_OVER if state.round >= ROUNDS else Phase.ROUND_OVER,
        lost=state.lost + lost,
        round_end=RoundEnd(state.round, lost, state.left_on_path),
        history=(*state.history, tuple(s.banked for s in state.seats)),
        score_history=(*state.score_history, tuple(s.score for s in state.seats)),
    )
    return ended


def _next_round(state: State) -> State:
    return replace(
        state,
        round=state.round + 1,
        phase=Phase.DRAW,
        seats=tuple(replace(s, status=Status.IN, hand=0) for s in state.seats),
        returned=state.returned + state.left_on_path,
        path=(),
        last=None,
        round_end=None,
        pooled=None,
    )


# --- state as JSON (docs/state-json.md) -----------------------------------------------


def to_json(state: State) -> dict[str, Any]:
    out: dict[str, Any] = {
        "rules": state.rules.name,
        # Only a box other than the default says which: older output stays as it was.
        **({"edition": state.edition} if state.edition != DEFAULT_EDITION else {}),
        "round": state.round,
        "phase": state.phase.value,
        "seats": [
            {
                "name": s.name,
                "status": s.status.value,
                "hand": s.hand,
                "banked": s.banked,
                "artifacts": [a.value for a in s.artifacts],
            }
            for s in state.seats
        ],
        "path": [{"card": p.card, "left": p.left} for p in state.path],
        "deck": list(state.deck),
        "removed": list(state.removed),
        "lost": list(state.lost),
        "scores": list(state.scores),
    }
    if state.phase is Phase.GAME_OVER:
        out["winners"] = list(state.winners)
    out["due"] = list(state.due)
    out["remove"] = state.to_remove
    return out
