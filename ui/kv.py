"""The .kv files: each screen's is loaded when the screen is first built.

Kivy's parser is slow and its rules are global, so a file is loaded once per
process, and only when something that uses it is made: start-up reads the
files of the screen it shows, not those of the final scores or the menu.
The shared widgets' file comes first, as every screen uses it; the table's pieces
(pieces.kv) come with the table and the picker.
"""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder

KV_DIR = Path(__file__).resolve().parent
SHARED = "widgets.kv"
_loaded: set[str] = set()


def load(*names: str) -> None:
    """Load the shared widgets' file and ``names`` (files beside this module), each once."""
    import ui.widgets  # noqa: F401  (registers the widget classes the rules name)

    for name in (SHARED, *names):
        if name not in _loaded:
            Builder.load_file(str(KV_DIR / name))
            _loaded.add(name)
