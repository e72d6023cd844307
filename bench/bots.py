"""The bot tournament, a bot's decision time, the odds panel's time and the review's.

    nice python bench/bots.py [--games 2000] [--seed 12] [--jobs 1] [--only A,B]

1. Tournament: for every table of :data:`PAIRINGS`, ``--games`` whole games
   of 4 seats through the real engine (``engine.draw`` / ``engine.reveal``),
   each game's decks shuffled from a seed of its own. Two strategies sit on
   alternate seats, two each, the first seat alternating from game to game;
   the mixed table takes four of its five strategies in turn. ``rule`` is the
   baseline written by hand (below), ``ev`` the issue's expected-value rule
   (stay while the next card's gain beats the bust chance times the hand and
   the take), both played through the same view as ours.
   The bots see only their view, with the game's reveals so far. Prints each
   strategy's mean score per seat, its win rate (a game won by several seats
   is shared among them; at the mixed table, of the games it sat at) and the
   95th percentile of its decision time. ``--jobs 2`` splits the games over
   two processes: only on a quiet machine.
2. Decision time: every strategy's choice (``bots.view`` + ``bots.decide``)
   timed on every turn of some 8-seat games.
3. The odds panel on the fullest path: round 5 with every treasure, every
   artifact and one hazard of each kind turned (25 cards on the path), the
   exact odds (``odds.odds``) and the panel's text (``ui.kivyfree.presenters.odds_text``);
   and the choice's figures (``ui.kivyfree.presenters.choice_text``) for 8 seats in.
4. The review of a few whole 8-seat games (``bench/review.py`` has the detail).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import bots, engine, rollout
from companion.cards import CATALOGUE
from companion.choices import Choice
from companion.engine import Phase, State
from companion.events import Draw, Event, Reveal, Start
from companion.odds import odds
from companion.review import review
from companion.session import Session

FRAME_S = 1 / 60
NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal")


def rule(v: bots.View) -> Choice:
    """The best rule we could write by hand (the baseline): stay while one more
    card, with a round's worth of later cards counted in, beats the chance of a
    bust times everything at stake (hand, leftovers and artifacts a leaver takes)."""
    s = rollout.situation(bots.position(v))
    leave = rollout.ev_rule(s.bust, s.hand, s.gain, s.take, s.seats_in)
    return Choice.CAMP if leave else Choice.TORCH


def ev(v: bots.View) -> Choice:
    """The issue's expected-value rule, the second baseline: stay while the next
    card's expected gain beats the chance of a bust times everything at stake
    (the hand, and the leftovers and artifacts per seat still in)."""
    s = rollout.situation(bots.position(v))
    return Choice.CAMP if s.gain < s.bust * (s.hand + s.take) else Choice.TORCH


#: The baselines written by hand, played through the same view as the bots.
BASELINES = {"rule": rule, "ev": ev}


def choose(strategy: str, v: bots.View) -> Choice:
    baseline = BASELINES.get(strategy)
    return baseline(v) if baseline is not None else bots.decide(strategy, v)


def play_game(
    strategies: Sequence[str],
    rng: random.Random,
    timings: dict[str, list[float]] | None = None,
    events: list[Event] | None = None,
) -> State:
    """One whole game: each round's deck shuffled by ``rng``, the bots choosing."""
    state = engine.new_game(NAMES[: len(strategies)], "incan-gold")
    seed = f"{rng.random()}"
    log = events if events is not None else []
    log.append(Start(NAMES[: len(strategies)]))
    seen: list[rollout.Seen] = []
    while state.phase is not Phase.GAME_OVER:
        deck = list(state.possible_draws())
        rng.shuffle(deck)
        for card in deck:
            state = engine.draw(state, card)
            log.append(Draw(card))
            if state.phase is not Phase.CHOOSE:
                if state.phase is not Phase.DRAW:
                    break  # a bust: the round is over
                continue
            camp = []
            for seat in state.due:
                t = time.perf_counter()
                v = bots.view(state, seat, seed=seed, seen=tuple(seen))
                choice = choose(strategies[seat], v)
                if timings is not None:
                    timings.setdefault(strategies[seat], []).append(time.perf_counter() - t)
                if choice is Choice.CAMP:
                    camp.append(seat)
            seen.extend(rollout.choices_at(state, camp))
            state = engine.reveal(state, camp)
            log.append(Reveal(tuple(camp)))
            if state.phase is not Phase.DRAW:
                break  # everyone left
        else:
            if state.phase is Phase.CHOOSE:  # the deck ran out: everyone goes home
                log.append(Reveal(state.due))
                state = engine.reveal(state, state.due)
    return state


