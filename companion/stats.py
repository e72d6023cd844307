"""What the stored games add up to: a summary per game, statistics per player and group.

Every figure comes from replaying a game's log through the engine
(:func:`summarize`); the data file may keep a game's summary beside its log,
but only as a cache of exactly this function's result, keyed by the log's
length, so it can never drift from a replay.

>>> from companion.events import Draw, Reveal, Start
>>> from companion.session import Session
>>> s = Session.start(Start(("Ana", "Bo", "Cy")))
>>> _ = s.apply(Draw("T11A")); _ = s.apply(Reveal((0,)))
>>> g = summarize(s)
>>> g.finished, [(seat.name, seat.banked, seat.rounds) for seat in g.seats]
(False, [('Ana', 5, 0), ('Bo', 0, 0), ('Cy', 0, 0)])
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.engine import Phase, Status
from companion.session import Session

__all__ = [
    "GameSummary",
    "GroupStats",
    "HeadToHead",
    "Kept",
    "Played",
    "PlayerStats",
    "SeatResult",
    "group_stats",
    "latest_unfinished",
    "player_stats",
    "summarize",
]


@dataclass(frozen=True)
class SeatResult:
    """One seat of one game, as the game ended (or stands, if unfinished)."""

    name: str  # the seat's name as played (the log's)
    score: int  # gems banked and artifacts
    banked: int  # gems banked (artifacts not counted)
    busts: int  # rounds this seat ended in the temple when a hazard came twice
    rounds: int  # rounds played to their end
    artifacts: int  # artifacts carried out
    won: bool  # tied for the top after the artifact tie-break (finished games only)


@dataclass(frozen=True)
class GameSummary:
    """One game as the history and the statistics read it: its rule set,
    whether it was played to its end, and each seat's result."""

    rules: str
    finished: bool
    seats: tuple[SeatResult, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.seats) if s.won)

    def to_json(self) -> str:
        return json.dumps(
            {
                "rules": self.rules,
                "finished": self.finished,
                "seats": [
                    [s.name, s.score, s.banked, s.busts, s.rounds, s.artifacts, s.won]
                    for s in self.seats
                ],
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> GameSummary:
        """The summary ``to_json`` wrote (ValueError/KeyError/TypeError for anything else)."""
        data: Any = json.loads(text)
        seats = tuple(
            SeatResult(str(n), int(sc), int(b), int(bu), int(r), int(a), bool(w))
            for n, sc, b, bu, r, a, w in data["seats"]
        )
        return cls(str(data["rules"]), bool(data["finished"]), seats)


def summarize(session: Session) -> GameSummary:
    """The summary of one game, from its replayed states."""
    state = session.state
    finished = state.phase is Phase.GAME_OVER
    busts = [0] * len(state.seats)
    rounds = 0
    for s in session.states:
        # A round's last state carries its round_end, once: the next draw starts a new round.
        if s.round_end is not None:
            rounds += 1
            for i, seat in enumerate(s.seats):
                if seat.status is Status.BUSTED:
                    busts[i] += 1
    winners = set(state.winners) if finished else set()
    seats = tuple(
        SeatResult(
            name=seat.name,
            score=seat.score,
            banked=seat.banked,
            busts=busts[i],
            rounds=rounds,
            artifacts=len(seat.artifacts),
            won=i in winners,
        )
        for i, seat in enumerate(state.seats)
    )
    return GameSummary(state.rules.name, finished, seats)


@dataclass(frozen=True)
class Kept:
    """What a store knows of a game without replaying it: how many events it
    holds now, and how many its kept summary (if any) was made from.

    A log only grows (an undo or a correction is an event too), so a summary
    made from as many events as the game has now is still the game's.
    """

    game: int
    events: int
    summarized: int | None = None  # None: no summary kept
    finished: bool = False  # the kept summary's

    @property
    def current(self) -> bool:
        """Whether the kept summary still stands for the game (else replay it)."""
        return self.summarized is not None and self.summarized == self.events


def latest_unfinished(
    games: Iterable[Kept], replay: Callable[[int], GameSummary | None]
) -> int | None:
    """The newest game not yet over, from ``games`` newest first.

    A game with a current summary is known by it; only the others are
    replayed (``replay`` gives None for a game whose log does not replay:
    it is passed over), so a start-up does not replay every game ever played.

    >>> done = GameSummary("incan-gold", True, ())
    >>> latest_unfinished([Kept(3, 40, 40, True), Kept(2, 9)], lambda game: done)
    >>> latest_unfinished([Kept(3, 40, 40, True), Kept(2, 9, 9, False), Kept(1, 5)], print)
    2
    """
    for kept in games:
        if kept.current:
            if not kept.finished:
                return kept.game
            continue
        summary = replay(kept.game)
        if summary is not None and not summary.finished:
            return kept.game
    return None


@dataclass(frozen=True)
class Played:
    """A stored game for the statistics: its summary and who sat where.

    ``players[i]`` is the remembered player of seat ``i`` (their name now,
    after any rename or merge), else the seat's name as played.
    """

    game: int
    created: str
    summary: GameSummary
    players: tuple[str, ...]


@dataclass(frozen=True)
class HeadToHead:
    """A player against one other, over the finished games both sat at."""

    other: str
    games: int
    ahead: int  # games where the player scored more
    behind: int
    level: int


@dataclass(frozen=True)
class PlayerStats:
    """One player over the finished games they sat at, and against each other
    player they met there."""

    player: str
    games: int  # finished games played
    wins: int
    total_score: int
    best_score: int
    busts: int
    rounds: int
    banked: int
    artifacts: int
    head_to_head: tuple[HeadToHead, ...]

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_score(self) -> float:
        return self.total_score / self.games if self.games else 0.0

    @property
    def bust_rate(self) -> float:
        """Busts per round played."""
        return self.busts / self.rounds if self.rounds else 0.0

    @property
    def banked_per_round(self) -> float:
        return self.banked / self.rounds if self.rounds else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.player,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "mean_score": round(self.mean_score, 2),
            "best_score": self.best_score,
            "busts": self.busts,
            "rounds": self.rounds,
            "bust_rate": round(self.bust_rate, 4),
            "banked": self.banked,
            "banked_per_round": round(self.banked_per_round, 2),
            "artifacts": self.artifacts,
            "head_to_head": [
                {
                    "other": h.other,
                    "games": h.games,
                    "ahead": h.ahead,
                    "behind": h.behind,
                    "level": h.level,
                }
                for h in self.head_to_head
            ],
        }


@dataclass(frozen=True)
class GroupStats:
    """A group: the same players around the table, in any seats."""

    players: tuple[str, ...]  # sorted
    games: int
    members: tuple[PlayerStats, ...]  # over this group's games only, most wins first


_COUNTS = ("games", "wins", "total", "best", "busts", "rounds", "banked", "artifacts")


def _finished(games: Iterable[Played]) -> list[Played]:
    return [g for g in games if g.summary.finished]


def player_stats(games: Iterable[Played]) -> tuple[PlayerStats, ...]:
    """Every player of the finished ``games``: most wins first, then most games, then name."""
    played = _finished(games)
    rows: dict[str, dict[str, int]] = {}
    h2h: dict[str, dict[str, list[int]]] = {}
    for g in played:
        seats = g.summary.seats
        for i, name in enumerate(g.players):
            seat = seats[i]
            row = rows.setdefault(name, dict.fromkeys(_COUNTS, 0))
            row["games"] += 1
            row["wins"] += seat.won
            row["total"] += seat.score
            row["best"] = max(row["best"], seat.score)
            row["busts"] += seat.busts
            row["rounds"] += seat.rounds
            row["banked"] += seat.banked
            row["artifacts"] += seat.artifacts
            for j, other in enumerate(g.players):
                if other == name:
                    continue
                counts = h2h.setdefault(name, {}).setdefault(other, [0, 0, 0, 0])
                counts[0] += 1
                them = seats[j].score
                counts[1 if seat.score > them else 2 if seat.score < them else 3] += 1
    out = [
        PlayerStats(
            player=name,
            games=row["games"],
            wins=row["wins"],
            total_score=row["total"],
            best_score=row["best"],
            busts=row["busts"],
            rounds=row["rounds"],
            banked=row["banked"],
            artifacts=row["artifacts"],
            head_to_head=tuple(
                HeadToHead(other, *counts)
                for other, counts in sorted(h2h.get(name, {}).items(), key=lambda kv: kv[0])
            ),
        )
        for name, row in rows.items()
    ]
    out.sort(key=lambda p: (-p.wins, -p.games, p.player))
    return tuple(out)


def group_stats(games: Sequence[Played], *, least: int = 2) -> tuple[GroupStats, ...]:
    """Every group that finished at least ``least`` games together, most games first."""
    by_group: dict[tuple[str, ...], list[Played]] = {}
    for g in _finished(games):
        by_group.setdefault(tuple(sorted(g.players)), []).append(g)
    out = [
        GroupStats(players, len(gs), player_stats(gs))
        for players, gs in by_group.items()
        if len(gs) >= least
    ]
    out.sort(key=lambda g: (-g.games, g.players))
    return tuple(out)
