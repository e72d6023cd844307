"""The end: the seats ranked by the rules (score, then artifacts), the winner(s),
how ties were settled, and the chart of scores after each round."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp, sp
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from ui import kv
from ui.kivyfree.presenters import GameOverView
from ui.round_end_screen import (
    GOLD,
    MIN_SP,
    WHITE,
    Part,
    Row,
    artifact_parts,
    score_columns,
    text_size,
)
from ui.widgets import fits

WINNER_SP = (28, 26, 24, 22, 20, MIN_SP)  # the winners' line: the largest that fits
MIN_CHART = 130  # dp: the chart keeps at least this much width


class FinalTable:
    """The final table and chart of a game: the game-over screen's, and a past
    game's on the history screen (a screen with the same ids)."""

    ids: Any
    heading = StringProperty("")
    winners = StringProperty("")
    tie_break = StringProperty("")
    winners_size = NumericProperty(sp(28))
    table_width = NumericProperty(dp(400))

    def __init__(self, **kwargs: Any) -> None:
        kv.load("game_over.kv")
        super().__init__(**kwargs)

    def show(self, v: GameOverView) -> None:
        self.heading = v.heading
        self.winners = v.winners
        self.tie_break = v.tie_break
        ranked = any(s.rank for s in v.seats)  # an unfinished game has no places yet
        rows = []
        for s in v.seats:
            mark = GOLD if s.winner else WHITE
            cells: list[tuple[Part, ...]] = [(Part(s.rank, mark),)] if ranked else []
            cells += [(Part(s.name, s.colour),), (Part(s.banked),)]
            if v.columns.artifacts:
                cells.append(artifact_parts(s.artifacts))
            cells.append((Part(s.score, mark),))
            rows.append(Row(tuple(cells), s.colour, highlight=s.winner))
        self.ids.scores.show(score_columns(v.columns, rank=ranked), rows)
        self.ids.chart.show(v.chart)
        self.fit_winners()
        self.fit_table()

    def fit_winners(self, *args: Any) -> None:
        """The winners' line as large as one line allows, else two, else at MIN_SP."""
        width = self.ids.winners.width
        if width <= 1:
            return
        one = [s for s in WINNER_SP if text_size(self.winners, sp(s), True)[0] <= width - 2]
        self.winners_size = sp(one[0] if one else MIN_SP)
        if not one:
            for s in WINNER_SP:
                if fits(self.winners, width, sp(s), lines=2, bold=True, halign="center"):
                    self.winners_size = sp(s)
                    break

    def fit_table(self, *args: Any) -> None:
        """The table as wide as its columns; the chart takes the rest."""
        body = self.ids.body
        if body.width <= 1:
            return
        room = body.width - body.spacing - dp(MIN_CHART)
        self.table_width = self.ids.scores.natural_width(room, body.height)


class GameOverScreen(FinalTable, Screen):
    pass
