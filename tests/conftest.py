"""Shared test fixtures: paths to the real game records in ../shared/data."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
SHARED_DATA = SHARED / "data"


def read_games() -> list[tuple[str, list[str]]]:
    """(result, ICCS moves) for every game in ``games_iccs.txt``."""
    lines = (SHARED_DATA / "games_iccs.txt").read_text(encoding="utf-8").splitlines()
    games = []
    for line in lines:
        result, *moves = line.split()
        games.append((result, moves))
    return games


@pytest.fixture(scope="session")
def games() -> list[tuple[str, list[str]]]:
    if not (SHARED_DATA / "games_iccs.txt").exists():
        pytest.skip("../shared/data is not present")
    return read_games()


@pytest.fixture(autouse=True)
def _private_data_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep every test out of the user's data directory (``xqrec record`` stores games there by default)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data-home")))
