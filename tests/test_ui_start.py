"""Start-up: the first screen does not wait for the camera; the camera comes after it.

A real offscreen Kivy app on a device built as ``incan-companion run`` builds
it (``camera_later``): the rendered virtual table starts once the first frame
is drawn, and the table screen then offers its "Turn a card".
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ui.kivy_setup import configure

configure(quiet=True, fast=True)

from ui_helpers import frames  # noqa: E402

from companion.events import Start  # noqa: E402
from companion.notices import CameraStatus  # noqa: E402
from incan_companion.compose import Device, build  # noqa: E402
from incan_companion.config import CameraConfig, Config  # noqa: E402
from ui.app import CompanionApp, post  # noqa: E402


@pytest.fixture
def device(tmp_path: Path) -> Iterator[Device]:
    data = tmp_path / "games.sqlite"
    d = build(Config(data_file=data), post=post, seat_input="keyboard", camera="virtual",
              data_file=data, camera_later=True)
    yield d
    d.close()


def test_the_camera_starts_after_the_first_frame(device: Device) -> None:
    # Put off: nothing of the camera is built, but the controls already say
    # what it will be, so the first screen shows the right buttons.
    assert device.camera.source is None
    assert device.games.camera is CameraStatus.STARTING
    first = device.controls()
    assert first.camera and first.turn_card is not None and first.start is not None

    table = device.games.new_game(Start(("Ana", "Bo", "Cy")))
    app = CompanionApp(device.games, first)
    app._run_prepare()  # Kivy's: the window and screens, without running the loop
    try:
        assert app.table_screen.virtual and app.table_screen.camera
        hooked: list[float | None] = []
        app.on_first_frame.append(lambda a: hooked.append(a.first_frame_at))
        frames(1)
        # The first frame is timed when it is finished and handed to the window,
        # in its own frame; the hooks (the camera's start, systemd's READY) come
        # at the next tick, with that time.
        drawn = app.first_frame_at
        assert drawn is not None and hooked == [] and app.first_frame_wall is not None
        frames(3)  # then the camera's start
        assert hooked == [drawn] and app.first_frame_at == drawn
        assert device.camera.virtual is not None and device.camera.scanner is not None
        assert device.camera.scanner.running
        assert table.camera is CameraStatus.VIRTUAL
        assert app.controls.start is None  # started once
        assert app.table_screen.virtual and app.table_screen.camera
    finally:
        app.stop()
        frames(1)


def test_a_camera_put_off_and_not_found_falls_back_when_it_starts(tmp_path: Path) -> None:
    data = tmp_path / "games.sqlite"
    config = Config(data_file=data, camera=CameraConfig(source="auto"))
    d = build(config, seat_input="keyboard", camera="config", data_file=data,
              camera_later=True)
    try:
        table = d.games.new_game(Start(("Ana", "Bo", "Cy")))
        assert table.notice is None
        controls = d.controls()
        assert controls.camera and controls.turn_card is None  # a real camera is expected
        assert controls.start is not None
        after = controls.start()
        # This machine has no camera, and a desktop falls back to the virtual table.
        assert after.start is None
        assert d.camera.virtual is not None and after.turn_card is not None
        assert table.camera is CameraStatus.VIRTUAL
    finally:
        d.close()


def test_a_text_field_starts_no_process_for_a_cut_buffer() -> None:
    """Kivy on Linux probes xclip and xsel (a process each) for a middle click's
    cut buffer when the first text field loads the clipboard; the set-up
    screen's name fields would pay for it before the first frame."""
    import sys

    import kivy
    from kivy.uix.textinput import TextInput

    TextInput()  # loads the clipboard, as the set-up screen's first name field does
    import kivy.core.clipboard as clipboard

    assert kivy.kivy_options["cutbuffer"] == ()
    assert clipboard.CutBuffer is None
    probes = ("kivy.core.clipboard.clipboard_xclip", "kivy.core.clipboard.clipboard_xsel")
    assert [m for m in probes if m in sys.modules] == []


