"""What the console server answers a client that asks wrongly (400/404, never a 500 with a traceback), and
how ``serve`` refuses a store it cannot serve before it listens."""

from __future__ import annotations

import json
import random
import socket
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from recorder.cli import main
from recorder.server import ConsoleServer, ServeConfig
from recorder.server import app as server_app
from recorder.store import GameStore
from tests.server.feeder import recorder_events
from tests.server.test_api import get, record


@pytest.mark.parametrize(("query", "named"), [
    ("export.pdf?paper=Letter", "paper"),
    ("export.pdf?short=maybe", "short"),
    ("export.pgn?notation=bogus", "notation"),
])
def test_a_bad_export_parameter_is_the_clients_error(console: Any, caplog: pytest.LogCaptureFixture,
                                                    query: str, named: str) -> None:
    game = record(console.db, alert=False)
    status, body, _ = get(f"{console.url}/games/{game}/{query}")
    assert status == 400, body
    assert json.loads(body)["error"].startswith(f"{named} must be ")
    assert not [r for r in caplog.records if r.levelname == "ERROR"]  # no traceback in the server's log


def test_good_export_parameters_still_work(console: Any) -> None:
    game = record(console.db, alert=False)
    for query in ("paper=A5", "paper=A5&short=1", "short=no"):
        status, body, _ = get(f"{console.url}/games/{game}/export.pdf?{query}")
        assert status == 200 and body.startswith(b"%PDF"), query


def test_the_servers_papers_are_the_pdfs() -> None:
    from recorder.exports.pdf import PAPERS

    assert tuple(PAPERS) == server_app.PAPERS


def test_bad_api_parameters_and_ids(console: Any, caplog: pytest.LogCaptureFixture) -> None:
    record(console.db, alert=False)
    assert get(console.url + "/broadcast/live.pgn?notation=x")[0] == 400
    assert get(console.url + "/broadcast/round/Open/3.pgn?notation=x")[0] == 400
    status, body, _ = get(console.url + "/api/events?since=abc")
    assert status == 400 and "since" in json.loads(body)["error"]
    assert get(console.url + "/api/events?since=%C2%B2")[0] == 400  # "²": str.isdigit, not int
    for path in ("/api/games/%C2%B2", "/games/%C2%B2", "/games/%C2%B2/export.pgn",
                 "/api/games/99999999999999999999999", "/games/99999999999999999999999/export.txt"):
        assert get(console.url + path)[0] == 404, path
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


@pytest.mark.parametrize("length", ["abc", "-1"])
def test_a_bad_content_length_is_refused_not_waited_on(console: Any, length: str) -> None:
    game = record(console.db, alert=False)
    host, port = console.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(f"POST /api/games/{game}/ack HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {length}\r\n\r\n".encode())
        reply = sock.recv(65536).decode()
    assert reply.startswith("HTTP/1.1 400"), reply


def damaged_store(path: Path) -> Path:
    """A store whose ``games`` table is overwritten with noise (what a bad copy or a disk error leaves):
    its schema and the newest event read, so it opens as before, but listing its games fails."""
    with GameStore(path) as store:
        for _ in range(3):
            game = store.create_game("camera")
            for event in recorder_events("game_short"):
                store.append(game, event)
    with sqlite3.connect(path) as db:
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 3  # three rows: the root is the table
    db.close()
    data = bytearray(path.read_bytes())
    size = 4096
    data[(root - 1) * size:root * size] = random.Random(5).randbytes(size)
    path.write_bytes(bytes(data))
    with GameStore(path, create=False) as store:
        assert server_app.last_event_id(store.db) > 0  # what the server reads at startup still reads
        with pytest.raises(sqlite3.DatabaseError):
            store.games()  # damaged as intended
    return path


def test_serve_refuses_a_damaged_store_at_startup(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    db = damaged_store(tmp_path / "damaged.sqlite3")
    with pytest.raises(sqlite3.DatabaseError, match="malformed"):
        ConsoleServer(("127.0.0.1", 0), db, ServeConfig()).server_close()  # (closed if it wrongly started)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setattr(ConsoleServer, "serve_forever", lambda self, poll_interval=0.5: None)  # never hang
    assert main(["serve", "--port", "0", "--db", str(db)]) == 2
    captured = capsys.readouterr()
    assert "arbiter console on" not in captured.out
    assert "xqrec serve: game store: database disk image is malformed" in captured.err and str(db) in captured.err


def test_serve_refuses_random_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "noise.sqlite3"
    db.write_bytes(random.Random(2).randbytes(20000))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setattr(ConsoleServer, "serve_forever", lambda self, poll_interval=0.5: None)
    assert main(["serve", "--port", "0", "--db", str(db)]) == 2
    assert "xqrec serve: game store: file is not a database" in capsys.readouterr().err


def test_a_store_damaged_while_serving_is_answered_503_saying_what_to_do(console: Any) -> None:
    # a tester moved another store over the one being written: its write-ahead log was read into the
    # new file, and every page answered a bare 500 "database disk image is malformed"
    import urllib.error
    import urllib.request

    from recorder.store import GameInfo, GameStore
    from tests.server.feeder import recorder_events

    with GameStore(console.db) as store:
        for board in range(1, 6):
            game = store.create_game(f"camera-{board}", GameInfo(board=board))
            for event in recorder_events("game_short"):
                store.append(game, event)
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the pages in the file itself, to be damaged
    size = console.db.stat().st_size
    with open(console.db, "r+b") as file:
        page = int.from_bytes(file.read(18)[16:18], "big")  # the page size, from the file's header
        for offset in range(page, size, page):  # every page after the first: its b-tree page type made invalid
            file.seek(offset)
            file.write(b"\xff" * 8)
    with pytest.raises(urllib.error.HTTPError) as answered:
        urllib.request.urlopen(console.url + "/api/games", timeout=10)
    text = answered.value.read().decode()
    assert answered.value.code == 503 and "is damaged" in text and "-wal" in text


def test_serve_makes_the_default_stores_folder_on_a_fresh_machine(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # a new-user tester: plain `xqrec serve` before any recording said to create the application's
    # data folder by hand (a recorder makes it); a --db in a folder that is not there is still refused
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "fresh"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setattr(ConsoleServer, "serve_forever", lambda self, poll_interval=0.5: None)
    assert main(["serve", "--port", "0"]) == 0
    captured = capsys.readouterr()
    assert "arbiter console on" in captured.out and "it is made now" in captured.err
    assert main(["serve", "--port", "0", "--db", str(tmp_path / "typo" / "games.sqlite3")]) == 2
    assert "create it first" in capsys.readouterr().err


def test_serve_on_a_busy_port_leaves_no_empty_store_behind(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # a console tester: `serve --db other.sqlite3` with the port taken said "it is made now", then that the
    # port was in use, and left an empty store that a later serve or record took for a real one
    import socket

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        db = tmp_path / "other.sqlite3"
        assert main(["serve", "--port", str(port), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert "already in use" in err and "made now" not in err
    assert not list(tmp_path.glob("other.sqlite3*"))
