"""End-to-end: ``xqrec demo`` records a rendered game video and compares it with its truth."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from recorder.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_demo_records_the_video_and_answers_every_injected_case(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for suffix in ("mp4", "clock.jsonl", "truth.json"):
        shutil.copy(FIXTURES / f"game_faults.{suffix}", tmp_path / f"game.{suffix}")
    assert main(["demo", "--dir", str(tmp_path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "20/20 plies as in the truth" in out
    assert "MISSED" not in out
    assert "no false alerts" in out
    assert (tmp_path / "demo.pgn").read_text(encoding="utf-8").startswith('[Game "Chinese Chess"]')
    assert "demo.sqlite3, game 1 " in out and "export 1 --db" in out


def test_a_second_demo_run_adds_its_game_to_the_store_a_console_may_have_open(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    for suffix in ("mp4", "clock.jsonl", "truth.json"):
        shutil.copy(FIXTURES / f"game_short.{suffix}", tmp_path / f"game.{suffix}")
    assert main(["demo", "--dir", str(tmp_path), "--quiet"]) == 0
    console = sqlite3.connect(tmp_path / "demo.sqlite3")  # a reader, as `xqrec serve` is, kept open
    first = console.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    capsys.readouterr()
    assert main(["demo", "--dir", str(tmp_path), "--quiet"]) == 0
    assert "demo.sqlite3, game 2 " in capsys.readouterr().out
    # the console's connection sees the new game: the file it has open was not replaced under it
    assert console.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2
    assert console.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 2 * first
    console.close()


def test_demo_without_its_video_says_how_to_get_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--dir", str(tmp_path)]) == 2
    assert "make demo" in capsys.readouterr().err
