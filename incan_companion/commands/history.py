"""``incan-companion stats``: the statistics of every game in a data file.

Only the standard library, the core and the store: the figures come from the
stored logs replayed through the engine (a game's summary kept in the file is
used only while it matches its log; those it had to make are kept afterwards,
when it may: :func:`keep_summaries`), and ``--json``/``--csv`` never depend on
the language.
"""

from __future__ import annotations

import argparse
import csv
import json
import logging
import sys
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.stats import Played, PlayerStats, group_stats, player_stats
from incan_companion.errors import EXIT_OK, BadInput

if TYPE_CHECKING:
    from storage.history import Made

#: The columns of ``stats --csv``, one row per player.
CSV_COLUMNS = (
    "name", "games", "wins", "win_rate", "mean_score", "best_score", "busts", "rounds",
    "bust_rate", "banked", "banked_per_round", "artifacts",
)  # fmt: skip


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``stats``."""
    p = sub.add_parser("stats")
    p.add_argument("data_file", metavar="DATA_FILE")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="one JSON object")
    out.add_argument("--csv", action="store_true",
                     help="a table for a spreadsheet, one row a player")  # fmt: skip
    p.add_argument("--player", metavar="NAME", help="only this player (and their head-to-head)")
    p.set_defaults(func=cmd_stats, words=lambda args: not (args.json or args.csv))


def stored_games(path: Path) -> tuple[list[Played], list[Made]]:
    """Every game of the data file at ``path`` that replays, newest first, read-only;
    and the summaries that had to be made for it (a file the app never opened since
    a migration: a replay of each, 30 s for 5,000 games), for :func:`keep_summaries`."""
    from companion.ports import StoredDataError
    from incan_companion.commands.game import check_data_file
    from storage import StorageFailed, Store

    check_data_file(path)
    try:
        with Store(path, readonly=True) as store:
            missing = set(store.missing_summaries())
            games = store.history()
            events = {g.id: g.events for g in store.games()} if missing else {}
    except StorageFailed:
        raise  # the disk failed, not the input: exit 1
    except StoredDataError as e:
        raise BadInput(str(e)) from None
    made = [(g.game, events[g.game], g.summary) for g in games if g.game in missing]
    return games, made


def keep_summaries(path: Path, made: list[Made]) -> None:
    """Keep the summaries ``stats`` made, so that the next one reads them: once its
    figures are out (bad input changes nothing), under the writer's lock, and only
    in a file of this user's own at the current schema. A file in use (the app
    running), of another user (root's -wal beside the service's file would lock the
    service out) or of an older schema (a reading command never migrates) is left
    as it is; so is any file on any failure: the summaries are a cache."""
    import os

    from companion.ports import StoredDataError
    from storage import Store
    from storage.schema import SCHEMA_VERSION

    if not made:
        return
    try:
        if os.stat(path).st_uid != os.geteuid():
            return
        with Store(path, readonly=True) as reader:
            if reader._version != SCHEMA_VERSION:
                return
        with Store(path) as writer:
            writer.keep_summaries(made)
    except (OSError, StoredDataError) as e:
        logging.getLogger(__name__).info("the summaries made are not kept in %s: %s", path, e)


def cmd_stats(args: argparse.Namespace) -> int:
    games, made = stored_games(Path(args.data_file))
    players = player_stats(games)
    groups = group_stats(games)
    if args.player is not None:
        # Names are kept composed (NFC): "Zoë" typed as e and a combining mark is Zoë.
        wanted = unicodedata.normalize("NFC", args.player)
        players = tuple(p for p in players if p.player == wanted)
        if not players:
            raise BadInput(
                f"no finished game of a player named {args.player!r} in {args.data_file}"
            )
        groups = tuple(g for g in groups if wanted in g.players)
    finished = sum(g.summary.finished for g in games)
    if args.json:
        out: dict[str, Any] = {
            "games": finished,
            "unfinished": len(games) - finished,
            "players": [p.to_json() for p in players],
            "groups": [
                {
                    "players": list(g.players),
                    "games": g.games,
                    "members": [m.to_json() for m in g.members],
                }
                for g in groups
            ],
        }
        print(json.dumps(out, ensure_ascii=False))
    elif args.csv:
        writer = csv.writer(sys.stdout, lineterminator="\r\n")  # RFC 4180, as spreadsheets expect
        writer.writerow(CSV_COLUMNS)
        for p in players:
            row = p.to_json()
            writer.writerow([spreadsheet_cell(row[c]) for c in CSV_COLUMNS])
    else:
        print(readable(players, finished, len(games) - finished))
    sys.stdout.flush()  # the figures first; keeping the summaries waits for no reader
    keep_summaries(Path(args.data_file), made)
    return EXIT_OK


#: What makes a spreadsheet read a cell as a formula (OWASP's CSV injection list).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value: object) -> object:
    """``value`` as a spreadsheet will only ever show it, never run it: a text that
    would start a formula gets a leading apostrophe (numbers stay numbers).

    >>> [spreadsheet_cell(v) for v in ("=1+1", "-Bo", "@x", "Ana", -3)]
    ["'=1+1", "'-Bo", "'@x", 'Ana', -3]
    """
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


def readable(players: tuple[PlayerStats, ...], finished: int, unfinished: int) -> str:
    from dataclasses import replace

    from companion.text import printable
    from ui.kivyfree.words import stats_table

    # Each name escaped on its own first, so that none can start a row of its own.
    shown = tuple(
        replace(
            p,
            player=printable(p.player),
            head_to_head=tuple(replace(h, other=printable(h.other)) for h in p.head_to_head),
        )
        for p in players
    )
    return printable(stats_table(shown, finished, unfinished), keep="\n")
