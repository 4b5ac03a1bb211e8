"""The text scoresheet's layout."""

from __future__ import annotations

import unicodedata

from recorder.exports.text import export_text
from tests.exports.game_events import game_events


def test_black_column_lines_up_when_black_moves_first() -> None:
    # a reviewer: set up with black to move, the first row's red cell "……" was padded by characters,
    # not by the columns Chinese moves take, so black's first move stood 4 columns left of the rest
    def columns(text: str) -> int:
        return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)

    fen = "3k5/9/2P6/2P3P2/2P3P2/9/2p3p2/2p3p2/6p2/4K4 b - - 0 40"
    events = game_events(["c2c1", "g6f6", "c3c2", "c5b5"], start_fen=fen)
    rows = [line for line in export_text(events).splitlines() if line[:4].strip() in ("40.", "41.")]
    starts = [columns(line[: line.index(black)]) for line, black in zip(rows, ("前3进1", "后3进1"), strict=True)]
    assert starts[0] == starts[1], rows
