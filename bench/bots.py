"""The bot tournament, a bot's decision time and the odds panel's time.

    nice python bench/bots.py [--games 10000] [--seed 12] [--seats 4]

1. Tournament: for every pair of strategies, ``--games`` whole games at a
   table of ``--seats`` seats, the two strategies on alternate seats (which
   one sits first alternates from game to game), through the real engine
   (``engine.draw`` / ``engine.reveal``). Each round's deck is shuffled with
   a fixed seed; the bots see only their view. Prints each strategy's mean
   score per seat and its win rate (a game won by several seats is shared
   among them).
2. Decision time: one bot choice (``bots.view`` + ``bots.decide``) timed on
   every turn of some games, in microseconds and as a share of one 60 Hz
   screen frame (16.7 ms).
3. The odds panel on the fullest path: round 5 with every treasure, every
   artifact and one hazard of each kind turned (30 cards on the path), the
   exact odds (``odds.odds``) and the panel's text (``ui.kivyfree.presenters.odds_text``).
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import bots, engine
from companion.cards import CATALOGUE
from companion.choices import Choice
from companion.engine import Phase, State
from companion.events import Draw, Event, Reveal, Start
from companion.odds import odds
from companion.review import review
from companion.session import Session

FRAME_S = 1 / 60
NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal")


def play_game(
    strategies: Sequence[str],
    rng: random.Random,
    timings: list[float] | None = None,
    events: list[Event] | None = None,
) -> State:
    """One whole game: each round's deck shuffled by ``rng``, the bots choosing."""
    state = engine.new_game(NAMES[: len(strategies)], "incan-gold")
    seed = f"{rng.random()}"
    log = events if events is not None else []
    log.append(Start(NAMES[: len(strategies)]))
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
                choice = bots.decide(strategies[seat], bots.view(state, seat, seed=seed))
                if timings is not None:
                    timings.append(time.perf_counter() - t)
                if choice is Choice.CAMP:
                    camp.append(seat)
            state = engine.reveal(state, camp)
            log.append(Reveal(tuple(camp)))
            if state.phase is not Phase.DRAW:
                break  # everyone left
        else:
            if state.phase is Phase.CHOOSE:  # the deck ran out: everyone goes home
                log.append(Reveal(state.due))
                state = engine.reveal(state, state.due)
    return state


def tournament(games: int, seats: int, seed: int) -> None:
    print(f"tournament: {games} games per pairing, {seats} seats, seed {seed}")
    print(f"{'pairing':<22} {'strategy':<9} {'mean score':>10} {'win rate':>9}")
    totals: dict[str, list[float]] = {s: [0.0, 0.0, 0.0] for s in bots.STRATEGIES}
    start = time.perf_counter()
    for a, b in itertools.combinations(bots.STRATEGIES, 2):
        rng = random.Random(f"{seed}-{a}-{b}")
        score = {a: 0, b: 0}
        wins = {a: 0.0, b: 0.0}
        for g in range(games):
            first, second = (a, b) if g % 2 == 0 else (b, a)
            table = [first if i % 2 == 0 else second for i in range(seats)]
            state = play_game(table, rng)
            for i, s in enumerate(state.scores):
                score[table[i]] += s
            winners = state.winners
            for w in winners:
                wins[table[w]] += 1 / len(winners)
        per_seat = games * seats / 2
        for s in (a, b):
            mean = score[s] / per_seat
            print(f"{a + ' v ' + b:<22} {s:<9} {mean:>10.2f} {wins[s] / games:>9.1%}")
            totals[s][0] += score[s]
            totals[s][1] += per_seat
            totals[s][2] += wins[s] / games
    print("over all pairings (mean score per seat, mean win rate):")
    for s, (score_sum, n, rate) in totals.items():
        print(f"  {s:<9} {score_sum / n:>8.2f} {rate / 2:>8.1%}")
    print(f"  ({time.perf_counter() - start:.0f} s)")


def decision_time(seed: int) -> None:
    timings: list[float] = []
    rng = random.Random(seed)
    for g in range(300):
        table = [bots.STRATEGIES[(g + i) % 3] for i in range(8)]
        play_game(table, rng, timings)
    us = sorted(t * 1e6 for t in timings)
    p99 = us[int(len(us) * 0.99)]
    worst = us[int(len(us) * 0.999)]
    print(
        f"bot decision (view + decide), {len(us)} calls: median {statistics.median(us):.0f} µs, "
        f"p99 {p99:.0f} µs, p99.9 {worst:.0f} µs = {worst / 1e6 / FRAME_S:.1%} of a 60 Hz frame"
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
    state = fullest_path()
    assert (state.round, len(state.path), len(state.deck)) == (5, 25, 10)
    from ui.kivyfree import i18n
    from ui.kivyfree.presenters import odds_text

    i18n.set_language("en")
    odds_text(state)  # the first call loads the number formats
    times_core: list[float] = []
    times_panel: list[float] = []
    for _ in range(repeat):
        t = time.perf_counter()
        odds(state)
        times_core.append(time.perf_counter() - t)
        t = time.perf_counter()
        odds_text(state)
        times_panel.append(time.perf_counter() - t)
    core = statistics.median(times_core) * 1e6
    panel = statistics.median(times_panel) * 1e6
    worst = sorted(times_panel)[int(repeat * 0.999)]
    print(
        f"odds panel, fullest path ({len(state.path)} cards on the path, "
        f"{len(state.deck)} left, 8 seats): odds {core:.0f} µs, odds + panel text "
        f"{panel:.0f} µs (median of {repeat}), p99.9 {worst * 1e6:.0f} µs "
        f"= {worst / FRAME_S:.1%} of a 60 Hz frame"
    )


def review_time(seed: int, games: int = 50) -> None:
    """``review`` of whole 8-seat games of bots, the longest of them reported too."""
    rng = random.Random(seed)
    times = []
    longest = (0, 0.0)
    for _ in range(games):
        events: list[Event] = []
        play_game(["greedy", "greedy", "random", "cautious"] * 2, rng, events=events)
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
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--skip-tournament", action="store_true")
    args = parser.parse_args()
    odds_panel_time(2000)
    decision_time(args.seed)
    review_time(args.seed)
    if not args.skip_tournament:
        tournament(args.games, args.seats, args.seed)


if __name__ == "__main__":
    main()
