"""The store commands on files that are not game stores, and importing one PGN file twice."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from recorder.cli import main
from recorder.server import ConsoleServer

PGN = '[Event "Club"]\n[Round "1"]\n[Red "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. 炮二平五 马8进7 2. 马二进三 1-0\n'


@pytest.fixture
def no_serving(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``serve`` returns at once instead of serving (the tests look at what it does before)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setattr(ConsoleServer, "serve_forever", lambda self, poll_interval=0.5: None)


@pytest.mark.parametrize("command", [["games"], ["games", "--import", "{pgn}"], ["export", "1"], ["show", "1"],
                                     ["serve", "--port", "0"]])
def test_every_command_refuses_another_programs_database(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         no_serving: None, command: list[str]) -> None:
    db = tmp_path / "other.sqlite3"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE foo (x)")
    connection.close()
    before = db.read_bytes()
    pgn = tmp_path / "game.pgn"
    pgn.write_text(PGN, encoding="utf-8")
    assert main([part.format(pgn=pgn) for part in command] + ["--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert f"{db} is not an xqrec game store" in err and "foo" in err
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.pgn", "other.sqlite3"]


def test_reading_commands_leave_an_empty_file_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "empty.sqlite3"
    db.touch()
    assert main(["games", "--db", str(db)]) == 2
    assert "no game store at" in capsys.readouterr().err
    assert db.read_bytes() == b""
    pgn = tmp_path / "game.pgn"
    pgn.write_text(PGN, encoding="utf-8")
    assert main(["games", "--import", str(pgn), "--db", str(db)]) == 0  # import makes it a store
    assert "imported 1 game(s)" in capsys.readouterr().out


def test_importing_a_file_twice_skips_the_games_already_stored(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    db, pgn = tmp_path / "store.sqlite3", tmp_path / "game.pgn"
    pgn.write_text(PGN + "\n" + PGN.replace("马二进三", "兵七进一"), encoding="utf-8")
    assert main(["games", "--import", str(pgn), "--db", str(db)]) == 0
    assert "imported 2 game(s)" in capsys.readouterr().out
    assert main(["games", "--import", str(pgn), "--db", str(db)]) == 0
    captured = capsys.readouterr()
    assert "imported 0 game(s)" in captured.out and "2 skipped, already stored" in captured.out
    assert "game 1 is already stored as game 1" in captured.err and "game 2 is already stored as game 2" in captured.err
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2
    connection.close()


def test_a_file_with_no_game_that_can_be_read_imports_nothing_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "store.sqlite3"
    junk, cut = tmp_path / "notes.pgn", tmp_path / "cut.pgn"
    junk.write_text("hello world\n", encoding="utf-8")
    cut.write_text('[Event "X"]\n[Result "1-0"]\n\n1. h2e2 h9g7 2. h0g2 h9g7 1-0\n', encoding="utf-8")
    assert main(["games", "--import", str(junk), "--db", str(db)]) == 2
    assert "nothing imported from" in capsys.readouterr().err
    assert not list(tmp_path.glob("store.sqlite3*"))  # no empty store left behind for a file with no game
    assert main(["games", "--import", str(cut), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert "ply 4" in err and "game 1 not imported" in err and "not one game could be read whole" in err
    assert main(["games", "--import", str(tmp_path / "missing.pgn"), "--db", str(tmp_path / "other.sqlite3")]) == 2
    assert "missing.pgn: no such file or directory" in capsys.readouterr().err
    assert not (tmp_path / "other.sqlite3").exists()  # no store made for a file that is not there
    assert not list(tmp_path.glob("store.sqlite3*"))
    good = tmp_path / "game.pgn"
    good.write_text(PGN, encoding="utf-8")
    assert main(["games", "--import", str(good), "--db", str(db)]) == 0
    assert main(["games", "--import", str(junk), "--db", str(db)]) == 2  # a store that was there stays
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
    connection.close()


def test_a_store_in_a_folder_that_is_not_there_is_refused_not_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a typo, or a USB drive not mounted: the games must not go to a new store somewhere else
    pgn = tmp_path / "game.pgn"
    pgn.write_text(PGN, encoding="utf-8")
    missing = tmp_path / "usb" / "tournament" / "games.sqlite3"
    assert main(["games", "--import", str(pgn), "--db", str(missing)]) == 2
    assert "no folder" in capsys.readouterr().err and not (tmp_path / "usb").exists()


def test_the_default_store_is_made_with_its_folder_however_it_is_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # serve passes the default path explicitly: on a fresh machine its folder does not exist yet
    from recorder.store import GameStore, default_db_path

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    with GameStore(default_db_path()) as store:
        assert store.games() == []
    assert default_db_path().exists()


def test_a_store_this_account_cannot_write_beside_says_why_and_what_to_do(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # a tester listed another account's store from a folder it could not write: SQLite's bare
    # "attempt to write a readonly database", and no word on why (root's tests cannot make the folder
    # unwritable, so SQLite's answer is given here as it comes)
    from recorder.store import GameStore

    db = tmp_path / "games.sqlite3"
    GameStore(db).close()

    def refused(self: GameStore, *args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(GameStore, "__init__", refused)
    assert main(["games", "--db", str(db)]) == 2
    said = capsys.readouterr().err
    assert "readonly database" in said and "cannot write in the store's folder" in said
