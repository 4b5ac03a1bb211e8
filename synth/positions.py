"""Seeded random positions for datasets: random play from the start, and random valid placements
(sparse endgames and crowded middlegames alike) so every piece kind shows up on every point it can
legally stand on."""

from __future__ import annotations

import logging

import numpy as np

from rules import InvalidFenError, Position
from rules.squares import (
    ADVISOR_POINTS,
    BLACK,
    ELEPHANT_POINTS,
    RED,
    SQUARES,
    file_of,
    rank_of,
    square,
    square_name,
)

log = logging.getLogger(__name__)


def random_playout(rng: np.random.Generator, max_plies: int = 80) -> Position:
    """The position after a random game of up to ``max_plies`` plies from the start."""
    position = Position.start()
    for _ in range(int(rng.integers(0, max_plies + 1))):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(moves[int(rng.integers(len(moves)))])
    return position


def _allowed(letter: str) -> list[int]:
    side = RED if letter.isupper() else BLACK
    kind = letter.upper()
    if kind == "K":
        ranks = range(0, 3) if side == RED else range(7, 10)
        return [square(f, r) for f in range(3, 6) for r in ranks]
    if kind == "A":
        return sorted(ADVISOR_POINTS[side])
    if kind == "B":
        return sorted(ELEPHANT_POINTS[side])
    if kind == "P":
        out = []
        for sq in range(SQUARES):
            f, r = file_of(sq), rank_of(sq)
            ahead = r - 3 if side == RED else 6 - r
            if ahead >= 2 or (ahead >= 0 and f % 2 == 0):
                out.append(sq)
        return out
    return list(range(SQUARES))


def random_placement(rng: np.random.Generator, density: float | None = None) -> Position:
    """A valid position with each non-general piece present with probability ``density``."""
    density = float(rng.uniform(0.1, 0.9)) if density is None else density
    for _ in range(200):
        board = ["."] * SQUARES
        letters = ["K", "k"] + [p for p in "AABBNNRRCCPPPPPaabbnnrrccppppp" if rng.random() < density]
        ok = True
        for letter in letters:
            free = [sq for sq in _allowed(letter) if board[sq] == "."]
            if not free:
                ok = False
                break
            board[free[int(rng.integers(len(free)))]] = letter
        if not ok:
            continue
        side = "w" if rng.random() < 0.5 else "b"
        rows = []
        for r in range(9, -1, -1):
            row, run = "", 0
            for f in range(9):
                c = board[square(f, r)]
                if c == ".":
                    run += 1
                    continue
                row += (str(run) if run else "") + c
                run = 0
            rows.append(row + (str(run) if run else ""))
        try:
            return Position.from_fen("/".join(rows) + f" {side} - - 0 1")
        except InvalidFenError:
            continue
    log.debug("random_placement fell back to a playout")
    return random_playout(rng)


def random_position(rng: np.random.Generator) -> Position:
    """Half random play (realistic structure), half random placements (coverage of rare squares)."""
    return random_playout(rng) if rng.random() < 0.5 else random_placement(rng)


def occupied_names(position: Position) -> dict[str, str]:
    """ICCS point name -> piece letter."""
    return {square_name(sq): letter for sq, letter in position.pieces()}
