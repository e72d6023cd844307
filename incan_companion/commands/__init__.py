"""The commands, one module each; what several of them parse the same way."""

from __future__ import annotations

import argparse


def whole_number(text: str, *, what: str, least: int, most: int | None = None,
                 says: str) -> int:
    """An option's whole number for argparse: ``what`` names it when ``text`` is
    none ("'x' is not a game number"), ``says`` the range it must be in."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
    if value < least or (most is not None and value > most):
        raise argparse.ArgumentTypeError(says)
    return value
