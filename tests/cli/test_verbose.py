"""``-v`` is taken before the command or after it, as users type it."""

from __future__ import annotations

import pytest

from recorder.cli import build_parser, main


@pytest.mark.parametrize("argv, verbose", [
    (["replay", "game.pgn"], False),
    (["-v", "replay", "game.pgn"], True),
    (["replay", "game.pgn", "-v"], True),
    (["record", "--verbose", "video.mp4"], True),
])
def test_verbose_is_read_before_or_after_the_command(argv: list[str], verbose: bool) -> None:
    assert build_parser().parse_args(argv).verbose is verbose


def test_xqrec_alone_lists_its_commands_in_the_order_a_user_meets_them(capsys: pytest.CaptureFixture[str]) -> None:
    # a new user typed xqrec and read only "the following arguments are required: COMMAND"
    assert main([]) == 2
    out = capsys.readouterr().out
    assert "usage: xqrec" in out and out.index("    record ") < out.index("    export ") < out.index("    perft ")
    assert main(["-v"]) == 2 and "    record " in capsys.readouterr().out
