"""The in-game menu: new game, abandon, language, sound, a rules reminder.

Reachable at any time from the table screen's Menu button. Leaving a game
asks first (:class:`Confirm`): one stray tap must not end an evening's game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.modalview import ModalView

from ui import kv
from ui.i18n import LANGUAGES, language
from ui.presenters import SEAT_KINDS, LogPage, ReviewView, seat_kind_label

__all__ = ["LOG_PAGE", "BotSeats", "Confirm", "GameMenu", "ReviewPanel", "RoundLog"]

#: Lines of the round log on one page under its round's heading: two lines
#: each at the most still fit.
LOG_PAGE = 8

CHOSEN = (0.85, 0.62, 0.1, 1)  # the language in use: the set-up screen's gold
CHOSEN_TEXT = (0.1, 0.08, 0.02, 1)


class GameMenu(ModalView):
    rules_text = StringProperty("")
    volume = NumericProperty(0.8)
    muted = BooleanProperty(False)
    in_game = BooleanProperty(True)
    odds = BooleanProperty(False)
    sound_out = BooleanProperty(True)  # an audio output plays the cues

    def __init__(self, *, rules_text: str, volume: float, muted: bool, in_game: bool,
                 odds: bool = False, sound_out: bool = True, **kwargs: Any) -> None:
        kv.load("menu.kv")
        super().__init__(**kwargs)
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


class RoundLog(ModalView):
    """The game card by card (the round log), a round a page under its heading,
    opened on the round on the table.

    Pages rather than scrolling: every line on show is whole, and the
    Earlier / Later buttons are big enough for a finger at the table.
    """

    heading = StringProperty("")
    text = StringProperty("")
    can_go_earlier = BooleanProperty(False)
    can_go_later = BooleanProperty(False)

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


class Confirm(ModalView):
    """A question with two answers; ``on_yes`` runs only on the yes."""

    question = StringProperty("")
    yes = StringProperty("")
    no = StringProperty("")

    def __init__(self, question: str, yes: str, no: str, on_yes: Callable[[], None],
                 **kwargs: Any) -> None:
        kv.load("menu.kv")
        super().__init__(**kwargs)
        self.question, self.yes, self.no = question, yes, no
        self._on_yes = on_yes

    def confirm(self) -> None:
        self.dismiss(animation=False)
        self._on_yes()


class ReviewPanel(ModalView):
    """The game-over review: each seat's score, its choices against the odds and
    its luck with the cards, one row a seat, every figure whole on screen."""

    title = StringProperty("")
    explain = StringProperty("")

    def __init__(self, view: ReviewView, **kwargs: Any) -> None:
        kv.load("menu.kv")
        super().__init__(**kwargs)
        self.title, self.explain = view.title, view.explain
        grid = self.ids.rows
        for i, header in enumerate(view.headers):
            grid.add_widget(Factory.ReviewHeader(text=header, halign="left" if i == 0 else "right"))
        for row in view.rows:
            grid.add_widget(Factory.ReviewCell(text=row.name, color=row.colour, halign="left"))
            for text in (row.total, row.choices, row.luck):
                grid.add_widget(Factory.ReviewCell(text=text, halign="right"))


class BotSeats(ModalView):
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
