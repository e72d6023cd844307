"""From one round to the next on a real offscreen window, as the table plays it.

A device built as the app builds it (the keyboard stands in for the seat
buttons, the virtual table's cards are read by the real decoder, one frame
per tick of the app), on a virtual clock: a bust holds the table and then
shows its round's summary, whatever is pressed or read meanwhile; an undo
back to the end of a round does not play its bust again; Undo's question
holds the reveal. One App for the module (Kivy's rule); the tests run in file
order and each says what it leaves.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ui.kivy_setup import configure

configure(quiet=True, fast=True)

from kivy.core.window import Window  # noqa: E402
from ui_helpers import find_button, frames, tap  # noqa: E402

from companion.engine import Phase  # noqa: E402
from companion.events import Draw, Reveal, Undo  # noqa: E402
from companion.notices import (  # noqa: E402
    CameraStatus,
    ChooseAgain,
    HeldForSummary,
    Undone,
    UndoWouldDropChoices,
)
from companion.simulate import VirtualClock  # noqa: E402
from companion.table import Table  # noqa: E402
from incan_companion.compose import Device, build  # noqa: E402
from incan_companion.config import Config  # noqa: E402
from ui.app import CompanionApp  # noqa: E402
from ui.kivyfree import i18n, presenters  # noqa: E402
from ui.kivyfree.notice_words import camera_text, notice_text  # noqa: E402
from ui.kivyfree.words import card_name  # noqa: E402

COUNTDOWN = 2.0
SPACE, BACKSPACE = 32, 8


@pytest.fixture(scope="module")
def clock() -> VirtualClock:
    return VirtualClock(0.0)


@pytest.fixture(scope="module")
def device(tmp_path_factory: pytest.TempPathFactory, clock: VirtualClock) -> Device:
    data = Path(tmp_path_factory.mktemp("flow")) / "games.sqlite"
    return build(Config(countdown=COUNTDOWN, data_file=data), clock=clock,
                 seat_input="keyboard", camera="virtual", data_file=data, threaded=False,
                 seed=5)  # fmt: skip


@pytest.fixture(scope="module")
def app(device: Device) -> Iterator[CompanionApp]:
    the_app = CompanionApp(device.games, device.controls())
    the_app._run_prepare()
    frames(3)
    yield the_app
    the_app.stop()  # closes the device too (its controls' close)
    frames(1)
    i18n.set_language("en")


def table_of(app: CompanionApp) -> Table:
    assert app.table is not None
    return app.table


def key(code: int) -> None:
    Window.dispatch("on_key_down", code, 0, None, [])
    frames(2)


def reveal(app: CompanionApp, clock: VirtualClock, camp: tuple[int, ...] = ()) -> None:
    """Every seat due presses on its keys (camp: the letter below its digit), then
    the countdown runs out on the app's own tick."""
    table = table_of(app)
    for seat in sorted(table.collector.due):
        assert app.controls.key("qwertyui"[seat] if seat in camp else str(seat + 1))
    clock.advance(COUNTDOWN)
    app.tick()
    frames(2)
    assert table.session.log[-1] == Reveal(camp)


def read_cards(app: CompanionApp, until: int = 30) -> None:
    """The app's ticks, each of them one frame of the virtual camera, until the
    card laid on the virtual table has been read (a bounded number of frames)."""
    table = table_of(app)
    before = (len(table.session.log), table.held)
    for _frame in range(until):
        app.tick()
        if (len(table.session.log), table.held) != before:
            break
    frames(2)


def clear_spot(app: CompanionApp, device: Device, until: int = 60) -> None:
    """Take the last card off the virtual table until the scanner has seen it go,
    so the next card laid there is a new placement whichever card it is."""
    assert device.camera.virtual is not None and device.camera.stepper is not None
    device.camera.virtual.place(None)
    for _frame in range(until):
        if not device.camera.stepper.tracker.present:
            return
        app.tick()
    raise AssertionError("the scanner still sees a card on an empty table")


def bust_round_1(app: CompanionApp, clock: VirtualClock, names: tuple[str, ...]) -> None:
    app.games.leave()
    app.setup.start_game(list(names), "incan-gold", False)
    table = table_of(app)
    table.enter_card("SNAKE1")
    reveal(app, clock)
    table.enter_card("SNAKE2")
    frames(3)
    assert table.state.phase is Phase.ROUND_OVER


