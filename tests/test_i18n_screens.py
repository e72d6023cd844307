"""The screens in every language, offscreen at 800x480: screenshots to look at,
and a check that no label's text is cut off or spills out of its widget.

Kivy allows one window per process, so each language renders in its own
process: this file run as a script (``python tests/test_i18n_screens.py pl``)
plays a game on the real app and writes ``out/screenshots/i18n/<code>-*.png``
and a JSON list of the labels whose text does not fit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "out" / "screenshots" / "i18n"
LANGUAGES = ("en", "pl", "es", "ja")
# Long-ish real names, so the seat column and "waiting for" lines are tested too.
NAMES = ("Agnieszka", "Bartłomiej", "Carmen", "Dee", "Eli", "Fumiko", "Gus", "Hal")


_reports: dict[str, dict[str, Any]] = {}


def report(code: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Render ``code``'s screens in a process of their own, once per test run."""
    if code not in _reports:
        work = tmp_path_factory.mktemp(f"screens-{code}")
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "KIVY_NO_ARGS": "1",
            "KIVY_NO_CONSOLELOG": "1",
            "KIVY_NO_FILELOG": "1",
            "KIVY_HOME": str(work / "kivy-home"),
        }
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), code, str(work)],
            capture_output=True, text=True, env=env, timeout=120, check=False, cwd=ROOT,
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        _reports[code] = json.loads((work / "report.json").read_text(encoding="utf-8"))
    return _reports[code]


