"""``incan-companion scan`` and ``incan-companion stickers`` (docs/command-line.md).

Imported by ``incan_companion.cli`` at every start-up, so this module imports
nothing heavy at module level: OpenCV, numpy, zxing-cpp, pyzbar and
reportlab are imported inside the command that needs them.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``scan`` and ``stickers`` subcommands to the CLI."""
    p = sub.add_parser("scan")
    p.add_argument("images", metavar="IMAGE", nargs="+", help="image files (PNG, JPEG, ...)")
    p.add_argument("--json", action="store_true",
                   help='one object a line: {"file": ..., "card": "T11A" or null, "ms": ...}')
    p.set_defaults(func=cmd_scan, words=True)

    p = sub.add_parser("stickers")
    p.add_argument("--out", required=True, metavar="FILE.pdf", help="the PDF to write")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", help="paper size (a4)")
    p.add_argument("--size", type=_size_mm, default=None, metavar="MM",
                   help="side of the printed QR symbol in millimetres (default 25)")
    p.add_argument("--deck", default=None, metavar="DECK",
                   help="only the cards of this box: incan-gold (default) or 14-treasures")
    p.add_argument("--qr-only", action="store_true",
                   help="the QR alone, without the Micro QR above it (the older, smaller label)")
    p.set_defaults(func=cmd_stickers, words=True)


def _size_mm(text: str) -> float:
    from vision.stickers import MAX_SIZE_MM, MIN_SIZE_MM

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size in millimetres") from None
    if not MIN_SIZE_MM <= value <= MAX_SIZE_MM:
        raise argparse.ArgumentTypeError(
            f"sticker size must be between {MIN_SIZE_MM:g} and {MAX_SIZE_MM:g} mm"
        )
    return value


def cmd_scan(args: argparse.Namespace) -> int:
    """Decode every image; bad or missing files are bad input (exit 2, nothing printed)."""
    from companion.text import is_utf8
    from incan_companion.errors import BadInput
    from vision import limit_image_size

    limit_image_size()  # before OpenCV loads
    from vision.decode import Decoder
    from vision.sources import load_image

    images = []
    for name in args.images:
        try:
            images.append((name, load_image(Path(name))))
        except OSError as e:
            raise BadInput(str(e)) from None
    decoder = Decoder(skip_unchanged=False)  # every file is a new picture
    for name, image in images:
        reads = decoder.decode(image)
        card = reads.cards[0] if reads.cards else None
        if args.json:
            said = {"file": name, "card": card, "ms": round(reads.ms, 3),
                    "cards": list(reads.cards), "foreign": list(reads.foreign)}
            line = json.dumps(said, ensure_ascii=False)
            if not is_utf8(line):
                # A file name's stray bytes would go out raw, and the line would
                # not be UTF-8 JSON: escaped as \udcxx instead, which JSON allows.
                line = json.dumps(said)
            print(line, flush=True)
        else:
            print(_describe(name, reads.cards, reads.foreign, reads.ms), flush=True)
    return 0


def _describe(name: str, cards: tuple[str, ...], foreign: tuple[str, ...], ms: float) -> str:
    from ui.kivyfree.i18n import _
    from ui.kivyfree.words import card_name

    said = ", ".join(f"{c} ({card_name(c)})" for c in cards) if cards else _("no card")
    if foreign:
        said += " · " + _("not a card: {codes}").format(codes=", ".join(map(repr, foreign)))
    return f"{name}: {said} [{ms:.1f} ms]"


def cmd_stickers(args: argparse.Namespace) -> int:
    """Write the sticker sheet PDF."""
    from companion.cards import DEFAULT_EDITION, UnknownEdition
    from incan_companion.errors import BadInput
    from ui.fonts import ui_font
    from ui.kivyfree.words import card_name
    from vision.stickers import DEFAULT_SIZE_MM, LabelFont, deck_cards, write_pdf

    try:
        cards = deck_cards(args.deck if args.deck is not None else DEFAULT_EDITION)
    except UnknownEdition as e:
        raise BadInput(f"stickers: {e}") from None
    out = Path(args.out)
    # Only a file is written over: opening a named pipe to write waits for a reader.
    if out.exists() and not out.is_file():
        raise BadInput(f"{out}: not a file")
    found = ui_font()
    font = LabelFont(found.name, found.regular, found.bold) if found is not None else None
    sheet = io.BytesIO()  # a few hundred kB: the file is written whole or not at all
    try:
        pages = write_pdf(sheet, paper=args.paper,
                          size_mm=args.size if args.size is not None else DEFAULT_SIZE_MM,
                          cards=cards, name=card_name, font=font, micro=not args.qr_only)
    except ValueError as e:  # a size or paper out of range, or no font for the language
        raise BadInput(str(e)) from None
    _write_whole(out, sheet.getvalue())
    print(f"{out}: {pages} page(s)")
    size = args.size if args.size is not None else DEFAULT_SIZE_MM
    if size != DEFAULT_SIZE_MM:
        # Said where the size is chosen: the Pi camera's scan zone is measured
        # in the QR's modules as printed at the default size.
        import sys

        from vision.roi import REACH_MM

        print(f"{out}: note: a Pi camera takes a sticker's QR to be {DEFAULT_SIZE_MM:g} mm wide:"
              f" at {size:g} mm its scan zone reaches {REACH_MM * size / DEFAULT_SIZE_MM / 10:.0f}"
              f" cm from the spot, not {REACH_MM / 10:.0f} (docs/cards-and-stickers.md)",
              file=sys.stderr)  # fmt: skip
    return 0


def _write_whole(out: Path, data: bytes) -> None:
    """``data`` into ``out`` through a file beside it, renamed once complete: a full
    disk leaves no empty or cut PDF behind, nor spoils one already there. An error
    names ``out``; the command line tells a path's fault (exit 2) from the disk's (1)."""
    import os

    partial = out.with_name(f".{out.name}.{os.getpid()}.part")
    try:
        try:
            with open(partial, "xb") as f:
                f.write(data)
            os.replace(partial, out)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(partial)
            raise
    except OSError as e:
        raise OSError(e.errno, e.strerror, str(out)) from None
