"""Every screen and state a game passes through, in every language with 3 and 8
seats, in English with 4 and Spanish with 5, and the longest names a seat may
have: no text is cut, text is large enough to read at a metre, and every touch
target takes a finger.

Kivy allows one window per process, so each language and seat count plays
its game in a process of its own: ``tests/screens_game.py`` run as a script
(``python tests/screens_game.py pl 8 OUT_DIR``) plays a scripted game
through the real app (the table's own ``enter_card``/``press``/``tick``/``undo``,
the app's own menu, picker and set-up calls) and writes ``OUT_DIR/report.json``:
for each state, what was checked and every failure. The processes run side
by side, one per core; the tests below read their reports.

Checked in every state, for every widget on show (the open popup only when
one is open; what the docked keyboard covers is not on show):

- text: every Label's whole text is visible: not shortened with "…", no
  line dropped, no word broken, not wider or taller than its widget, inside
  its parent, the window and any scroll view it is in, not partly behind
  the keyboard, and over no other text;
- fonts: text a player reads is at least 18 px, a column header
  (``HeaderLabel``, ``ColumnHeader``) and a chart's axis number too;
- touch: every button, path card, text field and keyboard key on show is at
  least 48 px wide and high;
- lines (Japanese): every line break Kivy made in a label falls between two
  of BudouX's phrases (or at a space), never inside a name, and no line
  starts with a closing mark or a small kana, nor ends with an opening
  bracket.

And over the whole game, on the table: every card of the path wholly in view
and in its own slot of one size, at every length of the longest round a
deck allows (25 cards, then the bust: 26), with the odds on and off; the
status bar and the seat rows in the same place in every state; and each
player in one colour on every screen (table, set-up chips, round summary,
final scores and their chart, statistics and their chart).

Three and five seats play at the virtual table (its *Turn a card* button
beside the status), four and eight enter cards by hand.

With ``INCAN_SCREENSHOTS=1``, screenshots of every state with 8 seats (and 4 in
English): ``out/screenshots/screens/<lang>-<seats>-<nn>-<state>.png``. Always
``summary.json`` there: how
many states were checked, and per screen the smallest font and touch target
found (also printed by the last test).
"""

from __future__ import annotations

import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from helpers import kivy_env, run
from screens_game import (
    CHECKS,
    LANGUAGES,
    LONGEST_ROUND,
    NAMES,
    ROOT,
    RUNS,
    SCREENS,
    SEAT_COUNTS,
    SHOT_RUNS,
    SHOTS,
    STATES,
    TIMEOUT_S,
    TOUCH_PX,
)

GAME = Path(__file__).resolve().parent / "screens_game.py"