@pytest.mark.parametrize("code", LANGUAGES)
def test_screens_render_in_every_language(
    code: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The screenshots to look at: out/screenshots/i18n/<code>-*.png."""
    got = report(code, tmp_path_factory)
    assert got["font"], "the all-languages font was not registered"
    assert len(got["shots"]) == 6
    for name in got["shots"]:
        shot = SHOTS / name
        assert shot.is_file() and shot.stat().st_size > 5000, shot


@pytest.mark.parametrize("code", LANGUAGES)
def test_no_text_is_cut_off_in_any_language(
    code: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    got = report(code, tmp_path_factory)
    seen: set[str] = set()
    lines = []
    for o in got["overflow"]:
        if o["text"] in seen:
            continue
        seen.add(o["text"])
        lines.append(f"{o['screen']}: {o['widget']}: {o['text']!r}: {o['why']} "
                     f"(needs {o['need']}, has {o['have']})")
    assert not lines, f"text does not fit in {code}:\n" + "\n".join(lines)


# --- the part that runs in its own process -----------------------------------------------


def _frames(n: int = 3) -> None:
    from kivy.base import EventLoop

    for _i in range(n):
        EventLoop.idle()


def _overflow(screen_name: str, root: Any) -> list[dict[str, Any]]:
    """Labels on show whose text is cut or spills out of the widget.

    Measured with Kivy's public text API, in the label's own font: the full
    text on one line (``get_extents``) against the width the label has, and,
    for a label that wraps, the full text laid out with no height limit
    against the texture the label shows. So a "…" from ``shorten``, a line
    dropped by ``max_lines`` or by a fixed height, a Latin word broken in two
    and a wrapped text taller than its widget are all found.
    """
    from kivy.core.text import Label as CoreLabel
    from kivy.uix.label import Label

    from ui.i18n import _

    by_name = set(NAMES) | {_("{name} took it").format(name=n) for n in NAMES}
    found: list[dict[str, Any]] = []
    for w in root.walk(restrict=True):
        if not isinstance(w, Label) or not w.text.strip() or w.width < 2 or w.height < 2:
            continue
        if _hidden(w) or (w.text in by_name and "game-over" not in screen_name):
            # a seat's name is shortened with "…" by design when long, but
            # never on the final scores
            continue
        w.texture_update()
        font = {"font_size": w.font_size, "font_name": w.font_name, "bold": w.bold,
                "italic": w.italic}
        measure = CoreLabel(text=w.text, **font)
        pad_left, _pad_top, pad_right, _pad_bottom = (float(p) for p in w.padding)
        one_line = max(measure.get_extents(line)[0] for line in w.text.split("\n"))
        wrap_width = w.text_size[0]
        if not wrap_width:  # one line as wide as its text: it must fit the widget
            need = one_line + pad_left + pad_right
            if need > w.width + 2:
                found.append(_entry(screen_name, w, "wider than its widget",
                                    (need, w.texture_size[1]), w.size))
            continue
        room = wrap_width - pad_left - pad_right
        if w.shorten:  # one line: Kivy puts "…" in when it is wider than its room
            whole = measure.get_extents(" ".join(w.text.split("\n")))[0]
            if whole > int(room - 2):  # shorten's own 2 px margin
                found.append(_entry(screen_name, w, "shortened with …",
                                    (whole + pad_left + pad_right, w.texture_size[1]),
                                    w.size))
            continue
        broken = next((word for word in w.text.split()
                       if all(ord(c) < 0x3000 for c in word)
                       and measure.get_extents(word)[0] > room), None)
        if broken is not None:
            found.append(_entry(screen_name, w, f"the word {broken!r} is broken",
                                (measure.get_extents(broken)[0], w.texture_size[1]), w.size))
            continue
        if not (one_line > room or "\n" in w.text.strip()):
            continue  # one line, and it fits its width
        full = CoreLabel(text=w.text, text_size=(wrap_width, None), padding=tuple(w.padding),
                         halign=w.halign, line_height=w.line_height, strip=w.strip, **font)
        full.refresh()
        if full.size[1] > w.texture_size[1] + 1:  # max_lines or the height dropped lines
            found.append(_entry(screen_name, w, "lines cut off", full.size, w.texture_size))
            continue
        if w.texture_size[1] > w.height + 4:
            found.append(_entry(screen_name, w, "taller than its widget",
                                w.texture_size, w.size))
    return found


def _hidden(w: Any) -> bool:
    while w is not None:
        if getattr(w, "opacity", 1) == 0:
            return True
        w = w.parent if w.parent is not w else None
    return False


def _entry(screen: str, w: Any, why: str, need: Any, have: Any) -> dict[str, Any]:
    path = []
    node = w
    while node is not None and len(path) < 4:
        ident = next((k for k, v in getattr(node.parent, "ids", {}).items() if v is node), "")
        path.append(type(node).__name__ + (f"#{ident}" if ident else ""))
        node = node.parent
    return {
        "screen": screen,
        "widget": " < ".join(path),
        "text": w.text,
        "why": why,
        "need": [round(float(x)) for x in need],
        "have": [round(float(x)) for x in have],
    }


def render(code: str, work: Path) -> dict[str, Any]:
    from ui.kivy_setup import configure

    configure(quiet=True, fast=True)

    from ui import i18n

    i18n.set_language(code)
    from ui.fonts import register_fonts

    font = register_fonts()

    from companion.choices import Choice
    from companion.engine import Phase
    from companion.events import Reveal, Start
    from companion.games import Games
    from companion.memory import MemoryStore
    from companion.notices import NoCardToTurn
    from companion.simulate import VirtualClock
    from ui.app import CompanionApp

    countdown = 3.0
    clock = VirtualClock(0.0)
    games = Games(MemoryStore(), countdown=countdown, clock=clock)
    app = CompanionApp(games)
    app._run_prepare()
    _frames()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for old in SHOTS.glob(f"{code}-*.png"):
        old.unlink()
    shots: list[str] = []
    overflow: list[dict[str, Any]] = []

    def shot(name: str) -> None:
        _frames(4)
        assert app.sm is not None
        screen = app.sm.current_screen
        overflow.extend(_overflow(f"{code}-{name}", screen))
        from kivy.core.window import Window

        for popup in [c for c in Window.children if c is not app.sm]:
            overflow.extend(_overflow(f"{code}-{name} (popup)", popup))
        app.save_screenshot(SHOTS / f"{code}-{name}.png")
        shots.append(f"{code}-{name}.png")

    # 1. Set-up: eight seats, one problem shown.
    setup = app.setup_screen
    setup.seat_count = 8
    _frames()
    for i, name in enumerate(NAMES[:7]):
        setup.ids[f"name{i}"].text = name
    setup.ids["name7"].text = ""
    setup.start()  # refused: seat 8 has no name, and the screen says so
    shot("1-setup")

    # 2. The table: eight seats, a long path, a camp with an artifact, choices due.
    table = games.new_game(Start(NAMES, "incan-gold"))
    app.attach(table)

    def reveal(camp: tuple[int, ...]) -> None:
        """Every seat due chooses (the ``camp`` seats camp) and the countdown runs out."""
        for seat in sorted(table.collector.due):
            assert table.press(seat, Choice.CAMP if seat in camp else Choice.TORCH), seat
        clock.advance(countdown)
        assert table.tick()
        assert table.session.log[-1] == Reveal(camp)

    cards = ["T1", "A1", "T5A", "SNAKE1", "T11A", "T7A", "SPIDER1", "T9", "T13", "MUMMY1",
             "T14", "T2", "T3", "FIRE1", "T15", "T4"]  # fmt: skip
    for i, c in enumerate(cards):
        assert table.enter_card(c), c
        if i < len(cards) - 1:
            camp = (1,) if c == "T9" else (4, 5) if c == "T14" else ()
            reveal(camp)
            if c == "T9":  # one seat leaves alone with the artifact: a long event line
                _frames()
                shot("2-table-camp")
    table.press(0, Choice.TORCH)
    table.press(2, Choice.CAMP)
    table.say(NoCardToTurn(), "warning")
    _frames()
    shot("3-table")
    assert table.state.phase is Phase.CHOOSE
    app.open_entry_picker()  # the card picker over the table
    shot("4-picker")
    if app.picker is not None:
        app.picker.dismiss()
    _frames()

    # 3. A bust with gems lost, and 4. the round end screen.
    reveal((3,))
    assert table.enter_card("SNAKE2")
    _frames()
    shot("5-round-end")

    # 5. Rounds 2 to 5, then the game end.
    for card in ("T5B", "T7B", "T11B", "T17"):
        assert table.enter_card(card), card
        reveal(tuple(table.state.due))
    _frames()
    assert table.state.phase is Phase.GAME_OVER
    # Round 5 has its summary too; its button leads to the final scores.
    assert app.sm is not None and app.sm.current == "round_end"
    app.round_end_screen.ids.next_button.trigger_action(0)
    _frames()
    assert app.sm.current == "game_over"
    shot("6-game-over")

    app.stop()
    return {
        "font": font.name if font else "",
        "shots": shots,
        "overflow": overflow,
    }


if __name__ == "__main__":
    language, out = sys.argv[1], Path(sys.argv[2])
    result = render(language, out)
    (out / "report.json").write_text(json.dumps(result, ensure_ascii=False, indent=1),
                                     encoding="utf-8")
