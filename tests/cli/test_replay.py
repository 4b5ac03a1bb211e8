"""End-to-end: ``xqrec replay`` and the interim ``xqrec demo`` on real records."""

from __future__ import annotations

from pathlib import Path

import pytest

from recorder.cli import main
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.skipif(not SHARED_DATA.exists(), reason="../shared/data is not present")


def test_replay_prints_scoresheet_and_repetition_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--line", "13"]) == 0
    out = capsys.readouterr().out
    assert "1. 炮二平五    马8进7" in out
    assert "25.2" in out  # the repetition the rules call a draw
    assert "Result as recorded: 1/2-1/2" in out


def test_replay_reports_checkmate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--line", "3"]) == 0
    out = capsys.readouterr().out
    assert "checkmated" in out and "4.1.1" in out


def test_replay_reads_big5_pgn_in_traditional_characters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(SHARED_DATA / "pgn-chinese" / "0001.pgn"), "--traditional"]) == 0
    assert "1. 兵七進一    馬8進7" in capsys.readouterr().out


def test_replay_rejects_an_illegal_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pgn = tmp_path / "bad.pgn"
    pgn.write_text('[Game "Chinese Chess"]\n\n1. h2e2 h9g7 2. e2e9 *\n', encoding="utf-8")
    assert main(["replay", str(pgn)]) == 2
    assert "bad.pgn" in capsys.readouterr().err
