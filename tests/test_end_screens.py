"""The end screens: the round summary (after every round, round 5 too) and the final scores.

Presenter tests: hand-built games in, exactly the words and numbers out.
Render tests: the real app offscreen at 800x480 shows both screens with 3,
4, 5 and 8 seats, the longest names and every language; no text may be
cut, spill out of the window or over another, be smaller than a metre
allows, and every button must be a finger's height. Kivy allows one window
per process, so the rendering runs in a process of its own: this file run
as a script (``python tests/test_end_screens.py OUT_DIR``) writes
``OUT_DIR/report.json`` and, with ``INCAN_SCREENSHOTS=1``, the screenshots to
``$INCAN_SHOTS`` (default ``out/screenshots/end/``), ``<code>-<seats>-<screen>.png``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # helpers, as a script too

from helpers import kivy_env, paced, play

from companion.engine import Phase
from companion.events import Draw, Event, Reveal, Start
from companion.session import Session
from ui.kivyfree import i18n
from ui.kivyfree.presenters import HIDDEN, chart_view, game_over_view, round_end_view

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "pl", "es", "ja")
SEAT_COUNTS = (3, 4, 5, 8)
SHOT_SEATS = (4, 8)
#: Screenshots are taken (and those frames drawn) with INCAN_SCREENSHOTS=1 only:
#: pictures for a person to look at, which no check here reads.
SHOOTING = os.environ.get("INCAN_SCREENSHOTS") == "1"
# Sixteen characters in the widest letters there are: more than the set-up screen lets
# a name have (MAX_NAME_COLUMNS); a name from a log written elsewhere is shown cut to
# those 12 columns, which these check.
LONG_NAMES = (
    "\uff37" * 16,  # fullwidth W
    "Małgorzata-Ździe",
    "W" * 16,
    "\uff2d" * 16,  # fullwidth M
    "M" * 16,
    "渡辺" + "\uff37" * 14,
    "Bartłomiej-Wójci",
    "José María Gómez",
)
Step = str | list[int]


@pytest.fixture
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


# --- the round summary ------------------------------------------------------------------


def test_round_summary_shows_tent_artifacts_and_score(english: None) -> None:
    # Ana leaves alone with artifact 1 (worth 5); Bo and Cy split the 5 (2 each).
    s = play(3, "incan-gold", "A1", [0], "T5A", [1, 2]).state
    v = round_end_view(s)
    assert v.heading == "Round 1 is over"
    assert (v.columns.seat, v.columns.round, v.columns.tent, v.columns.artifacts,
            v.columns.score) == ("seat", "this round", "tent", "+ artifacts", "= score")
    assert [(x.name, x.result, x.banked, x.artifacts, x.new_artifacts, x.score)
            for x in v.seats] == [
        ("Ana", "kept 0 gems", "0", "5", "5", "5"),
        ("Bo", "kept 2 gems", "2", "", "", "2"),
        ("Cy", "kept 2 gems", "2", "", "", "2"),
    ]  # fmt: skip
    assert (v.button, v.goes_to) == ("Show the table", "table")


def test_an_artifact_of_an_earlier_round_is_not_new(english: None) -> None:
    # Printed values (2020): artifact 1 is worth 5, artifact 2 is worth 7.
    s = play(3, "incan-gold-2020", "A1", [0], "T3", [1, 2], "A2", [0], "T4", [1, 2]).state
    assert s.round == 2 and s.phase is Phase.ROUND_OVER
    ana = round_end_view(s).seats[0]
    assert (ana.banked, ana.artifacts, ana.new_artifacts, ana.score) == ("0", "5 + 7", "7", "12")


def test_a_bust_in_the_summary(english: None) -> None:
    s = play(3, "incan-gold", "T9", [0], "A1", [], "FIRE1", [], "FIRE2").state
    v = round_end_view(s)
    assert [(x.result, x.busted, x.banked, x.score) for x in v.seats] == [
        ("kept 3 gems", False, "3", "3"),
        ("busted, lost 3", True, "0", "0"),
        ("busted, lost 3", True, "0", "0"),
    ]
    assert v.remove == "Take one fire card (FIRE2) out of the game."
    assert v.lost == "Left on the path and gone for good: artifact 1."
    assert v.next_artifact == "Shuffle artifact 2 (A2) into the deck for round 2."


def test_hidden_tents_hide_tent_and_score_until_the_game_is_over(english: None) -> None:
    steps: list[Step] = ["A1", [0], "T5A", [1, 2]]
    s = play(3, "incan-gold", *steps).state
    ana = round_end_view(s, hidden_tents=True).seats[0]
    # What a seat kept this round and its artifacts are seen by all; the totals are not.
    assert (ana.result, ana.banked, ana.artifacts, ana.score) == (
        "kept 0 gems", HIDDEN, "5", HIDDEN)
    steps += ["T3", [0, 1, 2]] * 4
    s = play(3, "incan-gold", *steps).state
    assert s.phase is Phase.GAME_OVER
    ana = round_end_view(s, hidden_tents=True).seats[0]
    assert (ana.result, ana.banked, ana.artifacts, ana.score) == ("kept 1 gem", "4", "5", "9")


def test_the_summary_of_round_5_leads_to_the_final_scores(english: None) -> None:
    s = play(3, "incan-gold", *(["T3", [0, 1, 2]] * 5)).state
    assert s.phase is Phase.GAME_OVER
    v = round_end_view(s)
    assert v.heading == "Round 5 is over"
    assert (v.button, v.goes_to) == ("Final scores", "game_over")
    assert v.next_artifact == ""
    for code in LANGUAGES:
        i18n.set_language(code)
        assert round_end_view(s).button == i18n.translations(code).gettext("Final scores")
    before = play(3, "incan-gold", *(["T3", [0, 1, 2]] * 4)).state
    assert before.phase is Phase.ROUND_OVER and before.round == 4
    i18n.set_language("en")
    assert (round_end_view(before).button, round_end_view(before).goes_to) == (
        "Show the table", "table")


def test_diamant_has_no_artifacts_column(english: None) -> None:
    s = play(3, "diamant", "T9", [0, 1, 2]).state
    v = round_end_view(s)
    assert v.columns.artifacts == ""
    assert v.next_artifact == ""
    assert [(x.banked, x.artifacts, x.score) for x in v.seats] == [("3", "", "3")] * 3
    s = play(3, "diamant", *(["T9", [0, 1, 2]] * 5)).state
    assert game_over_view(s).columns.artifacts == ""
    assert game_over_view(s).columns.score == "= score"


# --- the final scores -------------------------------------------------------------------------

# Ana carries artifact 1 (5) out; Bo and Cy 2 each. Round 2: Bo leaves alone with 3, the
# second snakes bust Ana and Cy. Then 1 each in rounds 3 to 5: Ana 3 + 5 = 8, Bo 8, Cy 5.
TIED_TOP: list[Step] = [
    "A1", [0], "T5A", [1, 2],
    "T9", [1], "SNAKE1", [], "SNAKE2",
    *(["T3", [0, 1, 2]] * 3),
]  # fmt: skip


def test_two_seats_tie_on_score_and_the_artifact_decides(english: None) -> None:
    s = play(3, "incan-gold", *TIED_TOP).state
    assert s.phase is Phase.GAME_OVER
    v = game_over_view(s)
    assert v.heading == "Game over"
    assert [(x.rank, x.place, x.name, x.banked, x.artifacts, x.score, x.winner)
            for x in v.seats] == [
        ("1st", 1, "Ana", "3", "5", "8", True),
        ("2nd", 2, "Bo", "8", "", "8", False),
        ("3rd", 3, "Cy", "5", "", "5", False),
    ]  # fmt: skip
    assert v.winners == "Winner: Ana"
    assert v.tie_break == "Tied on 8; more artifacts decide."
    assert (v.columns.seat, v.columns.tent, v.columns.artifacts, v.columns.score) == (
        "seat", "tent", "+ artifacts", "= score")


def test_the_chart_plots_scores_with_the_artifacts(english: None) -> None:
    s = play(3, "incan-gold", *TIED_TOP).state
    chart = chart_view(s)
    assert chart.series == ((5, 5, 6, 7, 8), (2, 5, 6, 7, 8), (2, 2, 3, 4, 5))
    # The tents alone would end Ana's line at 3, not at her score of 8.
    assert [row[0] for row in s.history] == [0, 0, 1, 2, 3]
    assert chart.series == tuple(zip(*s.score_history, strict=True))
    assert (chart.rounds, chart.top, chart.labels) == (5, 10, ("Ana", "Bo", "Cy"))
    assert game_over_view(s).chart == chart


def test_the_chart_draws_a_score_where_it_is_and_spreads_only_equal_ones() -> None:
    from ui.widgets import apart

    # TIED_TOP's lines: Ana 5 5 6 7 8, Bo 2 5 6 7 8, Cy 2 2 3 4 5. Equal scores
    # after a round are spread a step apart around their value; any other
    # score is drawn at its value (every seat was shifted once: the first of
    # eight 6 px, half a gem, below its score).
    assert apart(((5, 5, 6, 7, 8), (2, 5, 6, 7, 8), (2, 2, 3, 4, 5))) == [
        [0, -0.5, -0.5, -0.5, -0.5],
        [-0.5, 0.5, 0.5, 0.5, 0.5],
        [0.5, 0, 0, 0, 0],
    ]
    eight = [(13,), (2,), (2,), (2,), (2,), (2,), (2,), (2,)]
    assert [o[0] for o in apart(eight)] == [0, -3, -2, -1, 0, 1, 2, 3]
    # Nobody has less than nothing: seats on 0 are spread up from the axis.
    nothing = [(11, 11), (0, 0), (0, 2), (0, 2)]
    assert apart(nothing) == [[0, 0], [0, 0], [1, -0.5], [2, 0.5]]


def test_a_three_way_tie_on_score_broken_by_the_artifact(english: None) -> None:
    steps: list[Step] = [
        "A1", [0], "T11A", [1, 2],  # Ana carries A1 out (5); Bo and Cy 5 each, 1 stays
        *(["T3", [0, 1, 2]] * 4),  # then 1 each in every round
    ]  # fmt: skip
    v = game_over_view(play(3, "incan-gold", *steps).state)
    assert [(x.rank, x.name, x.banked, x.artifacts, x.score, x.winner) for x in v.seats] == [
        ("1st", "Ana", "4", "5", "9", True),
        ("2nd", "Bo", "9", "", "9", False),
        ("2nd", "Cy", "9", "", "9", False),
    ]
    assert v.winners == "Winner: Ana"
    assert v.tie_break == "Tied on 9; more artifacts decide."


def test_three_tied_two_on_artifacts_too_share_the_win(english: None) -> None:
    steps: list[Step] = [
        "A1", [0], "T3", [1, 2],  # Ana carries A1 out (5); Bo and Cy 1 each
        "A2", [1], "T3", [0, 2],  # Bo carries A2 out (5); Ana and Cy 1 each
        "T5A", [0, 1], "T5B", [2],  # 1 each and 1 each of the 2 left; Cy 1 + 5 alone
        *(["T3", [0, 1, 2]] * 2),  # then 1 each in rounds 4 and 5: 10, 10 and 10
    ]  # fmt: skip
    v = game_over_view(play(3, "incan-gold", *steps).state)
    assert [(x.rank, x.name, x.banked, x.artifacts, x.score, x.winner) for x in v.seats] == [
        ("1st", "Ana", "5", "5", "10", True),
        ("1st", "Bo", "5", "5", "10", True),
        ("3rd", "Cy", "10", "", "10", False),
    ]
    assert v.winners == "Winners: Ana and Bo"
    # It said "Tied on 10 and on artifacts: a shared win", though Cy lost on them.
    assert v.tie_break == ("Tied on 10; more artifacts decide, and those tied on them too "
                           "share the win.")


def test_a_three_way_tie_is_a_shared_win(english: None) -> None:
    v = game_over_view(play(3, "diamant", *(["T3", [0, 1, 2]] * 5)).state)
    assert [(x.rank, x.name, x.score, x.winner) for x in v.seats] == [
        ("1st", "Ana", "5", True), ("1st", "Bo", "5", True), ("1st", "Cy", "5", True)]
    assert v.winners == "Winners: Ana, Bo and Cy"
    assert v.tie_break == "Tied on 5: a shared win."  # Diamant has no artifacts to count
    assert v.chart.series == ((1, 2, 3, 4, 5),) * 3


def test_a_shared_place_below_the_winner(english: None) -> None:
    # Ana leaves alone with the 9 and artifact 1 in round 1; then 1 each for the others.
    steps: list[Step] = ["A1", [0], "T9", [1, 2, 3], *(["T4", [0, 1, 2, 3]] * 4)]
    v = game_over_view(play(4, "incan-gold", *steps).state)
    assert [(x.rank, x.name, x.banked, x.artifacts, x.score) for x in v.seats] == [
        ("1st", "Ana", "4", "5", "9"),
        ("2nd", "Bo", "7", "", "7"),
        ("2nd", "Cy", "7", "", "7"),
        ("2nd", "Dee", "7", "", "7"),
    ]
    assert v.winners == "Winner: Ana"
    assert v.tie_break == "Tied on 7 and on artifacts: a shared place."


# --- on the screen, in every language -------------------------------------------------------

_report: dict[str, Any] = {}


def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Render every case in a process of its own, once per test run."""
    if not _report:
        work = tmp_path_factory.mktemp("end-screens")
        env = kivy_env(work / "kivy-home")
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), str(work)],
            capture_output=True, text=True, env=env, timeout=paced(300), check=False, cwd=ROOT,
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        _report.update(json.loads((work / "report.json").read_text(encoding="utf-8")))
    return _report


