"""What each screen shows, as plain data: state in, frozen view model out.

One module per screen (the history and the statistics in :mod:`history`);
the names are all here too, so ``from ui.kivyfree.presenters import X`` finds
each where it lives. No Kivy import.
"""

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
from ui.kivyfree.presenters.menu import rules_reminder
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
    review_view,
    review_working,
)
from ui.kivyfree.presenters.round_end import (
    RoundEndSeat,
    RoundEndView,
    round_end_view,
)
from ui.kivyfree.presenters.round_log import (
    LogPage,
    round_log,
    round_log_pages,
)
from ui.kivyfree.presenters.scores import ScoreColumns
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
