"""The UI's Kivy-free half: what the screens say and decide, with no window.

Words and sentences (:mod:`words`, :mod:`i18n`, :mod:`fault`, Japanese
lines in :mod:`lines`), which sound a game event asks for (:mod:`cues`)
and what the composition root hands the app (:mod:`controls`). With the
presenters (``ui.kivyfree.presenters``, ``ui.kivyfree.presenters.history``) it is all the
command line's ``replay``, ``stats`` and ``review`` and the phones' pages
(``web``) take from the UI, so none of them loads Kivy; an import contract
in ``pyproject.toml`` keeps it so.
"""
