"""The game on the table as it is shown: every refresh's view models, the
bust's moment, the round's summary, the sounds and the countdown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.clock import Clock

from companion.engine import Bust, Phase, State
from companion.events import Undo
from companion.table import Table
from ui.kivyfree import presenters
from ui.kivyfree.cues import cues, tick_cue
from ui.kivyfree.notice_words import notice_text

if TYPE_CHECKING:
    from ui.app import CompanionApp

BUST_HOLD_S = 4.0  # how long the busting pair holds the table before the summary


class Hold:
    """A bust's moment on show: its round, and this one's timer (an undo and a
    new bust start another)."""

    def __init__(self, round_: int) -> None:
        self.round = round_


class PlayController:
    def __init__(self, app: CompanionApp) -> None:
        self.app = app
        self.phase: tuple[int, Phase] | None = None  # the round and phase on show
        self.holding: Hold | None = None  # a bust on show
        self._cue_state: tuple[State | None, tuple[Table, int] | None] = (None, None)
        self._countdown_shown = ""

    def arrive(self) -> None:
        """A game arrives (new or resumed): its screen is followed from the start."""
        self.phase = None

    def leave(self) -> None:
        """The game leaves the table: nothing of it stays on show or in the cues."""
        self.phase = None
        self.hold(None)
        self._cue_state = (None, None)

    def show(self, table: Table) -> None:
        """Every view model from the table, shown; and the screen of its phase."""
        app = self.app
        state = table.state
        # The round too: a round can end before the screen saw it begin.
        arrived = (state.round, state.phase) != self.phase
        # A round's end reached by an undo (of the next round's first card) was
        # seen already: the table shows it, without its bust or its summary again.
        again = isinstance(table.session.log[-1], Undo)
        if arrived and not again:
            table.show_round_end()  # a card turned meanwhile waits for the summary
        c = table.collector
        notice = table.notice
        view = presenters.table_view(
            state,
            hidden_tents=app.hidden_tents,
            due=c.due,
            chosen=c.chosen,
            waiting=c.waiting_for,
            countdown=c.countdown_left,
            held=table.held,
            camera=table.camera,
            notice=notice.reason if notice else None,
            notice_level=notice.level if notice else "info",
            can_undo=table.can_undo,
            show_odds=app.show_odds,
            bots=table.bots,
            ending=table.ending,
            asking=table.asking,
            colours=app.players.seat_colours(state),
        )
        if app.controls.phones is not None:
            from ui.phones import with_phones

            view = with_phones(view, app.controls.phones, notice.reason if notice else None)
        tick = tick_cue(self._countdown_shown, view.countdown)
        if tick is not None:
            app.sounds.play(tick)
        self._countdown_shown = view.countdown
        app.table_screen.show(view)
        if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) and state.round_end is not None:
            app.round_end_screen.show(
                presenters.round_end_view(state, hidden_tents=app.hidden_tents,
                                          colours=app.players.seat_colours(state))
            )
            app.round_end_screen.notice = (
                notice_text(notice.reason) if notice is not None and not notice.lasting else ""
            )
        if state.phase is Phase.GAME_OVER:
            app.game_over_screen.show(
                presenters.game_over_view(state, app.players.seat_colours(state))
            )
        self._play_cues(table)
        if arrived:
            # Follow the game to the screen of its phase, once per change, so a
            # player can still look back at the table after a round ended.
            self.phase = (state.round, state.phase)
            if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
                # A round's end: nobody waits for the screen; at the next frame,
                # once this one (the summary, or the bust) is drawn.
                Clock.schedule_once(lambda dt: app.controls.release_memory(), 0)
            if state.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER) or again:
                self.hold(None)
                app.show_screen("table")
            elif isinstance(state.last, Bust):
                # The bust is a moment: the pair stays on the table, lit, until
                # tapped or for a few seconds, before the round's summary.
                hold = Hold(state.round)
                self.hold(hold)
                app.show_screen("table")
                Clock.schedule_once(lambda dt: self._end_hold(hold), BUST_HOLD_S)
            else:
                self.hold(None)
                app.show_screen("round_end")  # round 5 too: then the final scores

    def hold(self, hold: Hold | None) -> None:
        """A bust's moment on show (the table takes a tap to end it), or none."""
        self.holding = hold
        self.app.table_screen.holding = hold is not None

    def _end_hold(self, hold: Hold) -> None:
        if self.holding is hold:
            self.end_bust_hold()

    def end_bust_hold(self) -> None:
        """The bust has been seen: on to the round's summary (a tap, or the timer)."""
        holding = self.holding
        self.hold(None)
        table = self.app.table
        if holding is None or table is None:
            return
        state = table.state
        if state.round == holding.round and state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            self.app.show_screen("round_end")
            for hook in list(self.app.on_bust_seen):
                hook(self.app)

    def close_round_end(self, goes_to: str) -> None:
        """The summary's button: it has been seen, so a card that waited for it
        is drawn now; on to ``goes_to`` (the table, or the final scores)."""
        self.hold(None)
        table = self.app.table
        if table is not None:
            table.round_end_seen()
        self.app.show_screen(goes_to)

    def _play_cues(self, table: Table) -> None:
        """The sound of what changed since the screen last showed the game."""
        log = table.session.log
        before, seen = self._cue_state
        if seen is not None and seen[0] is table:
            for cue in cues(before, table.state, log[seen[1]:]):
                self.app.sounds.play(cue)
        self._cue_state = (table.state, (table, len(log)))

    def tick(self) -> None:
        """One period of the countdown (and of a camera stepped on the UI clock)."""
        app = self.app
        table = app.table
        if table is None:
            return
        table.tick()
        if app.autoplay is None and app.controls.step_camera is not None:
            app.controls.step_camera()
        shown = presenters.countdown_text(table.collector.countdown_left)
        if shown != self._countdown_shown:
            app.refresh_soon()
