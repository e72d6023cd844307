"""The camera vanishing mid-game, on a whole device.

A device is built as the app builds it (``incan_companion.compose.build``: the
vision Scanner thread, the Device, its Table, the data file), with a camera
that can be unplugged: its reads raise, return nothing, or hang. The table
must then say "no camera", still take cards by hand, and by itself say
"camera ok" again and read cards once the camera is back. Callbacks reach the
table only through ``post``, drained by the test thread as the Kivy clock
would (bench/faults.py ``UiQueue``).

The reopening back-off and the stall timeout are shortened here to keep the
test fast; bench/faults.py measures recovery with the real values.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import load_bench

from companion.engine import Phase
from companion.events import Draw, Start
from companion.notices import CameraStatus
from incan_companion.config import CameraConfig, Config
from storage import Store
from ui.kivyfree import presenters
from ui.kivyfree.notice_words import camera_text

ROOT = Path(__file__).resolve().parent.parent
FAST_BACKOFF = (0.05, 0.2)
STALL = 0.5
WAIT = 30.0  # an upper bound for threads to get there, never a speed check


faults = load_bench("faults")
CAMERA_OK = CameraStatus.OK
NO_CAMERA = CameraStatus.NO_CAMERA


def device_with(camera: object, tmp: Path, ui: object) -> object:
    from incan_companion.compose import build

    config = Config(camera=CameraConfig(source="v4l2"), data_file=tmp / "games.sqlite")
    return faults.build_with_source(build, config, camera, STALL, ui.post)  # type: ignore[attr-defined]


def view_of(table: object) -> presenters.TableView:
    return presenters.table_view(
        table.state,  # type: ignore[attr-defined]
        camera=table.camera,  # type: ignore[attr-defined]
        held=table.held,  # type: ignore[attr-defined]
    )


@pytest.mark.parametrize("mode", ["raise", "none", "stall"])
def test_camera_vanishes_mid_game_then_comes_back(tmp_path: Path, mode: str) -> None:
    ui = faults.UiQueue()
    camera = faults.flaky_camera(seed=3, backoff=FAST_BACKOFF)
    device = device_with(camera, tmp_path, ui)
    try:
        table = device.games.new_game(Start(("Ana", "Bo", "Cy"), "incan-gold"))  # type: ignore[attr-defined]
        ui.wait(lambda: table.camera == CAMERA_OK and camera.reads > 2, WAIT)

        camera.fail(mode)
        ui.wait(lambda: table.camera == NO_CAMERA, WAIT)
        view = view_of(table)
        assert camera_text(NO_CAMERA) in view.status
        assert view.can_enter  # manual entry is offered ...
        first = table.entry_options()[0]
        assert table.enter_card(first)  # ... and works while the camera is gone
        assert table.state.phase is Phase.CHOOSE

        camera.recover()
        ui.wait(lambda: table.camera == CAMERA_OK, WAIT)
        assert camera_text(CAMERA_OK) in view_of(table).status
        # Back for real: a card laid under it is read (held for the reveal).
        second = next(c for c in table.entry_options() if c != first)
        camera.place(second)
        ui.wait(lambda: table.held == second, WAIT)
    finally:
        device.close()  # type: ignore[attr-defined]
    with Store(tmp_path / "games.sqlite", readonly=True) as store:
        assert store.events(1) == [Start(("Ana", "Bo", "Cy"), "incan-gold"), Draw(first)]


def test_camera_missing_at_start_then_plugged_in(tmp_path: Path) -> None:
    ui = faults.UiQueue()
    camera = faults.flaky_camera(seed=4, backoff=FAST_BACKOFF, broken="raise")
    device = device_with(camera, tmp_path, ui)
    try:
        table = device.games.new_game(Start(("Ana", "Bo", "Cy", "Dee"), "diamant"))  # type: ignore[attr-defined]
        ui.wait(lambda: table.camera == NO_CAMERA, WAIT)
        assert camera.opens == 0
        card = table.entry_options()[0]
        assert table.enter_card(card)
        camera.recover()
        ui.wait(lambda: table.camera == CAMERA_OK, WAIT)
        assert camera.opens == 1
    finally:
        device.close()  # type: ignore[attr-defined]


def test_a_camera_that_fails_again_and_again_keeps_the_game_going(tmp_path: Path) -> None:
    ui = faults.UiQueue()
    camera = faults.flaky_camera(seed=5, backoff=FAST_BACKOFF)
    device = device_with(camera, tmp_path, ui)
    try:
        table = device.games.new_game(Start(("Ana", "Bo", "Cy"), "incan-gold"))  # type: ignore[attr-defined]
        for mode in ("raise", "stall", "none", "raise"):
            ui.wait(lambda: table.camera == CAMERA_OK, WAIT)
            camera.fail(mode)
            ui.wait(lambda: table.camera == NO_CAMERA, WAIT)
            camera.recover()
        ui.wait(lambda: table.camera == CAMERA_OK, WAIT)
        assert device.camera.scanner.running  # type: ignore[attr-defined]
        assert camera.opens >= 4
    finally:
        device.close()  # type: ignore[attr-defined]


def test_a_real_v4l2_camera_that_is_not_there_shows_no_camera(tmp_path: Path) -> None:
    """No patching: the configured OpenCV camera on a device number nobody has."""
    from incan_companion.compose import build

    ui = faults.UiQueue()
    config = Config(
        camera=CameraConfig(source="v4l2", device=63), data_file=tmp_path / "games.sqlite"
    )
    device = build(config, post=ui.post, seat_input="keyboard")
    try:
        table = device.games.new_game(Start(("Ana", "Bo", "Cy"), "incan-gold"))
        ui.wait(lambda: table.camera == NO_CAMERA, WAIT)
        assert table.enter_card(table.entry_options()[0])
        assert device.camera.scanner is not None and device.camera.scanner.running
    finally:
        device.close()
