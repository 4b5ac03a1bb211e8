"""``Position``: an immutable Xiangqi position with legal move generation (art. 2 and 3).

The board is a 90-character string indexed by square (see :mod:`rules.squares`), so a
position is cheap to copy, hash and compare. Move generation produces pseudo-legal
moves from precomputed step tables, then drops those that leave the mover's general
attacked (art. 3.4); only moves that touch the general's lines need the full test.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rules.errors import IllegalMoveError, InvalidFenError, InvalidMoveError
from rules.move import Move, cached_move
from rules.squares import (
    ADVISOR_STEPS,
    BLACK,
    BLACK_PIECES,
    ELEPHANT_STEPS,
    EMPTY,
    FILES,
    HORSE_ATTACKERS,
    HORSE_STEPS,
    KING_STEPS,
    PIECE_LIMITS,
    PIECE_NAMES,
    RANKS,
    RAYS,
    RED,
    RED_PIECES,
    SOLDIER_STEPS,
    SQUARES,
    file_of,
    in_palace,
    opponent,
    own_half,
    parse_square,
    piece_name,
    rank_of,
    side_of,
    square,
    square_name,
    standing_problem,
)

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

_FEN_ALIASES = {"E": "B", "H": "N", "e": "b", "h": "n"}


@dataclass(frozen=True, slots=True)
class Violation:
    """Why a physical move is not legal: a stable ``code``, a sentence, and the rule article."""

    code: str
    text: str
    article: str


def _danger_masks() -> list[bytes]:
    """Per general square: the squares whose change can alter an attack on that general."""
    masks = []
    for g in range(SQUARES):
        mask = bytearray(SQUARES)
        f, r = file_of(g), rank_of(g)
        for sq in range(SQUARES):
            if file_of(sq) == f or rank_of(sq) == r:
                mask[sq] = 1
        for df in (-1, 1):
            for dr in (-1, 1):
                if 0 <= f + df < FILES and 0 <= r + dr < RANKS:
                    mask[square(f + df, r + dr)] = 1
        masks.append(bytes(mask))
    return masks


_DANGER = _danger_masks()


def _general_attacked(board: str, g: int, side: str) -> bool:
    """Is the general of ``side`` standing on ``g`` attacked (including flying generals)?"""
    if side == RED:
        chariot, cannon, horse, soldier, general = "r", "c", "n", "p", "k"
        soldier_squares = (g + FILES, g - 1, g + 1)
    else:
        chariot, cannon, horse, soldier, general = "R", "C", "N", "P", "K"
        soldier_squares = (g - FILES, g - 1, g + 1)
    for index, ray in enumerate(RAYS[g]):
        screened = False
        for sq in ray:
            piece = board[sq]
            if piece == EMPTY:
                continue
            if screened:
                if piece == cannon:
                    return True
                break
            if piece == chariot or (piece == general and index < 2):
                return True
            screened = True
    for h, leg in HORSE_ATTACKERS[g]:
        if board[h] == horse and board[leg] == EMPTY:
            return True
    gf = g % FILES
    for sq in soldier_squares:
        if 0 <= sq < SQUARES and board[sq] == soldier and (sq % FILES == gf or sq // FILES == g // FILES):
            return True
    return False


def _pseudo_moves(board: str, side: str) -> list[tuple[int, int]]:
    """Every move allowed by the pieces' movement rules, ignoring the general's safety."""
    own = RED_PIECES if side == RED else BLACK_PIECES
    moves: list[tuple[int, int]] = []
    append = moves.append
    for sq, piece in enumerate(board):
        if piece not in own:
            continue
        kind = piece.upper()
        if kind == "R":
            for ray in RAYS[sq]:
                for to in ray:
                    target = board[to]
                    if target == EMPTY:
                        append((sq, to))
                        continue
                    if target not in own:
                        append((sq, to))
                    break
        elif kind == "C":
            for ray in RAYS[sq]:
                screened = False
                for to in ray:
                    target = board[to]
                    if not screened:
                        if target == EMPTY:
                            append((sq, to))
                        else:
                            screened = True
                    elif target != EMPTY:
                        if target not in own:
                            append((sq, to))
                        break
        elif kind == "N":
            for to, leg in HORSE_STEPS[sq]:
                if board[leg] == EMPTY and board[to] not in own:
                    append((sq, to))
        elif kind == "P":
            for to in SOLDIER_STEPS[side][sq]:
                if board[to] not in own:
                    append((sq, to))
        elif kind == "B":
            for to, eye in ELEPHANT_STEPS[sq]:
                if board[eye] == EMPTY and board[to] not in own:
                    append((sq, to))
        elif kind == "A":
            for to in ADVISOR_STEPS[sq]:
                if board[to] not in own:
                    append((sq, to))
        else:
            for to in KING_STEPS[sq]:
                if board[to] not in own:
                    append((sq, to))
    return moves


def _apply(board: str, from_square: int, to_square: int) -> str:
    piece = board[from_square]
    if from_square < to_square:
        return board[:from_square] + EMPTY + board[from_square + 1 : to_square] + piece + board[to_square + 1 :]
    return board[:to_square] + piece + board[to_square + 1 : from_square] + EMPTY + board[from_square + 1 :]


class Position:
    """An immutable position: the 90 points and the side to move.

    Two positions are equal when their placement and side to move are equal; the move
    counters carried for FEN output do not take part (repetition compares positions).
    Build one with :meth:`start` or :meth:`from_fen`.
    """

    __slots__ = ("_board", "_side", "_quiet_plies", "_fullmove", "_legal", "_hash")

    def __init__(self, board: str, side: str = RED, quiet_plies: int = 0, fullmove: int = 1) -> None:
        if len(board) != SQUARES or side not in (RED, BLACK):
            raise ValueError("Position needs a 90-character board and side 'red' or 'black'")
        self._board = board
        self._side = side
        self._quiet_plies = quiet_plies
        self._fullmove = fullmove
        self._legal: tuple[Move, ...] | None = None
        self._hash: int | None = None

    # --- construction and FEN -------------------------------------------------
    @classmethod
    def start(cls) -> Position:
        """The standard starting position (art. 1.3), red to move."""
        return cls.from_fen(START_FEN)

    @classmethod
    def from_fen(cls, text: str) -> Position:
        """Parse Xiangqi FEN (rank 9 first; ``w``/``r`` red, ``b`` black) and check the position is legal."""
        fields = text.split()
        if not fields:
            raise InvalidFenError(text, "empty FEN")
        rows = fields[0].split("/")
        if len(rows) != RANKS:
            raise InvalidFenError(text, f"{len(rows)} ranks, expected 10")
        cells = [EMPTY] * SQUARES
        for row_index, row in enumerate(rows):
            rank = RANKS - 1 - row_index
            file = 0
            for char in row:
                if char.isdigit():
                    file += int(char)
                    continue
                piece = _FEN_ALIASES.get(char, char)
                if piece not in RED_PIECES and piece not in BLACK_PIECES:
                    raise InvalidFenError(text, f"unknown piece letter {char!r} on rank {rank}")
                if file >= FILES:
                    raise InvalidFenError(text, f"rank {rank} has more than 9 files")
                cells[square(file, rank)] = piece
                file += 1
            if file != FILES:
                raise InvalidFenError(text, f"rank {rank} has {file} files, expected 9")
        side_field = fields[1].lower() if len(fields) > 1 else "w"
        if side_field in ("w", "r"):
            side = RED
        elif side_field == "b":
            side = BLACK
        else:
            raise InvalidFenError(text, f"side to move {fields[1]!r} is not w, r or b")
        quiet_plies = _int_field(fields, 4, 0)
        fullmove = max(1, _int_field(fields, 5, 1))
        position = cls("".join(cells), side, quiet_plies, fullmove)
        problem = position._placement_problem()
        if problem:
            raise InvalidFenError(text, problem)
        return position

    def fen(self) -> str:
        """FEN text, rank 9 first, with the side to move and the move counters."""
        rows = []
        for rank in range(RANKS - 1, -1, -1):
            row, run = "", 0
            for file in range(FILES):
                piece = self._board[square(file, rank)]
                if piece == EMPTY:
                    run += 1
                    continue
                if run:
                    row += str(run)
                    run = 0
                row += piece
            rows.append(row + (str(run) if run else ""))
        side = "w" if self._side == RED else "b"
        return f"{'/'.join(rows)} {side} - - {self._quiet_plies} {self._fullmove}"

    def _placement_problem(self) -> str | None:
        board = self._board
        for side, letters in ((RED, "KABNRCP"), (BLACK, "kabnrcp")):
            for letter in letters:
                count = board.count(letter)
                limit = PIECE_LIMITS[letter.upper()]
                if letter.upper() == "K" and count == 0:
                    return f"no {side} general"
                if count > limit:
                    if letter.upper() == "K":
                        return f"{'two' if count == 2 else count} {piece_name(letter)}s"
                    return f"{count} {piece_name(letter)}s, at most {limit}"
        unmoved_files: set[tuple[str, int]] = set()
        for sq, piece in enumerate(board):
            if piece == EMPTY:
                continue
            side, kind = side_of(piece), piece.upper()
            where = f"{piece_name(piece)} on {square_name(sq)}"
            problem = standing_problem(piece, sq)
            if problem:
                return f"{where} {problem}"
            if kind == "P" and own_half(sq, side):
                if (piece, file_of(sq)) in unmoved_files:
                    # Before the river a soldier keeps its file, and each file starts with one.
                    return f"{where} shares its file with another {piece_name(piece)} before the river"
                unmoved_files.add((piece, file_of(sq)))
        red_g, black_g = board.index("K"), board.index("k")
        if file_of(red_g) == file_of(black_g) and all(
            board[sq] == EMPTY for sq in range(red_g + FILES, black_g, FILES)
        ):
            return f"the generals face each other on file {square_name(red_g)[0]}"
        waiting = opponent(self._side)
        if self._is_general_attacked(waiting):
            return f"the side not on move ({waiting}) is in check"
        return None

    # --- values ---------------------------------------------------------------
    @property
    def side_to_move(self) -> str:
        """``"red"`` or ``"black"``."""
        return self._side

    @property
    def board(self) -> str:
        """The 90 points as FEN letters (``.`` empty), indexed by square number."""
        return self._board

    @property
    def quiet_plies(self) -> int:
        """Plies since the last capture (the natural-limit counter of art. 4.2.4)."""
        return self._quiet_plies

    @property
    def fullmove(self) -> int:
        return self._fullmove

    def numbered(self, ply: int) -> tuple[int, str]:
        """The round number and side of the ``ply``-th move made from this position (1 = the first),
        as a scoresheet numbers them: from this position's move number, black first when black is to move."""
        earlier = ply - 1 + (self._side == BLACK)  # half-moves of the round that come before it
        return self._fullmove + earlier // 2, RED if earlier % 2 == 0 else BLACK

    def move_name(self, ply: int) -> str:
        """How people name the ``ply``-th move made from here: ``move 6 (black)``."""
        number, side = self.numbered(ply)
        return f"move {number} ({side})"

    def after(self, ply: int) -> str:
        """Where a count of ``ply`` moves made from here stands, in words: ``after move 6 (black)``,
        ``before the first move`` for none (alerts, advice and the sheet's notes all say it so)."""
        return f"after {self.move_name(ply)}" if ply > 0 else "before the first move"

    def piece_at(self, sq: int | str) -> str | None:
        """The FEN letter on a square (number or ICCS name), or ``None`` if it is empty."""
        piece = self._board[_square(sq)]
        return None if piece == EMPTY else piece

    def pieces(self) -> Iterator[tuple[int, str]]:
        """(square, letter) for every piece on the board."""
        return ((sq, p) for sq, p in enumerate(self._board) if p != EMPTY)

    def general_square(self, side: str) -> int:
        return self._board.index("K" if side == RED else "k")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._board == other._board and self._side == other._side

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self._board, self._side))
        return self._hash

    def __repr__(self) -> str:
        return f"Position.from_fen({self.fen()!r})"

    def __str__(self) -> str:
        rows = [" ".join(self._board[square(f, r)] for f in range(FILES)) + f"  {r}" for r in range(RANKS - 1, -1, -1)]
        return "\n".join(rows + ["a b c d e f g h i"])

    # --- moves ----------------------------------------------------------------
    def _is_general_attacked(self, side: str) -> bool:
        return _general_attacked(self._board, self.general_square(side), side)

    def in_check(self) -> bool:
        """Is the side to move in check (art. 3.1)?"""
        return self._is_general_attacked(self._side)

    def legal_moves(self) -> list[Move]:
        """All legal moves of the side to move (art. 2.2 and 3.4)."""
        return list(self._legal_tuple())

    def _legal_tuple(self) -> tuple[Move, ...]:
        if self._legal is not None:
            return self._legal
        board, side = self._board, self._side
        general = "K" if side == RED else "k"
        g = board.index(general)
        in_check = _general_attacked(board, g, side)
        danger = _DANGER[g]
        legal = []
        for from_square, to_square in _pseudo_moves(board, side):
            if not in_check and from_square != g and not danger[from_square] and not danger[to_square]:
                legal.append(cached_move(from_square, to_square))
                continue
            after = _apply(board, from_square, to_square)
            if not _general_attacked(after, to_square if from_square == g else g, side):
                legal.append(cached_move(from_square, to_square))
        self._legal = tuple(legal)
        return self._legal

    def has_legal_move(self) -> bool:
        """Has the side to move any legal move? (Stops at the first one; the mate tests ask it often.)"""
        if self._legal is not None:
            return bool(self._legal)
        board, side = self._board, self._side
        g = board.index("K" if side == RED else "k")
        for from_square, to_square in _pseudo_moves(board, side):
            if not _general_attacked(_apply(board, from_square, to_square), to_square if from_square == g else g, side):
                return True
        return False

    def is_legal(self, move: Move) -> bool:
        return move in self._legal_tuple()

    def play(self, move: Move | str) -> Position:
        """The position after ``move`` (a ``Move`` or ICCS text); raises ``IllegalMoveError``."""
        if isinstance(move, str):
            move = Move.from_iccs(move)
        if move not in self._legal_tuple():
            violation = self.violation(move.from_square, move.to_square)
            reason = violation.text if violation else "not a legal move"
            raise IllegalMoveError(move.iccs, reason, self.fen())
        return self._after(move)

    def _after(self, move: Move) -> Position:
        capture = self._board[move.to_square] != EMPTY
        return Position(
            _apply(self._board, move.from_square, move.to_square),
            BLACK if self._side == RED else RED,
            0 if capture else self._quiet_plies + 1,
            self._fullmove + (1 if self._side == BLACK else 0),
        )

    def is_capture(self, move: Move) -> bool:
        return self._board[move.to_square] != EMPTY

    def gives_check(self, move: Move) -> bool:
        """Does the (legal) ``move`` check the opponent's general?"""
        return self._after(move).in_check()

    def is_checkmate(self) -> bool:
        """将死 (art. 3.2): in check with no legal move."""
        return not self._legal_tuple() and self.in_check()

    def is_stalemate(self) -> bool:
        """困毙 (art. 3.3): not in check, with no legal move; a loss for the side to move (art. 4.1.2)."""
        return not self._legal_tuple() and not self.in_check()

    def with_side_to_move(self, side: str) -> Position:
        """The same placement with ``side`` to move (for analysis such as 'what does this piece attack')."""
        return self if side == self._side else Position(self._board, side, self._quiet_plies, self._fullmove)

    def attackers(self, target: int | str, side: str) -> list[int]:
        """Squares of ``side``'s pieces that could capture on ``target`` by their movement rules.

        The general's safety is not considered (a pinned piece still attacks). An empty
        or own-occupied target is asked as if an enemy piece stood there, so a cannon
        counts only with its screen (its plain moves are not attacks).
        """
        to = _square(target)
        board = self._board
        if board[to] == EMPTY or side_of(board[to]) == side:
            board = board[:to] + ("k" if side == RED else "K") + board[to + 1 :]
        return sorted({f for f, t in _pseudo_moves(board, side) if t == to})

    # --- explaining illegal moves -----------------------------------------------
    def violation(self, from_square: int | str, to_square: int | str) -> Violation | None:
        """Why moving the piece on ``from_square`` to ``to_square`` is illegal, or ``None`` if it is legal."""
        src, dst = _square(from_square), _square(to_square)
        if src == dst:
            return Violation("no_move", "the piece did not move", "2.3")
        piece = self._board[src]
        if piece == EMPTY:
            return Violation("empty_square", f"there is no piece on {square_name(src)}", "2.3")
        name = piece_name(piece)
        if side_of(piece) != self._side:
            return Violation("wrong_side", f"it is {self._side}'s turn, not {side_of(piece)}'s ({name})", "2.1")
        target = self._board[dst]
        if target != EMPTY and side_of(target) == self._side:
            own_kind = PIECE_NAMES[target.upper()]
            return Violation("own_piece", f"{square_name(dst)} holds {self._side}'s own {own_kind}", "2.3")
        geometry = _geometry_violation(self._board, src, dst, piece, name)
        if geometry:
            return geometry
        after = _apply(self._board, src, dst)
        own_g = dst if piece.upper() == "K" else self._board.index("K" if self._side == RED else "k")
        enemy_g = after.find("k" if self._side == RED else "K")  # -1: the move takes it (a board read wrong,
        # or asked of the side not to move while the other's general stands in check)
        if enemy_g >= 0 and file_of(own_g) == file_of(enemy_g):
            low, high = min(own_g, enemy_g), max(own_g, enemy_g)
            if all(after[sq] == EMPTY for sq in range(low + FILES, high, FILES)):
                # forbidden by 2.2, and 自杀 by 3.4, which is what decides the game (4.1.3)
                return Violation("flying_general", "the generals would face each other on an open file", "3.4")
        if _general_attacked(after, own_g, self._side):
            by = _checkers_text(after, own_g, opponent(self._side))
            if self.in_check():
                return Violation("ignores_check", f"{self._side}'s general is in check and stays in check{by}", "3.4")
            return Violation("self_check", f"{self._side}'s own general would be left in check{by}", "3.4")
        return None

    def explain_illegal(self, from_square: int | str, to_square: int | str) -> str | None:
        """A sentence saying why the physical move is illegal, or ``None`` when it is legal."""
        found = self.violation(from_square, to_square)
        return found.text if found else None


