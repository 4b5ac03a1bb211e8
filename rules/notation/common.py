"""What the Chinese and WXF notations share: file numbering, tandem pieces and move lookup.

Both notations name a move by the piece, where it stands (its file counted from the mover's
right, or its place among same pieces on one file), a direction (forward, backward,
sideways) and a number (a file, or a count of points for pieces that move straight).
:func:`describe` turns a legal move into that neutral :class:`Description`; each notation
renders it. Reading goes the other way: a notation parses its text into a :class:`Spec`
and :func:`resolve` finds the single legal move it names.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from rules.errors import AmbiguousMoveError, IllegalMoveError
from rules.move import Move, cached_move
from rules.position import Position
from rules.squares import FILES, RANKS, RED, piece_name

logger = logging.getLogger(__name__)

FORWARD, BACKWARD, SIDEWAYS = "+", "-", "."
STRAIGHT_MOVERS = frozenset("KRCP")
DIAGONAL_STEPPERS = frozenset("AB")  # advisors and elephants: the file they go to, never a distance
"""Pieces whose forward/backward number counts points; the others name the file they land on."""

# Horizontal distance -> vertical distance for the pieces that move diagonally.
_DIAGONAL_STEPS = {"N": {1: 2, 2: 1}, "B": {2: 2}, "A": {1: 1}}


def file_number(file: int, side: str) -> int:
    """The file's number (1-9) counted from ``side``'s right hand (art. 7.5)."""
    return FILES - file if side == RED else file + 1


def file_from_number(number: int, side: str) -> int:
    """The board file (0-8, ICCS a-i) of the file numbered ``number`` from ``side``'s right."""
    return FILES - number if side == RED else number - 1


def column(board: str, letter: str, file: int) -> list[int]:
    """Squares of ``letter`` on ``file``, the most advanced (nearest the enemy) first."""
    found = [rank * FILES + file for rank, piece in enumerate(board[file::FILES]) if piece == letter]
    return found[::-1] if letter.isupper() else found


def tandem_files(board: str, letter: str) -> int:
    """How many files hold two or more of ``letter`` (for soldiers that may be two)."""
    return sum(1 for file in range(FILES) if board[file::FILES].count(letter) >= 2)


@dataclass(frozen=True, slots=True)
class Description:
    """A move described the way the notations name it (see module docstring).

    ``order`` is ``(index, count)`` when the piece shares its file with others of its kind
    (index 0 is the most advanced); ``two_files`` is true when soldiers stand two or more on
    each of two files, where the notations name the file as well as the place.
    """

    kind: str
    side: str
    file: int
    order: tuple[int, int] | None
    two_files: bool
    direction: str
    number: int


def describe(position: Position, move: Move) -> Description:
    """The neutral description of a legal ``move``; raises ``IllegalMoveError`` otherwise."""
    if not position.is_legal(move):
        violation = position.violation(move.from_square, move.to_square)
        reason = violation.text if violation else "not a legal move"
        raise IllegalMoveError(move.iccs, reason, position.fen())
    board, side = position.board, position.side_to_move
    letter = board[move.from_square]
    kind = letter.upper()
    rank, file = divmod(move.from_square, FILES)
    to_rank, to_file = divmod(move.to_square, FILES)
    if to_rank == rank:
        direction, number = SIDEWAYS, file_number(to_file, side)
    else:
        ahead = (to_rank - rank) if side == RED else (rank - to_rank)
        direction = FORWARD if ahead > 0 else BACKWARD
        number = abs(to_rank - rank) if kind in STRAIGHT_MOVERS else file_number(to_file, side)
    squares = column(board, letter, file)
    order = None
    two_files = False
    if len(squares) >= 2 and not (kind in DIAGONAL_STEPPERS and _told_by_direction(position, move, squares)):
        order = (squares.index(move.from_square), len(squares))
        two_files = kind == "P" and tandem_files(board, letter) >= 2
    return Description(kind, side, file_number(file, side), order, two_files, direction, number)


