"""Incan Gold table companion, the core: the rules engine, the game log and
its replay, the secret choices, the table controller, and the ports through
which the adapters (``storage``, ``vision``, ``hardware``, the UI) serve it.
Standard library only, no I/O, no words (docs/architecture.md)."""

__version__ = "0.1.0"
