"""``incan-companion review``: every seat's decisions of one game against the odds.

Only the standard library, the core and the store, like ``replay``: ``--json``
never depends on the language, and its figures are exact fractions written as
text (``"7/3"``), the same on every run.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from companion.review import Review, review
from companion.session import Session
from companion.text import printable
from incan_companion.commands.game import game_number, load_session
from incan_companion.errors import EXIT_OK


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "review", help="every seat's decisions of a game against the odds: choices vs luck"
    )
    p.add_argument("data_file", metavar="DATA_FILE", help="the app's data file or a .jsonl log")
    p.add_argument("--game", type=game_number, help="which game (default: the most recent)")
    p.add_argument("--json", action="store_true", help="one JSON document, exact fractions")
    p.set_defaults(func=cmd_review, words=lambda args: not args.json)


def exact(value: Fraction) -> str:
    """A fraction as text: ``"7/3"``, or ``"5"`` when it is whole."""
    return str(value)


def to_json(session: Session, result: Review) -> dict[str, Any]:
    start = session.start_event
    bots = dict(start.bots)
    return {
        "rules": start.rules,
        "deck": start.deck,
        "round": session.state.round,
        "phase": session.state.phase.value,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "bot": bots.get(s.seat),
                "total": s.total,
                "expected": exact(s.expected),
                "choices": exact(s.choices),
                "luck": exact(s.luck),
                "approx": {
                    "expected": round(float(s.expected), 3),
                    "choices": round(float(s.choices), 3),
                    "luck": round(float(s.luck), 3),
                },
                "decisions": [
                    {
                        "round": d.round,
                        "cards": d.cards,
                        "choice": "camp" if d.left else "torch",
                        "stay": exact(d.stay),
                        "leave": exact(d.leave),
                        "gain": exact(d.gain),
                        "outcome": None if d.outcome is None else exact(d.outcome),
                    }
                    for d in s.decisions
                ],
            }
            for s in result.seats
        ],
    }


def cmd_review(args: argparse.Namespace) -> int:
    session = load_session(Path(args.data_file), args.game)
    result = review(session)
    if args.json:
        print(json.dumps(to_json(session, result), ensure_ascii=False))
    else:
        from ui.words import review_text

        # Each name escaped on its own first (see named_printably).
        seats = tuple(replace(s, name=printable(s.name)) for s in result.seats)
        shown = replace(result, seats=seats)
        print(printable(review_text(shown, dict(session.start_event.bots)), keep="\n"))
    return EXIT_OK