def test_undo_during_the_bust_hold_takes_the_bust_back_at_the_first_tap(
    app: CompanionApp, clock: VirtualClock,
) -> None:
    """A misread second hazard: a tap on Undo during the bust's moment opened
    the summary instead, and the bust took three taps to undo."""
    bust_round_1(app, clock, ("Ana", "Bo", "Cy"))
    table = table_of(app)
    assert app.sm is not None and app.table_screen.holding
    tap(find_button(app.table_screen, i18n._("Undo")))
    assert isinstance(table.session.log[-1], Undo)
    assert table.state.phase is Phase.DRAW and [p.card for p in table.state.path] == ["SNAKE1"]
    assert app.sm.current == "table" and not app.table_screen.holding
    # The menu, too, opens at once; a tap elsewhere still ends the moment.
    table.enter_card("SNAKE2")
    frames(3)
    assert app.table_screen.holding
    tap(app.table_screen.ids.menu)
    assert app.menu is not None and app.table_screen.holding
    app.menu.dismiss(animation=False)
    frames(2)
    tap(app.table_screen)
    assert app.sm.current == "round_end"


def test_a_card_turned_during_the_bust_hold_waits_for_the_summary(
    app: CompanionApp, clock: VirtualClock, device: Device
) -> None:
    """Japanese, 3 seats: Space during the bust's hold lays a card on the virtual
    table; it waits, the round's summary comes, and its button draws the card."""
    app.choose_language("ja")
    bust_round_1(app, clock, ("さくら", "Bo", "Cy"))
    table = table_of(app)
    assert app.sm is not None and app.sm.current == "table" and app.table_screen.holding
    # The header does not ask for the next card while the bust is on show.
    over = i18n._("Round {round} is over. Turn the first card of round {next}.")
    assert app.table_screen.prompt != over.format(round=1, next=2)
    assert app.table_screen.prompt == presenters.prompt(table.state, ending=True)
    clear_spot(app, device)
    key(SPACE)  # the virtual table's "turn a card"
    read_cards(app)
    card = table.held
    assert card is not None  # read, and waiting
    assert table.state.round == 1 and table.state.phase is Phase.ROUND_OVER
    assert table.notice is not None and table.notice.reason == HeldForSummary(card)
    assert app.table_screen.holding and app.sm.current == "table"
    assert app.table_screen.prompt == presenters.prompt(table.state, ending=True)
    tap(app.table_screen)  # the bust has been seen
    assert app.sm.current == "round_end"
    screen = app.round_end_screen
    assert screen.heading == i18n._("Round {round} is over").format(round=1)
    assert i18n._("Take one {hazard} card ({card}) out of the game.").format(
        hazard=card_name("SNAKE2"), card="SNAKE2") in screen.todo
    assert screen.notice == notice_text(HeldForSummary(card))
    tap(find_button(screen, screen.button))  # "Show the table": the waiting card comes
    assert app.sm.current == "table"
    assert table.state.round == 2 and [p.card for p in table.state.path] == [card]
    assert table.session.log[-1] == Draw(card) and table.held is None


def test_a_card_read_while_the_summary_is_on_show_waits_too(
    app: CompanionApp, clock: VirtualClock, device: Device
) -> None:
    bust_round_1(app, clock, ("さくら", "Bo", "Cy"))
    table = table_of(app)
    app.play.end_bust_hold()  # the hold's timer, or a tap
    assert app.sm is not None and app.sm.current == "round_end"
    clear_spot(app, device)
    assert device.turn_virtual_card() is not None  # as the scanner's thread would read it
    read_cards(app)
    card = table.held
    assert card is not None and table.state.round == 1
    assert app.sm.current == "round_end"  # still the summary
    assert app.round_end_screen.notice == notice_text(HeldForSummary(card))
    key(BACKSPACE)  # undo drops the waiting card first, as before a reveal
    assert table.held is None and table.state.phase is Phase.ROUND_OVER
    assert app.round_end_screen.notice != notice_text(HeldForSummary(card))
    tap(find_button(app.round_end_screen, app.round_end_screen.button))
    assert app.sm.current == "table" and table.state.round == 1
    assert table.session.log[-1] == Draw("SNAKE2")
    app.choose_language("en")


