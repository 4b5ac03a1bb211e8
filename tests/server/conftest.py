"""A console server on a free loopback port over a temporary store."""

from __future__ import annotations

import threading
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest

from recorder.server import ConsoleServer, ServeConfig
from recorder.store import GameStore


class Running:
    def __init__(self, server: ConsoleServer, db: Path) -> None:
        self.server = server
        self.db = db
        self.url = server.url


def _start(tmp_path: Path, config: ServeConfig) -> Generator[Running, None, None]:
    db = tmp_path / "store.sqlite3"
    GameStore(db).close()
    server = ConsoleServer(("127.0.0.1", 0), db, config, poll_s=0.1)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        yield Running(server, db)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def console(tmp_path: Path) -> Iterator[Running]:
    yield from _start(tmp_path, ServeConfig())


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[Running]:
    yield from _start(tmp_path, ServeConfig(password="correct horse battery"))
