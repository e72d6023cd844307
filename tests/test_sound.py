"""Sound cues: the committed WAV files, which game steps call for which cue, the boards.

Kivy's audio runs in subprocesses with ``SDL_AUDIODRIVER=dummy`` set before
Kivy loads: with no sound card SDL loads nothing (length 0), and this test
process may already have loaded Kivy for other tests without that setting.
"""

from __future__ import annotations

import doctest
import json
import logging
import math
import os
import subprocess
import sys
import wave
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from helpers import paced, play

import ui.kivyfree.cues
from companion.engine import Phase
from companion.events import Correct, Draw, Event, Reveal, Start, Undo
from companion.session import Session
from ui.kivyfree.cues import Cue, cues, tick_cue
from ui.sound import SOUNDS, SilentBoard, SoundBoard, Sounds, clamp_volume, sound_file

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "make_sounds.py"
RATE = 22050
PEAK_LIMIT = 32768 * 10 ** (-3 / 20)  # -3 dBFS
RULES = "incan-gold"


def samples(path: Path) -> np.ndarray:
    with wave.open(str(path), "rb") as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.int32)


def kivy_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        SDL_AUDIODRIVER="dummy",
        KIVY_NO_ARGS="1",
        KIVY_NO_CONSOLELOG="1",
        KIVY_NO_FILELOG="1",
        KIVY_HOME=str(home),
    )
    return env