def _checkers_text(board: str, general: int, side: str) -> str:
    """`` by the red cannon on h9`` naming the pieces of ``side`` that attack ``general``."""
    checkers = sorted({f for f, t in _pseudo_moves(board, side) if t == general})
    if not checkers:
        return ""
    return " by the " + " and the ".join(f"{piece_name(board[sq])} on {square_name(sq)}" for sq in checkers)


def _step_said(df: int, dr: int) -> str:
    """What a step of ``df`` files and ``dr`` ranks is, in words: the alert says what was done
    beside the rule it broke (an arbiter tester read "the horse moves one point straight and one
    diagonally" of a horse moved one point straight as if the horse had moved so)."""
    files, ranks = abs(df), abs(dr)

    def points(n: int) -> str:
        words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
        return f"{words[n] if n < len(words) else n} point{'s' if n != 1 else ''}"

    if not files or not ranks:
        return f"{points(files + ranks)} straight"
    if files == ranks:
        return f"{points(files)} diagonally"
    return f"{points(ranks)} along the file and {points(files)} along the rank"


def _geometry_violation(board: str, src: int, dst: int, piece: str, name: str) -> Violation | None:
    """The piece-movement rule (art. 2.2) a move breaks, ignoring the general's safety."""
    side, kind = side_of(piece), piece.upper()
    df, dr = file_of(dst) - file_of(src), rank_of(dst) - rank_of(src)
    if kind == "K":
        if not in_palace(dst, side):
            return Violation("leaves_palace", f"the {name} may not leave the palace", "2.2")
        if abs(df) + abs(dr) != 1:
            return Violation("bad_step", f"the {name} moves one point straight, not {_step_said(df, dr)}", "2.2")
    elif kind == "A":
        if not in_palace(dst, side):
            return Violation("leaves_palace", f"the {name} may not leave the palace", "2.2")
        if abs(df) != 1 or abs(dr) != 1:
            return Violation("bad_step", f"the {name} moves one point diagonally, not {_step_said(df, dr)}", "2.2")
    elif kind == "B":
        if abs(df) != 2 or abs(dr) != 2:
            return Violation("bad_step", f"the {name} moves exactly two points diagonally, not {_step_said(df, dr)}",
                             "2.2")
        if not own_half(dst, side):
            return Violation("crosses_river", f"the {name} may not cross the river", "2.2")
        eye = square(file_of(src) + df // 2, rank_of(src) + dr // 2)
        if board[eye] != EMPTY:
            return Violation("eye_blocked", f"the {name}'s eye on {square_name(eye)} is blocked", "2.2")
    elif kind == "N":
        if sorted((abs(df), abs(dr))) != [1, 2]:
            return Violation("bad_step", f"the {name} moves one point straight and one diagonally, not "
                             f"{_step_said(df, dr)}", "2.2")
        leg = square(file_of(src), rank_of(src) + dr // 2) if abs(dr) == 2 else square(file_of(src) + df // 2, rank_of(src))
        if board[leg] != EMPTY:
            return Violation("leg_blocked", f"the {name}'s leg on {square_name(leg)} is blocked", "2.2")
    elif kind == "P":
        forward = 1 if side == RED else -1
        if dr == -forward:
            return Violation("soldier_back", f"the {name} may not move backwards", "2.2")
        if dr == 0 and abs(df) == 1 and own_half(src, side):
            return Violation("soldier_sideways", f"the {name} may move sideways only after crossing the river", "2.2")
        if not ((dr == forward and df == 0) or (dr == 0 and abs(df) == 1)):
            return Violation("bad_step", f"the {name} moves one point forward (or sideways after the river), not "
                             f"{_step_said(df, dr)}", "2.2")
    else:
        if df != 0 and dr != 0:
            return Violation("bad_step", f"the {name} moves along a file or a rank, not {_step_said(df, dr)}", "2.2")
        step = (1 if df > 0 else -1) if df else (FILES if dr > 0 else -FILES)
        between = sum(1 for sq in range(src + step, dst, step) if board[sq] != EMPTY)
        capture = board[dst] != EMPTY
        if kind == "R" and between:
            return Violation("path_blocked", f"the {name} cannot jump over pieces", "2.2")
        if kind == "C":
            if capture and between == 0:
                return Violation("no_screen", f"the {name} needs exactly one screen to capture, and has none", "2.2")
            if capture and between > 1:
                return Violation("two_screens", f"the {name} needs exactly one screen to capture, and has {between}", "2.2")
            if not capture and between:
                return Violation("screen_without_capture", f"the {name} cannot jump over a piece without capturing", "2.2")
    return None


def _square(value: int | str) -> int:
    if isinstance(value, str):
        try:
            return parse_square(value)
        except ValueError as error:
            raise InvalidMoveError(value, str(error)) from None
    if not 0 <= value < SQUARES:
        raise InvalidMoveError(str(value), "square numbers run from 0 to 89")
    return value


def _int_field(fields: list[str], index: int, default: int) -> int:
    if len(fields) > index and fields[index].isdigit():
        return int(fields[index])
    return default


def perft(position: Position, depth: int) -> int:
    """Number of leaf positions ``depth`` plies below ``position`` (the standard move-generator check)."""
    if depth <= 0:
        return 1
    moves = position._legal_tuple()
    if depth == 1:
        return len(moves)
    return sum(perft(position._after(move), depth - 1) for move in moves)
