"""Numbered schema migrations of the game store, applied in order, with a backup first.

Each migration is a number and the SQL that brings the schema from the previous number to
it. ``schema_version`` holds the number reached. Before an existing database is migrated it is
copied with SQLite's online backup API to ``<file>.v<old>.bak``, so a failed or unwanted
upgrade never costs a recorded game.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

log = logging.getLogger(__name__)

MIGRATIONS: tuple[tuple[int, str], ...] = (
    (1, """
        CREATE TABLE tournaments (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            site TEXT NOT NULL DEFAULT '',
            created TEXT NOT NULL
        );
        CREATE TABLE rounds (
            id INTEGER PRIMARY KEY,
            tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
            name TEXT NOT NULL,
            date TEXT NOT NULL DEFAULT '',
            UNIQUE (tournament_id, name)
        );
        CREATE TABLE boards (
            id INTEGER PRIMARY KEY,
            round_id INTEGER NOT NULL REFERENCES rounds(id),
            number INTEGER NOT NULL,
            UNIQUE (round_id, number)
        );
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            board_id INTEGER REFERENCES boards(id),
            source TEXT NOT NULL,
            red TEXT NOT NULL DEFAULT '',
            black TEXT NOT NULL DEFAULT '',
            time_control TEXT NOT NULL DEFAULT '',
            camera TEXT NOT NULL DEFAULT '',
            clock TEXT NOT NULL DEFAULT '',
            start_fen TEXT NOT NULL DEFAULT '',
            model_sha256 TEXT,
            status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
            result TEXT NOT NULL DEFAULT '*',
            created TEXT NOT NULL,
            updated TEXT NOT NULL
        );
        CREATE TABLE events (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            type TEXT NOT NULL,
            t REAL NOT NULL,
            data TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        );
    """),
    (2, """
        CREATE TABLE sessions (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            pid INTEGER NOT NULL,
            host TEXT NOT NULL,
            started TEXT NOT NULL,
            stopped TEXT,
            resumed_at_ply INTEGER
        );
        CREATE INDEX games_open ON games (status, source, board_id);
    """),
)
LATEST = MIGRATIONS[-1][0]


def schema_version(connection: sqlite3.Connection) -> int:
    """The migration number the database has reached (0 for a new file)."""
    connection.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = connection.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def backup(connection: sqlite3.Connection, target: Path) -> Path:
    """Copy the whole database to ``target`` with the online backup API (consistent even in WAL mode)."""
    with sqlite3.connect(target) as copy:
        connection.backup(copy)
    copy.close()
    return target


def migrate(connection: sqlite3.Connection, path: Path | None) -> list[int]:
    """Apply the migrations the database lacks; returns their numbers.

    A database that already holds data (version above 0) is backed up beside ``path`` first.
    Each migration runs in one transaction with its version row, so a crash leaves the old
    version or the new one, never half of it.
    """
    current = schema_version(connection)
    if current > LATEST:
        raise ValueError(f"the game store has schema version {current}, newer than this program's {LATEST}")
    due = [(number, sql) for number, sql in MIGRATIONS if number > current]
    if not due:
        return []
    if current > 0 and path is not None:
        saved = backup(connection, path.with_name(f"{path.name}.v{current}.bak"))
        log.warning("game store %s migrated from version %d; backup at %s", path, current, saved)
    for number, sql in due:
        statements = [part.strip() for part in sql.split(";") if part.strip()]
        connection.execute("BEGIN IMMEDIATE")
        try:
            for statement in statements:
                connection.execute(statement)
            connection.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
    return [number for number, _ in due]