def test_the_cycle_collector_is_quiet_until_the_first_frame_then_as_python_has_it() -> None:
    """What exists when the app begins (modules, the config) is frozen out of
    the collector's walks, and its young passes come every START_THRESHOLD new
    objects instead of every 700 until the first frame; then Python's own
    thresholds again, whatever they were."""
    import gc

    from incan_companion.heap import START_THRESHOLD, collect_less_until_drawn

    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    gc.set_threshold(700, 11, 12)
    try:
        collect_normally = collect_less_until_drawn()
        assert gc.get_threshold() == (START_THRESHOLD, 11, 12) == (10_000, 11, 12)
        assert gc.get_freeze_count() > frozen
        collect_normally()
        assert gc.get_threshold() == (700, 11, 12)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


#: ``incan-companion run`` with the collector's quiet start watched: the
#: thresholds it set, and whether they came back by the time the app stopped.
QUIET_START = """
import gc, sys
import incan_companion.heap as heap
seen = []
made = heap.collect_less_until_drawn

def watched():
    collect_normally = made()
    seen.append(gc.get_threshold())
    def back():
        collect_normally()
        seen.append(gc.get_threshold())
    return back

heap.collect_less_until_drawn = watched
from incan_companion import cli
code = cli.main(sys.argv[1:])
print("seen", seen, "end", gc.get_threshold(), "code", code)
"""


def test_the_app_starts_with_the_collector_quiet_and_gives_it_back_at_its_first_frame(
    tmp_path: Path,
) -> None:
    import os
    import sys

    from helpers import paced, run

    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root), "KIVY_HOME": str(tmp_path / "kivy"),
           "INCAN_CONFIG": str(tmp_path / "none.toml")}
    done = run([sys.executable, "-c", QUIET_START, "run", "--buttons", "keyboard",
                "--camera", "none", "--data", str(tmp_path / "games.sqlite"),
                # time for the first frame and the tick after it, where the
                # first frame's hooks run (0.1 s ends the app before them)
                "--quit-after", f"{paced(1.0):.2f}"], text=True, cwd=root, env=env, seconds=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "incan-companion: first screen" in done.stderr  # the hooks ran
    python = (700, 10, 10)
    assert f"seen [(10000, 10, 10), {python}] end {python} code 0" in done.stdout


def test_quit_after_never_quits_before_the_first_screen(tmp_path: Path) -> None:
    """A time shorter than the first screen takes (a machine under load) quit
    before it was drawn: no screenshot, no start's report, and a check that
    timed out for nothing (the suite's run of 29 November, at 1.4 s)."""
    import os
    import sys

    from helpers import run

    root = Path(__file__).resolve().parent.parent
    shot = tmp_path / "first.png"
    env = {**os.environ, "KIVY_HOME": str(tmp_path / "kivy"),
           "INCAN_CONFIG": str(tmp_path / "none.toml")}
    done = run([sys.executable, "-m", "incan_companion", "run", "--buttons", "keyboard",
                "--camera", "none", "--data", str(tmp_path / "games.sqlite"),
                "--quit-after", "0.001", "--screenshot", str(shot)],
               text=True, cwd=root, env=env, seconds=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "incan-companion: first screen" in done.stderr
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("command", [["run", "--camera", "none"], ["demo", "--autoplay"]])
def test_no_window_is_one_line_and_exit_1(tmp_path: Path, command: list[str]) -> None:
    """Kivy with no display it can use (the kiosk's screen held by a desktop
    session, a mistyped KIVY_WINDOW) logs it and leaves with exit 1 when the
    app runs; the demo, whose Kivy log is off, then said nothing at all."""
    import os
    import sys

    from helpers import run

    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "KIVY_HOME": str(tmp_path / "kivy"), "KIVY_WINDOW": "nowhere",
           "INCAN_CONFIG": str(tmp_path / "none.toml")}
    for logs_off in ("KIVY_NO_CONSOLELOG", "KIVY_NO_FILELOG"):  # as a user's shell has them
        env.pop(logs_off, None)
    done = run([sys.executable, "-m", "incan_companion", *command,
                "--data", str(tmp_path / "games.sqlite")],
               text=True, cwd=root, env=env, seconds=120)
    assert done.returncode == 1, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    said = ("incan-companion: error: no window could be opened (KIVY_WINDOW=nowhere): is the"
            " screen connected, and not held by another program (a desktop session,"
            " rpicam-hello)?")
    last = done.stderr.splitlines()[-1]
    assert last.startswith(said), done.stderr[-2000:]
    # The demo's Kivy log is off: it points to no log.
    assert last.endswith("Kivy's log says what it tried") == (command[0] == "run")
