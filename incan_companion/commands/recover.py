"""``incan-companion recover DATA_FILE [--out NEW]``: save what can be saved of a
damaged data file into a new one (storage/recover.py). Never writes DATA_FILE.
Only the standard library at module level."""

from __future__ import annotations

import argparse
from datetime import datetime
from pathlib import Path

from incan_companion.errors import EXIT_OK, BadInput


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``recover``."""
    p = sub.add_parser(
        "recover",
        description="Copies DATA_FILE (never writing it), mends what REINDEX can, else "
        "reads every row SQLite still can around the damaged pages, keeps each game whole "
        "or up to its first missing, altered or refused event, and writes them into NEW.",
    )
    p.add_argument("data_file", metavar="DATA_FILE")
    p.add_argument("--out", metavar="NEW",
                   help="the new data file (default: DATA_FILE.recovered-YYYYmmdd-HHMMSS "
                   "beside it)")  # fmt: skip
    p.set_defaults(func=cmd_recover)


def cmd_recover(args: argparse.Namespace) -> int:
    from companion.text import printable
    from storage import StorageFailed, StoreError
    from storage.recover import recover

    damaged = Path(args.data_file)
    out = (
        Path(args.out)
        if args.out
        else damaged.with_name(f"{damaged.name}.recovered-{datetime.now():%Y%m%d-%H%M%S}")
    )
    try:
        result = recover(damaged, out)
    except StorageFailed:
        raise
    except StoreError as e:
        raise BadInput(str(e)) from None
    print(f"recover {printable(str(damaged))}: {', '.join(result.steps)}")
    print(f"{'game':>5}  {'events':>6}  {'saved':>5}  {'new':>4}  what")
    for g in result.games:
        what = "whole" if g.whole else ("lost: " if not g.saved else "in part: ") + g.why
        new = "-" if g.new is None else str(g.new)
        print(f"{g.game:>5}  {g.found:>6}  {g.saved:>5}  {new:>4}  {printable(what)}")
    whole = sum(g.whole for g in result.games)
    part = sum(bool(g.saved) and not g.whole for g in result.games)
    lost = sum(not g.saved for g in result.games)
    print(f"saved whole: {whole}, in part: {part}, lost: {lost}")
    if not result.anything:
        raise BadInput(f"nothing could be saved from {damaged}")
    print(f"written to {printable(str(out))}: run the app with --data {printable(str(out))}, "
          "or put it in the data file's place once the app is stopped")  # fmt: skip
    return EXIT_OK
