"""The review of whole 8-seat games: the time per game against the goal of 10 s.

    nice python bench/review.py [--games 10] [--seed 3]

Plays ``--games`` whole games of 8 bot seats (greedy, expert, random,
cautious, the bench's rule, ...) through the real engine, then reviews each
as the game-over screen does: the model of the other seats fitted to the
games before it (up to ``companion.review.HISTORY_GAMES``), the rollouts of
every decision. Prints the decisions per game and the time of each review
(the model's fit included), median and slowest, and the fit alone.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import play_game  # the tournament's table: bench/bots.py

from companion.events import Event
from companion.review import HISTORY_GAMES, REVIEW_ROLLOUTS, fit_model, review
from companion.session import Session

GOAL_S = 10.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    table = ["greedy", "expert", "random", "cautious", "rule", "greedy", "expert", "cautious"]
    played: list[Session] = []
    times: list[float] = []
    cpu: list[float] = []
    fits: list[float] = []
    print(f"review of whole 8-seat games, {REVIEW_ROLLOUTS} rollouts a plan and decision")
    for g in range(args.games):
        events: list[Event] = []
        play_game(table[g % 8 :] + table[: g % 8], rng, events=events)
        session = Session.replay(events)
        t, c = time.perf_counter(), time.process_time()
        model, info = fit_model(session, played[-HISTORY_GAMES:])
        fitted = time.perf_counter() - t
        result = review(session, model, info)
        took, used = time.perf_counter() - t, time.process_time() - c
        decisions = sum(len(s.decisions) for s in result.seats)
        print(f"  game {g + 1}: {decisions} decisions, model {info.name} ({info.decisions} "
              f"choices, {info.games} games): {took:.2f} s, CPU {used:.2f} s "
              f"(fit {fitted:.2f} s)", flush=True)  # fmt: skip
        times.append(took)
        cpu.append(used)
        fits.append(fitted)
        played.append(session)
    # On a shared machine the wall time counts the waits for a core; the CPU
    # time is what the review itself costs (a quiet machine's wall time).
    print(f"median {statistics.median(times):.2f} s a game (CPU {statistics.median(cpu):.2f} s), "
          f"slowest {max(times):.2f} s (CPU {max(cpu):.2f} s); goal {GOAL_S:.0f} s: the slowest "
          f"CPU time at {max(cpu) / GOAL_S:.0%} of it; the model's fit: median "
          f"{statistics.median(fits):.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
