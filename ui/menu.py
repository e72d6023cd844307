"""The in-game menu: new game, abandon, language, sound, a rules reminder.

Reachable at any time from the table screen's Menu button. Leaving a game
asks first (:class:`Confirm`): one stray tap must not end an evening's game.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from ui import kv
from ui.kivyfree.i18n import LANGUAGES, language
from ui.kivyfree.presenters import (
    SEAT_KINDS,
    LogPage,
    ReviewView,
    review_failed,
    review_working,
    seat_kind_label,
)
from ui.widgets import OverWindow, take_out

__all__ = ["LOG_PAGE", "BotSeats", "Confirm", "GameMenu", "ReviewPanel", "RoundLog", "SwingsPanel"]

_log = logging.getLogger(__name__)

#: Lines of the round log on one page under its round's heading: two lines
#: each at the most still fit.
LOG_PAGE = 8

CHOSEN = (0.85, 0.62, 0.1, 1)  # the language in use: the set-up screen's gold
CHOSEN_TEXT = (0.1, 0.08, 0.02, 1)


class GameMenu(OverWindow):
    rules_text = StringProperty("")
    volume = NumericProperty(0.8)
    muted = BooleanProperty(False)
    in_game = BooleanProperty(True)
    odds = BooleanProperty(False)
    sound_out = BooleanProperty(True)  # an audio output plays the cues

    def __init__(self, *, rules_text: str, volume: float, muted: bool, in_game: bool,
                 odds: bool = False, sound_out: bool = True, can_switch_off: bool = False,
                 **kwargs: Any) -> None:
        kv.load("menu.kv")
        super().__init__(**kwargs)
        if not can_switch_off:  # out of the row, not hidden in it: nothing drawn
            take_out(self, "switch_off")
        self.odds = odds
        self.sound_out = sound_out
        self.rules_text = rules_text
        self.volume = volume
        self.muted = muted
        self.in_game = in_game
        from kivy.app import App

        app = App.get_running_app()
        for code, own_name in LANGUAGES.items():
            button = Factory.BigButton(text=own_name)
            if code == language():  # the one in use, lit as the set-up screen lights it
                button.background_color = CHOSEN
                button.color = CHOSEN_TEXT
            else:
                button.bind(on_release=lambda b, c=code: app.choose_language(c))
            self.ids.languages.add_widget(button)


class RoundLog(OverWindow):
    """The game card by card (the round log), a round a page under its heading,
    opened on the round on the table.

    Pages rather than scrolling: every line on show is whole, and the
    Earlier / Later buttons are big enough for a finger at the table.
    """

    heading = StringProperty("")
    text = StringProperty("")
    can_go_earlier = BooleanProperty(False)
    can_go_later = BooleanProperty(False)
    past = BooleanProperty(False)  # a past game's, opened from the history

    def __init__(self, pages: Sequence[LogPage], **kwargs: Any) -> None:
        kv.load("menu.kv")
        super().__init__(**kwargs)
        self.pages = list(pages) or [LogPage("", ())]
        self.show_page(len(self.pages) - 1)

    def show_page(self, page: int) -> None:
        self.page = max(0, min(page, len(self.pages) - 1))
        shown = self.pages[self.page]
        self.heading, self.text = shown.heading, "\n".join(shown.lines)
        self.can_go_earlier = self.page > 0
        self.can_go_later = self.page < len(self.pages) - 1


class Confirm(OverWindow):
    """A question with two answers; ``on_yes`` runs only on the yes. With no
    ``yes``, a message with its one answer."""

    question = StringProperty("")
    yes = StringProperty("")
    no = StringProperty("")

    def __init__(self, question: str, yes: str, no: str, on_yes: Callable[[], None],
                 **kwargs: Any) -> None:
        kv.load("menu.kv")
        super().__init__(**kwargs)
        self.question, self.yes, self.no = question, yes, no
        self._on_yes = on_yes
        if not yes:
            take_out(self, "yes")

    def confirm(self) -> None:
        self.dismiss(animation=False)
        self._on_yes()


class ReviewPanel(OverWindow):
    """The game-over review: each seat's score, its choices against the odds and
    its luck with the cards, one row a seat, every figure whole on screen.

    Given a function, the panel opens at once saying the review is being
    worked out, and the function runs on a thread of its own (the rollouts of
    a whole game take seconds): the UI thread never waits for it.
    """

    title = StringProperty("")
    explain = StringProperty("")
    ready = BooleanProperty(False)  # the review is worked out: its swings can be opened
    failed = BooleanProperty(False)  # it could not be worked out: the panel says so

    def __init__(self, view: ReviewView | Callable[[], ReviewView], **kwargs: Any) -> None:
        kv.load("menu.kv")
        super().__init__(**kwargs)
        self.worker: threading.Thread | None = None
        self._result: ReviewView | None = None
        self.swings: SwingsPanel | None = None
        if isinstance(view, ReviewView):
            self.show(view)
            return
        self.title, self.explain = review_working()
        self.worker = threading.Thread(target=self._work, args=(view,), daemon=True)
        self.worker.start()

    def _work(self, compute: Callable[[], ReviewView]) -> None:
        try:
            self._result = compute()
        except Exception:  # a review is an extra: never a crash at the end of a game
            _log.exception("review")
        Clock.schedule_once(lambda _dt: self._done())

    def _done(self) -> None:
        if self._result is None:
            # said on the panel too, not left "working out" for good
            self.failed = True
            self.title, self.explain = review_failed()
        elif not self.ids.rows.children:
            self.show(self._result)

    def finish(self) -> None:
        """Wait for the review and show it (for a caller off the UI's own loop)."""
        if self.worker is not None:
            self.worker.join()
            self._done()

    def show(self, view: ReviewView) -> None:
        self._result = view
        self.ready = True
        self.title, self.explain = view.title, view.explain
        grid = self.ids.rows
        for i, header in enumerate(view.headers):
            grid.add_widget(Factory.ReviewHeader(text=header, halign="left" if i == 0 else "right"))
        for row in view.rows:
            grid.add_widget(Factory.ReviewCell(text=row.name, color=row.colour, halign="left"))
            for text in (row.total, row.choices, row.luck):
                grid.add_widget(Factory.ReviewCell(text=text, halign="right"))

    def open_swings(self) -> None:
        """Each seat's three largest swings, a page a seat, over the review."""
        if self._result is None:
            return
        self.swings = SwingsPanel(self._result)
        self.swings.bind(on_dismiss=lambda *a: setattr(self, "swings", None))
        self.swings.open(animation=False)


class SwingsPanel(OverWindow):
    """One seat's largest swings (the decisions where torch and camp were worth
    the most apart), and which model of the other seats valued them; a tap on
    Next seat turns to the next seat, Back returns to the review."""

    title = StringProperty("")
    colour = ListProperty([1, 1, 1, 1])
    model = StringProperty("")
    seat = NumericProperty(0)
    seats = NumericProperty(0)

    def __init__(self, view: ReviewView, **kwargs: Any) -> None:
        kv.load("menu.kv")
        super().__init__(**kwargs)
        self.view = view
        self.seats = len(view.rows)
        self.model = view.model
        self.show_seat(0)

    def show_seat(self, seat: int) -> None:
        if not self.view.rows:
            return
        self.seat = seat % len(self.view.rows)
        row = self.view.rows[self.seat]
        self.title, self.colour = row.swings_title, list(row.colour)
        box = self.ids.swings
        box.clear_widgets()
        for line in row.swings:
            box.add_widget(Factory.SwingCell(whole=line))


class BotSeats(OverWindow):
    """The set-up's bot seats: a row per seat, its name and a button that makes it
    a person or a bot of each strategy in turn. ``kinds`` is changed in place
    and ``on_done(kinds)`` is called when the table is done."""

    def __init__(self, names: Sequence[str], kinds: Sequence[str],
                 on_done: Callable[[list[str]], None], **kwargs: Any) -> None:
        kv.load("menu.kv")
        super().__init__(**kwargs)
        self.kinds = list(kinds)
        self._on_done = on_done
        self.buttons: list[Any] = []
        grid = self.ids.rows
        for seat, name in enumerate(names):
            grid.add_widget(Factory.ReviewCell(text=name, halign="left"))
            button = Factory.BigButton(text=seat_kind_label(self.kinds[seat]))
            button.bind(on_release=lambda b, s=seat: self.cycle(s))
            grid.add_widget(button)
            self.buttons.append(button)

    def cycle(self, seat: int) -> None:
        """The seat's next kind: person, then each strategy, then a person again."""
        now = SEAT_KINDS.index(self.kinds[seat]) if self.kinds[seat] in SEAT_KINDS else 0
        self.kinds[seat] = SEAT_KINDS[(now + 1) % len(SEAT_KINDS)]
        self.buttons[seat].text = seat_kind_label(self.kinds[seat])

    def done(self) -> None:
        self.dismiss(animation=False)
        self._on_done(self.kinds)
