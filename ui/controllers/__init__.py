"""The app's rooms: one small controller per area of the touchscreen.

:class:`~ui.app.CompanionApp` builds the screens and composes these; each
holds what its area shows and does, and reaches the others through the app:

- :mod:`~ui.controllers.play`: the game on the table as it is shown (every
  refresh, the bust's moment, the round's summary, the sounds, the countdown);
- :mod:`~ui.controllers.setup`: the set-up screen (a new game, a resumed one);
- :mod:`~ui.controllers.players`: the remembered players (their buttons, the
  players' window: seat, rename, merge);
- :mod:`~ui.controllers.history`: the games played and a past game, and the
  statistics;
- :mod:`~ui.controllers.cards`: the card picker (a card entered by hand, a
  path card corrected);
- :mod:`~ui.controllers.menus`: the in-game menu and what it opens (the
  round log, the review, the phones, the questions before leaving a game);
- :mod:`~ui.controllers.keys`: the keyboard;
- :mod:`~ui.controllers.demo`: the demo's simulated table and its screenshot.

What they show is decided by the presenters (Kivy-free); the controllers
only read the game, ask the presenters and open the widgets.
"""

from __future__ import annotations

from collections.abc import Callable


def confirm(question: str, yes: str, on_yes: Callable[[], None]) -> None:
    """Ask before an act that cannot be taken back (one stray tap must not do it)."""
    from ui.kivyfree.i18n import _
    from ui.menu import Confirm

    Confirm(question, yes, _("Cancel"), on_yes).open(animation=False)


def inform(message: str) -> None:
    """Say what happened, in a window that one tap closes."""
    from ui.kivyfree.i18n import _
    from ui.menu import Confirm

    Confirm(message, "", _("Back"), lambda: None).open(animation=False)
