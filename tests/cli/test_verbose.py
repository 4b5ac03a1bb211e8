"""``-v`` is taken before the command or after it, as users type it."""

from __future__ import annotations

import pytest

from recorder.cli import build_parser


@pytest.mark.parametrize("argv, verbose", [
    (["replay", "game.pgn"], False),
    (["-v", "replay", "game.pgn"], True),
    (["replay", "game.pgn", "-v"], True),
    (["record", "--verbose", "video.mp4"], True),
])
def test_verbose_is_read_before_or_after_the_command(argv: list[str], verbose: bool) -> None:
    assert build_parser().parse_args(argv).verbose is verbose