def test_undoing_a_rounds_first_card_does_not_play_the_last_bust_again(
    app: CompanionApp, clock: VirtualClock
) -> None:
    """Spanish, 5 seats: round 2's first card, everyone chosen, two quick undos in
    the countdown take the card back; the table shows round 1's end as it was
    left (no hold, no summary again), and a third undo takes back the bust."""
    app.choose_language("es")
    names = ("Íñigo", "Bo", "Cy", "Dee", "Eli")
    bust_round_1(app, clock, names)
    table = table_of(app)
    app.play.end_bust_hold()
    frames(2)
    tap(find_button(app.round_end_screen, i18n._("Show the table")))
    assert app.sm is not None and app.sm.current == "table"
    table.enter_card("T7A")
    frames(2)
    assert table.state.round == 2
    for seat in range(5):
        assert app.controls.key(str(seat + 1))
    frames(2)
    assert table.collector.countdown_left is not None
    key(BACKSPACE)  # the question: tap again
    key(BACKSPACE)  # the answer: the card goes back
    assert table.state.phase is Phase.ROUND_OVER and table.state.round == 1
    assert table.session.log[-1] == Undo()
    frames(2)
    assert app.sm.current == "table" and not app.table_screen.holding
    assert not table.ending  # a card turned now is round 2's first card at once
    over = i18n._("Round {round} is over. {name} turns the first card of round {next}.")
    assert app.table_screen.prompt == over.format(round=1, name="Bo", next=2)  # seat 2 starts
    app.play.end_bust_hold()  # the hold's timer, had a hold been started again
    assert app.sm.current == "table"
    key(BACKSPACE)  # the bust itself
    assert table.state.phase is Phase.DRAW and table.state.round == 1
    assert [p.card for p in table.state.path] == ["SNAKE1"]
    assert app.sm.current == "table" and not app.table_screen.holding
    app.choose_language("en")


def test_undos_question_holds_the_reveal_until_it_is_answered_or_withdrawn(
    app: CompanionApp, clock: VirtualClock
) -> None:
    """8 seats chosen: one tap on Undo asks, and the countdown waits for the
    answer however long it takes; a seat's button withdraws the question and the
    countdown starts again in full; a second tap answers it."""
    names = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal")
    app.games.leave()
    app.setup.start_game(list(names), "incan-gold", False)
    table = table_of(app)
    table.enter_card("T9")
    for seat in range(8):
        assert app.controls.key(str(seat + 1))
    frames(2)
    assert app.table_screen.countdown == "2"
    undo = find_button(app.table_screen, "Undo")
    tap(undo)
    question = notice_text(UndoWouldDropChoices(8, Draw("T9")))
    assert question in app.table_screen.status
    assert app.table_screen.countdown == ""
    waits = "The reveal waits: tap Undo again, or press a seat's button to go on."
    assert app.table_screen.prompt == waits
    for _tick in range(3):
        clock.advance(COUNTDOWN)
        app.tick()
    frames(2)
    assert table.session.log[-1] == Draw("T9")  # not revealed
    assert question in app.table_screen.status and app.table_screen.prompt == waits
    assert app.controls.key("1")  # Ana presses again: the table goes on
    frames(2)
    assert table.collector.countdown_left == COUNTDOWN and app.table_screen.countdown == "2"
    assert question not in app.table_screen.status
    clock.advance(COUNTDOWN)
    app.tick()
    frames(2)
    assert table.session.log[-1] == Reveal(())
    # Asked and answered: the second tap takes the card back, nothing was revealed.
    table.enter_card("T11A")
    for seat in range(8):
        assert app.controls.key(str(seat + 1))
    tap(undo)
    clock.advance(3 * COUNTDOWN)
    app.tick()
    assert table.session.log[-1] == Draw("T11A")
    tap(undo)
    assert table.session.log[-1] == Undo() and table.state.path[-1].card == "T9"
    assert notice_text(Undone(Draw("T11A"), 8)) in app.table_screen.status


def test_the_last_rounds_summary_asks_for_no_card_out(
    app: CompanionApp, clock: VirtualClock
) -> None:
    """Round 5 ends on a second hazard: its summary (before the final scores) says
    nothing of taking a hazard out, there is no next round to take it out of."""
    app.games.leave()
    app.setup.start_game(["Ana", "Bo", "Cy"], "incan-gold", False)
    table = table_of(app)
    for card in ("T3", "T4", "T5A", "T7A"):  # rounds 1 to 4: one card, everyone leaves
        table.enter_card(card)
        reveal(app, clock, (0, 1, 2))
        assert app.sm is not None and app.sm.current == "round_end"
        assert "out of the game" not in app.round_end_screen.todo  # nobody busted
        tap(find_button(app.round_end_screen, "Show the table"))
    assert table.state.round == 4 and table.state.phase is Phase.ROUND_OVER
    table.enter_card("SNAKE1")
    reveal(app, clock)
    table.enter_card("SNAKE2")
    frames(3)
    assert table.state.phase is Phase.GAME_OVER and app.table_screen.holding
    assert "out of the game" not in app.table_screen.extra
    app.play.end_bust_hold()
    frames(2)
    assert app.sm.current == "round_end"
    screen = app.round_end_screen
    assert screen.heading == "Round 5 is over" and screen.button == "Final scores"
    assert screen.todo == ""
    assert screen.how == "Second snakes: everyone in the temple loses their gems."


