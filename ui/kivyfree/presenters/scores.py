"""The score table's columns, the round's summary's and the final scores'.

State in, frozen view model out; no Kivy.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine import State
from ui.kivyfree.i18n import _


@dataclass(frozen=True)
class ScoreColumns:
    """The headers of the end screens' score columns, in the table's language.

    The signs say how a score is made, so nobody wonders whether a tent
    holds the artifacts: ``tent`` (gems only) ``+ artifacts`` ``= score``.
    ``artifacts`` is "" under rules without artifacts (Diamant): no such
    column at all then.
    """

    seat: str
    tent: str
    artifacts: str
    score: str
    round: str = ""  # "this round": the round summary only


def score_columns(state: State, *, this_round: bool) -> ScoreColumns:
    return ScoreColumns(
        seat=_("seat"),
        tent=_("tent"),
        # The signs are the same in every language; only the words are translated.
        artifacts="+ " + _("artifacts") if state.rules.artifacts else "",
        score="= " + _("score"),
        round=_("this round") if this_round else "",
    )