def _run(code: str, seats: int, work: Path) -> dict[str, Any]:
    env = kivy_env(work / "kivy-home")
    started = time.perf_counter()
    done = run(
        [sys.executable, str(GAME), code, str(seats), str(work)],
        text=True, env=env, seconds=TIMEOUT_S, cwd=ROOT,
    )
    report = work / "report.json"
    if done.returncode != 0 or not report.is_file():
        return {"error": f"the {code} game with {seats} seats failed "
                         f"(exit {done.returncode}):\n{done.stdout[-3000:]}{done.stderr[-5000:]}"}
    got: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    got["seconds"] = round(time.perf_counter() - started, 1)
    return got


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int], dict[str, Any]]:
    """Every game of RUNS played, one process per core at a time."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for old in SHOTS.glob("*.png") if SHOT_RUNS else ():
        old.unlink()
    runs = list(RUNS)
    works = {run: tmp_path_factory.mktemp(f"screens-{run[0]}-{run[1]}") for run in runs}
    with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        futures = {run: pool.submit(_run, run[0], run[1], works[run]) for run in runs}
        return {run: future.result() for run, future in futures.items()}


def _failures(reports: dict[tuple[str, int], dict[str, Any]], screen: str,
              check: str) -> list[str]:
    lines = []
    for (code, n), got in reports.items():
        if "error" in got:  # a game that did not render checked nothing: never a pass
            lines.append(f"[{code}, {n} seats] did not render")
            continue
        for f in got.get("failures", ()):
            if f["screen"] == screen and f["check"] == check:
                lines.append(f"{f['state']} [{code}, {n} seats] {f['widget']}: "
                             f"{f['text']!r}: {f['why']}")
    return lines


@pytest.mark.parametrize(("code", "seats"), RUNS)
def test_every_state_is_played_and_shown(
    reports: dict[tuple[str, int], dict[str, Any]], code: str, seats: int
) -> None:
    got = reports[(code, seats)]
    assert "error" not in got, got.get("error")
    assert got["font"], "the all-languages font was not registered"
    assert got["language"] == code
    assert [(s["state"], s["screen"]) for s in got["states"]] == list(STATES)
    for s in got["states"]:
        assert s["labels"] > 0 and s["targets"] > 0, s
    if (code, seats) in SHOT_RUNS:
        for state, _screen in STATES:
            shot = SHOTS / f"{code}-{seats}-{state}.png"
            assert shot.is_file() and shot.stat().st_size > 5000, shot


@pytest.mark.parametrize(("code", "seats"), RUNS)
def test_no_screen_or_window_loads_kivys_theme_images(
    reports: dict[tuple[str, int], dict[str, Any]], code: str, seats: int
) -> None:
    got = reports[(code, seats)]
    assert "error" not in got, got.get("error")
    assert got["theme_images"] == []


#: What each check's failures say.
FAILED = {
    "text": "texts not wholly visible",
    "font": "texts too small",
    "touch": "touch targets too small",
    "lines": "Japanese lines broken inside a phrase or before a closing mark",
    "contrast": "buttons whose words are too faint on their colour",
}


@pytest.mark.parametrize("check", CHECKS)
@pytest.mark.parametrize("screen", SCREENS)
def test_no_text_is_cut_and_everything_reads_and_takes_a_finger(
    reports: dict[tuple[str, int], dict[str, Any]], screen: str, check: str
) -> None:
    """Text wholly visible, at least 18 px (headers 14), touch targets 48 px, a
    button's words at least 4.5:1 against its colour."""
    lines = _failures(reports, screen, check)
    assert not lines, f"{len(lines)} {FAILED[check]}:\n" + "\n".join(lines)


@pytest.mark.parametrize(("code", "seats"), RUNS)
def test_every_card_of_the_longest_round_stays_in_view_and_in_its_place(
    reports: dict[tuple[str, int], dict[str, Any]], code: str, seats: int
) -> None:
    """At every length of the longest round (1 to 26 cards), odds on and off:
    each card wholly in view, at least a finger's size, and where it first lay,
    through leftovers taken, artifacts carried out and the bust."""
    got = reports[(code, seats)]
    assert "error" not in got, got.get("error")
    path = got["path"]
    assert path["lengths"] == list(range(1, len(LONGEST_ROUND) + 2))
    assert path["looks"] == 2 * (len(LONGEST_ROUND) + 1)  # each length, odds on and off
    assert not path["failures"], "\n".join(path["failures"][:20])
    sizes = {tuple(size) for size in path["sizes"]}
    assert len(sizes) == 1, f"tiles of {len(sizes)} sizes: {sorted(sizes)}"
    assert min(next(iter(sizes))) >= TOUCH_PX


@pytest.mark.parametrize(("code", "seats"), RUNS)
def test_the_status_and_the_seats_keep_their_place(
    reports: dict[tuple[str, int], dict[str, Any]], code: str, seats: int
) -> None:
    """The status bar as high, and every seat row in the same place, in every
    state of the table: a long notice (07-undo-warning) moves nothing."""
    got = reports[(code, seats)]
    assert "error" not in got, got.get("error")
    layout = got["layout"]
    assert len(layout) == sum(screen == "table" for _state, screen in STATES)
    first = layout[0]
    assert len(first["seats"]) == seats
    moved = [f"{x['state']}: {key} {x[key]} (was {first[key]})" for x in layout[1:]
             for key in ("status_bar", "seats", "buttons") if x[key] != first[key]]
    assert not moved, "\n".join(moved)