def test_after_the_game_the_status_line_asks_for_no_card(app: CompanionApp) -> None:
    """The game of the test before is over: the virtual table's "tap Turn a card"
    is gone from the table's status line."""
    table = table_of(app)
    assert table.state.phase is Phase.GAME_OVER
    app.show_screen("table")
    frames(2)
    assert table.camera is CameraStatus.VIRTUAL
    assert camera_text(CameraStatus.VIRTUAL) not in app.table_screen.status
    assert app.table_screen.status == ""


def test_a_notice_ends_with_a_change_of_language(app: CompanionApp, clock: VirtualClock) -> None:
    app.games.leave()
    app.setup.start_game(["Ana", "Bo", "Cy"], "incan-gold", False)
    table = table_of(app)
    table.enter_card("T9")
    key(BACKSPACE)
    said = notice_text(Undone(Draw("T9")))
    assert said in app.table_screen.status
    app.choose_language("pl")
    frames(2)
    assert table.notice is None
    assert notice_text(Undone(Draw("T9"))) not in app.table_screen.status  # nor in Polish
    assert camera_text(CameraStatus.VIRTUAL) == app.table_screen.status
    app.choose_language("en")


def test_a_resumed_choice_says_who_chooses_again(app: CompanionApp) -> None:
    """Presses are never stored (secret until the reveal): a game resumed in the
    middle of a choice says that every seat due chooses again."""
    app.games.leave()
    app.setup.start_game(["Ana", "Bo", "Cy"], "incan-gold", False)
    table = table_of(app)
    table.enter_card("T9")
    assert app.controls.key("1") and app.controls.key("w")  # Ana and Bo have chosen
    app.games.leave()  # the game stops (as at a power cut, nothing more is stored)
    app.setup.show()
    app.setup.resume_game()
    frames(2)
    resumed = table_of(app)
    assert resumed is not table and resumed.collector.chosen == frozenset()
    said = notice_text(ChooseAgain(("Ana", "Bo", "Cy")))
    assert said == (
        "Resumed: choices pressed before the stop are not kept. Ana, Bo and Cy choose again."
    )
    assert said in app.table_screen.status
    assert not any(r.chosen for r in app.table_screen.ids.seats.children)


def test_releasing_memory_frees_what_lies_in_reference_cycles_first() -> None:
    """Kivy's dropped widgets lie in reference cycles: only the cycle collector
    frees them, and what is not freed cannot be handed back."""
    import gc
    import weakref

    from incan_companion.heap import release_free_memory

    class Dropped:  # a widget and its bindings, in small
        me: Dropped

    was_on = gc.isenabled()
    gc.disable()  # no pass of Python's own between the drop and the release
    try:
        dropped = Dropped()
        dropped.me = dropped
        gone = weakref.ref(dropped)
        del dropped
        assert gone() is not None  # unreachable, not yet freed
        release_free_memory()
        assert gone() is None
    finally:
        if was_on:
            gc.enable()


def test_a_rounds_end_hands_the_free_heap_back_once(
    app: CompanionApp, clock: VirtualClock, device: Device
) -> None:
    """The device's controls release the free heap (glibc's malloc_trim) at each
    round's end, once, at the frame after it: not at every refresh."""
    import dataclasses

    from incan_companion.heap import release_free_memory, trimmer

    assert device.controls().release_memory is release_free_memory
    trim = trimmer()  # glibc's malloc_trim here (Debian): 1 if pages went back, else 0
    assert trim is not None and trim() in (0, 1)
    released: list[int] = []
    kept = app.controls
    app.controls = dataclasses.replace(kept, release_memory=lambda: released.append(1))
    try:
        app.choose_language("en")
        app.games.leave()
        app.setup.start_game(["Ana", "Bo", "Cy"], "incan-gold", False)
        table = table_of(app)
        table.enter_card("T5A")
        reveal(app, clock)
        assert released == []  # a card and a reveal: no round's end yet
        table.enter_card("SNAKE1")
        reveal(app, clock)
        table.enter_card("SNAKE2")
        frames(3)
        assert table.state.phase is Phase.ROUND_OVER
        assert released == [1]
        app.refresh()
        frames(3)
        assert released == [1]
    finally:
        app.controls = kept
        app.games.leave()
        frames(2)
