"""Numbered schema migrations of the game store, applied in order, with a backup first.

Each migration is a number and the SQL that brings the schema from the previous number to
it. ``schema_version`` holds the number reached. Before an existing database is migrated it is
copied with SQLite's online backup API to ``<file>.v<old>.bak``, so a failed or unwanted
upgrade never costs a recorded game.

A file is only ever migrated when it is a game store already or an empty database:
:func:`check_store` refuses one holding some other program's tables before anything is
written to it (:class:`NotAGameStoreError`).
"""

from __future__ import annotations

import contextlib
import logging
import re
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
    # each game's own site and date (--site/--date, the PGN tags of an imported game): before, only the
    # tournament's site and the round's date were kept, the first recorder's, and later ones were lost.
    # Empty for the games stored before; they go on showing their tournament's site and round's date
    (3, """
        ALTER TABLE games ADD COLUMN site TEXT NOT NULL DEFAULT '';
        ALTER TABLE games ADD COLUMN date TEXT NOT NULL DEFAULT ''
    """),
    # when each event was stored (Unix seconds): a live game taken up after its recorder stopped goes on
    # at the real time of the game, not a second after its last event (the camera's times start at 0
    # again). NULL for the events stored before: their games go on a second later, as then
    (4, """
        ALTER TABLE events ADD COLUMN wall REAL
    """),
    # the other tags of an imported game (ECCO, Opening, RedTeam, Annotator...) as a JSON object, so its
    # export gives them back; before, only the tags with a column of their own were kept
    (5, """
        ALTER TABLE games ADD COLUMN tags TEXT NOT NULL DEFAULT '{}'
    """),
    # a game the arbiter voided (a test recording, a wrong board, an abandoned run): the reason, or ''.
    # Kept with its moves (nothing recorded is deleted) but left out of the lists, the console and the
    # round's PGN and broadcast
    (6, """
        ALTER TABLE games ADD COLUMN void TEXT NOT NULL DEFAULT ''
    """),
    # which process a session's recorder was, beyond its number (the machine's boot and the process's
    # start, ``recorder.store.db.process_identity``): a number given again after a crash or a reboot
    # had kept a dead recorder's game "being recorded". NULL where it cannot be told (older sessions)
    (7, """
        ALTER TABLE sessions ADD COLUMN process TEXT
    """),
)
LATEST = MIGRATIONS[-1][0]
_CREATED = re.compile(r"CREATE TABLE (\w+)", re.IGNORECASE)


class NotAGameStoreError(ValueError):
    """A database that holds tables but is not a game store (another program's file): left untouched."""


def _tables(connection: sqlite3.Connection) -> set[str]:
    rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    return {str(row[0]) for row in rows if not str(row[0]).startswith("sqlite_")}


def check_store(connection: sqlite3.Connection, path: Path | None) -> bool:
    """Whether the database is a game store (``True``) or empty, a store still to be made (``False``).

    Reads only: a database with tables of its own but without the store's ``schema_version``
    and the tables its version has (someone else's SQLite file) raises :class:`NotAGameStoreError`
    naming the file, before a schema, a journal mode or a backup is written to it. A file that
    is not SQLite at all raises SQLite's own ``DatabaseError``.
    """
    snapshot = not connection.in_transaction  # tables and version read together: another recorder
    if snapshot:                                # started with this one may be making the store meanwhile
        connection.execute("BEGIN")
    try:
        tables = _tables(connection)
        try:
            version = schema_version(connection) if "schema_version" in tables else 0
        except (sqlite3.OperationalError, ValueError, TypeError):  # a schema_version table of another program
            version = 0
            tables.add("schema_version (another program's)")
    finally:
        if snapshot:
            connection.execute("COMMIT")
    others = tables - {"schema_version"}
    if not others and version == 0:
        return False
    name = ":memory:" if path is None else str(path)
    if version == 0:
        raise NotAGameStoreError(f"{name} is not an xqrec game store (it holds other tables: "
                                 f"{', '.join(sorted(others))}); it was left unchanged")
    expected = {table for number, sql in MIGRATIONS if number <= version for table in _CREATED.findall(sql)}
    missing = expected - tables
    if missing:
        raise NotAGameStoreError(f"{name} is not an xqrec game store (it lacks the tables "
                                 f"{', '.join(sorted(missing))}); it was left unchanged")
    return True


def schema_version(connection: sqlite3.Connection) -> int:
    """The migration number the database has reached (0 for a new file, whose ``schema_version``
    table this creates)."""
    if connection.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
                          ).fetchone() is None:
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
    The migrations due run in one transaction with their version rows, so a crash leaves the old
    version or the new one, never part of the way, and no other process ever sees a store part of
    the way (a recorder started beside one making a new store had found it at version 5, taken it
    for an old store, and backed it up). A database that is not a game store is refused unchanged
    (:func:`check_store`).
    """
    check_store(connection, path)
    current = schema_version(connection)
    if current > LATEST:
        raise ValueError(f"the game store has schema version {current}, newer than this program's {LATEST}")
    if current == LATEST:
        return []
    applied: list[int] = []
    # the version read again under the write lock: recorders started together on a new store each
    # found it empty, and the second ran the first migration again ("table already exists")
    connection.execute("BEGIN IMMEDIATE")
    try:
        current = schema_version(connection)
        due = [(number, sql) for number, sql in MIGRATIONS if number > current]
        if due and current > 0 and path is not None:
            # read through a connection of its own: this one's write lock would make the copy wait on itself
            with contextlib.closing(sqlite3.connect(path, timeout=10.0)) as reader:
                saved = backup(reader, path.with_name(f"{path.name}.v{current}.bak"))
            log.warning("game store %s migrated from version %d; backup at %s", path, current, saved)
        for number, sql in due:
            for statement in (part.strip() for part in sql.split(";")):
                if statement:
                    connection.execute(statement)
            connection.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
            applied.append(number)
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
    return applied
