"""Incan Gold table companion: rules engine, game log, store, command line."""

__version__ = "0.1.0"
