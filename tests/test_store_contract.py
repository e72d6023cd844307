"""One contract for every store: the in-memory fake and the SQLite file keep
the same promises and raise the same exceptions (companion/ports.py).

Each test runs twice, once per implementation; a difference between the fake
and the file fails here, not in a test about the table that trusts the fake.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from test_history_store import stored
from test_stats import GAME_1, GAME_2

from companion.events import Draw, Reveal, Start
from companion.memory import MemoryStore
from companion.ports import (
    EventStore,
    MergeRefusedError,
    NameTakenError,
    NoSuchGameError,
    NoSuchPlayerError,
    StoredDataError,
)
from storage import Store

START = Start(("Ana", "Bo", "Cy"))


def _ticking() -> Callable[[], datetime]:
    """A wall clock a second later at each call: every row its own time."""
    times = (datetime(2026, 11, 24, 9, 0, tzinfo=UTC) + timedelta(seconds=i) for i in range(10**6))
    return lambda: next(times)


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    made: EventStore
    if request.param == "memory":
        made = MemoryStore()
    else:
        made = Store(tmp_path / "games.sqlite", clock=_ticking())
    yield made
    made.close()


def by_name(store: EventStore) -> dict[str, int]:
    return {p.name: p.id for p in store.players()}


# --- the game log -------------------------------------------------------------------


def test_a_game_replays_what_was_appended(store: EventStore) -> None:
    first, second = store.new_game(START), store.new_game(START)
    assert second == first + 1
    store.append(first, Draw("T11A"))
    store.append(first, Reveal((0,)))
    state = store.session(first).state
    assert [s.banked for s in state.seats] == [5, 0, 0]
    assert [s.hand for s in state.seats] == [0, 3, 3]
    assert store.session(second).log == (START,)


def test_an_unknown_game_is_the_cores_no_such_game(store: EventStore) -> None:
    with pytest.raises(NoSuchGameError):
        store.append(7, Draw("T1"))
    with pytest.raises(NoSuchGameError):
        store.session(7)
    with pytest.raises(NoSuchGameError):
        store.delete_game(7)
    with pytest.raises(NoSuchGameError):
        store.link_players(7, ("Ana", "Bo", "Cy"))
    assert store.players() == []
    assert issubclass(NoSuchGameError, StoredDataError)
    assert issubclass(NoSuchGameError, LookupError)


# --- settings -----------------------------------------------------------------------


def test_options_belong_to_their_game_and_settings_to_the_device(store: EventStore) -> None:
    first, second = store.new_game(START), store.new_game(START)
    store.set_option(first, "hidden_tents", "1")
    store.set_option(first, "hidden_tents", "0")
    store.set_option(second, "hidden_tents", "1")
    store.set_setting("language", "ja")
    assert store.option(first, "hidden_tents") == "0"
    assert store.option(second, "hidden_tents") == "1"
    assert store.option(second, "abandoned") is None
    assert store.setting("language") == "ja"
    assert store.setting("hidden_tents") is None


# --- players ------------------------------------------------------------------------


def test_players_come_most_recently_seated_first(store: EventStore) -> None:
    stored(store, Start(("Ana", "Bo", "Cy")), ())
    stored(store, Start(("Dee", "Bo", "Eli")), ())
    assert [p.name for p in store.players()] == ["Eli", "Dee", "Bo", "Cy", "Ana"]
    assert len({p.colour for p in store.players()}) == 5


def test_a_rename_shows_in_the_history_and_a_taken_name_is_refused(store: EventStore) -> None:
    stored(store, START, GAME_1)
    ids = by_name(store)
    store.rename_player(ids["Ana"], "  Anna ")
    assert store.history()[0].players == ("Anna", "Bo", "Cy")
    assert store.session(1).log[0] == START  # the log keeps the name as played
    with pytest.raises(NameTakenError):
        store.rename_player(ids["Bo"], "Anna")
    with pytest.raises(ValueError):
        store.rename_player(ids["Bo"], "   ")
    with pytest.raises(NoSuchPlayerError):
        store.rename_player(99, "Zed")
    assert sorted(by_name(store)) == ["Anna", "Bo", "Cy"]
    # One spelling per name: Zoë typed as e and a combining diaeresis is Zoë.
    store.rename_player(ids["Cy"], "Zoe\u0308")
    assert "Zo\u00eb" in by_name(store)
    with pytest.raises(NameTakenError):
        store.rename_player(ids["Bo"], "Zo\u00eb")


def test_a_merge_joins_two_spellings_and_refuses_two_people(store: EventStore) -> None:
    stored(store, Start(("Ana", "Bo", "Cy")), GAME_1)
    stored(store, Start(("Anna", "Bo", "Cy")), GAME_2)
    ids = by_name(store)
    with pytest.raises(MergeRefusedError):
        store.merge_players(ids["Ana"], ids["Bo"])
    with pytest.raises(ValueError):
        store.merge_players(ids["Ana"], ids["Ana"])
    with pytest.raises(NoSuchPlayerError):
        store.merge_players(ids["Ana"], 99)
    store.merge_players(ids["Ana"], ids["Anna"])
    assert sorted(by_name(store)) == ["Ana", "Bo", "Cy"]
    assert [g.players for g in store.history()] == [("Ana", "Bo", "Cy")] * 2
    # The merged player counts as seated when the later of the two was.
    seated = {p.name: p.last_used for p in store.players()}
    assert seated["Ana"] == seated["Bo"] == seated["Cy"]


def test_the_refusals_are_values_errors_of_the_core() -> None:
    assert issubclass(NameTakenError, ValueError) and issubclass(MergeRefusedError, ValueError)
    assert issubclass(NoSuchPlayerError, LookupError)
    assert all(issubclass(e, StoredDataError)
               for e in (NameTakenError, MergeRefusedError, NoSuchPlayerError))  # fmt: skip


# --- history ------------------------------------------------------------------------


def test_the_unfinished_game_is_the_newest_not_over(store: EventStore) -> None:
    assert store.unfinished() is None
    done = stored(store, START, GAME_1)
    assert store.session(done).state.phase.value == "game_over"
    assert store.unfinished() is None
    current = stored(store, START, ("T9",))
    stored(store, START, GAME_2)
    assert store.unfinished() == current


def test_history_reads_a_page_newest_first_and_forgets_a_deleted_game(store: EventStore) -> None:
    made = [stored(store, Start((f"A{i}", "Bo", "Cy")), ("T9",)) for i in range(5)]
    store.set_option(made[3], "hidden_tents", "1")
    page = store.history(1, 2)
    assert [g.game for g in page] == [made[3], made[2]]
    assert [g.players[0] for g in page] == ["A3", "A2"]
    assert [g.summary.seats[0].score for g in page] == [0, 0]
    assert [g.game for g in store.history(4, 3)] == [made[0]]
    assert store.history(5, 3) == []
    assert store.game_count() == 5
    store.delete_game(made[3])
    assert store.game_count() == 4
    assert [g.game for g in store.history()] == [made[4], made[2], made[1], made[0]]
    assert store.option(made[3], "hidden_tents") is None
    with pytest.raises(NoSuchGameError):
        store.session(made[3])
