"""The app on an offscreen Kivy window with its phones' server on loopback, for
the phones' screen and browser tests. Import it after ``ui.kivy_setup.configure()``.
"""

from __future__ import annotations

from collections.abc import Iterator

from ui_helpers import frames

from companion.games import Games
from companion.inbox import Inbox
from ui import i18n
from ui.app import CompanionApp, post
from ui.controls import Controls
from web.phones import Phones


def phones_app(games: Games) -> Iterator[CompanionApp]:
    """The app of ``games`` with phones (off), its choices posted as the device's are."""
    i18n.set_language("en")
    inbox = Inbox(games, post)  # the app's own post: Kivy's clock, as on the device
    phones = Phones(inbox, post, addresses=("127.0.0.1",), port=0, language=i18n.language,
                    hidden_tents=games.hidden_tents, odds=games.odds_shown)
    app = CompanionApp(games, Controls(phones=phones, close=phones.close))
    app._run_prepare()
    frames(3)
    yield app
    app.stop()
    frames(1)
