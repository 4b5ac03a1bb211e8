"""``Move``: a piece going from one point to another, written in ICCS (``h2e2``)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import InvalidMoveError
from rules.squares import SQUARES, parse_square, square_name


@dataclass(frozen=True, slots=True)
class Move:
    """A move from ``from_square`` to ``to_square`` (square numbers, see :mod:`rules.squares`).

    A ``Move`` says nothing about legality; :meth:`rules.Position.play` checks that.
    """

    from_square: int
    to_square: int

    @property
    def iccs(self) -> str:
        """ICCS text: files ``a``-``i`` from red's left, ranks ``0``-``9`` from red's side."""
        return square_name(self.from_square) + square_name(self.to_square)

    @classmethod
    def from_iccs(cls, text: str) -> Move:
        """Parse ICCS text (``h2e2``; ``H2-E2`` is accepted too)."""
        compact = text.strip().lower().replace("-", "")
        if len(compact) != 4:
            raise InvalidMoveError(text, "ICCS moves have four characters, e.g. h2e2")
        try:
            from_square, to_square = parse_square(compact[:2]), parse_square(compact[2:])
        except ValueError as error:
            raise InvalidMoveError(text, str(error)) from None
        if from_square == to_square:
            raise InvalidMoveError(text, "a move must change the square")
        return _MOVES[from_square * SQUARES + to_square] or cls(from_square, to_square)

    def __str__(self) -> str:
        return self.iccs

    def __repr__(self) -> str:
        return f"Move.from_iccs({self.iccs!r})"


_MOVES: list[Move | None] = [
    None if a == b else Move(a, b) for a in range(SQUARES) for b in range(SQUARES)
]


def cached_move(from_square: int, to_square: int) -> Move:
    """The shared ``Move`` value for a square pair (move generation avoids re-creating them)."""
    move = _MOVES[from_square * SQUARES + to_square]
    assert move is not None
    return move
