"""The main screen during play: the path, the seats, what just happened.

Read at a metre by the whole table, so nothing on it is ever cut: the seat
table's columns are measured for the names and numbers on show, the path
has a fixed slot for every card the longest round can turn (so every card
is in view, and none ever moves), and the details and the status have
heights of their own: a longer text takes a shorter form, never room from
the path or the seats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.screenmanager import Screen

from ui import kv

if TYPE_CHECKING:  # the table presenter (and its odds) loads with the first game
    from ui.kivyfree.presenters import TableView

STATUS_COLOURS = {
    "info": (0.8, 0.8, 0.8, 1),
    "warning": (1, 0.8, 0.3, 1),
    "error": (1, 0.45, 0.4, 1),
}
PROMPT_SP = (20, 18)  # one line at the first, two lines at the second
EVENT_SP = (19, 18)  # the larger while the event takes two lines at most
DETAILS_LINES = 3  # the details' room, in lines at READ_SP
STATUS_LINES = 2  # the status's room, in lines at READ_SP


def button_width(texts: tuple[str, ...], lines: int) -> float:
    """The least width (at least a finger's two) in which each of ``texts``
    takes at most ``lines`` lines on a big button (18 px, bold, 6 px inside);
    one with no space (Japanese) one line: Kivy would break it inside a word."""
    from ui.widgets import READ_SP, TOUCH_DP, fits, text_extent

    widest = float(max(text_extent(t, sp(READ_SP), True)[0] for t in texts) + dp(20))
    # Never narrower than a word: Kivy would break it.
    word = float(max(text_extent(w, sp(READ_SP), True)[0] for t in texts for w in t.split()))
    width = float(max(dp(2 * TOUCH_DP), word + dp(14)))
    while width < widest and not all(
            fits(t, width - dp(12), sp(READ_SP), lines=lines if " " in t else 1, bold=True,
                 halign="center")
            for t in texts):
        width += dp(4)
    return float(max(dp(2 * TOUCH_DP), word + dp(14), min(width, widest)))


class TableScreen(Screen):
    heading = StringProperty("")
    prompt = StringProperty("")
    prompt_short = StringProperty("")
    prompt_shown = StringProperty("")
    prompt_size = NumericProperty(sp(PROMPT_SP[0]))
    event = StringProperty("")
    event_size = NumericProperty(sp(EVENT_SP[0]))
    bust = StringProperty("")
    extra = StringProperty("")  # every detail, a line each
    details = StringProperty("")  # the details as shown: the form that fits
    details_height = NumericProperty(dp(80))
    status_shown = StringProperty("")
    status_short = StringProperty("")
    status_height = NumericProperty(dp(56))
    #: Under the path, the room kept for the event: two lines at its larger size.
    event_room = NumericProperty(dp(58))
    #: The right-hand buttons' widths: their widest text (enter a card, final
    #: scores), on two lines when the virtual table's button stands beside it, so
    #: the status keeps its room and its place when the game ends.
    action_width = NumericProperty(dp(120))
    turn_width = NumericProperty(dp(120))
    icon_gem = StringProperty("")
    icon_tent = StringProperty("")
    icon_artifact = StringProperty("")
    countdown = StringProperty("")
    status = StringProperty("")
    status_colour = ObjectProperty(STATUS_COLOURS["info"])
    can_undo = BooleanProperty(False)
    can_enter = BooleanProperty(False)
    choice_odds = BooleanProperty(False)  # the odds are on and choices due: "More" opens them
    game_over = BooleanProperty(False)
    artifacts_column = BooleanProperty(True)
    holding = BooleanProperty(False)  # a bust's moment on show: a tap moves on
    virtual = BooleanProperty(False)  # a virtual table: offer "Turn a card"
    camera = BooleanProperty(False)  # a camera reads the cards
    #: The seat table's column widths (ui.widgets.SEAT_COLUMN_NAMES).
    columns = ListProperty([dp(8), dp(120), dp(28), dp(44), dp(48), dp(52), dp(48)])
    name_size = NumericProperty(sp(20))
    number_size = NumericProperty(sp(22))

    def __init__(self, **kwargs: Any) -> None:
        from ui.widgets import READ_SP, icon_path, text_extent

        kv.load("pieces.kv", "table.kv")
        line = text_extent("Ag", sp(READ_SP))[1]
        super().__init__(**kwargs)
        self.details_height = line * DETAILS_LINES
        self.status_height = max(dp(56), line * STATUS_LINES + dp(4))
        # Two lines of the event, and the spaces above and below it.
        self.event_room = text_extent("Ag", sp(EVENT_SP[0]), True)[1] * 2 + dp(8)
        self.icon_gem, self.icon_tent, self.icon_artifact = (
            icon_path(n) for n in ("gem", "tent", "artifact"))
        self._view: TableView | None = None

    def show(self, v: TableView) -> None:
        self.heading = v.heading
        self.prompt = v.prompt
        self.prompt_short = v.prompt_short
        self.event = v.event
        self.bust = v.bust
        self.extra = "\n".join(
            x for x in (v.pieces, v.on_path, v.remove, v.hazards, v.odds) if x
        )
        self._view = v
        self.countdown = v.countdown
        self.status = v.status
        self.status_short = v.status_short
        self.status_colour = STATUS_COLOURS.get(v.status_level, STATUS_COLOURS["info"])
        self.can_undo = v.can_undo
        self.can_enter = v.can_enter
        self.choice_odds = v.choice_odds
        self.game_over = v.game_over
        self.artifacts_column = v.artifacts_column
        self._measure_columns(v)
        self._measure_action()
        self.ids.path.compact = self._compact()
        self.ids.path.slots = v.path_room
        self.ids.path.show(v.path)
        rows = self.ids.seats
        while len(rows.children) < len(v.seats):
            from ui.widgets import SeatRow

            rows.add_widget(SeatRow())
        while len(rows.children) > len(v.seats):
            rows.remove_widget(rows.children[0])
        for row, seat in zip(reversed(rows.children), v.seats, strict=True):
            row.with_artifacts = v.artifacts_column
            row.columns = self.columns
            row.name_size = self.name_size
            row.number_size = self.number_size
            row.show(seat)
        self._fit_prompt()
        self._fit_event()
        self._fit_details()
        self._fit_status()

    def _measure_columns(self, v: TableView) -> None:
        from ui.widgets import HEADER_SP, seat_columns

        chosen = self.ids.head_chosen
        names, numbers, columns = seat_columns(
            [s.name for s in v.seats], [s.hand for s in v.seats], [s.banked for s in v.seats],
            [s.artifacts_worth for s in v.seats] if v.artifacts_column else None,
            ["", "", "", chosen.text], max(sp(HEADER_SP), chosen.font_size),
        )
        if columns != list(self.columns):
            self.columns = columns
        self.name_size, self.number_size = names, numbers

    def _measure_action(self) -> None:
        from ui.kivyfree.i18n import _

        lines = 2 if self.virtual else 1
        self.action_width = button_width(
            (_("Final scores"), _("Card by hand"), _("Enter card")), lines)
        self.turn_width = button_width((_("Turn a card"),), lines)

    def _fit_prompt(self, *args: Any) -> None:
        # The names of who still has to choose when they fit (one line at 20 px,
        # two at 18 px); the count otherwise (the seat rows mark who): never a
        # cut list of names.
        from ui.widgets import fits

        width = self.ids.prompt.width
        for text in (self.prompt, self.prompt_short):
            for size, lines in zip(PROMPT_SP, (1, 2), strict=True):
                if fits(text, width, sp(size), lines=lines, bold=True):
                    self.prompt_shown, self.prompt_size = text, sp(size)
                    return
        self.prompt_shown, self.prompt_size = self.prompt_short, sp(PROMPT_SP[-1])

    def _fit_event(self, *args: Any) -> None:
        from ui.widgets import fits

        text = self.bust or self.event
        width = self.ids.event.width
        self.event_size = sp(EVENT_SP[0]) if fits(text, width, sp(EVENT_SP[0]), lines=2,
                                                  bold=True) else sp(EVENT_SP[-1])

    def _fit_details(self, *args: Any) -> None:
        """The details, a line each, in the first form that fits their room: the
        odds with each hazard's chance, then without it (each hazard's tile
        shows its own), then run on in one paragraph."""
        from ui.widgets import READ_SP, fits

        v = self._view
        if v is None:
            return
        head = [x for x in (v.pieces, v.on_path, v.remove) if x]
        forms = [[*head, v.odds or v.hazards], [*head, v.hazards, v.odds_short],
                 [*head, v.odds_short or v.hazards]]
        texts = ["\n".join(x for x in form if x) for form in forms]
        texts.append("  ·  ".join(x for x in forms[-1] if x))
        width = self.ids.details.width
        self.details = next(
            (t for t in texts if fits(t, width, sp(READ_SP), lines=DETAILS_LINES)), texts[-1]
        )

    def on_status(self, *args: Any) -> None:
        if "status" in self.ids:
            self._fit_status()

    def _fit_status(self, *args: Any) -> None:
        # The camera's part gives way to what the table must do now.
        from ui.widgets import READ_SP, fits

        width = self.ids.status.width
        full = fits(self.status, width, sp(READ_SP), lines=STATUS_LINES)
        self.status_shown = self.status if full or not self.status_short else self.status_short

    def _compact(self) -> bool:
        # A bust's path is history: the odds of a pair are over.
        return bool(self.holding or self.bust)

    def on_holding(self, *args: Any) -> None:
        self.ids.path.compact = self._compact()

    def on_touch_down(self, touch: Any) -> bool:
        # Undo and the menu do what they say during the bust's moment too: a
        # misread second hazard is taken back at the first tap (the undo ends
        # the moment), not after the summary has been shown and closed.
        here = self.to_local(*touch.pos)
        if self.holding and self.collide_point(*touch.pos) and not any(
                self.ids[name].collide_point(*here) for name in ("undo", "menu")):
            from kivy.app import App

            App.get_running_app().play.end_bust_hold()
            return True
        return bool(super().on_touch_down(touch))

    def on_kv_post(self, base_widget: Any) -> None:
        self.ids.path.on_card = self._tap
        self.ids.prompt.bind(width=self._fit_prompt)
        self.ids.event.bind(width=self._fit_event)
        self.ids.details.bind(width=self._fit_details)
        self.ids.status.bind(width=self._fit_status)

    def _tap(self, pos: int) -> None:
        from kivy.app import App

        App.get_running_app().cards.tap_path_card(pos)