@pytest.mark.parametrize("code", LANGUAGES)
def test_nothing_is_cut_and_every_size_holds(
    code: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    got = rendered(tmp_path_factory)
    cases = [c for c in got["cases"] if c.startswith(f"{code}-")]
    # every seat count: the summaries of rounds 1 and 5 and the final scores, and
    # under Diamant the summary of round 5 and the final scores
    assert len(cases) == len(SEAT_COUNTS) * 5, cases
    problems = [f"{p['case']}: {p['what']}: {p['text']!r} {p['detail']}"
                for p in got["problems"] if p["case"].startswith(f"{code}-")]
    assert not problems, "\n".join(problems)


@pytest.mark.skipif(not SHOOTING, reason="INCAN_SCREENSHOTS=1 takes the screenshots")
@pytest.mark.parametrize("code", LANGUAGES)
def test_screenshots_of_both_screens(code: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    got = rendered(tmp_path_factory)
    shots = [Path(p) for p in got["shots"] if Path(p).name.startswith(f"{code}-")]
    assert len(shots) == len(SHOT_SEATS) * 5, shots
    for shot in shots:
        assert shot.is_file() and shot.stat().st_size > 5000, shot


def test_the_check_can_fail(tmp_path_factory: pytest.TempPathFactory) -> None:
    got = rendered(tmp_path_factory)
    found = {p["what"] for p in got["problems"] if p["case"] == "control"}
    assert found >= {"wider than its widget", "outside the window", "smaller than 18 sp",
                     "a button lower than 48 dp", "over another text"}, found
    column = [p for p in got["problems"] if p["case"] == "control" and "[b]" in p["text"]]
    assert [p["what"] for p in column] == ["wider than its widget"], column


def test_no_table_text_is_drawn_below_its_size_even_for_a_frame(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # A cell made at Kivy's default size (15 sp) and sized at the next layout
    # was drawn once at 15 sp first, opening two font faces for nothing.
    assert rendered(tmp_path_factory)["small"] == []


def test_tables_shown_again_leave_no_widget_for_the_cycle_collector(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    assert rendered(tmp_path_factory)["left"] == []


def test_the_buttons_lead_where_they_say(tmp_path_factory: pytest.TempPathFactory) -> None:
    got = rendered(tmp_path_factory)
    assert got["taps"] == {
        "round 1: Show the table": "table",
        "round 5: Final scores": "game_over",
        "Show the table": "table",
        "Round summary": "round_end",
        "New game": "setup",
    }


# --- the part that runs in its own process -----------------------------------------------


def session(names: tuple[str, ...], rules: str, steps: list[Step]) -> Session:
    s = Session.start(Start(names, rules))
    for step in steps:
        event: Event = Reveal(tuple(step)) if isinstance(step, list) else Draw(step)
        s.apply(event)
    return s


# Round 1 at its fullest: two seats camp together, so artifact 1 stays on the path and is
# lost; the second snakes bust the rest: three things to do before round 2.
BUSY_ROUND: list[Step] = ["T14", [], "A1", [0, 1], "T15", [], "SNAKE1", [], "SNAKE2"]


def whole_game(n: int) -> list[Step]:
    """Five rounds; seat 0 carries every artifact out (the widest artifacts column)."""
    steps: list[Step] = []
    for r in range(1, 6):
        steps += [f"A{r}", [0], "T14" if r % 2 else "T15", [1], "T3", list(range(2, n))]
    return steps


def render(work: Path) -> dict[str, Any]:
    from ui.kivy_setup import configure

    configure(quiet=True, fast=True)
    from ui.fonts import register_fonts

    register_fonts()

    from kivy.core.window import Window
    from kivy.metrics import dp, sp
    from kivy.uix.button import Button
    from kivy.uix.label import Label
    from screens_game import _frames as run_frames
    from screens_game import _overflow
    from ui_helpers import find_button, widgets_left_for_the_collector
    from ui_helpers import tap as finger

    from companion.games import Games
    from companion.memory import MemoryStore
    from ui.app import CompanionApp
    from ui.round_end_screen import CellLabel, HeaderLabel, ScoreTable
    from ui.widgets import Chart

    shots_dir = Path(os.environ.get("INCAN_SHOTS", ROOT / "out" / "screenshots" / "end"))
    shots_dir.mkdir(parents=True, exist_ok=True)
    app = CompanionApp(Games(MemoryStore()))
    app._run_prepare()

    def frames(n: int = 4, *, draw: bool = False) -> None:
        # Drawn only for a screenshot: the checks read the layout and the labels'
        # textures (drawing was half the time).
        run_frames(n, draw=draw)

    problems: list[dict[str, Any]] = []
    # A table's texts drawn in any frame below their least size (the check
    # below sees only the frame it looks at): each such size opens a font face.
    small: list[str] = []

    def watch(cls: Any, least: float) -> None:
        drawn = cls.texture_update

        def texture_update(self: Any, *args: Any) -> None:  # Kivy's triggers call it by name
            if self.text.strip() and self.font_size < sp(least) - 0.01:
                size = self.font_size / sp(1)
                small.append(f"{type(self).__name__} {self.text!r} at {size:g} sp")
            drawn(self, *args)

        cls.texture_update = texture_update

    watch(CellLabel, 18)
    watch(HeaderLabel, 14)
    cases: list[str] = []
    shots: list[str] = []
    taps: dict[str, str] = {}

    def problem(case: str, what: str, text: str, detail: str = "") -> None:
        problems.append({"case": case, "what": what, "text": text, "detail": detail})

    def check(case: str, screen: Any) -> None:
        # "game-over" in the name: the shared check lets no name be shortened here
        for o in _overflow(f"{case} game-over", screen):
            problem(case, o["why"], o["text"], f"needs {o['need']}, has {o['have']}")
        boxes = []
        for w in screen.walk(restrict=True):
            if not isinstance(w, Label) or not w.text.strip() or w.opacity == 0:
                continue
            x, y = w.to_window(*w.pos)
            if x < -1 or y < -1 or x + w.width > Window.width + 1 or \
                    y + w.height > Window.height + 1:
                problem(case, "outside the window", w.text, f"at {(x, y)} size {w.size}")
            if w.texture_size[1] > w.height + 1:
                problem(case, "taller than its widget", w.text, f"{w.texture_size} in {w.size}")
            least = 14 if isinstance(w, HeaderLabel) or isinstance(w.parent, Chart) else 18
            if w.font_size < sp(least) - 0.01:
                problem(case, f"smaller than {least} sp", w.text, f"{w.font_size / sp(1):.1f}")
            if isinstance(w, Button) and w.height < dp(48) - 0.01:
                problem(case, "a button lower than 48 dp", w.text, f"{w.height / dp(1):.0f}")
            boxes.append((w, x, y))
        for i, (a, ax, ay) in enumerate(boxes):
            for b, bx, by in boxes[i + 1:]:
                if a.parent is b or b.parent is a:
                    continue
                over_x = min(ax + a.width, bx + b.width) - max(ax, bx)
                over_y = min(ay + a.height, by + b.height) - max(ay, by)
                if over_x > 1 and over_y > 1:
                    problem(case, "over another text", a.text, f"over {b.text!r}")

    def show(case: str, name: str, shot: bool) -> None:
        app.show_screen(name)
        frames(draw=shot)
        assert app.sm is not None and app.sm.current == name
        cases.append(case)
        check(case, app.sm.current_screen)
        if shot:
            path = app.save_screenshot(shots_dir / f"{case}.png")
            shots.append(str(path))

    def tap(label: str, text: str) -> None:
        # A real touch through the window: a covered or disabled button fails.
        assert app.sm is not None
        finger(find_button(app.sm.current_screen, text))
        taps[label] = app.sm.current

    for code in LANGUAGES:
        app.choose_language(code)
        frames()
        for n in SEAT_COUNTS:
            names = LONG_NAMES[:n]
            shot = SHOOTING and n in SHOT_SEATS
            # 2020 rules: artifacts worth 5, 7, 8, 10 and 12; hidden tents in round 1.
            busy = session(names, "incan-gold-2020", BUSY_ROUND).state
            app.round_end_screen.show(round_end_view(busy, hidden_tents=n == 5))
            show(f"{code}-{n}-round-1", "round_end", shot)
            if code == "en" and n == 4:
                tap("round 1: Show the table", i18n._("Show the table"))
            game = session(names, "incan-gold-2020", whole_game(n)).state
            assert game.phase is Phase.GAME_OVER
            app.round_end_screen.show(round_end_view(game))
            app.game_over_screen.show(game_over_view(game))
            show(f"{code}-{n}-round-5", "round_end", shot)
            show(f"{code}-{n}-final", "game_over", shot)
            if code == "en" and n == 4:
                for label in ("Show the table", "Round summary", "New game"):
                    app.show_screen("game_over")
                    frames(2)
                    tap(label, i18n._(label))
                app.show_screen("round_end")
                frames(2)
                tap("round 5: Final scores", i18n._("Final scores"))
            # Diamant: no artifacts column; every seat ties, the longest winners' line.
            flat = session(names, "diamant", ["T17", list(range(n))] * 5).state
            app.round_end_screen.show(round_end_view(flat))
            app.game_over_screen.show(game_over_view(flat))
            show(f"{code}-{n}-diamant-round-5", "round_end", shot)
            show(f"{code}-{n}-diamant-final", "game_over", shot)
    # Tables shown again and again leave nothing for the cycle collector: their
    # labels are used again (freed in a pass of their own, they paused the app
    # for a fifth of a second here every few rounds).
    with widgets_left_for_the_collector() as left:
        for n in SEAT_COUNTS:
            game = session(LONG_NAMES[:n], "incan-gold-2020", whole_game(n)).state
            app.round_end_screen.show(round_end_view(game))
            app.game_over_screen.show(game_over_view(game))
            frames()
    # A table filled before it has a size (a screen just built, not laid out yet).
    filled = app.round_end_screen.ids.table
    ScoreTable(size_hint=(None, None), size=(0, 0)).show(filled.columns, filled.rows)
    frames()
    # The check can fail: a small, low button, too narrow for its text, over the heading
    # and partly off the screen.
    bad = Button(text="a button with far too much text", font_size=sp(12), size_hint=(None, None),
                 size=(dp(60), dp(30)), pos=(Window.width / 2, Window.height - dp(20)))
    app.round_end_screen.add_widget(bad)
    # and a table's column narrower than its widest line, read through its markup
    column = CellLabel(text="[color=#ffffffff]7[/color]\n[b]a line far too wide[/b]", markup=True,
                       font_size=sp(20), size_hint=(None, None), size=(dp(40), dp(60)),
                       pos=(dp(10), dp(10)))
    app.round_end_screen.add_widget(column)
    app.round_end_screen.ids.table.show([], [])
    show("control", "round_end", False)
    app.stop()
    return {"cases": cases, "problems": problems, "shots": shots, "taps": taps,
            "small": sorted(set(small)), "left": sorted(left)}


if __name__ == "__main__":
    out = Path(sys.argv[1])
    result = render(out)
    (out / "report.json").write_text(json.dumps(result, ensure_ascii=False, indent=1),
                                     encoding="utf-8")
