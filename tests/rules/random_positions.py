"""Seeded random positions for property tests: random play from the start and random legal placements."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from rules import InvalidFenError, Position
from rules.squares import (
    ADVISOR_POINTS,
    BLACK,
    ELEPHANT_POINTS,
    FILES,
    RANKS,
    RED,
    SQUARES,
    file_of,
    own_half,
    rank_of,
    square,
)


def play_randomly(rng: random.Random, plies: int, start: Position | None = None) -> list[Position]:
    """The positions of a random game of at most ``plies`` plies (the start included)."""
    position = start or Position.start()
    positions = [position]
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(rng.choice(moves))
        positions.append(position)
    return positions


def _soldier_squares(side: str) -> list[int]:
    home = 3 if side == RED else 6

    def reachable(sq: int) -> bool:
        if not own_half(sq, side):
            return True
        at_or_past_home = rank_of(sq) >= home if side == RED else rank_of(sq) <= home
        return file_of(sq) % 2 == 0 and at_or_past_home

    return [sq for sq in range(SQUARES) if reachable(sq)]


def _palace(side: str) -> list[int]:
    ranks = range(3) if side == RED else range(7, RANKS)
    return [square(f, r) for f in range(3, 6) for r in ranks]


def _placement_fen(cells: list[str], side: str) -> str:
    rows = []
    for rank in range(RANKS - 1, -1, -1):
        row, run = "", 0
        for file in range(FILES):
            piece = cells[square(file, rank)]
            if piece == ".":
                run += 1
                continue
            row += (str(run) if run else "") + piece
            run = 0
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows) + (" w" if side == RED else " b")


def random_placement(rng: random.Random, max_per_kind: int = 2) -> Position:
    """A random legal position: each piece on a point it can reach, no facing generals, no check on the waiting side.

    Counts per kind are drawn up to the rule's limit (at most ``max_per_kind`` for the
    pieces that may have two), so sparse endgame-like boards are common.
    """
    for _ in range(1000):
        cells = ["."] * SQUARES
        free = set(range(SQUARES))

        def put(letter: str, choices: list[int], count: int, cells: list[str] = cells, free: set[int] = free) -> None:
            options = [sq for sq in choices if sq in free]
            for sq in rng.sample(options, min(count, len(options))):
                cells[sq] = letter
                free.discard(sq)

        for side in (RED, BLACK):
            upper = side == RED

            def letter(kind: str, upper: bool = upper) -> str:
                return kind if upper else kind.lower()

            put(letter("K"), _palace(side), 1)
            put(letter("A"), sorted(ADVISOR_POINTS[side]), rng.randint(0, max_per_kind))
            put(letter("B"), sorted(ELEPHANT_POINTS[side]), rng.randint(0, max_per_kind))
            for kind in "NRC":
                put(letter(kind), list(range(SQUARES)), rng.randint(0, max_per_kind))
            put(letter("P"), _soldier_squares(side), rng.randint(0, 5))
        try:
            return Position.from_fen(_placement_fen(cells, rng.choice((RED, BLACK))))
        except InvalidFenError:
            continue
    raise RuntimeError("no legal placement found in 1000 tries")


seeds = st.integers(min_value=0, max_value=2**32 - 1)
"""Seeds for ``random.Random``; hypothesis draws and replays them."""
