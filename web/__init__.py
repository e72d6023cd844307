"""The phones at the table: the device's own small web app on the local network.

An adapter beside :mod:`vision` and :mod:`hardware`: it knows the core
(:mod:`companion`) and the UI's Kivy-free words (:mod:`ui.words`,
:mod:`ui.i18n`, the presenters), never Kivy, the camera, the buttons or the
composition root (an import contract in ``pyproject.toml``).

- :mod:`web.views` makes what the pages show from the table, on the UI
  thread, in each viewer's language;
- :mod:`web.pairing` holds the seats' links (random tokens) and the turn a
  phone's choice is for;
- :mod:`web.server` serves the pages and their websockets with Starlette
  and uvicorn on a thread of its own, with its own event loop;
- :mod:`web.phones` is what the composition root builds: the server, turned
  on and off by the table, fed with the table's changes, handing the phones'
  choices to the inbox.

docs/web.md describes the pages, the messages, the pairing and the threat
model.
"""
