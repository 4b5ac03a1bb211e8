"""Board geometry: square numbering, piece letters and the precomputed step tables.

A square is an ``int`` ``rank * 9 + file``: files 0-8 are ICCS ``a``-``i`` from red's
left, ranks 0-9 count from red's back rank. Pieces are FEN letters, red upper case.
"""

from __future__ import annotations

FILES = 9
RANKS = 10
SQUARES = FILES * RANKS
FILE_NAMES = "abcdefghi"
EMPTY = "."

RED = "red"
BLACK = "black"
SIDES = (RED, BLACK)

PIECE_NAMES = {
    "K": "general",
    "A": "advisor",
    "B": "elephant",
    "N": "horse",
    "R": "chariot",
    "C": "cannon",
    "P": "soldier",
}
RED_PIECES = frozenset("KABNRCP")
BLACK_PIECES = frozenset("kabnrcp")
PIECE_LIMITS = {"K": 1, "A": 2, "B": 2, "N": 2, "R": 2, "C": 2, "P": 5}


def square(file: int, rank: int) -> int:
    """The square at ``file`` (0-8) and ``rank`` (0-9)."""
    return rank * FILES + file


def file_of(sq: int) -> int:
    return sq % FILES


def rank_of(sq: int) -> int:
    return sq // FILES


def square_name(sq: int) -> str:
    """ICCS name of a square, e.g. ``h2``."""
    return f"{FILE_NAMES[sq % FILES]}{sq // FILES}"


def parse_square(name: str) -> int:
    """The square named in ICCS (``h2``); raises ``ValueError`` for anything else."""
    text = name.strip().lower()
    if len(text) != 2 or text[0] not in FILE_NAMES or not text[1].isdigit():
        raise ValueError(f"not a square name: {name!r}")
    return square(FILE_NAMES.index(text[0]), int(text[1]))


def side_of(piece: str) -> str:
    return RED if piece.isupper() else BLACK


def opponent(side: str) -> str:
    return BLACK if side == RED else RED


def piece_name(piece: str) -> str:
    """English name of a piece letter with its side, e.g. ``red horse``."""
    return f"{side_of(piece)} {PIECE_NAMES[piece.upper()]}"


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < FILES and 0 <= rank < RANKS


def in_palace(sq: int, side: str) -> bool:
    f, r = file_of(sq), rank_of(sq)
    return 3 <= f <= 5 and (r <= 2 if side == RED else r >= 7)


def own_half(sq: int, side: str) -> bool:
    """True while ``sq`` lies on ``side``'s own side of the river."""
    return rank_of(sq) <= 4 if side == RED else rank_of(sq) >= 5


ADVISOR_POINTS = {
    RED: frozenset(square(f, r) for f, r in ((3, 0), (5, 0), (4, 1), (3, 2), (5, 2))),
    BLACK: frozenset(square(f, r) for f, r in ((3, 9), (5, 9), (4, 8), (3, 7), (5, 7))),
}
ELEPHANT_POINTS = {
    RED: frozenset(square(f, r) for f, r in ((2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4))),
    BLACK: frozenset(square(f, r) for f, r in ((2, 9), (6, 9), (0, 7), (4, 7), (8, 7), (2, 5), (6, 5))),
}


def standing_problem(piece: str, sq: int) -> str | None:
    """Why ``piece`` can never stand on ``sq`` in a game (``None`` when it can).

    Generals keep to their palace, advisors to its five points, elephants to their seven points on
    their own side; a soldier never steps back or sideways before the river, so there it stands
    only on its five start files and never behind its start rank.
    """
    side, kind = side_of(piece), piece.upper()
    if kind == "K" and not in_palace(sq, side):
        return "is outside its palace"
    if kind == "A" and sq not in ADVISOR_POINTS[side]:
        return "is off the advisor's points"
    if kind == "B" and sq not in ELEPHANT_POINTS[side]:
        return "is off the elephant's points"
    if kind == "P" and own_half(sq, side):
        if (rank_of(sq) < 3) if side == RED else (rank_of(sq) > 6):
            return "stands behind its start (it cannot get there)"
        if file_of(sq) % 2 == 1:
            return "is off the soldiers' files before the river (it cannot get there)"
    return None


def _build_tables() -> tuple[
    list[tuple[int, ...]],
    list[tuple[int, ...]],
    list[tuple[tuple[int, int], ...]],
    list[tuple[tuple[int, int], ...]],
    list[tuple[tuple[int, int], ...]],
    list[tuple[tuple[int, ...], ...]],
]:
    king: list[tuple[int, ...]] = []
    advisor: list[tuple[int, ...]] = []
    elephant: list[tuple[tuple[int, int], ...]] = []
    horse: list[tuple[tuple[int, int], ...]] = []
    rays: list[tuple[tuple[int, ...], ...]] = []
    for sq in range(SQUARES):
        f, r = file_of(sq), rank_of(sq)
        side = RED if r <= 4 else BLACK
        king.append(tuple(
            square(f + df, r + dr)
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if _on_board(f + df, r + dr) and in_palace(square(f + df, r + dr), side)
        ))
        advisor.append(tuple(
            square(f + df, r + dr)
            for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1))
            if _on_board(f + df, r + dr) and in_palace(square(f + df, r + dr), side)
        ))
        elephant.append(tuple(
            (square(f + df, r + dr), square(f + df // 2, r + dr // 2))
            for df, dr in ((2, 2), (2, -2), (-2, 2), (-2, -2))
            if _on_board(f + df, r + dr) and own_half(square(f + df, r + dr), side)
        ))
        steps = []
        for df, dr in ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)):
            if not _on_board(f + df, r + dr):
                continue
            leg = square(f, r + dr // 2) if abs(dr) == 2 else square(f + df // 2, r)
            steps.append((square(f + df, r + dr), leg))
        horse.append(tuple(steps))
        sq_rays = []
        for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            ray = []
            ff, rr = f + df, r + dr
            while _on_board(ff, rr):
                ray.append(square(ff, rr))
                ff, rr = ff + df, rr + dr
            sq_rays.append(tuple(ray))
        rays.append(tuple(sq_rays))
    attackers: list[list[tuple[int, int]]] = [[] for _ in range(SQUARES)]
    for sq in range(SQUARES):
        for to, leg in horse[sq]:
            attackers[to].append((sq, leg))
    return king, advisor, elephant, horse, [tuple(a) for a in attackers], rays


KING_STEPS, ADVISOR_STEPS, ELEPHANT_STEPS, HORSE_STEPS, HORSE_ATTACKERS, RAYS = _build_tables()
"""Per square: palace steps, advisor steps, (to, eye) elephant steps that stay on the
same side of the river, (to, leg) horse steps, (horse square, leg) pairs from which a
horse attacks the square, and the four rays (up, down, right, left)."""


def _soldier_steps(side: str) -> list[tuple[int, ...]]:
    table = []
    forward = 1 if side == RED else -1
    for sq in range(SQUARES):
        f, r = file_of(sq), rank_of(sq)
        steps = []
        if _on_board(f, r + forward):
            steps.append(square(f, r + forward))
        if not own_half(sq, side):
            steps += [square(f + d, r) for d in (-1, 1) if _on_board(f + d, r)]
        table.append(tuple(steps))
    return table


SOLDIER_STEPS = {RED: _soldier_steps(RED), BLACK: _soldier_steps(BLACK)}
