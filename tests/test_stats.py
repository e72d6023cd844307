"""Statistics from replayed games: figures worked out by hand from scripted games."""

from __future__ import annotations

from helpers import play

from companion.session import Session
from companion.stats import (
    GameSummary,
    HeadToHead,
    Played,
    SeatResult,
    group_stats,
    player_stats,
    summarize,
)

# Ana 20, Bo 20 banked + an artifact (5) = 25, Cy 14; each busts once (see the rounds).
GAME_1: tuple[str | list[int], ...] = (
    "T11A", [0], "SNAKE1", [], "SNAKE2",  # Ana leaves with 3 + 2; Bo and Cy bust
    "T9", [0, 1, 2],  # 3 each
    "T15", [1, 2], "SPIDER1", [], "SPIDER2",  # Bo and Cy 5 each; Ana busts
    "T5A", [2], "T17", [0, 1],  # Cy 1 + 2; Ana and Bo 1 + 8 (the odd gem stays)
    "T7A", [], "A1", [1], "T3", [0, 2],  # Bo alone: 2 + 1 and the artifact; Ana, Cy 2 + 1
)  # fmt: skip
# Four rounds of T14 all leaving (4 each), then Ana leaves with 4 + 2 and Bo and Cy bust:
# Ana 22, Bo 16, Cy 16.
GAME_2: tuple[str | list[int], ...] = (
    *(("T14", [0, 1, 2]) * 4), "T14", [0], "SNAKE1", [], "SNAKE3",
)  # fmt: skip


def played(game: int, session: Session) -> Played:
    summary = summarize(session)
    return Played(game, f"2026-11-0{game}", summary, tuple(s.name for s in summary.seats))


def test_a_games_summary_is_its_final_scores_busts_and_artifacts() -> None:
    summary = summarize(play(3, "incan-gold", *GAME_1))
    assert summary == GameSummary(
        "incan-gold",
        True,
        (
            SeatResult("Ana", 20, 20, 1, 5, 0, False),
            SeatResult("Bo", 25, 20, 1, 5, 1, True),
            SeatResult("Cy", 14, 14, 1, 5, 0, False),
        ),
    )
    assert summary.winners == (1,)
    assert GameSummary.from_json(summary.to_json()) == summary


def test_an_unfinished_game_counts_its_ended_rounds_and_has_no_winner() -> None:
    summary = summarize(play(3, "incan-gold", *GAME_1[:8]))
    assert not summary.finished
    assert [(s.banked, s.busts, s.rounds, s.won) for s in summary.seats] == [
        (8, 0, 2, False), (3, 1, 2, False), (3, 1, 2, False),
    ]  # fmt: skip


def test_player_statistics_over_two_games_and_an_unfinished_one() -> None:
    games = [
        played(1, play(3, "incan-gold", *GAME_1)),
        played(2, play(3, "incan-gold", *GAME_2)),
        played(3, play(3, "incan-gold", "T14", [0, 1, 2])),  # unfinished: not counted
    ]
    ana, bo, cy = player_stats(games)
    assert (ana.player, ana.games, ana.wins, ana.win_rate) == ("Ana", 2, 1, 0.5)
    assert (ana.total_score, ana.mean_score, ana.best_score) == (42, 21.0, 22)
    assert (ana.busts, ana.rounds, ana.bust_rate) == (1, 10, 0.1)
    assert (ana.banked, ana.banked_per_round, ana.artifacts) == (42, 4.2, 0)
    assert ana.head_to_head == (HeadToHead("Bo", 2, 1, 1, 0), HeadToHead("Cy", 2, 2, 0, 0))
    assert (bo.player, bo.wins, bo.mean_score, bo.best_score) == ("Bo", 1, 20.5, 25)
    assert (bo.busts, bo.bust_rate, bo.banked, bo.banked_per_round) == (2, 0.2, 36, 3.6)
    assert bo.artifacts == 1
    assert bo.head_to_head == (HeadToHead("Ana", 2, 1, 1, 0), HeadToHead("Cy", 2, 1, 0, 1))
    assert (cy.player, cy.wins, cy.win_rate, cy.mean_score, cy.best_score) == (
        "Cy", 0, 0.0, 15.0, 16,
    )  # fmt: skip
    assert cy.head_to_head == (HeadToHead("Ana", 2, 0, 2, 0), HeadToHead("Bo", 2, 0, 1, 1))


def test_a_renamed_player_is_one_player_across_games_and_groups_need_two_games() -> None:
    g1 = played(1, play(3, "incan-gold", *GAME_1))
    g2 = played(2, play(3, "incan-gold", *GAME_2))
    # Seat 0 of game 2 was typed "Anna": the same person through her player link.
    g2 = Played(2, g2.created, g2.summary, ("Ana", "Bo", "Cy"))
    solo = Played(3, "2026-11-03", g1.summary, ("Ana", "Bo", "Dee"))
    (group,) = group_stats([g1, g2, solo])
    assert (group.players, group.games) == (("Ana", "Bo", "Cy"), 2)
    assert [(p.player, p.games, p.wins) for p in group.members] == [
        ("Ana", 2, 1), ("Bo", 2, 1), ("Cy", 2, 0),
    ]  # fmt: skip
    assert [(p.player, p.games, p.wins) for p in player_stats([g1, g2, solo])] == [
        ("Bo", 3, 2), ("Ana", 3, 1), ("Cy", 2, 0), ("Dee", 1, 0),
    ]  # fmt: skip
