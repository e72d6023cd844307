"""The game controller, turn by turn: a real data file, fake time, no sleeping."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion import engine
from companion.choices import Choice
from companion.engine import Phase, Unplayable
from companion.events import Correct, Draw, Reveal, Start, Undo
from companion.notices import (
    CameraStatus,
    CannotCome,
    CardHeld,
    ChooseAgain,
    Corrected,
    Failed,
    FromEndedRound,
    GameIsOver,
    HeldDropped,
    HeldForSummary,
    HeldReturned,
    NotACard,
    NothingToUndo,
    Step,
    StepRefused,
    Undone,
    UndoWouldDropChoices,
)
from companion.simulate import VirtualClock, choose_camp, next_card
from companion.table import MAX_NOTICES, Table
from storage import Store
from ui.kivyfree.notice_words import notice_text

TORCH, CAMP = Choice.TORCH, Choice.CAMP


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(tmp_path / "games.sqlite")
    yield s
    s.close()


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock(0.0)


def new_table(
    store: Store, clock: VirtualClock, seats: int = 3, rules: str = "incan-gold"
) -> Table:
    names = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal")[:seats]
    return Table.new(store, Start(names, rules), countdown=2.0, clock=clock)


def choose(table: Table, clock: VirtualClock, *choices: Choice) -> None:
    """Every due seat presses, in seat order, then the countdown runs out."""
    due = sorted(table.collector.due)
    assert len(due) == len(choices)
    for seat, choice in zip(due, choices, strict=True):
        assert table.press(seat, choice)
    clock.now += 2.0
    assert table.tick()


def stored(store: Store, table: Table) -> list[object]:
    return store.events(table.game)


# --- drawing ---------------------------------------------------------------------


def test_a_scanned_card_is_stored_then_shown(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    assert table.scan("t11a")
    assert [p.card for p in table.state.path] == ["T11A"]
    assert [s.hand for s in table.state.seats] == [3, 3, 3]
    assert stored(store, table) == [Start(("Ana", "Bo", "Cy")), Draw("T11A")]
    assert table.state.phase is Phase.CHOOSE
    assert table.collector.is_open and table.collector.due == {0, 1, 2}


def test_the_same_card_seen_again_is_ignored(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    table.scan("T11A")
    choose(table, clock, TORCH, TORCH, TORCH)
    before = len(table.notices)
    assert not table.scan("T11A")
    assert len(table.notices) == before  # silently: the camera still sees it
    assert len(stored(store, table)) == 3


def test_an_earlier_card_of_the_path_is_refused_with_a_reason(
    store: Store, clock: VirtualClock
) -> None:
    table = new_table(store, clock)
    table.scan("T11A")
    choose(table, clock, TORCH, TORCH, TORCH)
    table.scan("T3")
    choose(table, clock, TORCH, TORCH, TORCH)
    assert not table.scan("T11A")
    assert table.notice is not None
    assert table.notice.reason == CannotCome("T11A", Unplayable.ON_PATH)
    assert notice_text(table.notice.reason) == "Treasure 11 (T11A) is already on the path."
    assert table.notice.level == "warning"
    assert len(stored(store, table)) == 5


def test_the_last_card_of_a_round_may_open_the_next(store: Store, clock: VirtualClock) -> None:
    # Read once it may be the card still lying there; laid again it is a placement.
    table = new_table(store, clock)
    table.scan("T11A")
    choose(table, clock, CAMP, CAMP, CAMP)
    assert table.state.phase is Phase.ROUND_OVER
    assert not table.scan("T11A") and table.scan("T11A")
    assert table.state.round == 2 and [p.card for p in table.state.path] == ["T11A"]


def test_a_card_turned_while_a_round_end_is_on_show_waits_for_its_summary(
    store: Store, clock: VirtualClock
) -> None:
    table = new_table(store, clock)
    table.scan("SNAKE1")
    choose(table, clock, TORCH, TORCH, TORCH)
    table.scan("SNAKE2")  # the bust: round 1 is over
    table.show_round_end()
    assert table.ending
    assert not table.scan("SNAKE2")  # out of the game: refused as before
    assert table.scan("T5A")
    assert table.held == "T5A" and table.state.round == 1
    assert table.notice is not None and table.notice.reason == HeldForSummary("T5A")
    assert notice_text(table.notice.reason) == (
        "Treasure 5 waits for the next round: it goes on the path after the round's summary."
    )
    assert len(stored(store, table)) == 4  # nothing stored while it waits
    assert table.undo()  # undo drops the waiting card first
    assert table.held is None and table.notice.reason == HeldDropped("T5A")
    assert table.scan("T7A") and table.held == "T7A"
    assert table.round_end_seen()
    assert not table.ending and table.held is None
    assert table.state.round == 2 and [p.card for p in table.state.path] == ["T7A"]
    assert stored(store, table)[-1] == Draw("T7A")
    # Once the summary has been seen, the next round's first card comes at once.
    table.undo()
    assert table.state.phase is Phase.ROUND_OVER and not table.ending
    assert table.scan("T7A") and table.state.round == 2


def test_unknown_text_is_not_a_card(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    assert not table.scan("T12")
    assert table.notice is not None and table.notice.reason == NotACard("T12")
    assert notice_text(table.notice.reason) == "Not a card: \u201cT12\u201d"
    assert table.state.path == ()


def test_an_artifact_of_a_later_round_cannot_come(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    assert not table.enter_card("A3")
    assert table.notice is not None
    assert table.notice.reason == CannotCome("A3", Unplayable.LATER_ROUND)
    assert notice_text(table.notice.reason) == "Artifact 3 (A3) cannot come now."
    assert len(stored(store, table)) == 1


def test_a_card_turned_during_the_choice_waits_for_the_reveal(
    store: Store, clock: VirtualClock
) -> None:
    table = new_table(store, clock)
    table.scan("T11A")
    assert table.scan("T5A")
    assert table.held == "T5A"
    assert table.notice is not None
    assert table.notice.reason == CardHeld("T5A")
    assert notice_text(table.notice.reason) == "Treasure 5 waits until the choices are revealed."
    assert len(table.state.path) == 1
    choose(table, clock, CAMP, TORCH, TORCH)
    # Ana banked 3 + 2 left on the card; then T5A split between Bo and Cy.
    assert [p.card for p in table.state.path] == ["T11A", "T5A"]
    assert [s.hand for s in table.state.seats] == [0, 5, 5]
    assert table.state.seats[0].banked == 5
    assert table.held is None
    assert stored(store, table)[-2:] == [Reveal((0,)), Draw("T5A")]
    # The held card is the one the camera sees: it is not drawn twice.
    assert not table.scan("T5A")


def test_a_held_card_is_dropped_when_everyone_leaves(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    table.scan("T11A")
    table.scan("T5A")
    choose(table, clock, CAMP, CAMP, CAMP)
    assert table.state.phase is Phase.ROUND_OVER
    assert table.held is None
    assert table.notice is not None
    assert table.notice.reason == HeldReturned("T5A")
    assert notice_text(table.notice.reason) == (
        "Nobody is left in the temple: shuffle treasure 5 back in."
    )
    assert not any(isinstance(e, Draw) and e.card == "T5A" for e in stored(store, table))
    # The round's summary comes next, and the round's end ends every notice
    # before it: this one is said again there, or the card stays out of the deck.
    table.show_round_end()
    assert table.notice is not None and table.notice.reason == HeldReturned("T5A")
    table.round_end_seen()
    table.scan("T7A")
    assert table.notice is None or table.notice.reason != HeldReturned("T5A")


def test_a_held_card_must_be_in_the_deck(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    table.scan("T11A")
    assert not table.enter_card("T11A")
    assert table.held is None


def test_nothing_is_drawn_after_the_game(store: Store, clock: VirtualClock) -> None:
    rng = random.Random(3)
    table = new_table(store, clock)
    play_out(table, clock, rng)
    assert table.state.phase is Phase.GAME_OVER
    n = len(stored(store, table))
    assert not table.scan("T1")
    assert table.notice is not None and table.notice.reason == GameIsOver("T1")
    assert notice_text(table.notice.reason).startswith("The game is over")
    assert len(stored(store, table)) == n


# --- choices ---------------------------------------------------------------------


def test_the_collector_follows_the_phase(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    assert not table.collector.is_open
    assert not table.press(0, TORCH)
    table.scan("T3")
    assert table.collector.due == {0, 1, 2}
    choose(table, clock, CAMP, TORCH, TORCH)
    assert not table.collector.is_open
    table.scan("T4")
    assert table.collector.due == {1, 2}  # Ana is in camp


def test_no_reveal_before_the_countdown(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    table.scan("T3")
    table.press(0, TORCH)
    table.press(1, TORCH)
    clock.now += 10
    assert not table.tick()  # Cy has not chosen
    table.press(2, CAMP)
    clock.now += 1.9
    assert not table.tick()
    assert table.collector.countdown_left == pytest.approx(0.1)
    clock.now += 0.1
    assert table.tick()
    assert stored(store, table)[-1] == Reveal((2,))


def test_zero_countdown_reveals_on_the_last_press(store: Store, clock: VirtualClock) -> None:
    table = Table.new(store, Start(("Ana", "Bo", "Cy")), countdown=0.0, clock=clock)
    table.scan("T3")
    table.press(0, TORCH)
    table.press(1, TORCH)
    table.press(2, CAMP)
    assert table.state.seats[2].banked == 1 + 0  # 3 split 3 ways: 1 each, nothing left
    assert table.state.phase is Phase.DRAW


def test_undo_of_a_reveal_opens_the_choice_again(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    table.scan("T9")
    choose(table, clock, CAMP, TORCH, TORCH)
    assert table.undo()
    assert table.state.phase is Phase.CHOOSE
    assert table.collector.is_open and table.collector.chosen == frozenset()
    assert stored(store, table)[-1] == Undo()
    assert table.state.seats[0].banked == 0


def test_a_correction_keeps_the_choices_already_made(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    table.scan("T9")
    table.press(0, CAMP)
    assert table.correct(0, "T11A")
    assert [s.hand for s in table.state.seats] == [3, 3, 3]
    assert table.collector.chosen == {0}
    assert stored(store, table)[-1] == Correct(0, "T11A")


def test_undo_first_drops_a_held_card(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    table.scan("T9")
    table.scan("T1")
    assert table.undo()
    assert table.held is None
    assert [p.card for p in table.state.path] == ["T9"]
    assert len(stored(store, table)) == 2
    assert table.scan("T1")  # it may be read again
    assert table.held == "T1"


def test_undo_of_a_draw_lets_the_camera_read_the_card_again(
    store: Store, clock: VirtualClock
) -> None:
    table = new_table(store, clock)
    table.scan("T9")
    assert table.undo()
    assert table.state.path == ()
    assert table.scan("T9")


def test_nothing_to_undo(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    assert not table.undo()
    assert table.notice is not None and table.notice.reason == NothingToUndo()
    assert notice_text(table.notice.reason) == "Nothing to undo."


def test_a_refused_correction_changes_nothing(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    table.scan("SPIDER1")
    choose(table, clock, TORCH, TORCH, TORCH)
    table.scan("T9")
    choose(table, clock, TORCH, TORCH, TORCH)
    table.scan("T3")
    # A second spider at position 1 would have ended the round before T3.
    assert not table.correct(1, "SPIDER2")
    assert [p.card for p in table.state.path] == ["SPIDER1", "T9", "T3"]
    assert len(stored(store, table)) == 6
    assert table.notice is not None and table.notice.level == "warning"
    assert isinstance(table.notice.reason, StepRefused)


def test_correction_options_are_the_sessions(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    table.scan("T9")
    assert table.correction_options(0) == table.session.correction_options(0)
    assert "T9" not in table.correction_options(0)
    assert table.correction_options(5) == ()


def test_entry_options(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    assert table.entry_options() == table.state.deck
    assert "A2" not in table.entry_options()
    table.enter_card("T9")
    assert "T9" not in table.entry_options()  # the deck, while choices are due


# --- durability and failures ---------------------------------------------------------


def test_a_step_that_cannot_be_saved_is_not_taken(
    store: Store, clock: VirtualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = new_table(store, clock)
    table.scan("T9")

    def full(*args: object) -> None:
        raise OSError("No space left on device")

    monkeypatch.setattr(store, "append", full)
    table.press(0, CAMP)
    table.press(1, TORCH)
    table.press(2, TORCH)
    clock.now += 2
    assert table.tick() is False  # nothing was revealed: nothing was stored
    assert table.state.phase is Phase.CHOOSE
    assert table.state.seats[0].banked == 0
    assert table.notice is not None
    assert table.notice.level == "error"
    assert table.notice.reason == Failed(Step.SAVE, "No space left on device")
    assert notice_text(table.notice.reason) == (
        "Could not save the game, the step was not taken: No space left on device"
    )
    assert table.collector.is_open  # the seats can choose again
    monkeypatch.undo()
    choose(table, clock, CAMP, TORCH, TORCH)
    assert table.state.seats[0].banked == 3


def test_a_reveal_not_saved_keeps_the_choices_and_is_tried_again(
    store: Store, clock: VirtualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = new_table(store, clock)
    table.scan("T9")
    monkeypatch.setattr(store, "append", lambda *args: (_ for _ in ()).throw(OSError("full")))
    for seat, choice in enumerate((CAMP, TORCH, TORCH)):
        table.press(seat, choice)
    clock.now += 2
    assert table.tick() is False
    assert table.collector.chosen == {0, 1, 2}  # nobody has to press again
    assert table.collector.countdown_left == 2.0
    monkeypatch.undo()  # space freed: the same reveal goes through after the countdown
    clock.now += 2
    assert table.tick() is True
    assert table.session.log[-1] == Reveal((0,))
    assert [s.banked for s in table.state.seats] == [3, 0, 0]


def test_a_power_cut_loses_nothing_on_screen(tmp_path: Path, clock: VirtualClock) -> None:
    path = tmp_path / "games.sqlite"
    store = Store(path)
    table = new_table(store, clock)
    table.scan("T9")
    choose(table, clock, CAMP, TORCH, TORCH)
    table.scan("SPIDER2")
    shown = table.state
    # No close, no flush: a second connection reads what the first committed.
    again = Store(path)
    assert again.unfinished() == table.game
    resumed = Table.resume(again, table.game, clock=clock)
    assert resumed.state == shown
    assert resumed.collector.is_open and resumed.collector.due == {1, 2}
    again.close()
    store.close()


def test_a_card_waiting_at_a_power_cut_waits_again(tmp_path: Path, clock: VirtualClock) -> None:
    """A card turned before a reveal, or during a round's summary, is no event
    until drawn: a restart forgot it, and the screen asked for the next card
    while it lay on the table. It is kept beside the log while it waits."""
    from companion.games import Games

    path = tmp_path / "games.sqlite"
    store = Store(path)
    table = Games(store, countdown=2.0, clock=clock).new_game(Start(("Ana", "Bo", "Cy")))
    table.scan("T9")
    table.scan("SNAKE1")  # choices due: it waits for the reveal; then the power goes
    assert table.held == "SNAKE1"
    again = Store(path)
    resumed = Games(again, countdown=2.0, clock=clock).resume(table.game)
    assert resumed.held == "SNAKE1" and [p.card for p in resumed.state.path] == ["T9"]
    choose(resumed, clock, TORCH, TORCH, TORCH)
    assert [p.card for p in resumed.state.path] == ["T9", "SNAKE1"] and resumed.held is None
    # A second hazard ends the round; a card turned while its summary is on show waits.
    choose(resumed, clock, TORCH, TORCH, TORCH)
    resumed.scan("SNAKE2")
    assert resumed.state.phase is Phase.ROUND_OVER
    resumed.show_round_end()
    assert resumed.scan("T5A") and resumed.held == "T5A"
    third = Store(path)
    after = Games(third, countdown=2.0, clock=clock).resume(table.game)
    assert after.held == "T5A" and after.state.phase is Phase.ROUND_OVER
    after.show_round_end()  # the summary, shown again, says the card waits
    assert after.notice is not None and after.notice.reason == HeldForSummary("T5A")
    assert after.round_end_seen()
    assert after.state.round == 2 and [p.card for p in after.state.path] == ["T5A"]
    # Drawn: nothing waits any more, after another restart too.
    assert Games(Store(path), countdown=2.0, clock=clock).resume(table.game).held is None
    for s in (third, again, store):
        s.close()


def test_a_card_of_the_ended_round_read_once_is_not_the_next_rounds_first(
    store: Store, clock: VirtualClock
) -> None:
    """The round's last card lay on the scan spot through its summary: a hand
    passing over it made the tracker report it again, and it opened round 2.
    Read once it is doubted; read again (laid again) it is taken."""
    table = new_table(store, clock)
    assert table.scan("T11A")
    choose(table, clock, CAMP, CAMP, CAMP)  # everyone leaves: the round is over
    assert table.state.phase is Phase.ROUND_OVER
    table.show_round_end()
    assert not table.scan("T11A") and table.held is None
    assert table.notice is not None and table.notice.reason == FromEndedRound("T11A")
    assert table.notice.level == "warning"
    assert notice_text(table.notice.reason) == (
        "Treasure 11 was on the path of the round that just ended: not taken. "
        "If it opens the next round, lay it again.")
    assert table.scan("T11A") and table.held == "T11A"  # laid again: it opens round 2
    assert table.round_end_seen()
    assert table.state.round == 2 and [p.card for p in table.state.path] == ["T11A"]


def test_only_a_card_of_the_ended_round_that_can_come_is_doubted(
    store: Store, clock: VirtualClock
) -> None:
    table = new_table(store, clock)
    for card in ("T7A", "SNAKE1"):
        assert table.scan(card)
        choose(table, clock, TORCH, TORCH, TORCH)
    assert table.scan("SNAKE2")  # a bust: one Snakes leaves the game
    assert table.state.phase is Phase.ROUND_OVER
    table.show_round_end()
    # The second Snakes cannot come again: said as before, not doubted.
    assert not table.scan("SNAKE2")
    assert table.notice is not None and isinstance(table.notice.reason, CannotCome)
    # A card that was not on the path is taken at once, and one entered by hand too.
    assert table.scan("T5A") and table.held == "T5A"
    assert not table.scan("SNAKE1") and table.held == "T5A"  # the held card stays
    assert table.notice is not None and table.notice.reason == FromEndedRound("SNAKE1")
    again = new_table(store, clock)
    assert again.scan("T9")
    choose(again, clock, CAMP, CAMP, CAMP)
    again.show_round_end()
    assert again.enter_card("T9") and again.held == "T9"
    # The virtual table's hand says what it lays: a new placement, taken at once.
    third = new_table(store, clock)
    assert third.scan("T9")
    choose(third, clock, CAMP, CAMP, CAMP)
    third.will_lay("T9")
    assert third.scan("T9") and third.state.round == 2


def test_a_resume_says_choose_again_only_when_someone_had_pressed(
    tmp_path: Path, clock: VirtualClock
) -> None:
    """Presses are never stored, so every resume in a choice said they were
    lost, though nobody had pressed. Whether a person had is kept beside the log."""
    from companion.games import Games

    path = tmp_path / "games.sqlite"
    store = Store(path)
    table = Games(store, countdown=2.0, clock=clock).new_game(Start(("Ana", "Bo", "Cy")))
    table.scan("T9")  # choices due, nobody has pressed; then the power goes
    second = Store(path)
    resumed = Games(second, countdown=2.0, clock=clock).resume(table.game)
    assert resumed.state.phase is Phase.CHOOSE and resumed.notice is None
    assert resumed.press(1, CAMP)  # Bo presses; then the power goes again
    third = Store(path)
    again = Games(third, countdown=2.0, clock=clock).resume(table.game)
    assert again.notice is not None
    assert again.notice.reason == ChooseAgain(("Ana", "Bo", "Cy"))
    # The presses lost are told once: a restart before anyone presses again says nothing.
    fourth = Store(path)
    assert Games(fourth, countdown=2.0, clock=clock).resume(table.game).notice is None
    # A reveal ends the turn's presses: the next turn starts with nobody pressed.
    table = Games(Store(path), countdown=2.0, clock=clock).resume(table.game)
    choose(table, clock, TORCH, TORCH, TORCH)
    table.scan("T5A")
    assert Games(Store(path), countdown=2.0, clock=clock).resume(table.game).notice is None
    for s in (fourth, third, second, store):
        s.close()


def test_choices_pressed_before_a_power_cut_are_said_to_be_gone(
    tmp_path: Path, clock: VirtualClock
) -> None:
    path = tmp_path / "games.sqlite"
    store = Store(path)
    table = new_table(store, clock, seats=4)
    table.scan("T9")
    assert table.press(0, CAMP) and table.press(2, TORCH)  # then the power goes
    again = Store(path)
    resumed = Table.resume(again, table.game, clock=clock)
    assert resumed.collector.chosen == frozenset()  # never stored: secret until the reveal
    assert resumed.notice is not None
    assert resumed.notice.reason == ChooseAgain(("Ana", "Bo", "Cy", "Dee"))
    assert notice_text(resumed.notice.reason) == (
        "Resumed: choices pressed before the stop are not kept. Ana, Bo, Cy and Dee choose again."
    )
    assert resumed.press(0, TORCH) and resumed.notice is None
    choose(resumed, clock, TORCH, TORCH, TORCH, TORCH)
    assert resumed.state.phase is Phase.DRAW  # no choice due: a resume now says nothing
    assert Table.resume(again, table.game, clock=clock).notice is None
    again.close()
    store.close()


def test_a_broken_listener_does_not_stop_the_game(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    seen: list[int] = []

    def broken(t: Table) -> None:
        raise RuntimeError("screen gone")

    table.listen(broken)
    stop = table.listen(lambda t: seen.append(len(t.state.path)))
    assert table.scan("T9")
    assert seen and seen[-1] == 1
    stop()
    n = len(seen)
    table.scan("T1")
    assert len(seen) == n


def test_one_notification_per_reveal_with_a_held_card(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    table.scan("T9")
    table.scan("T1")
    for seat in range(3):
        table.press(seat, TORCH)
    paths: list[int] = []
    table.listen(lambda t: paths.append(len(t.state.path)))
    clock.now += 2
    table.tick()
    assert paths == [2]  # the screen never shows the in-between state


def test_one_notification_and_one_setting_of_the_leds_per_event(
    store: Store, clock: VirtualClock
) -> None:
    """Each call from outside is heard of once, if it changed anything: the seat
    LEDs (a real panel on gpiozero's mock pins) are set once per event."""
    from collections.abc import Callable, Collection

    from companion.games import Games
    from hardware.fake import MockSeats
    from hardware.pins import DEFAULT_PINS

    class CountedSeats(MockSeats):
        sets = 0

        def set_leds(self, lit: Collection[int]) -> None:
            self.sets += 1
            super().set_leds(lit)

    seats = CountedSeats(DEFAULT_PINS[:3], on_press=lambda seat, choice: None, clock=clock)
    games = Games(store, countdown=2.0, clock=clock, lights=seats)
    table = games.new_game(Start(("Ana", "Bo", "Cy")))
    heard: list[int] = []
    table.listen(lambda t: heard.append(len(t.session.log)))

    def counts(call: Callable[[], object]) -> tuple[int, int]:
        """Notifications and LED settings during ``call``."""
        before = (len(heard), seats.sets)
        call()
        return len(heard) - before[0], seats.sets - before[1]

    assert counts(lambda: table.scan("T9")) == (1, 1)  # drawn, the collector opened: one change
    assert counts(lambda: table.scan("T9")) == (0, 0)  # still lying there: nothing happened
    assert counts(lambda: table.press(0, CAMP)) == (1, 1) and seats.lit() == {0}
    assert counts(lambda: table.press(0, CAMP)) == (0, 0)  # the same choice again
    assert counts(lambda: table.press(1, TORCH)) == (1, 1)
    assert counts(lambda: table.scan("T1")) == (1, 1)  # held for the reveal
    assert counts(lambda: table.press(2, TORCH)) == (1, 1)  # the countdown starts
    clock.now += 1.0
    assert counts(lambda: table.tick()) == (0, 0)
    clock.now += 1.0
    assert counts(lambda: table.tick()) == (1, 1)  # the reveal and the held card: one change
    assert [p.card for p in table.state.path] == ["T9", "T1"] and seats.lit() == frozenset()
    assert counts(lambda: table.undo()) == (1, 1)
    assert counts(lambda: table.correct(0, "T11A")) == (1, 1)
    assert counts(lambda: table.say(NothingToUndo())) == (1, 1)
    games.close()
    seats.close()


def test_the_rules_run_once_per_card(
    store: Store, clock: VirtualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card is checked, stored, then applied: the check's state is the one
    applied, the rules are not run a second time."""
    from companion import session

    played: list[object] = []
    play = session._play

    def counted(state: engine.State, move: Draw | Reveal) -> engine.State:
        played.append(move)
        return play(state, move)

    monkeypatch.setattr(session, "_play", counted)
    table = new_table(store, clock)
    assert table.scan("T9") and played == [Draw("T9")]
    choose(table, clock, TORCH, TORCH, CAMP)
    assert played == [Draw("T9"), Reveal((2,))]


def test_notices_are_bounded(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    for i in range(MAX_NOTICES + 5):
        table.say(NotACard(f"n{i}"))
    assert len(table.notices) == MAX_NOTICES
    assert table.notices[-1].reason == NotACard(f"n{MAX_NOTICES + 4}")


def test_camera_status(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    calls: list[CameraStatus] = []
    table.listen(lambda t: calls.append(t.camera))
    table.set_camera(CameraStatus.OK)
    table.set_camera(CameraStatus.OK)
    assert calls == [CameraStatus.OK]


# --- whole games ------------------------------------------------------------------


def play_out(table: Table, clock: VirtualClock, rng: random.Random) -> None:
    while table.state.phase is not Phase.GAME_OVER:
        state = table.state
        if state.phase is Phase.CHOOSE:
            camp = set(choose_camp(state, rng) if state.deck else state.due)
            for seat in sorted(table.collector.due):
                table.press(seat, CAMP if seat in camp else TORCH)
            clock.now += 2
            assert table.tick()
        else:
            card = next_card(state, rng)
            # A card of the round just ended is taken when laid again.
            assert table.scan(card) or table.scan(card)


@pytest.mark.parametrize("seed", range(6))
def test_whole_games_replay_from_the_data_file(
    store: Store, clock: VirtualClock, seed: int
) -> None:
    rng = random.Random(seed)
    rules = ("incan-gold", "incan-gold-2020", "diamant")[seed % 3]
    table = new_table(store, clock, seats=3 + seed, rules=rules)
    play_out(table, clock, rng)
    replayed = store.session(table.game).state
    assert engine.to_json(replayed) == engine.to_json(table.state)
    assert replayed.phase is Phase.GAME_OVER
    assert not table.collector.is_open
    assert store.unfinished() is None


def test_a_notice_ends_when_what_it_is_about_is_over(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    table.scan("T9")
    table.scan("SNAKE1")  # turned early: it waits for the reveal
    assert table.notice is not None and table.notice.reason == CardHeld("SNAKE1")
    choose(table, clock, TORCH, TORCH, TORCH)
    assert [p.card for p in table.state.path] == ["T9", "SNAKE1"]
    assert table.notice is None  # the card is on the path: nothing waits any more
    table.say(Failed(Step.CAMERA, "unplugged"), "error", lasting=True)
    choose(table, clock, TORCH, TORCH, TORCH)  # a step later a device's fact still shows
    assert table.notice is not None and table.notice.reason == Failed(Step.CAMERA, "unplugged")


def test_undo_says_what_it_took_back(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    table.scan("T9")
    assert table.undo()
    assert table.notice is not None and table.notice.reason == Undone(Draw("T9"))
    assert notice_text(table.notice.reason) == (
        "Undone: Treasure 9 is off the path; take it back."
    )
    table.scan("T9")
    choose(table, clock, CAMP, TORCH, TORCH)
    assert table.undo()
    assert table.notice is not None and table.notice.reason == Undone(Reveal((0,)))
    assert notice_text(table.notice.reason) == "Undone: the reveal; choose again."


def test_undo_never_throws_presses_away_silently(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    table.scan("T9")
    table.press(0, CAMP)
    table.press(1, TORCH)
    assert table.undo() is False  # first tap: says what would go, changes nothing
    assert table.notice is not None
    assert table.notice.reason == UndoWouldDropChoices(2, Draw("T9"))
    assert notice_text(table.notice.reason) == (
        "2 seats have chosen: tap Undo again to take back treasure 9 and clear their choices."
    )
    assert [p.card for p in table.state.path] == ["T9"] and table.collector.chosen == {0, 1}
    table.press(2, TORCH)  # a press in between: the next tap warns again
    assert table.undo() is False
    assert table.undo() is True  # confirmed
    assert table.state.path == () and table.collector.chosen == frozenset()
    assert table.notice is not None and table.notice.reason == Undone(Draw("T9"), 3)
    assert notice_text(table.notice.reason) == (
        "Undone: Treasure 9 is off the path; take it back. 3 seats' choices were cleared."
    )


def test_undoing_a_correction_keeps_the_turns_choices_and_says_so(
    store: Store, clock: VirtualClock,
) -> None:
    """The same turn before and after: the choices stay, so Undo neither asks
    nor says any were cleared (it said "1 seat's choice was cleared" and kept it)."""
    table = new_table(store, clock)
    table.scan("T9")
    table.press(0, TORCH)
    assert table.correct(0, "T15")
    assert table.undo() is True and not table.asking  # at the first tap
    assert [p.card for p in table.state.path] == ["T9"]
    assert [s.hand for s in table.state.seats] == [3, 3, 3]
    assert table.collector.chosen == {0}
    assert table.notice is not None and table.notice.reason == Undone(Correct(0, "T15"), 0)
    assert notice_text(table.notice.reason) == "Undone: the correction of card 1."
    # Taking back the card itself ends the turn: that asks first, as ever.
    assert table.undo() is False
    assert table.notice is not None
    assert table.notice.reason == UndoWouldDropChoices(1, Draw("T9"))


def test_undos_question_holds_the_reveal(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock)
    table.scan("T9")
    for seat in range(3):
        table.press(seat, TORCH)
    assert table.undo() is False and table.asking
    clock.now += 10.0
    assert not table.tick() and table.collector.countdown_left is None
    assert stored(store, table)[-1] == Draw("T9")
    assert table.press(1, CAMP)  # a seat's button withdraws it: the countdown starts in full
    assert not table.asking and table.notice is None
    assert table.collector.countdown_left == 2.0
    clock.now += 2.0
    assert table.tick() and stored(store, table)[-1] == Reveal((1,))


def test_a_notice_ends_with_the_next_thing_the_table_does(
    store: Store, clock: VirtualClock
) -> None:
    table = new_table(store, clock)
    table.scan("T9")
    assert table.undo() and table.notice is not None
    assert table.notice.reason == Undone(Draw("T9"))
    table.scan("T9")
    assert table.notice is None  # a card turned
    assert not table.scan("T9X") and table.notice is not None  # not a card: said
    assert table.press(0, TORCH)
    assert table.notice is None  # a seat's press
    table.press(1, TORCH)
    table.press(2, TORCH)
    table.scan("SNAKE1")
    clock.now += 2.0
    assert table.tick()  # the reveal: the held card is on the path, nothing waits
    assert table.notice is None
    assert table.undo() and table.notice is not None
    table.moved_on()  # what the core does not see (a change of language)
    assert table.notice is None
    table.scan("SNAKE1")
    choose(table, clock, TORCH, TORCH, TORCH)
    assert not table.scan("T9") and table.notice is not None  # on the path already
    table.scan("SNAKE2")
    assert table.state.phase is Phase.ROUND_OVER
    table.say(NothingToUndo())
    table.show_round_end()  # a round's end: what was said in the round is over
    assert table.notice is None


def test_a_correction_says_what_it_changed(store: Store, clock: VirtualClock) -> None:
    table = new_table(store, clock, seats=4)
    table.scan("T11A")
    choose(table, clock, CAMP, TORCH, TORCH, TORCH)  # Ana leaves with 2 + 3 = 5
    table.scan("SNAKE1")
    assert table.correct(1, "T9")  # the second card was a treasure 9: 3 each
    assert table.notice is not None
    assert table.notice.reason == Corrected(1, "SNAKE1", "T9", (("Bo", 2, 5), ("Cy", 2, 5),
                                                               ("Dee", 2, 5)))
    assert notice_text(table.notice.reason) == (
        "Card 2: snakes → treasure 9; Bo, Cy and Dee: hands 2 → 5"
    )
    assert table.correct(0, "T14")  # 14: 3 each and 2 left, Ana's tent 3 + 2 as before
    assert table.notice.reason == Corrected(0, "T11A", "T14", (("Bo", 5, 6), ("Cy", 5, 6),
                                                              ("Dee", 5, 6)))
    assert table.correct(0, "SNAKE2")  # nothing to share: Ana leaves with nothing
    assert notice_text(table.notice.reason) == (
        "Card 1: treasure 14 → snakes; Bo, Cy and Dee: hands 6 → 3; Ana: tent 5 → 0"
    )
    assert not table.correct(5, "T1") and not isinstance(table.notice.reason, Corrected)


def test_a_wifi_codes_password_is_never_shown_nor_logged(
    store: Store, clock: VirtualClock, caplog: pytest.LogCaptureFixture
) -> None:
    """A Wi-Fi QR code under the camera showed its password on the table's
    screen (and its LAN page) and wrote it to the journal."""
    from vision.scanner import notice
    from vision.tracker import ForeignPlaced

    table = new_table(store, clock)
    code = "WIFI:S:HomeNet;T:WPA;P:hunter22;;"
    with caplog.at_level("INFO"):
        assert not table.scan(code)
    assert table.notice is not None
    shown = "WIFI:S:HomeNet;T:WPA;P:\u2022\u2022\u2022;;"
    assert notice_text(table.notice.reason) == "Not a card: \u201c" + shown + "\u201d"
    assert "hunter22" not in caplog.text and "HomeNet" in caplog.text
    assert notice(ForeignPlaced(code, 1)) == NotACard(shown)
    assert notice(ForeignPlaced("https://ana:pw@example.org/", 1)) == NotACard(
        "https://\u2022\u2022\u2022@example.org/")
