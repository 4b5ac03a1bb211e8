"""The store opens game stores and empty files only: another program's SQLite file is refused unchanged,
and the commands that only read never make an empty file a store."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from recorder.store import GameStore
from recorder.store.migrations import MIGRATIONS, NotAGameStoreError, check_store


def foreign(path: Path) -> bytes:
    """Someone else's SQLite file (one table ``foo``); returns its bytes."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE foo (x)")
        db.execute("INSERT INTO foo VALUES (1)")
    db.close()
    return path.read_bytes()


def leftovers(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir() if p.name != path.name)


@pytest.mark.parametrize("create", [True, False])
def test_another_programs_database_is_refused_unchanged(tmp_path: Path, create: bool) -> None:
    path = tmp_path / "other.sqlite3"
    before = foreign(path)
    with pytest.raises(NotAGameStoreError, match=r"other\.sqlite3 is not an xqrec game store.*foo"):
        GameStore(path, create=create)
    assert path.read_bytes() == before  # no schema, no WAL journal mode in the header
    assert leftovers(path) == []  # no backup, no -wal or -shm


def test_a_store_lacking_its_tables_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "half.sqlite3"
    with sqlite3.connect(path) as db:  # a schema_version of 2 without the tables of version 2
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (2)")
        db.execute("CREATE TABLE games (x)")
    db.close()
    before = path.read_bytes()
    with pytest.raises(NotAGameStoreError, match="lacks the tables .*events"):
        GameStore(path)
    assert path.read_bytes() == before


def test_a_schema_version_table_of_another_program_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE schema_version (v TEXT)")
        db.execute("CREATE TABLE things (x)")
    db.close()
    with pytest.raises(NotAGameStoreError, match="not an xqrec game store"):
        GameStore(path)


def test_an_empty_file_becomes_a_store_only_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    path.touch()
    with pytest.raises(FileNotFoundError, match="no game store at .*new.sqlite3"):
        GameStore(path, create=False)
    assert path.read_bytes() == b"" and leftovers(path) == []
    with GameStore(path) as store:
        assert store.games() == []
    with GameStore(path, create=False) as store:  # a store now
        assert check_store(store.db, path)


def test_a_store_left_half_made_is_finished() -> None:
    """The first run makes ``schema_version`` before migration 1's transaction: a crash between the two
    leaves a file with that table alone, still a new store."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    assert check_store(db, None) is False
    for statement in MIGRATIONS[0][1].split(";"):
        if statement.strip():
            db.execute(statement)
    db.execute("INSERT INTO schema_version VALUES (1)")
    assert check_store(db, None) is True


def test_a_missing_file_is_not_made_when_only_reading(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no game store at"):
        GameStore(tmp_path / "typo.sqlite3", create=False)
    assert list(tmp_path.iterdir()) == []
