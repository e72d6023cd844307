"""Invariants over hundreds of random legal games (all rule sets, undo, correct).

INCAN_PROPERTY_GAMES sets how many games (default 400, a new draw of them at
each run, to keep the suite within its three minutes; the benchmark uses 10,000).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion import engine
from companion.cards import CATALOGUE
from companion.engine import Phase, RuleError, State
from companion.events import Correct, Draw, Reveal, Start, Undo
from companion.rules import RULE_SETS
from companion.session import Session
from companion.simulate import random_events
from incan_companion.commands.game import replay_log
from storage import Store

GAMES = int(os.environ.get("INCAN_PROPERTY_GAMES", "400"))


def gems_dealt(session: Session) -> int:
    return sum(
        CATALOGUE[m.card].value
        for m in session.moves
        if isinstance(m, Draw) and CATALOGUE[m.card].is_treasure
    )


def check_state(state: State, dealt: int) -> None:
    held = sum(s.hand for s in state.seats)
    banked = sum(s.banked for s in state.seats)
    on_path = sum(p.left for p in state.path)
    assert dealt == held + banked + on_path + state.returned

    if state.rules.artifacts:
        entered = {f"A{r}" for r in range(1, state.round + 1)}
        lying = {
            p.card for p in state.path
            if p.kind.is_artifact and p.taken_by is None and p.card not in state.lost
        }  # fmt: skip
        in_deck = {c for c in state.deck if CATALOGUE[c].is_artifact}
        parts = [in_deck, lying, set(state.carried), set(state.lost)]
        assert sum(len(p) for p in parts) == len(entered)
        assert set().union(*parts) == entered
        carried_by_seats = [a.card for s in state.seats for a in s.artifacts]
        assert sorted(carried_by_seats) == sorted(state.carried)
    else:
        assert not any(CATALOGUE[c].is_artifact for c in state.deck)

    assert not set(state.removed) & set(state.deck)
    for seat in state.seats:
        if not seat.in_temple:
            assert seat.hand == 0
    if state.phase is Phase.CHOOSE:
        assert state.due == state.in_temple and state.due
    if state.phase is Phase.GAME_OVER:
        assert state.round == 5


def check_moves(session: Session) -> None:
    """Replaying the resolved moves: banked never drops, removed never returns."""
    start = session.moves[0]
    assert isinstance(start, Start)
    state = engine.new_game(start.seats, start.rules)
    removed: set[str] = set()
    for move in session.moves[1:]:
        before = [s.banked for s in state.seats]
        if isinstance(move, Draw):
            assert move.card not in removed
            state = engine.draw(state, move.card)
        else:
            assert isinstance(move, Reveal)
            state = engine.reveal(state, move.camp)
        removed |= set(state.removed)
        assert all(b >= a for a, b in zip(before, (s.banked for s in state.seats), strict=True))
    assert state == session.state


@settings(max_examples=GAMES)
@given(
    seed=st.integers(0, 2**32 - 1),
    rules=st.sampled_from(sorted(RULE_SETS)),
    seats=st.integers(3, 8),
    mistakes=st.sampled_from([0.0, 0.02, 0.1]),
)
def test_random_games_keep_the_invariants(
    seed: int, rules: str, seats: int, mistakes: float
) -> None:
    session = None
    for _event, session in random_events(
        random.Random(seed), seats=seats, rules=rules, mistakes=mistakes
    ):
        check_state(session.state, gems_dealt(session))
    assert session is not None
    assert session.state.phase is Phase.GAME_OVER
    check_moves(session)
    again = Session.replay(session.log)
    assert again.state == session.state
    assert (again.moves, again.states) == (session.moves, session.states)
    assert json.dumps(engine.to_json(again.state)) == json.dumps(engine.to_json(session.state))
    assert Session.replay(session.effective).state == session.state


@settings(max_examples=max(20, GAMES // 20))
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(sorted(RULE_SETS)))
def test_after_every_undo_the_game_is_the_replay_of_what_is_left(seed: int, rules: str) -> None:
    """Undo rebuilds the moves and states it takes back (a correction's round
    is replayed with the draw it replaced): they must be the effective log's."""
    undos = 0
    for event, session in random_events(random.Random(seed), rules=rules, mistakes=0.1):
        if isinstance(event, Undo):
            undos += 1
            fresh = Session.replay(session.effective)
            assert (session.moves, session.states) == (fresh.moves, fresh.states)
    assume(undos > 0)


@settings(max_examples=max(20, GAMES // 50))
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(sorted(RULE_SETS)))
def test_store_then_export_then_replay_round_trips(
    tmp_path_factory: object, seed: int, rules: str
) -> None:
    from incan_companion import cli

    folder = Path(tmp_path_factory.mktemp("store"))  # type: ignore[attr-defined]
    data = folder / "games.sqlite"
    rng = random.Random(seed)
    with Store(data) as store:
        game = None
        for event, _session in random_events(rng, rules=rules, mistakes=0.05):
            if game is None:
                assert isinstance(event, Start)
                game = store.new_game(event)
            else:
                store.append(game, event)
    exported = folder / "export.jsonl"
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["export", str(data)]) == 0
    exported.write_text(out.getvalue())
    assert "undo" not in out.getvalue()
    assert replay_log(exported).state == _session.state
    with Store(data, readonly=True) as store:
        assert store.session(store.latest()).state == _session.state


def test_the_correction_picker_lists_exactly_what_a_correction_accepts() -> None:
    # The picker replays once per kind of card; a correction replays for its
    # one card. Over random games, at every path card, both must agree.
    rng = random.Random(11)
    checked = 0
    for seed in range(max(GAMES // 40, 20)):
        for _event, session in random_events(random.Random(seed), mistakes=0.02):
            if session.state.phase is not Phase.CHOOSE or rng.random() > 0.3:
                continue
            for pos in range(len(session.state.path)):
                accepted = []
                for cid in CATALOGUE:
                    try:
                        session.preview(Correct(pos, cid))
                    except RuleError:
                        continue
                    accepted.append(cid)
                current = session.state.path[pos].card
                assert session.correction_options(pos) == tuple(
                    c for c in accepted if c != current
                ), (seed, pos)
                checked += 1
    assert checked > 500