def _told_by_direction(position: Position, move: Move, squares: list[int]) -> bool:
    """Does no other piece on ``move``'s file go to its landing file in its direction? Two advisors or
    elephants on one file always part by direction (the front one retreats, the back one advances):
    scoresheets write 仕六进五 and 相七退五 then, not 后仕进五 (a reviewer: all 147 such moves in the
    shared games' sources are so written)."""
    red = position.side_to_move == RED

    def forward(step: Move) -> bool:
        return (step.to_square // FILES > step.from_square // FILES) == red

    return not any(other.from_square in squares and other.from_square != move.from_square
                   and other.to_square % FILES == move.to_square % FILES and forward(other) == forward(move)
                   for other in position.legal_moves())


@dataclass(frozen=True, slots=True)
class Spec:
    """A parsed move text: which piece (by file, by place, or both) and where it goes.

    ``order`` is a place code read by :func:`order_index`; ``direction`` is ``None`` for
    the Chinese short form (``炮25``), which leaves the direction out. ``middle_by_file``
    marks WXF, where a plain file number on a file of three or five soldiers means the
    middle one.
    """

    kind: str
    file: int | None
    order: str | None
    direction: str | None
    number: int
    middle_by_file: bool = False


def order_index(code: str, count: int) -> int | None:
    """Index (0 = most advanced) of the piece a place code names among ``count`` on a file.

    Codes: ``front``, ``middle``, ``rear``, ordinals ``1``-``5`` (Chinese, four or five
    soldiers), and WXF's ``wxf+``/``wxf-`` (front/rear of up to three, second from the
    front/rear of four or five) and ``wxf++``/``wxf--`` (first/last of four or five).
    """
    if code == "front" or code == "wxf++":
        return 0
    if code == "rear" or code == "wxf--":
        return count - 1
    if code == "middle":
        return count // 2 if count % 2 == 1 else None
    if code == "wxf+":
        return 0 if count <= 3 else 1
    if code == "wxf-":
        return count - 1 if count <= 3 else count - 2
    index = int(code) - 1
    return index if index < count else None


def landing(from_square: int, kind: str, side: str, direction: str, number: int) -> int | None:
    """Where a ``kind`` piece on ``from_square`` lands for a direction and number, if anywhere."""
    rank, file = divmod(from_square, FILES)
    if direction == SIDEWAYS:
        if kind not in STRAIGHT_MOVERS:
            return None
        to_file = file_from_number(number, side)
        return None if to_file == file else rank * FILES + to_file
    sign = 1 if (direction == FORWARD) == (side == RED) else -1
    if kind in STRAIGHT_MOVERS:
        to_rank, to_file = rank + sign * number, file
    else:
        to_file = file_from_number(number, side)
        rise = _DIAGONAL_STEPS[kind].get(abs(to_file - file))
        if rise is None:
            return None
        to_rank = rank + sign * rise
    return to_rank * FILES + to_file if 0 <= to_rank < RANKS else None


def _source_squares(position: Position, spec: Spec, letter: str, text: str) -> tuple[list[int], bool]:
    """Candidate squares of the moving piece, and whether the text named it strictly."""
    board = position.board
    what = piece_name(letter)
    if spec.order is not None:
        files = [file_from_number(spec.file, position.side_to_move)] if spec.file else range(FILES)
        found = []
        for file in files:
            squares = column(board, letter, file)
            if len(squares) >= 2:
                index = order_index(spec.order, len(squares))
                if index is not None:
                    found.append(squares[index])
        if not found:
            raise IllegalMoveError(text, f"no {what}s stand on one file to match that place", position.fen())
        return found, len(found) == 1
    assert spec.file is not None
    squares = column(board, letter, file_from_number(spec.file, position.side_to_move))
    if not squares:
        raise IllegalMoveError(text, f"no {what} on file {spec.file}", position.fen())
    if len(squares) >= 3 and len(squares) % 2 == 1 and spec.middle_by_file:
        return [squares[len(squares) // 2]], True
    return squares, len(squares) == 1


def resolve(position: Position, spec: Spec, text: str) -> Move:
    """The single legal move ``spec`` names; raises ``IllegalMoveError`` or ``AmbiguousMoveError``.

    Reading is lenient: a plain file number where the place (前/后, ``+``/``-``) was due,
    and the short form without a direction, are accepted when only one legal move fits.
    """
    side = position.side_to_move
    letter = spec.kind if side == RED else spec.kind.lower()
    sources, strict = _source_squares(position, spec, letter, text)
    directions = (spec.direction,) if spec.direction else (FORWARD, BACKWARD, SIDEWAYS)
    found: list[Move] = []
    tried: list[tuple[int, int]] = []
    for from_square in sources:
        for direction in directions:
            to_square = landing(from_square, spec.kind, side, direction, spec.number)
            if to_square is None:
                continue
            move = cached_move(from_square, to_square)
            tried.append((from_square, to_square))
            if position.is_legal(move):
                found.append(move)
    if len(found) == 1:
        if not strict or spec.direction is None:
            logger.debug("lenient reading of %r as %s in %s", text, found[0].iccs, position.fen())
        return found[0]
    if found:
        raise AmbiguousMoveError(text, [move.iccs for move in found], position.fen())
    if len(tried) == 1:
        reason = position.explain_illegal(*tried[0]) or "not a legal move"
    elif not tried:
        reason = f"a {piece_name(letter)} cannot move that way"
    else:
        reason = "no legal move of the " + piece_name(letter) + " fits"
    raise IllegalMoveError(text, reason, position.fen())
