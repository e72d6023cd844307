"""Exit codes and the one error a command raises for input it cannot use."""

from __future__ import annotations

EXIT_OK, EXIT_FAILURE, EXIT_BAD_INPUT = 0, 1, 2


class BadInput(Exception):
    """Input the user gave us that we cannot use: exit 2 with this message."""