def run_kivy(code: str, home: Path) -> dict[str, object]:
    """Run ``code`` in a fresh interpreter with the dummy audio driver; its last line is JSON."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=kivy_env(home), timeout=paced(120), check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


# --- (a) the files ------------------------------------------------------------------


@pytest.mark.parametrize("cue", list(Cue))
def test_each_cue_has_a_short_quiet_enough_wav_of_the_stated_format(cue: Cue) -> None:
    path = sound_file(cue)
    assert path == SOUNDS / f"{cue.value}.wav"
    assert path.is_file()
    assert path.stat().st_size < 64_000
    with wave.open(str(path), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, RATE)
        assert w.getcomptype() == "NONE"
        assert 0.03 < w.getnframes() / RATE < 0.95
    data = samples(path)
    peak = int(np.max(np.abs(data)))
    assert 0.1 * PEAK_LIMIT < peak < PEAK_LIMIT
    assert 20 * math.log10(peak / 32768) < -3.0
    # Faded in and out: no click at either end.
    assert abs(int(data[0])) <= 1 and abs(int(data[-1])) <= 1
    assert np.max(np.abs(data[:22])) < 0.5 * peak  # the first millisecond is a ramp


def test_the_sounds_folder_holds_the_cues_and_says_how_they_are_made() -> None:
    assert sorted(p.name for p in SOUNDS.glob("*.wav")) == sorted(f"{c.value}.wav" for c in Cue)
    readme = (SOUNDS / "README.md").read_text(encoding="utf-8")
    assert "scripts/make_sounds.py" in readme
    assert "CC0 1.0" in readme


# --- (b) the script reproduces them ------------------------------------------------------


def test_the_script_reproduces_the_committed_files_byte_for_byte(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--out", str(tmp_path / "made")],
                          capture_output=True, text=True, cwd=ROOT, timeout=paced(120), check=False)
    assert done.returncode == 0, done.stderr
    made = tmp_path / "made"
    assert sorted(p.name for p in made.iterdir()) == sorted(f"{c.value}.wav" for c in Cue)
    for cue in Cue:
        assert (made / f"{cue.value}.wav").read_bytes() == sound_file(cue).read_bytes(), cue


# --- (c) Kivy loads them -------------------------------------------------------------------


def test_kivy_loads_every_cue_with_the_dummy_audio_driver(tmp_path: Path) -> None:
    code = (
        "import json\n"
        "from kivy.core.audio import SoundLoader\n"
        "from ui.kivyfree.cues import Cue\n"
        "from ui.sound import sound_file\n"
        "print(json.dumps({c.value: SoundLoader.load(str(sound_file(c))).length for c in Cue}))\n"
    )
    lengths = run_kivy(code, tmp_path)
    assert sorted(lengths) == sorted(c.value for c in Cue)
    for cue in Cue:
        length = lengths[cue.value]
        assert isinstance(length, float)
        assert length == pytest.approx(len(samples(sound_file(cue))) / RATE, abs=0.005)
        assert 0 < length < 1


# --- (d) which steps call for which cues ------------------------------------------------------


def step(session: Session, *events: Event) -> tuple[Cue, ...]:
    """Apply ``events`` as one screen update and return the cues for it."""
    before, seen = session.state, len(session.log)
    for event in events:
        session.apply(event)
    return cues(before, session.state, session.log[seen:])


def test_a_plain_treasure_draw_is_silent() -> None:
    game = play(3, RULES)
    assert step(game, Draw("T5A")) == ()
    assert step(game, Reveal(()), Draw("T7A")) == (Cue.REVEAL,)  # the reveal, not the draw


def test_a_reveal_where_everyone_goes_on() -> None:
    game = play(3, RULES, "T5A")
    assert step(game, Reveal(())) == (Cue.REVEAL,)
    assert game.state.phase is Phase.DRAW


def test_a_reveal_where_some_leave_without_an_artifact() -> None:
    game = play(3, RULES, "T5A")
    assert step(game, Reveal((0, 1))) == (Cue.REVEAL,)


def test_a_lone_leaver_carrying_an_artifact_out() -> None:
    game = play(3, RULES, "T5A", [], "A1")
    assert step(game, Reveal((0,))) == (Cue.REVEAL, Cue.ARTIFACT)
    assert game.state.carried == ("A1",)


def test_two_leavers_leave_the_artifact_on_the_path() -> None:
    game = play(3, RULES, "T5A", [], "A1")
    assert step(game, Reveal((0, 1))) == (Cue.REVEAL,)
    assert game.state.carried == ()


def test_a_second_hazard_busts_and_ends_the_round() -> None:
    game = play(3, RULES, "SNAKE1", [])
    assert step(game, Draw("SNAKE2")) == (Cue.BUST, Cue.ROUND_END)
    assert game.state.phase is Phase.ROUND_OVER


def test_a_first_hazard_is_silent() -> None:
    game = play(3, RULES, "T5A", [])
    assert step(game, Draw("SNAKE1")) == ()


def test_everyone_leaving_ends_the_round() -> None:
    game = play(3, RULES, "T5A")
    assert step(game, Reveal((0, 1, 2))) == (Cue.REVEAL, Cue.ROUND_END)
    later = play(3, RULES, "T5A", [0], "T7A")
    assert step(later, Reveal((1, 2))) == (Cue.REVEAL, Cue.ROUND_END)


def test_the_last_one_out_with_an_artifact_ends_the_round() -> None:
    game = play(3, RULES, "T5A", [0, 1], "A1")
    assert step(game, Reveal((2,))) == (Cue.REVEAL, Cue.ARTIFACT, Cue.ROUND_END)


def test_the_next_round_starts_quietly_and_can_end_again() -> None:
    game = play(3, RULES, "T5A", [0, 1, 2])
    assert step(game, Draw("T1")) == ()  # round 2's first card
    assert game.state.round == 2
    assert step(game, Reveal((0, 1, 2))) == (Cue.REVEAL, Cue.ROUND_END)


def four_rounds() -> Session:
    """A game in its fifth round: every round so far one treasure, then everyone leaves."""
    game = play(3, RULES, *(["T1", [0, 1, 2]] * 4))
    assert game.state.round == 4 and game.state.phase is Phase.ROUND_OVER
    return game


def test_the_last_round_ending_by_leaving() -> None:
    game = four_rounds()
    assert step(game, Draw("T2")) == ()
    assert step(game, Reveal((0, 1, 2))) == (Cue.REVEAL, Cue.ROUND_END)
    assert game.state.phase is Phase.GAME_OVER


def test_the_last_round_ending_in_a_bust() -> None:
    game = four_rounds()
    cued = step(game, Draw("SPIDER1"), Reveal(()), Draw("SPIDER2"))
    assert Cue.ROUND_END in cued
    assert cued == (Cue.REVEAL, Cue.BUST, Cue.ROUND_END)
    assert game.state.phase is Phase.GAME_OVER


def test_several_events_in_one_update_keep_the_order() -> None:
    game = play(3, RULES, "T5A", [], "A1")
    assert step(game, Reveal((0,)), Draw("FIRE1"), Reveal(()), Draw("FIRE2")) == (
        Cue.REVEAL, Cue.ARTIFACT, Cue.BUST, Cue.ROUND_END,
    )


@pytest.mark.parametrize(
    ("steps", "last"),
    [
        (("T5A", []), Draw("T7A")),
        (("T5A",), Reveal(())),
        (("T5A", [], "A1"), Reveal((0,))),
        (("SNAKE1", []), Draw("SNAKE2")),
        (("T5A",), Reveal((0, 1, 2))),
        (("T5A", [0, 1], "A1"), Reveal((2,))),
    ],
)
def test_undoing_any_step_is_silent(steps: Sequence[str | list[int]], last: Event) -> None:
    first = step(play(3, RULES, *steps), last)
    game = play(3, RULES, *steps)
    step(game, last)
    assert step(game, Undo()) == ()
    assert step(game, last) == first  # redone: the same cues as the first time
    assert step(game, Undo(), last) == ()  # an undo in the same update silences it all


def test_an_undo_after_the_round_ended_is_silent() -> None:
    game = play(3, RULES, "SNAKE1", [], "SNAKE2")
    assert step(game, Undo()) == ()
    assert game.state.phase is Phase.DRAW
    assert step(game, Draw("SNAKE2")) == (Cue.BUST, Cue.ROUND_END)


def test_a_correction_is_silent() -> None:
    game = play(3, RULES, "T5A", [], "T7A")
    assert step(game, Correct(0, "T9")) == ()
    assert game.state.path[0].card == "T9"
    artifact = play(3, RULES, "T5A", [], "A1", [0])
    assert step(artifact, Correct(0, "T9")) == ()
    assert artifact.state.carried == ("A1",)
    assert step(artifact, Draw("T7A"), Correct(2, "T7B")) == ()  # a draw and its fix together


def test_a_first_show_or_a_new_game_is_silent() -> None:
    game = play(3, RULES, "SNAKE1", [], "SNAKE2")
    assert cues(None, game.state, game.log) == ()
    assert cues(None, game.state, ()) == ()
    fresh = Session.start(Start(("Ana", "Bo", "Cy")))
    assert cues(game.state, fresh.state, fresh.log) == ()


def test_nothing_new_is_silent() -> None:
    game = play(3, RULES, "T5A", [0, 1, 2])
    assert cues(game.state, game.state, ()) == ()


def test_the_cues_module_examples() -> None:
    assert doctest.testmod(ui.kivyfree.cues).failed == 0


# --- (e) the countdown's ticks ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "now", "cue"),
    [
        ("", "2", Cue.TICK),  # starts at 2 (the default countdown)
        ("", "3", Cue.TICK),
        ("", "1", Cue.TICK),
        ("", "5", None),  # starts above 3: quiet until 3
        ("5", "4", None),
        ("4", "3", Cue.TICK),
        ("3", "2", Cue.TICK),
        ("2", "1", Cue.TICK),
        ("1", "", None),  # stops (the reveal has its own cue)
        ("3", "", None),  # stopped early
        ("2", "2", None),  # no change
        ("", "", None),
        ("1", "0", None),
        ("", "soon", None),
    ],
)
def test_tick_cue(before: str, now: str, cue: Cue | None) -> None:
    assert tick_cue(before, now) is cue


# --- (f) the boards ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("asked", "kept"),
    [(0.5, 0.5), (1.0, 1.0), (0.0, 0.0), (1.5, 1.0), (-0.2, 0.0), (math.inf, 1.0),
     (-math.inf, 0.0), (math.nan, 0.0)],
)
def test_volume_is_clamped(asked: float, kept: float) -> None:
    assert clamp_volume(asked) == kept
    for board in (SoundBoard(volume=asked), SilentBoard(volume=asked)):
        assert board.volume == kept
    for board in (SoundBoard(), SilentBoard()):
        board.volume = asked
        assert board.volume == kept


def test_both_boards_fit_the_protocol() -> None:
    boards: list[Sounds] = [SoundBoard(), SilentBoard()]
    for board in boards:
        assert isinstance(board, Sounds)
        assert (board.volume, board.muted) == (1.0, False)
        board.muted = True
        assert board.muted


def test_the_silent_board_records_what_it_is_asked() -> None:
    board = SilentBoard()
    board.play(Cue.REVEAL)
    board.muted = True
    board.play(Cue.BUST)
    board.muted = False
    board.volume = 0.0
    board.play(Cue.TICK)
    board.volume = 0.3
    board.play(Cue.ROUND_END)
    assert board.asked == [Cue.REVEAL, Cue.BUST, Cue.TICK, Cue.ROUND_END]
    assert board.played == [Cue.REVEAL, Cue.ROUND_END]


def test_a_missing_file_does_not_raise_and_is_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    board = SoundBoard(tmp_path)
    with caplog.at_level(logging.WARNING, logger="ui.sound"):
        for cue in [*Cue, *Cue]:
            board.play(cue)
    assert board.failed == frozenset(Cue)
    assert board.loaded == frozenset()
    warned = [r for r in caplog.records if r.name == "ui.sound"]
    assert len(warned) == len(Cue)
    assert all("no sound file" in r.getMessage() for r in warned)


def test_mute_and_volume_zero_load_nothing_and_a_bad_file_is_skipped(tmp_path: Path) -> None:
    code = (
        "import json, shutil, sys\n"
        "from pathlib import Path\n"
        "from ui.kivyfree.cues import Cue\n"
        "from ui.sound import SoundBoard, sound_file\n"
        "out = {}\n"
        "board = SoundBoard(muted=True)\n"
        "for cue in Cue: board.play(cue)\n"
        "out['muted'] = sorted(c.value for c in board.loaded)\n"
        "board.muted = False\n"
        "board.volume = 0.0\n"
        "board.play(Cue.TICK)\n"
        "out['volume_0'] = sorted(c.value for c in board.loaded)\n"
        "board.volume = 0.4\n"
        "board.play(Cue.REVEAL); board.play(Cue.REVEAL); board.play(Cue.TICK)\n"
        "out['played'] = sorted(c.value for c in board.loaded)\n"
        "out['failed'] = sorted(c.value for c in board.failed)\n"
        "board.muted = True\n"
        "out['still_loaded'] = sorted(c.value for c in board.loaded)\n"
        "folder = Path(sys.argv[1])\n"
        "folder.mkdir()\n"
        "(folder / 'bust.wav').write_bytes(b'not a wav at all')\n"
        "shutil.copy(sound_file(Cue.TICK), folder / 'tick.wav')\n"
        "bad = SoundBoard(folder)\n"
        "for cue in Cue: bad.play(cue)\n"
        "out['bad_loaded'] = sorted(c.value for c in bad.loaded)\n"
        "out['bad_failed'] = sorted(c.value for c in bad.failed)\n"
        "from kivy.core.audio import SoundLoader\n"
        "class Broken:\n"
        "    length = 1.0\n"
        "    volume = 1.0\n"
        "    def play(self): raise RuntimeError('no mixer')\n"
        "    def stop(self): pass\n"
        "SoundLoader.load = staticmethod(lambda path: Broken())\n"
        "broken = SoundBoard()\n"
        "broken.play(Cue.ARTIFACT); broken.play(Cue.ARTIFACT)\n"
        "out['broken_loaded'] = sorted(c.value for c in broken.loaded)\n"
        "out['broken_failed'] = sorted(c.value for c in broken.failed)\n"
        "print(json.dumps(out))\n"
    )
    home = tmp_path / "kivy"
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "sounds")],
                          capture_output=True, text=True, cwd=ROOT, env=kivy_env(home),
                          timeout=paced(120), check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["muted"] == []
    assert out["volume_0"] == []
    assert out["played"] == ["reveal", "tick"]
    assert out["failed"] == []
    assert out["still_loaded"] == ["reveal", "tick"]
    assert out["bad_loaded"] == ["tick"]
    assert out["bad_failed"] == sorted(c.value for c in Cue if c is not Cue.TICK)
    assert out["broken_loaded"] == []
    assert out["broken_failed"] == ["artifact"]
