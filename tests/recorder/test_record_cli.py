"""``xqrec record`` end to end on a fixture video (truth stand-in classifier): event log, PGN, scoresheet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recorder.cli import main
from recorder.events import read_events
from recorder.scoresheet import rebuild, side_by_side
from rules import read_pgn
from tests.recorder.oracle import OracleClassifier, use_oracle_in_record

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
VIDEO = FIXTURES / "game_short.mp4"


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_record_command_writes_log_pgn_and_scoresheet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    oracle = OracleClassifier(truth)
    use_oracle_in_record(oracle, monkeypatch.setattr)
    events, pgn, sheet = tmp_path / "g.events.jsonl", tmp_path / "g.pgn", tmp_path / "g.txt"
    status = main(["record", str(VIDEO), "--clock-log", str(FIXTURES / "game_short.clock.jsonl"),
                   "--events", str(events), "--pgn", str(pgn), "--scoresheet", str(sheet)])
    assert status == 0
    out = capsys.readouterr().out
    assert "ply   1" in out and "兵七进一" in out
    game = rebuild(read_events(events))
    assert game.moves == truth["moves"]
    (back,) = read_pgn(pgn.read_text(encoding="utf-8"))
    assert [m.iccs for m in back.moves] == truth["moves"]
    assert "[%clk" in pgn.read_text(encoding="utf-8")
    written = sheet.read_text(encoding="utf-8")  # the same text record as `xqrec export --format txt`
    assert written.startswith("中国象棋比赛记录表") and any(
        line.startswith("  1. 兵七进一") for line in written.splitlines())
    compared = side_by_side(game, truth["moves"])
    assert compared.rstrip().endswith(f"{len(truth['moves'])}/{len(truth['moves'])} plies as in the truth")


def test_record_without_a_model_says_what_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["record", str(VIDEO), "--model", str(tmp_path / "none.onnx")])
    assert status == 2
    assert "none.onnx" in capsys.readouterr().err
