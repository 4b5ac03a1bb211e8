"""Why a still board matches no legal continuation: the alert an arbiter needs.

The points the classifier confidently reads differently from the last confirmed position are
split into *vacated* (a piece was there, now empty) and *appeared* (a piece now stands where
another piece or nothing stood). One vacated point and one point now holding that same piece
is a physical move, and ``Position.violation`` names what is wrong with it: the side not on
turn (``wrong_side``) or an illegal move with the rule broken. Anything else is a disturbed
board: a piece missing, off its point or extra (``board_disturbed``), or a board that cannot
be explained by one piece moving (``unexplained``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np

from recorder.events import Alert, BoardDisturbed, IllegalMoveAlert
from recorder.observer import CLASSES
from recorder.resolver_scoring import Scorer, board_classes, boards_classes
from rules import Position
from rules.squares import RED, opponent, piece_name, side_of, square_name

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Changes:
    """Points confidently read differently from a position (square numbers)."""

    vacated: tuple[int, ...]
    appeared: tuple[int, ...]
    seen: dict[int, str]  # square -> FEN letter read there ('.' for empty)

    @property
    def squares(self) -> tuple[int, ...]:
        return tuple(sorted(self.vacated + self.appeared))

    def __bool__(self) -> bool:
        return bool(self.vacated or self.appeared)

    def without(self, squares: set[int]) -> Changes:
        """The same changes less those on ``squares``."""
        return Changes(tuple(sq for sq in self.vacated if sq not in squares),
                       tuple(sq for sq in self.appeared if sq not in squares),
                       {sq: v for sq, v in self.seen.items() if sq not in squares})


def _letter(index: int) -> str:
    name = CLASSES[index]
    return "." if name == "empty" else name


def changes(position: Position, scorer: Scorer, confident_p: float, substitutions: bool = True) -> Changes:
    """The points of ``position`` the observation confidently contradicts.

    A point is *vacated* when a piece should stand there and it confidently reads empty, and
    *appeared* when it should be empty and confidently reads occupied (``seen`` names the most
    probable piece). With ``substitutions``, an occupied point whose piece confidently reads as
    a piece of the other side also counts as appeared (a capture); without, it does not (pieces do
    not change identity on their own: that is far more often a misread than an event). A piece
    read as another of its own side never counts: no move leaves that, a misread character does.
    Points blown out by glare are never a confident contradiction (``Scorer.trusted``).
    """
    current = board_classes(position.board)
    probs = scorer.piece_probs
    trusted = scorer.trusted  # seen, and not blown out by glare
    piece_best = 1 + np.argmax(probs[:, 1:], axis=1)
    vacated_mask = trusted & (current != 0) & (probs[:, 0] >= confident_p)
    gained_mask = trusted & (current == 0) & (scorer.occupied_p >= confident_p)
    if substitutions:
        given = probs[:, 1:] / np.maximum(scorer.occupied_p, 1e-12)[:, None]
        rows = np.arange(90)
        type_p = given[rows, piece_best - 1]
        current_p = given[rows, np.maximum(current, 1) - 1]
        other_side = (piece_best >= 8) != (current >= 8)  # classes 1-7 red, 8-14 black
        swapped = (trusted & (current != 0) & (scorer.occupied_p >= 0.5) & other_side
                   & (type_p >= confident_p) & (current_p < scorer.bad_p))
        gained_mask = gained_mask | swapped
    seen: dict[int, str] = {}
    for index in np.flatnonzero(vacated_mask):
        seen[int(index)] = "."
    for index in np.flatnonzero(gained_mask):
        seen[int(index)] = _letter(int(piece_best[index]))
    vacated = tuple(int(i) for i in np.flatnonzero(vacated_mask))
    appeared = tuple(int(i) for i in np.flatnonzero(gained_mask))
    return Changes(vacated, appeared, seen)


def other_pieces(position: Position, scorer: Scorer, sure_p: float = 0.9, doubt_p: float = 0.02) -> Changes:
    """Pieces of ``position`` that surely read as another piece (of either side) where they stand.

    During a game pieces do not change identity, so such a reading is a misread character and
    ``changes`` leaves it out; on a board being set up it is a real mistake (a horse and a chariot
    swapped). Only a sure reading counts: occupied and that other piece at ``sure_p`` or more, the
    expected piece at ``doubt_p`` or less (both given occupied), on a trusted point. And a set has
    only its own pieces: a mistake moves them about and makes none, so a point is kept only when
    the piece it reads as leads back, through the other points kept, to the piece it should hold
    (a swap: horse read as chariot, chariot as horse). Two horses read as chariots would make four
    chariots; the camera misreads them.
    """
    current = board_classes(position.board)
    occupied = np.maximum(scorer.occupied_p, 1e-12)
    given = scorer.piece_probs[:, 1:] / occupied[:, None]
    rows = np.arange(90)
    best = 1 + np.argmax(given, axis=1)
    expected_p = given[rows, np.maximum(current, 1) - 1]
    other = (scorer.trusted & (current != 0) & (best != current) & (scorer.occupied_p >= sure_p)
             & (given[rows, best - 1] >= sure_p) & (expected_p <= doubt_p))
    seen = {int(sq): _letter(int(best[sq])) for sq in np.flatnonzero(other)}
    # each point is an edge from the piece it should hold to the piece it reads as; a mistake that
    # moves pieces about closes its edges into cycles (a swap: horse -> chariot -> horse)
    edges: dict[str, set[str]] = {}
    for sq, letter in seen.items():
        edges.setdefault(position.board[sq], set()).add(letter)

    def reaches(start: str, goal: str) -> bool:
        stack, visited = [start], {start}
        while stack:
            node = stack.pop()
            if node == goal:
                return True
            for after in edges.get(node, ()):
                if after not in visited:
                    visited.add(after)
                    stack.append(after)
        return False

    seen = {sq: letter for sq, letter in seen.items() if reaches(letter, position.board[sq])}
    squares = tuple(sorted(seen))
    return Changes((), squares, seen)


def move_pairs(board: str, found: Changes) -> list[tuple[int, int]]:
    """(from, to) pairs among the changes that look like a piece moved: a vacated point and a point
    that gained a piece (any reading of its type) or now reads as the vacated piece."""
    return [(v, a) for v in found.vacated for a in found.appeared
            if board[a] == "." or found.seen[a] == board[v]]


def placement_seen(position: Position, found: Changes) -> str:
    """The FEN placement of ``position`` with the confidently read changes applied (for the log)."""
    board = list(position.board)
    for sq, letter in found.seen.items():
        board[sq] = letter
    return Position("".join(board), position.side_to_move).fen().split()[0]


def placement_read(position: Position, scorer: Scorer) -> str:
    """The FEN placement the observation reads, each trusted point as its likeliest class (the
    record's piece where the point is hidden or blown out): what a board no move explains shows."""
    board = list(position.board)
    best = np.argmax(scorer.piece_probs, axis=1)
    for sq in np.flatnonzero(scorer.trusted):
        board[int(sq)] = _letter(int(best[sq]))
    return Position("".join(board), position.side_to_move).fen().split()[0]


def best_physical_move(position: Position, scorer: Scorer,
                       touched: np.ndarray | None = None) -> tuple[int, int, float, int] | None:
    """The one-piece move, legal or not, whose board best explains the observation.

    Every piece may go to every point not held by its own side (about 2 800 boards, scored at
    once), from and to points something moved near (``touched``, when known: a piece does not move
    where no hand came, so a misread far from the hand is no move). Returns (from, to, gain over
    the position as it stands, contradicted points), or ``None`` when no piece may move.
    """
    board = position.board
    near = np.ones(90, dtype=bool) if touched is None else np.asarray(touched, dtype=bool)
    boards: list[str] = []
    moves: list[tuple[int, int]] = []
    for src, piece in position.pieces():
        if not near[src]:
            continue
        emptied = board[:src] + "." + board[src + 1:]
        side = side_of(piece)
        for dst in range(90):
            target = board[dst]
            if dst == src or not near[dst] or (target != "." and side_of(target) == side):
                continue
            boards.append(emptied[:dst] + piece + emptied[dst + 1:])
            moves.append((src, dst))
    if not boards:
        return None
    classes = boards_classes(boards)
    scores = scorer.scores(classes)
    best = int(np.argmax(scores))
    current = float(scorer.scores(board_classes(board)[None, :])[0])
    return moves[best][0], moves[best][1], float(scores[best]) - current, int(scorer.bad_points(classes[best]).sum())


FAR_FROM_START = 6  # points differing before the first move that suggest another starting position


def diagnose(position: Position, scorer: Scorer, *, t: float, ply: int, confident_p: float,
             margin: float = 3.5, max_bad: int = 3, from_standard_start: bool = True,
             touched: np.ndarray | None = None, as_set_up: bool = False) -> list[Alert]:
    """The alert for an observation no legal continuation explains ([] when nothing is clearly wrong);
    ``from_standard_start``: the recording starts from the standard start (no ``--fen`` given);
    ``as_set_up``: nothing has moved over the board since the recorder first saw it, so what differs
    is how the board was set up (or the position given for it), not a move;
    ``touched``: the points something moved near since the board last matched (``None``: unknown),
    the only ones a move, legal or not, can have gone from or to."""
    found = changes(position, scorer, confident_p)
    if not found:
        return []
    near = np.ones(90, dtype=bool) if touched is None else np.asarray(touched, dtype=bool)
    names = tuple(square_name(sq) for sq in found.squares)
    seen_fen = placement_seen(position, found)
    if as_set_up:
        given = "the standard start" if from_standard_start else "the position given with --fen"
        text = (f"before the first move the board as set up differs from {given} on {len(names)} point(s) "
                f"({', '.join(names)}): check the set-up (art. 1.3) and "
                + ("that the game starts there (record --fen for another position)" if from_standard_start
                   else "that position"))
        return [BoardDisturbed(t, "unexplained", names, "1.3", text, ply, placement_read(position, scorer))]
    physical = best_physical_move(position, scorer, touched)
    if physical is not None:
        src, dst, gain, bad = physical
        occupancy = changes(position, scorer, confident_p, substitutions=False)  # a misread kind is no move
        if (gain >= margin and bad <= max_bad and not set(occupancy.squares) - {src, dst}
                and not other_side_there(position.board[src], dst, scorer, confident_p)):
            alert = move_alert(position, src, dst, position.board[src], t, ply)
            if alert is not None:
                return [alert]
    if len(found.vacated) == 1 and len(found.appeared) == 1:
        src, dst = found.vacated[0], found.appeared[0]
        piece = position.board[src]
        if (near[src] and near[dst] and move_pairs(position.board, found)
                and not other_side_there(piece, dst, scorer, confident_p)):
            alert = move_alert(position, src, dst, piece, t, ply)
            if alert is not None:
                return [alert]
    if found.vacated and not found.appeared:
        pieces = ", ".join(f"the {piece_name(position.board[sq])} on {square_name(sq)}" for sq in found.vacated)
        text = (f"{pieces} is missing or lies off its point; the board must be put right (art. 5.9)")
        return [BoardDisturbed(t, "board_disturbed", names, "5.9", text, ply, seen_fen)]
    if found.appeared and not found.vacated and all(position.board[sq] == "." for sq in found.appeared):
        pieces = ", ".join(f"a {piece_name(found.seen[sq])} on {square_name(sq)}" for sq in found.appeared)
        text = f"{pieces} appeared where no piece should stand; the board must be put right (art. 5.9)"
        return [BoardDisturbed(t, "board_disturbed", names, "5.9", text, ply, seen_fen)]
    text = (f"the board ({len(found.squares)} points differ from the record: {', '.join(names)}) matches no legal "
            "continuation; moves are not recorded until it matches again (art. 5.8)")
    if ply == 0 and len(found.squares) >= FAR_FROM_START:
        text += ("; before the first move this board is far from the standard start: a game from another "
                 "position needs it given (record --fen)" if from_standard_start else
                 "; before the first move this board is far from the position given with --fen: check that position")
    return [BoardDisturbed(t, "unexplained", names, "5.8", text, ply, placement_read(position, scorer))]


def other_side_there(piece: str, square: int, scorer: Scorer, confident_p: float) -> bool:
    """Does ``square`` read surely as the other side's colour, so ``piece`` cannot have gone there?

    A piece's colour is read far more surely than its character: a red chariot lifted in a hand
    does not stand on a point that shows a black disc, whatever character the disc reads as.
    """
    return scorer.shows_side(square, side_of(piece) != RED, confident_p)


# moves that leave a general to be taken: 自杀 (art. 3.4), which loses the game once made (4.1.3)
SELF_KILL = frozenset({"flying_general", "self_check", "ignores_check"})


def move_alert(position: Position, src: int, dst: int, piece: str, t: float, ply: int) -> IllegalMoveAlert | None:
    """The alert for a physical move ``src``-``dst`` of ``piece`` that is not legal in ``position``
    (``None`` when it is legal)."""
    squares = (square_name(src), square_name(dst))
    iccs = squares[0] + squares[1]
    violation = position.violation(src, dst)
    if violation is None:
        return None  # a legal move the scores did not accept (too uncertain): say nothing yet
    name = piece_name(piece)
    if violation.code == "wrong_side":
        mover = side_of(piece)
        also = position.with_side_to_move(mover).violation(src, dst)
        extra = f"; the move is also illegal: {also.text}" if also is not None else ""
        text = (f"{mover} moved the {name} {iccs} but it is {opponent(mover)}'s turn (art. {violation.article})"
                f"{extra}")
        return IllegalMoveAlert(t, "wrong_side", squares, violation.article, text, ply, piece,
                                also.code if also is not None else "wrong_side", iccs)
    text = f"illegal move of the {name} {iccs}: {violation.text} (art. {violation.article})"
    if violation.code in SELF_KILL:
        text += ("; this is 自杀 (art. 3.4): made and let go, it loses the game in any event (art. 4.1.3), "
                 "not only as an illegal move (art. 4.1.8, 8.1.8)")
    else:  # what the arbiter does about it (an arbiter tester: the alert said the rule, not the remedy)
        text += (f"; at a provincial or lower event or a national junior one a foul (art. 8.1.8): the position "
                 f"is put back and the {name}, touched, must be moved if it can (art. 5.8.3, 5.1); at other "
                 "national events a loss (art. 4.1.8)")
    return IllegalMoveAlert(t, "illegal_move", squares, violation.article, text, ply, piece, violation.code, iccs)
