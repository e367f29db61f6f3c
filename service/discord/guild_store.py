"""Per-server settings of the Discord bot (today: the default game), in a small SQLite file.

The file (setting ``RULINGS_BOT_DB``, default ``build/bot.sqlite3``) and its table are created
on first write; each write is one transaction, so a crash leaves the previous value or the new
one, never half of either. Reading a store that does not exist yet answers "no setting"
without creating it.
"""

from __future__ import annotations

import logging
import sqlite3
from contextlib import closing
from pathlib import Path

from service.settings import DEFAULT_BOT_DB, Settings

log = logging.getLogger(__name__)

DEFAULT_PATH = DEFAULT_BOT_DB
SCHEMA = """CREATE TABLE IF NOT EXISTS guild_settings (
    guild_id INTEGER PRIMARY KEY,
    game TEXT,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
)"""


def store_path() -> Path:
    """Where the bot keeps its per-server settings (``RULINGS_BOT_DB``)."""
    return Settings.load().bot_db


class GuildSettings:
    """The default game of each Discord server (guild), by guild id."""

    def __init__(self, path: Path | str | None = None):
        self.path = Path(path) if path is not None else store_path()

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=10, isolation_level=None)

    def get_game(self, guild_id: int | None) -> str | None:
        """The server's default game id, or None (no server, no setting, no store yet)."""
        if guild_id is None or not self.path.exists():
            return None
        try:
            with closing(self._connect()) as con:
                row = con.execute(
                    "SELECT game FROM guild_settings WHERE guild_id = ?", (int(guild_id),)
                ).fetchone()
        except sqlite3.Error as exc:  # a question must still be answered without the default
            log.warning("could not read the bot's settings at %s: %s", self.path, exc)
            return None
        return row[0] if row else None

    def set_game(self, guild_id: int, game: str | None) -> None:
        """Set (or, with None, clear) the server's default game, in one transaction."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with closing(self._connect()) as con:
            con.execute("BEGIN IMMEDIATE")
            try:
                con.execute(SCHEMA)
                con.execute(
                    "INSERT INTO guild_settings (guild_id, game) VALUES (?, ?) "
                    "ON CONFLICT(guild_id) DO UPDATE SET game = excluded.game, "
                    "updated_at = excluded.updated_at",
                    (int(guild_id), game),
                )
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
