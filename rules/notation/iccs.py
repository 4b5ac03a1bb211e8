"""ICCS move notation (``h2e2``): the from and to points, files a-i from red's left, ranks 0-9."""

from __future__ import annotations

from rules.errors import IllegalMoveError, InvalidMoveError
from rules.move import Move
from rules.position import Position


def format_iccs(position: Position, move: Move) -> str:
    """``h2e2`` for a legal ``move``; raises ``IllegalMoveError`` for an illegal one."""
    if not position.is_legal(move):
        reason = position.explain_illegal(move.from_square, move.to_square) or "not a legal move"
        raise IllegalMoveError(move.iccs, reason, position.fen())
    return move.iccs


def parse_iccs(position: Position, text: str) -> Move:
    """The legal move written ``h2e2`` (``H2-E2`` accepted) in ``position``."""
    try:
        move = Move.from_iccs(text)
    except InvalidMoveError as error:
        raise InvalidMoveError(text, error.reason, position.fen()) from None
    if not position.is_legal(move):
        reason = position.explain_illegal(move.from_square, move.to_square) or "not a legal move"
        raise IllegalMoveError(text, reason, position.fen())
    return move
