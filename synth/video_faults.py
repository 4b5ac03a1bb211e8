"""Choosing the physical faults a game video can show: illegal moves, wrong-side moves, knocked pieces.

Pure logic on :class:`rules.Position`; every choice is drawn from a seeded generator so
the same seed gives the same video.
"""

from __future__ import annotations

import math
import random

from rules import Move, Position
from rules.squares import file_of, rank_of, side_of, square

INJECTION_KINDS = (
    "illegal",
    "wrong_side",
    "knock",
    "restore",
    "press_no_move",
    "no_press",
    "quick_pair",
)
"""What ``--inject`` accepts:

- ``illegal``: the mover makes an illegal move with the piece of the real move, lets go
  without pressing the clock, sees the error, puts the piece back and plays the real move.
- ``wrong_side``: the side not to move makes a move, then takes it back; the real move follows.
- ``knock``: the moving hand knocks a neighbouring piece off its point; after the still view the
  mover puts it back (art. 5.9).
- ``restore``: an illegal move completed with a clock press; the arbiter's hand restores the
  position and presses the clock back (art. 5.8.3); the mover then plays the real move
  with the same (touched) piece.
- ``press_no_move``: the mover presses the clock without moving (art. 8.1.7); the opponent
  presses it back; then the real move.
- ``no_press``: the mover moves and never presses; the opponent's press that follows finds
  the mover's time still running.
- ``quick_pair``: this move and the next are made without a still view between them.
"""

_PLAUSIBLE = ("self_check", "ignores_check", "flying_general", "leg_blocked", "eye_blocked",
              "no_screen", "screen_without_capture", "two_screens", "path_blocked", "leaves_palace",
              "crosses_river", "soldier_sideways", "soldier_back")


def illegal_destination(position: Position, move: Move, rng: random.Random) -> tuple[int, str, str]:
    """An illegal destination for the piece of ``move``: (square, violation code, sentence).

    Prefers plausible mistakes (a blocked horse or elephant, a screenless cannon capture,
    leaving the general in check) on empty points near the piece; raises ``ValueError``
    when the piece has no illegal target within reach.
    """
    src = move.from_square
    f0, r0 = file_of(src), rank_of(src)
    candidates: list[tuple[int, int, str, str]] = []
    for f in range(9):
        for r in range(10):
            dst = square(f, r)
            if dst == src or max(abs(f - f0), abs(r - r0)) > 3:
                continue
            target = position.piece_at(dst)
            if target is not None and side_of(target) == position.side_to_move:
                continue
            found = position.violation(src, dst)
            if found is None:
                continue
            # plausible mistakes first, then empty targets, then the shortest slips
            rank = (0 if found.code in _PLAUSIBLE else 4) + (0 if target is None else 2)
            rank = rank * 10 + max(abs(f - f0), abs(r - r0))
            candidates.append((rank, dst, found.code, found.text))
    if not candidates:
        raise ValueError(f"no illegal destination for {move.iccs} in {position.fen()}")
    best = min(c[0] for c in candidates)
    pool = sorted(c for c in candidates if c[0] // 10 == best // 10 and c[0] <= best + 1)
    _, dst, code, text = pool[rng.randrange(len(pool))]
    return dst, code, text


def wrong_side_move(position: Position, rng: random.Random) -> Move:
    """A move the side *not* to move could make (legal for it), preferring quiet moves."""
    other = position.with_side_to_move("black" if position.side_to_move == "red" else "red")
    moves = other.legal_moves()
    if not moves:
        raise ValueError(f"the side not to move has no move in {position.fen()}")
    quiet = [m for m in moves if not other.is_capture(m)]
    pool = sorted(quiet or moves, key=lambda m: m.iccs)
    return pool[rng.randrange(len(pool))]


def _free_spot(board: str, sq: int, offset: tuple[float, float]) -> bool:
    """Is the spot at ``sq`` + ``offset`` at least 0.9 spacings from every other piece's point?"""
    x, y = file_of(sq) + offset[0], rank_of(sq) + offset[1]
    if not (-0.45 <= x <= 8.45 and -0.45 <= y <= 9.45):
        return False
    for other in range(90):
        if other == sq or board[other] == ".":
            continue
        if math.hypot(file_of(other) - x, rank_of(other) - y) < 0.9:
            return False
    return True


def neighbours(board: str, near: list[int], exclude: set[int]) -> list[int]:
    """Occupied points within 1.5 spacings of any square in ``near`` (not in ``exclude``)."""
    found = set()
    for sq in range(90):
        if board[sq] == "." or sq in exclude:
            continue
        if any(math.hypot(file_of(sq) - file_of(n), rank_of(sq) - rank_of(n)) <= 1.5 for n in near):
            found.add(sq)
    return sorted(found)


def knock_target(board: str, near: list[int], exclude: set[int],
                 rng: random.Random) -> tuple[int, tuple[float, float]] | None:
    """A neighbour of ``near`` to knock off its point and where it lands (offset 0.35-0.55 spacings).

    ``board`` is the board after the move. Returns ``None`` when no neighbour has room.
    """
    options = neighbours(board, near, exclude)
    rng.shuffle(options)
    for sq in options:
        for _ in range(12):
            angle = rng.uniform(0, 2 * math.pi)
            size = rng.uniform(0.35, 0.55)
            offset = (size * math.cos(angle), size * math.sin(angle))
            if _free_spot(board, sq, offset):
                return sq, offset
    return None


NUDGE_MAX = 0.2  # spacings: a nudged piece, however often nudged, stays this near its point (still on it)


def nudge_target(board: str, near: list[int], exclude: set[int],
                 rng: random.Random) -> tuple[int, tuple[float, float]] | None:
    """A neighbour to nudge a little off-centre (0.08-0.2 spacings; it stays on its point)."""
    options = neighbours(board, near, exclude)
    if not options:
        return None
    sq = options[rng.randrange(len(options))]
    angle = rng.uniform(0, 2 * math.pi)
    size = rng.uniform(0.08, NUDGE_MAX)
    return sq, (size * math.cos(angle), size * math.sin(angle))