Figures = tuple[dict[str, list[float]], dict[str, list[float]]]


def _games(job: tuple[tuple[str, ...], str, int, int]) -> Figures:
    """Games ``first``..``last - 1`` of a pairing (or the mixed table): per strategy
    [score sum, seats played, wins, games at the table], and the decision times."""
    table_of, seed, first, last = job
    out: dict[str, list[float]] = {s: [0.0, 0.0, 0.0, 0.0] for s in set(table_of)}
    timings: dict[str, list[float]] = {}
    for g in range(first, last):
        rng = random.Random(f"{seed}-{g}")
        table = seating(table_of, g)
        state = play_game(table, rng, timings)
        for i, sc in enumerate(state.scores):
            out[table[i]][0] += sc
            out[table[i]][1] += 1
        winners = state.winners
        for w in winners:
            out[table[w]][2] += 1 / len(winners)
        for strat in set(table):
            out[strat][3] += 1
    return out, timings


def seating(table_of: tuple[str, ...], g: int) -> list[str]:
    """Who sits where in game ``g``: two strategies alternate seats, the first
    seat alternating from game to game; a mixed table (more strategies than
    two) takes four of them in turn, each seat moving on by one a game."""
    if len(table_of) == 2:
        a, b = table_of if g % 2 == 0 else table_of[::-1]
        return [a, b, a, b]
    k = len(table_of)
    return [table_of[(g + i) % k] for i in range(4)]


