"""``xqrec render game`` end to end on a tiny frame size."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

import synth.cli


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="xqrec")
    synth.cli.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.handler(args))


def test_render_game_writes_video_truth_and_clock(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "games.txt"
    games.write_text("1-0 h2e2 h9g7 h0g2\n0-1 c3c4\n")
    out = tmp_path / "g.mp4"
    code = _run(["render", "game", "--game-file", str(games), "--line", "1", "--plies", "2", "--seed", "4",
                 "--out", str(out), "--width", "96", "--height", "64", "--think", "0.5,0.5,0.6",
                 "--no-light-changes", "--encoder", "opencv", "--inject", "no_press@2", "--time-control", "5+3"])
    assert code == 0 and out.exists()
    truth = json.loads(out.with_suffix(".truth.json").read_text())
    assert truth["moves"] == ["h2e2", "h9g7"] and truth["injections"][0]["kind"] == "no_press"
    assert truth["clock"]["base_ms"] == 300_000 and truth["clock"]["increment_ms"] == 3000
    lines = out.with_suffix(".clock.jsonl").read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["red_ms"] == 300_000 - round(truth["clock"]["presses"][0]["t"] * 1000) + 3000
    assert "2 plies" in capsys.readouterr().out


def test_render_game_refuses_bad_input(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot be played"):
        _run(["render", "game", "--moves", "h2e2 h2e2", "--out", str(tmp_path / "x.mp4")])
    with pytest.raises(ValueError, match="outside"):
        games = tmp_path / "g.txt"
        games.write_text("1-0 h2e2\n")
        _run(["render", "game", "--game-file", str(games), "--line", "5", "--out", str(tmp_path / "x.mp4")])
    with pytest.raises(ValueError, match="think"):
        _run(["render", "game", "--moves", "h2e2", "--think", "fast", "--out", str(tmp_path / "x.mp4")])
    with pytest.raises(ValueError, match="--bumps must be 0 or more"):
        _run(["render", "game", "--moves", "h2e2", "--bumps", "-1", "--out", str(tmp_path / "x.mp4")])
    # two outputs on one path: the clock log was written over the video (a tester's typo)
    with pytest.raises(ValueError, match="--clock .* is the file --out names"):
        _run(["render", "game", "--moves", "h2e2", "--out", str(tmp_path / "x.mp4"), "--clock", str(tmp_path / "x.mp4")])
    with pytest.raises(ValueError, match="--truth .* is the file --out names"):
        _run(["render", "position", "--out", str(tmp_path / "p.png"), "--truth", str(tmp_path / "." / "p.png")])
    assert not (tmp_path / "x.mp4").exists() and not (tmp_path / "p.png").exists()


def test_a_render_on_a_terminal_says_how_far_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    # a new user's make demo showed nothing for the four minutes of its render
    from pathlib import Path

    from synth.video_cli import _progress_line

    show = _progress_line(Path("game.mp4"))
    for done in range(1, 201):
        show(done, 200)
    err = capsys.readouterr().err
    assert err.count("\r") == 101 and "rendering game.mp4: 100 % (200/200 frames" in err  # 0 % to 100 %, each once