@pytest.mark.parametrize(("code", "seats"), RUNS)
def test_a_player_wears_one_colour_on_every_screen(
    reports: dict[tuple[str, int], dict[str, Any]], code: str, seats: int
) -> None:
    got = reports[(code, seats)]
    assert "error" not in got, got.get("error")
    worn = got["colours"]
    assert sorted(worn) == ["chips", "final", "final_chart", "round_end", "stats",
                            "stats_chart", "table"]
    names = list(NAMES[:seats])
    table = worn["table"]
    assert sorted(table) == sorted(names)
    assert len({tuple(c) for c in table.values()}) == seats  # no two seats alike
    for where, colours in worn.items():
        assert colours, where
        for name, colour in colours.items():
            assert colour == table[name], (where, name, colour, table[name])
    assert sorted(worn["round_end"]) == sorted(worn["final"]) == sorted(names)


def summary(reports: dict[tuple[str, int], dict[str, Any]]) -> dict[str, Any]:
    """What was checked, and per screen the smallest font and touch target found."""
    per: dict[str, dict[str, Any]] = {}
    renders = 0
    for (code, n), got in sorted(reports.items()):
        for s in got.get("states", ()):
            renders += 1
            p = per.setdefault(s["screen"], {"states": set(), "renders": 0, "failures": 0})
            p["states"].add(s["state"])
            p["renders"] += 1
            for key in ("font", "header", "target"):
                least = s.get(f"least_{key}")
                if least and (f"least_{key}" not in p or least["px"] < p[f"least_{key}"]["px"]):
                    p[f"least_{key}"] = {**least, "state": s["state"], "language": code,
                                         "seats": n}
        for f in got.get("failures", ()):
            per.setdefault(f["screen"], {"states": set(), "renders": 0, "failures": 0})
            per[f["screen"]]["failures"] += 1
    states = sum(len(p["states"]) for p in per.values())
    return {
        "checked": {
            "screens": len(per),
            "states": states,
            "languages": len(LANGUAGES),
            "seat_counts": list(SEAT_COUNTS),
            "games": [f"{code} {n}" for code, n in RUNS],
            "renders": renders,
            "formula": f"{states} states on {len(per)} screens x {len(RUNS)} games "
                       f"({len(LANGUAGES)} languages, {len(SEAT_COUNTS)} seat counts) "
                       f"= {renders} renders",
        },
        "failures": sum(len(g.get("failures", ())) for g in reports.values()),
        "errors": [g["error"][:200] for g in reports.values() if "error" in g],
        "seconds_per_game": max((g.get("seconds", 0) for g in reports.values()), default=0),
        "screens": {
            name: {**{k: v for k, v in p.items() if k != "states"}, "states": len(p["states"])}
            for name, p in per.items()
        },
    }


def test_summary(reports: dict[tuple[str, int], dict[str, Any]],
                 capsys: pytest.CaptureFixture[str]) -> None:
    """Written to out/screenshots/screens/summary.json and printed, to be quoted."""
    got = summary(reports)
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "summary.json").write_text(json.dumps(got, ensure_ascii=False, indent=1),
                                        encoding="utf-8")
    lines = [f"screens checked: {got['checked']['formula']}; "
             f"{got['failures']} failures"]
    for name, p in got["screens"].items():
        font, header, target = (p.get(f"least_{k}") for k in ("font", "header", "target"))
        lines.append(
            f"  {name:<10} {p['states']:>2} states: smallest text "
            + (f"{font['px']:.0f} px ({font['widget']} {font['text'][:30]!r})" if font else "-")
            + (f", header {header['px']:.0f} px" if header else "")
            + ", smallest target "
            + (f"{target['px']:.0f} px ({target['widget']} {target['text'][:30]!r})"
               if target else "-")
        )
    with capsys.disabled():
        print("\n" + "\n".join(lines))
    assert got["checked"]["renders"] == len(STATES) * len(RUNS)
