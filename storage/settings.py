"""Small remembered values beside the logs, in the ``meta`` table: a game's
options (``game.<n>.<name>``) and the device's settings (``setting.<name>``)."""

from __future__ import annotations

from storage.db import Tables, sqlite_errors

__all__ = ["SettingsTables"]


class SettingsTables(Tables):
    """Fits :class:`companion.ports.Settings`."""

    def set_option(self, game: int, name: str, value: str) -> None:
        """Remember a table option of a game that is not a rule (e.g. hidden
        tents), so a resumed game shows what the table chose."""
        self._set_meta(f"game.{game}.{name}", value)

    def option(self, game: int, name: str) -> str | None:
        return self._meta(f"game.{game}.{name}")

    def set_setting(self, name: str, value: str) -> None:
        """Remember a choice of the device's own (e.g. the language picked on
        the set-up screen) across restarts."""
        self._set_meta(f"setting.{name}", value)

    def setting(self, name: str) -> str | None:
        return self._meta(f"setting.{name}")

    @sqlite_errors
    def _set_meta(self, key: str, value: str) -> None:
        with self._transaction():
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    @sqlite_errors
    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])
