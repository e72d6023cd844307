"""The games' summaries made off the UI thread (the first start after a migration,
thousands of games to replay): what the set-up and history screens say meanwhile,
and the set-up screen brought up to date once they are all made.

The summaries themselves are made by a thread of the composition root
(:func:`incan_companion.commands.app.build_history_later`); these run on the UI
thread, posted by it.
"""

from __future__ import annotations

from typing import Any

from ui.kivyfree.presenters.history import building_text

__all__ = ["done", "progress"]


def progress(app: Any, made: int, of: int) -> None:
    """``made`` of ``of`` games' summaries are kept: the screens say so, and the
    statistics (which need them all) wait."""
    app.games.building = (made, of)
    _note(app, building_text(made, of))


def done(app: Any) -> None:
    """Every summary is made: the unfinished game is known again (and offered)."""
    app.games.building = None
    _note(app, "")
    if app.on_screen("setup"):
        app.setup.show()


def _note(app: Any, text: str) -> None:
    if app.sm is None:
        return  # not built yet (or stopped)
    app.setup_screen.history_note = text
    app.history_screen.history_note = text
