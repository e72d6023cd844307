"""What the pages show, made from the table on the UI thread, in any language.

The same presenters as the touchscreen make it (:func:`ui.kivyfree.presenters.table_view`,
the round log, the final scores), worded in the viewer's language with
:func:`ui.kivyfree.i18n.speaking`, and turned into plain JSON values. What a seat
chose never gets in: the collector says *who* has chosen, never *what*, and
only that goes into a view (as the seat LEDs show it). The status line is
left out too: it can name the data file, the camera or an error's text,
which are the device's business, not a browser's.

Page words (the buttons, the headings) are looked up on the server's thread
with a catalogue of their own (:func:`page_words`), never through the
table's current language.
"""

from __future__ import annotations

import gettext
import threading
from dataclasses import dataclass
from typing import Any

from companion.cards import CATALOGUE
from companion.engine import Phase, Revealed
from companion.table import Table
from ui.kivyfree import i18n
from ui.kivyfree.i18n import N_
from ui.kivyfree.presenters import SEAT_COLOURS, Colour, game_over_view, round_log, table_view
from web.pairing import turn_key

__all__ = ["PAGE_WORDS", "TableFacts", "colour_hex", "page_words", "table_facts", "table_json"]

#: The pages' own words, worded in the viewer's language by :func:`page_words`.
PAGE_WORDS: dict[str, str] = {
    "title": N_("Incan Gold"),
    "watch": N_("Watching the table"),
    "torch": N_("Torch"),
    "camp": N_("Camp"),
    "torch_hint": N_("Go on into the temple"),
    "camp_hint": N_("Leave for camp"),
    "in": N_("Your choice is in. You can still change it until the reveal."),
    "choose": N_("Torch or camp? Choose on your phone."),
    "not_due": N_("Nothing to choose now."),
    "you_chose": N_("You chose: {choice}"),
    "too_late": N_("Too late: the reveal came first, so that press did not count."),
    "hand": N_("In hand"),
    "tent": N_("In the tent"),
    "artifacts": N_("Artifacts"),
    "path": N_("Path"),
    "seats": N_("Seats and tents"),
    "log": N_("Round log"),
    "final": N_("Final scores"),
    "odds": N_("Odds of the next card"),
    "no_game": N_("No game at the table yet."),
    "connecting": N_("Connecting to the table…"),
    "offline": N_("Lost the table. Trying again…"),
    "refused": N_("This link no longer plays a seat. Scan the seat's code on the table again."),
    "full": N_("The table has too many phones connected."),
    "reveal_in": N_("Reveal in {n}…"),
}

_catalogues: dict[str, gettext.NullTranslations] = {}
_lock = threading.Lock()


def page_words(code: str) -> dict[str, str]:
    """:data:`PAGE_WORDS` in the language ``code`` (one of ``ui.kivyfree.i18n.LANGUAGES``);
    safe on any thread."""
    with _lock:
        catalogue = _catalogues.get(code)
        if catalogue is None:
            catalogue = _catalogues[code] = i18n.translations(code)
    return {key: catalogue.gettext(text) for key, text in PAGE_WORDS.items()}


def colour_hex(colour: Colour) -> str:
    """A seat's colour as a page writes it.

    >>> colour_hex((1.0, 0.5, 0.0, 1))
    '#ff8000'
    """
    return "#" + "".join(f"{round(c * 255):02x}" for c in colour[:3])


@dataclass(frozen=True)
class TableFacts:
    """What every view of one moment shares, whatever the language."""

    game: int
    seats: int
    turn: str  # the turn a choice is for now, "" when none is due
    due: frozenset[int]
    chosen: frozenset[int]
    countdown: float | None
    revealed: int  # how many reveals the game has had: a page knows a new one came


def table_facts(table: Table) -> TableFacts:
    state = table.state
    c = table.collector
    choosing = state.phase is Phase.CHOOSE and c.is_open
    return TableFacts(
        game=table.game,
        seats=len(state.seats),
        turn=turn_key(table.game, state.round, len(state.path)) if choosing else "",
        due=c.due,
        chosen=c.chosen,
        countdown=c.countdown_left,
        revealed=sum(isinstance(s.last, Revealed) for s in table.session.states),
    )


def table_json(table: Table, facts: TableFacts, *, code: str, hidden_tents: bool,
               odds: bool) -> dict[str, Any]:
    """The table as the pages show it, worded in ``code``'s language (UI thread only)."""
    state = table.state
    with i18n.speaking(code):
        view = table_view(
            state, hidden_tents=hidden_tents, due=facts.due, chosen=facts.chosen,
            countdown=facts.countdown, held=table.held, can_undo=False, show_odds=odds,
            bots=table.bots,
        )  # fmt: skip
        session = table.session
        log = round_log(session.moves, session.states)
        final = game_over_view(state) if state.phase is Phase.GAME_OVER else None
    return {
        "game": facts.game,
        "phase": state.phase.value,
        "round": state.round,
        "heading": view.heading,
        "rules": view.rules,
        "prompt": view.prompt,
        "event": view.event,
        "pieces": view.pieces,
        "hazards": view.hazards,
        "remove": view.remove,
        "on_path": view.on_path,
        "bust": view.bust,
        "odds": view.odds,
        "countdown": facts.countdown,
        "turn": facts.turn,
        "revealed": facts.revealed,
        "artifacts_column": view.artifacts_column,
        "path": [
            {
                "card": p.face.card,
                "kind": _kind(p.face.card),
                "title": p.face.title,
                "subtitle": p.face.subtitle,
                "left": p.left,
                "note": p.note,
                "faded": p.faded,
                "highlight": p.highlight,
            }
            for p in view.path
        ],
        "seats": [
            {
                "name": s.name,
                "colour": colour_hex(SEAT_COLOURS[s.index % len(SEAT_COLOURS)]),
                "status": s.status,
                "status_key": s.status_key,
                "hand": s.hand,
                "banked": s.banked,
                "artifacts": s.artifacts,
                "due": s.index in facts.due,
                # who has chosen, never what: the LEDs' fact, nothing more
                "chosen": s.chosen,
                "choice": s.choice,
                "bot": s.index in table.bots,
            }
            for s in view.seats
        ],
        "log": list(log),
        "final": None if final is None else {
            "heading": final.heading,
            "winners": final.winners,
            "tie_break": final.tie_break,
            "rows": [
                {"rank": f.rank, "name": f.name, "colour": colour_hex(f.colour),
                 "banked": f.banked, "artifacts": f.artifacts, "score": f.score,
                 "winner": f.winner}
                for f in final.seats
            ],
        },
    }


def _kind(card: str) -> str:
    c = CATALOGUE[card]
    return "treasure" if c.is_treasure else "artifact" if c.is_artifact else "hazard"