def run(table_of: tuple[str, ...], games: int, seed: int, jobs: int) -> Figures:
    chunk = max(1, games // (jobs * 4))
    parts = [(table_of, f"{seed}-{'-'.join(table_of)}", g, min(games, g + chunk))
             for g in range(0, games, chunk)]  # fmt: skip
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(_games, parts)
    else:
        results = [_games(part) for part in parts]
    total: dict[str, list[float]] = {}
    timings: dict[str, list[float]] = {}
    for out, t in results:
        for strat, figures in out.items():
            acc = total.setdefault(strat, [0.0, 0.0, 0.0, 0.0])
            for i, f in enumerate(figures):
                acc[i] += f
        for strat, times in t.items():
            timings.setdefault(strat, []).extend(times)
    return total, timings


PAIRINGS: tuple[tuple[str, ...], ...] = (
    ("expert", "greedy"),
    ("expert", "rule"),
    ("expert", "ev"),
    ("rule", "greedy"),
    ("ev", "greedy"),
    ("expert", "greedy", "rule", "cautious", "random"),
)


def tournament(games: int, seed: int, jobs: int, pairings: Sequence[tuple[str, ...]]) -> None:
    print(f"tournament: {games} games per pairing, 4 seats, seed {seed}, {jobs} process(es)")
    print(f"{'table':<40} {'strategy':<9} {'mean score':>10} {'win rate':>9} {'p95 decision':>13}")
    for table_of in pairings:
        start = time.perf_counter()
        total, timings = run(table_of, games, seed, jobs)
        name = " v ".join(table_of) if len(table_of) == 2 else "mixed: " + ", ".join(table_of)
        for strat in table_of:
            score, seats, wins, played = total[strat]
            times = sorted(timings.get(strat, [0.0]))
            p95 = times[int(len(times) * 0.95)] * 1e3
            print(f"{name:<40} {strat:<9} {score / seats:>10.2f} {wins / played:>9.1%} "
                  f"{p95:>10.2f} ms")  # fmt: skip
            name = ""
        print(f"  ({time.perf_counter() - start:.0f} s)", flush=True)


def decision_time(seed: int) -> None:
    timings: dict[str, list[float]] = {}
    rng = random.Random(seed)
    for g in range(40):
        table = [bots.STRATEGIES[(g + i) % len(bots.STRATEGIES)] for i in range(8)]
        play_game(table, rng, timings)
    for strat, times in sorted(timings.items()):
        us = sorted(t * 1e6 for t in times)
        p95 = us[int(len(us) * 0.95)]
        p99 = us[int(len(us) * 0.99)]
        print(
            f"{strat} decision (view + decide), {len(us)} calls in 8-seat games: median "
            f"{statistics.median(us):.0f} µs, p95 {p95:.0f} µs, p99 {p99:.0f} µs"
        )


def fullest_path() -> State:
    """Round 5, 8 seats: every treasure, every artifact and one hazard of each
    kind on the path (25 cards), everyone still in; the 10 cards left are the
    second and third hazards of each kind, so the next card busts for sure."""
    state = engine.new_game(NAMES, "incan-gold")
    for _ in range(4):  # four short rounds in which everyone leaves: nothing is lost
        state = engine.draw(state, "T1")
        state = engine.reveal(state, range(8))
    hazards = ["SNAKE1", "SPIDER1", "MUMMY1", "FIRE1", "ROCKS1"]
    cards = [c for c in state.possible_draws() if not CATALOGUE[c].is_hazard]
    for card in [*cards, *hazards]:
        state = engine.draw(state, card)
        state = engine.reveal(state, [])
    return state


def odds_panel_time(repeat: int) -> None:
    from ui.kivyfree import i18n
    from ui.kivyfree.presenters import choice_text, odds_text

    i18n.set_language("en")
    state = fullest_path()
    assert (state.round, len(state.path), len(state.deck)) == (5, 25, 10)
    odds_text(state)  # the first call loads the number formats
    # The choice's figures on a busy path with choices due: 8 seats, T7A T5A SNAKE1
    # SPIDER1 MUMMY1 A1 FIRE1 (24 cards left, 7 others to count).
    busy = engine.new_game(NAMES, "incan-gold")
    for card in ("T7A", "T5A", "SNAKE1", "SPIDER1", "MUMMY1", "A1", "FIRE1"):
        busy = engine.draw(busy, card)
        if card != "FIRE1":
            busy = engine.reveal(busy, [])
    times_core: list[float] = []
    times_panel: list[float] = []
    times_choice: list[float] = []
    for _ in range(repeat):
        t = time.perf_counter()
        odds(state)
        times_core.append(time.perf_counter() - t)
        t = time.perf_counter()
        odds_text(state)
        times_panel.append(time.perf_counter() - t)
        t = time.perf_counter()
        choice_text(busy)
        times_choice.append(time.perf_counter() - t)
    core = statistics.median(times_core) * 1e6
    panel = statistics.median(times_panel) * 1e6
    worst = sorted(times_panel)[int(repeat * 0.999)]
    print(
        f"odds panel, fullest path ({len(state.path)} cards on the path, "
        f"{len(state.deck)} left, 8 seats): odds {core:.0f} µs, odds + panel text "
        f"{panel:.0f} µs (median of {repeat}), p99.9 {worst * 1e6:.0f} µs "
        f"= {worst / FRAME_S:.1%} of a 60 Hz frame"
    )
    choice = sorted(times_choice)
    print(
        f"the choice's figures (8 seats in, 24 cards left): median "
        f"{statistics.median(choice) * 1e3:.2f} ms, "
        f"p99.9 {choice[int(repeat * 0.999)] * 1e3:.2f} ms"
    )


def review_time(seed: int, games: int = 5) -> None:
    """``review`` of whole 8-seat games of bots, the longest of them reported too."""
    rng = random.Random(seed)
    times = []
    longest = (0, 0.0)
    for _ in range(games):
        events: list[Event] = []
        play_game(["greedy", "expert", "random", "cautious"] * 2, rng, events=events)
        session = Session.replay(events)
        t = time.perf_counter()
        review(session)
        took = time.perf_counter() - t
        times.append(took)
        longest = max(longest, (len(events), took))
    print(
        f"review of a whole 8-seat game ({games} games): median "
        f"{statistics.median(times) * 1e3:.1f} ms, slowest {max(times) * 1e3:.1f} ms; "
        f"the longest game ({longest[0]} events) {longest[1] * 1e3:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--jobs", type=int, default=1, help="processes (2 only on a quiet machine)")
    parser.add_argument("--only", help="one table, e.g. expert,greedy")
    parser.add_argument("--skip-tournament", action="store_true")
    args = parser.parse_args()
    if args.only:
        tournament(args.games, args.seed, args.jobs, [tuple(args.only.split(","))])
        return
    odds_panel_time(2000)
    decision_time(args.seed)
    review_time(args.seed)
    if not args.skip_tournament:
        tournament(args.games, args.seed, args.jobs, PAIRINGS)


if __name__ == "__main__":
    main()
