"""Perft counts: the standard check that move generation is complete and exact."""

from __future__ import annotations

import pytest

from recorder.cli import main
from rules import Position, perft

CASES = [
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", (44, 1920, 79666)),
    ("5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w", (25, 424, 9850)),
    ("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w", (38, 1128, 43929)),
    ("2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w", (21, 195, 3883)),
    ("C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w", (28, 222, 6241)),
    ("4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w", (23, 345, 8124)),
]


@pytest.mark.parametrize(("fen", "counts"), CASES)
def test_perft_depths_1_to_3(fen: str, counts: tuple[int, int, int]) -> None:
    position = Position.from_fen(fen)
    assert [perft(position, depth) for depth in (1, 2, 3)] == list(counts)


def test_perft_cli_prints_leaf_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "2"]) == 0
    assert capsys.readouterr().out.strip() == "1920"


def test_perft_cli_with_fen(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "3", "--fen", CASES[3][0]]) == 0
    assert capsys.readouterr().out.strip() == "3883"
