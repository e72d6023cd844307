"""What each screen shows, as plain data: state in, frozen view model out.

One module per screen (the history and the statistics in :mod:`history`);
the names are all here too, so ``from ui.kivyfree.presenters import X`` finds
each where it lives. No Kivy import.

A name's module is imported when the name is first asked for (PEP 562), not
with the package: the first screen needs the set-up's and the table's, not
the review's rollouts, the history's or the statistics' (tens of
milliseconds at start on a Pi).
"""

from importlib import import_module

# A module and a function share the name round_log: importing the module
# anywhere would set the package's attribute to the module and hide the
# function from __getattr__, so the function is bound here, after the module.
from ui.kivyfree.presenters.round_log import LogPage, round_log, round_log_pages

TYPE_CHECKING = False  # mypy reads it as true: it sees every name where it lives
if TYPE_CHECKING:
    from ui.kivyfree.presenters.cards import (
        CardFace,
        card_face,
    )
    from ui.kivyfree.presenters.common import (
        ARTIFACT_BG,
        DARK_TEXT,
        HAZARD_BG,
        HIDDEN,
        LIGHT_TEXT,
        MAX_NAME_COLUMNS,
        SEAT_COLOURS,
        TREASURE_BG,
        Colour,
        clipped_name,
        gem_pieces,
        hex_colour,
        pieces_text,
        rules_label,
        seat_colours,
        take_out_line,
    )
    from ui.kivyfree.presenters.game_over import (
        ChartView,
        FinalSeat,
        GameOverView,
        chart_view,
        game_over_view,
        place_name,
    )
    from ui.kivyfree.presenters.menu import (
        rules_reminder,
    )
    from ui.kivyfree.presenters.odds import (
        ChoiceView,
        choice_text,
        choice_view,
        odds_text,
    )
    from ui.kivyfree.presenters.picker import (
        PickerTile,
        PickerView,
        picker_view,
    )
    from ui.kivyfree.presenters.review import (
        ReviewRow,
        ReviewView,
        review_failed,
        review_view,
        review_working,
    )
    from ui.kivyfree.presenters.round_end import (
        RoundEndSeat,
        RoundEndView,
        round_end_view,
    )
    from ui.kivyfree.presenters.scores import (
        ScoreColumns,
    )
    from ui.kivyfree.presenters.seats import (
        BOT_MARK,
        DECK_CHOICES,
        SEAT_KINDS,
        bot_name,
        bots_label,
        deck_label,
        seat_kind_label,
    )
    from ui.kivyfree.presenters.setup import (
        RULE_CHOICES,
        resume_text,
        setup_problem,
    )
    from ui.kivyfree.presenters.table import (
        LONGEST_PATH,
        PathCardView,
        SeatView,
        TableView,
        countdown_text,
        longest_path,
        payout_pieces,
        prompt,
        table_view,
    )

#: Each name of the package and the module (of this package) that holds it.
_WHERE = {
    "ARTIFACT_BG": "common",
    "BOT_MARK": "seats",
    "DARK_TEXT": "common",
    "DECK_CHOICES": "seats",
    "HAZARD_BG": "common",
    "HIDDEN": "common",
    "LIGHT_TEXT": "common",
    "LONGEST_PATH": "table",
    "MAX_NAME_COLUMNS": "common",
    "RULE_CHOICES": "setup",
    "SEAT_COLOURS": "common",
    "SEAT_KINDS": "seats",
    "TREASURE_BG": "common",
    "CardFace": "cards",
    "ChartView": "game_over",
    "ChoiceView": "odds",
    "Colour": "common",
    "FinalSeat": "game_over",
    "GameOverView": "game_over",
    "PathCardView": "table",
    "PickerTile": "picker",
    "PickerView": "picker",
    "ReviewRow": "review",
    "ReviewView": "review",
    "RoundEndSeat": "round_end",
    "RoundEndView": "round_end",
    "ScoreColumns": "scores",
    "SeatView": "table",
    "TableView": "table",
    "bot_name": "seats",
    "bots_label": "seats",
    "card_face": "cards",
    "chart_view": "game_over",
    "choice_text": "odds",
    "choice_view": "odds",
    "clipped_name": "common",
    "countdown_text": "table",
    "deck_label": "seats",
    "game_over_view": "game_over",
    "gem_pieces": "common",
    "hex_colour": "common",
    "longest_path": "table",
    "odds_text": "odds",
    "payout_pieces": "table",
    "picker_view": "picker",
    "pieces_text": "common",
    "place_name": "game_over",
    "prompt": "table",
    "resume_text": "setup",
    "review_failed": "review",
    "review_view": "review",
    "review_working": "review",
    "round_end_view": "round_end",
    "rules_label": "common",
    "rules_reminder": "menu",
    "seat_colours": "common",
    "seat_kind_label": "seats",
    "setup_problem": "setup",
    "table_view": "table",
    "take_out_line": "common",
}


def __getattr__(name: str) -> object:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # asked once: a plain attribute from then on
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


__all__ = [
    "ARTIFACT_BG",
    "BOT_MARK",
    "DARK_TEXT",
    "DECK_CHOICES",
    "HAZARD_BG",
    "HIDDEN",
    "LIGHT_TEXT",
    "LONGEST_PATH",
    "MAX_NAME_COLUMNS",
    "RULE_CHOICES",
    "SEAT_COLOURS",
    "SEAT_KINDS",
    "TREASURE_BG",
    "CardFace",
    "ChartView",
    "ChoiceView",
    "Colour",
    "FinalSeat",
    "GameOverView",
    "LogPage",
    "PathCardView",
    "PickerTile",
    "PickerView",
    "ReviewRow",
    "ReviewView",
    "RoundEndSeat",
    "RoundEndView",
    "ScoreColumns",
    "SeatView",
    "TableView",
    "bot_name",
    "bots_label",
    "card_face",
    "chart_view",
    "choice_text",
    "choice_view",
    "clipped_name",
    "countdown_text",
    "deck_label",
    "game_over_view",
    "gem_pieces",
    "hex_colour",
    "longest_path",
    "odds_text",
    "payout_pieces",
    "picker_view",
    "pieces_text",
    "place_name",
    "prompt",
    "resume_text",
    "review_failed",
    "review_view",
    "review_working",
    "round_end_view",
    "round_log",
    "round_log_pages",
    "rules_label",
    "rules_reminder",
    "seat_colours",
    "seat_kind_label",
    "setup_problem",
    "table_view",
    "take_out_line",
]
