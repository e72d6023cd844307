"""The input events of a game log (docs/game-log.md) and their JSON form."""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass

from companion.cards import DEFAULT_EDITION, EDITIONS, UnknownCard, card
from companion.rules import DEFAULT_RULES, RULE_SETS
from companion.text import is_utf8

TYPE_CHECKING = False  # mypy reads it as true; importing typing costs 3 ms

if TYPE_CHECKING:
    from typing import Any

#: The bot strategies a ``start`` may name (companion/bots.py plays them).
STRATEGIES: tuple[str, ...] = ("cautious", "greedy", "random", "expert")


class BadEvent(ValueError):
    """A log line that is not a well-formed event."""


@dataclass(frozen=True)
class Start:
    """A new game: the seats' names, the rules and the box's edition."""

    seats: tuple[str, ...]
    rules: str = DEFAULT_RULES
    deck: str = DEFAULT_EDITION  # the edition of the table's box
    bots: tuple[tuple[int, str], ...] = ()  # (seat, strategy) of the seats the device plays
    # The bots' randomness for this game, drawn from the OS when it is set up:
    # the game replays alike and the next game differs (None: an older log).
    seed: int | None = None

    def __post_init__(self) -> None:
        # One spelling per name: "Zoë" typed as one letter or as e + a combining
        # diaeresis is one player, in the log, the history and the statistics.
        if not all(unicodedata.is_normalized("NFC", name) for name in self.seats):
            seats = tuple(unicodedata.normalize("NFC", name) for name in self.seats)
            object.__setattr__(self, "seats", seats)

    def bot(self, seat: int) -> str | None:
        """The strategy playing ``seat``, or None for a person."""
        return next((name for s, name in self.bots if s == seat), None)


@dataclass(frozen=True)
class Draw:
    """A card turned onto the path (read by the camera or entered by hand)."""

    card: str


@dataclass(frozen=True)
class Reveal:
    """The choices revealed at once: ``camp`` are the seats that leave."""

    camp: tuple[int, ...]


@dataclass(frozen=True)
class Correct:
    """The card at ``pos`` of the path was misread: it is ``card``."""

    pos: int
    card: str


@dataclass(frozen=True)
class Undo:
    """Take back the last step (a draw, a reveal or a correction)."""


Event = Start | Draw | Reveal | Correct | Undo
Move = Start | Draw | Reveal  # what the engine plays, once undo and correct are resolved


def to_json(event: Event) -> dict[str, Any]:
    match event:
        case Start(seats, rules, deck, bots, seed):
            out: dict[str, Any] = {"event": "start", "seats": list(seats), "rules": rules}
            # Written only when set, so a game without them is stored as before.
            if deck != DEFAULT_EDITION:
                out["deck"] = deck
            if bots:
                out["bots"] = [{"seat": seat, "strategy": name} for seat, name in bots]
            if seed is not None:
                out["seed"] = seed
            return out
        case Draw(c):
            return {"event": "draw", "card": c}
        case Reveal(camp):
            return {"event": "reveal", "camp": list(camp)}
        case Correct(pos, c):
            return {"event": "correct", "pos": pos, "card": c}
        case Undo():
            return {"event": "undo"}


def to_line(event: Event) -> str:
    return json.dumps(to_json(event), ensure_ascii=False)


def _whole(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadEvent(f"{what} must be a whole number, not {json.dumps(value)}")
    return value


def _card_id(value: Any) -> str:
    if not isinstance(value, str):
        raise BadEvent(f"card must be a card id, not {json.dumps(value)}")
    try:
        return card(value).id
    except UnknownCard:
        raise BadEvent(f"{value!r} is not a card of the game") from None


def from_json(obj: Any) -> Event:
    """The event a decoded JSON value stands for; extra keys are ignored."""
    if not isinstance(obj, dict):
        raise BadEvent("an event must be a JSON object")
    kind = obj.get("event")
    if kind == "start":
        seats = obj.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise BadEvent("start needs 'seats', a list of names")
        for i, name in enumerate(seats):
            if not is_utf8(name):
                raise BadEvent(f"seat {i}'s name is not Unicode text (a lone surrogate)")
        rules = obj.get("rules", DEFAULT_RULES)
        if rules not in RULE_SETS:
            raise BadEvent(f"unknown rules {json.dumps(rules)} (one of {', '.join(RULE_SETS)})")
        deck = obj.get("deck", DEFAULT_EDITION)
        if deck not in EDITIONS:
            raise BadEvent(f"unknown deck {json.dumps(deck)} (one of {', '.join(EDITIONS)})")
        seed = obj.get("seed")
        if seed is not None and (_whole(seed, "seed") < 0 or seed >= 1 << 64):
            raise BadEvent(f"seed must be from 0 to 2**64 - 1, not {seed}")
        return Start(tuple(seats), rules, deck, _bots(obj.get("bots", [])), seed)
    if kind == "draw":
        if "card" not in obj:
            raise BadEvent("draw needs 'card'")
        return Draw(_card_id(obj["card"]))
    if kind == "reveal":
        camp = obj.get("camp")
        if not isinstance(camp, list):
            raise BadEvent("reveal needs 'camp', a list of seat indexes")
        return Reveal(tuple(_whole(i, "a seat index") for i in camp))
    if kind == "correct":
        if "pos" not in obj or "card" not in obj:
            raise BadEvent("correct needs 'pos' and 'card'")
        return Correct(_whole(obj["pos"], "pos"), _card_id(obj["card"]))
    if kind == "undo":
        return Undo()
    if kind is None:
        raise BadEvent("the object has no 'event'")
    raise BadEvent(f"unknown event {json.dumps(kind)}")


def _bots(value: Any) -> tuple[tuple[int, str], ...]:
    """The ``bots`` of a start: a list of ``{"seat": n, "strategy": name}``.

    Only the form is checked here; whether the seats exist is the session's.
    """
    shape = 'start\'s \'bots\' must be a list of {"seat": n, "strategy": name}'
    if not isinstance(value, list):
        raise BadEvent(shape)
    bots = []
    for entry in value:
        if not isinstance(entry, dict) or "seat" not in entry or "strategy" not in entry:
            raise BadEvent(shape)
        seat = _whole(entry["seat"], "a bot's seat")
        name = entry["strategy"]
        if name not in STRATEGIES:
            raise BadEvent(
                f"unknown strategy {json.dumps(name)} (one of {', '.join(STRATEGIES)})"
            )
        bots.append((seat, name))
    return tuple(bots)


def from_line(line: str) -> Event:
    """The event on one line of a log.

    A log is split into lines at ``\\n`` only: U+2028, U+0085 and the like
    may stand inside a name, and ``str.splitlines()`` would cut the line there.
    """
    if not isinstance(line, str):
        raise BadEvent("the line is not text")
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        raise BadEvent(f"bad JSON: {e.msg}") from None
    except RecursionError as e:
        raise BadEvent(f"bad JSON: {e}") from None
    except ValueError as e:  # an integer of more than 4300 digits
        if "integer string conversion" in str(e):
            raise BadEvent("bad JSON: a number with more than 4300 digits") from None
        raise BadEvent(f"bad JSON: {e}") from None
    return from_json(obj)
