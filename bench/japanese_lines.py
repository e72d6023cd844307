"""What breaking Japanese between phrases costs a label, against Kivy's own wrapping.

    python bench/japanese_lines.py [--runs 7]

On a real offscreen Kivy window, every string of the Japanese catalogue is
laid out and rendered into a texture in a 300 px wide label at 20 px, as a
wrapping label of the table does: once by Kivy's own text provider (the
baseline: it breaks before any character), once by the provider
``ui.fonts.install_line_breaks`` gives Kivy's labels (BudouX's phrases,
kinsoku). The first pass of each warms the caches (BudouX's parse and
Kivy's glyph extents are kept per text, as in the app, where a label is
drawn again far more often than its text changes). Medians of ``--runs``,
the two interleaved so a busy moment of the machine falls on both alike.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))

from ui.kivy_setup import configure

configure(quiet=True, fast=True)

from babel.messages.pofile import read_po  # noqa: E402
from kivy.core.window import Window  # noqa: E402, F401  (the window Kivy's text needs)

from ui import fonts  # noqa: E402
from ui.kivyfree import i18n  # noqa: E402

WIDTH, SIZE = 300, 20


def texts() -> list[str]:
    po = Path(i18n.LOCALE_DIR) / "ja" / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    with po.open("rb") as fp:
        catalogue = read_po(fp, locale="ja")
    said = []
    for m in catalogue:
        if m.id:
            forms = (m.string,) if isinstance(m.string, str) else m.string
            said += [f for f in forms if f and any(fonts.wide(c) for c in f)]
    return said


def render_all(provider: type, said: list[str]) -> float:
    """Seconds to lay out and render every text in a wrapping label of ``provider``."""
    started = time.perf_counter()
    for text in said:
        label = provider(text=text, font_size=SIZE, text_size=(WIDTH, None))
        label.refresh()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    i18n.set_language("ja")
    fonts.register_fonts()  # the font, and the phrase breaks in Kivy's labels
    import kivy.uix.label

    phrased = kivy.uix.label.CoreLabel
    plain = phrased.__mro__[1]  # Kivy's own provider, under ours
    said = texts()
    for provider in (plain, phrased):
        render_all(provider, said)  # warm
    times: dict[str, list[float]] = {"plain": [], "phrases": []}
    for _run in range(runs):
        times["plain"].append(render_all(plain, said))
        times["phrases"].append(render_all(phrased, said))
    base = statistics.median(times["plain"])
    ours = statistics.median(times["phrases"])
    per = 1e6 / len(said)
    print(f"{len(said)} Japanese strings, {WIDTH} px at {SIZE} px, median of {runs} runs")
    print(f"  Kivy's own wrapping      {base * per:7.0f} us a label")
    print(f"  between phrases (ours)   {ours * per:7.0f} us a label   x{ours / base:.2f}")


if __name__ == "__main__":
    main()
