"""What a move does, in the terms of the 棋例 (art. 24): 将 check, 杀 mate threat, 捉 chase, 闲 idle.

The repetition verdicts (art. 25/26) rest on this classification of every move of a cycle.
Each move gets one kind, the heaviest of its effects (art. 26.4): check, then mate threat,
then chase, then idle. The chases it makes are listed with their target.

What is implemented, and where the rule texts were simplified (documented per function):

* 将 (24.1): the move leaves the opponent's general attacked.
* 杀 (24.2): after the move, were the opponent to pass, the mover would mate by a move that
  checks, or by consecutive checks within ``mate_depth`` of its own moves (default 2).
* 捉 (24.3; 1999 art. 29): after the move the mover could, by a legal capture, win material
  that it could not win before the move (29.2 and the 1999 细则 2 and 6: a chase must be new).
  Material is counted through the whole exchange on the target's point (完整互吃交换, 24.3), so a
  protected piece (有根子) is not chased unless the exchange still wins (a chariot taken by a
  horse or cannon, 少根子 with fewer protectors than attackers). A protector that cannot legally
  recapture (pinned to its general) or whose recapture would let the chaser mate at once is a
  false root (假根, 24.16) and does not count. A capture after which the capturer is mated at once
  is no chase (24.3; 1999 细则 7). Each chase says why the target is lost (``Chase.reason``), so
  26.9.1 can tell the grave chases (of a chariot, or of an unprotected piece or one on a false
  root) from the others (a short-protected piece, 少根子). Not implemented: winning material through a series of checks
  (抽将) and the joint chase by pieces on different points (联合捉子 beyond one exchange point).
* Chases by the general or a soldier itself are allowed (26.1) and count as idle, unless the
  soldier's capture would give check by another piece (26.8), and never hide another piece's chase
  of the same target; a general's
  move that answers check and so creates a chase or threat is idle (26.1.2). A soldier that has
  not crossed the river, or one that has just crossed, is not a piece to be chased (26.7).
* The idle notions 兑 (exchange offer, 24.4 and 26.10), 献 (offer, 24.5) and 跟 (follow, 24.7)
  are recognised as notes on idle moves; 拦 (block, 24.6) is not told apart from other idle moves.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from rules.move import Move
from rules.position import Position
from rules.squares import BLACK, RED, own_half, piece_name, side_of, square_name

logger = logging.getLogger(__name__)

#: Exchange values (art. 1.2 and 26.6): a chariot is worth two strong pieces, a horse equals a
#: cannon, and one strong piece outweighs all four weak ones (advisors, elephants). A soldier
#: across the river floats (26.7); its value here only orders exchanges, see ``_is_gain``.
VALUES = {"R": 40, "N": 20, "C": 20, "A": 4, "B": 4, "P": 3, "K": 1000}

#: Why a piece that is taken for nothing is chased (``Chase.reason``): no protector at all; protectors
#: that cannot legally recapture, or would be mated for it (假根, 24.16: counted as unprotected);
#: protectors outnumbered by the attackers, so recapturing loses more (少根子, 24.15).
UNPROTECTED = "unprotected"
FALSE_ROOT = "false root: its protector cannot recapture (假根)"
SHORT_ROOT = "short of protectors (少根子)"


class MoveKind(Enum):
    """The kind of a move in the 棋例, heaviest first (art. 26.4)."""

    CHECK = "check"
    MATE_THREAT = "mate_threat"
    CHASE = "chase"
    IDLE = "idle"

    @property
    def chinese(self) -> str:
        return {"check": "将", "mate_threat": "杀", "chase": "捉", "idle": "闲"}[self.value]


@dataclass(frozen=True, slots=True)
class Chase:
    """One piece chased (捉): ``attacker`` could take ``target`` next move and win material."""

    attacker: int
    target: int
    attacker_piece: str
    target_piece: str
    reason: str

    @property
    def grave(self) -> bool:
        """Is this a chase 26.9.1 lists (捉车, 捉无根子): of a chariot, or of a piece with no real
        protector (none, or a false root, 24.16)? A short-protected piece (少根子, 24.15) or a
        protected one won in the exchange is chased too, but not gravely."""
        return self.target_piece.upper() == "R" or self.reason in (UNPROTECTED, FALSE_ROOT)

    def describe(self) -> str:
        """E.g. ``"horse c7 chases chariot d9 (unprotected)"``."""
        return (f"{piece_name(self.attacker_piece)} {square_name(self.attacker)} chases "
                f"{piece_name(self.target_piece)} {square_name(self.target)} ({self.reason})")


@dataclass(frozen=True, slots=True)
class MoveClass:
    """The classification of one move: its kind, the new chases it makes, and notes for arbiters."""

    ply: int
    move: Move
    side: str
    kind: MoveKind
    chases: tuple[Chase, ...] = ()
    notes: tuple[str, ...] = ()

    def describe(self) -> str:
        """One line: ``"ply 12 red h2h9: 捉 chase (horse ...)"``."""
        extra = [c.describe() for c in self.chases] + list(self.notes)
        tail = f" ({'; '.join(extra)})" if extra else ""
        return f"ply {self.ply} {self.side} {self.move.iccs}: {self.kind.chinese} {self.kind.value}{tail}"


def classify_move(before: Position, move: Move, ply: int = 0, previous: Move | None = None,
                  mate_depth: int = 2) -> MoveClass:
    """Classify ``move`` played in ``before``; ``previous`` is the opponent's move just before it.

    ``previous`` lets a soldier that has just crossed the river be left out of the chased
    pieces (26.7). ``ply`` is only carried into the result.
    """
    side = before.side_to_move
    after = before.play(move)
    if after.in_check():
        return MoveClass(ply, move, side, MoveKind.CHECK)
    notes: list[str] = []
    moved = after.board[move.to_square]
    general_evasion = before.in_check() and moved.upper() == "K"
    attacker_view = after.with_side_to_move(side)
    if mates_by_checks(attacker_view, mate_depth):
        if general_evasion:
            notes.append("general answering check: its threat counts as idle (26.1.2)")
        else:
            return MoveClass(ply, move, side, MoveKind.MATE_THREAT)
    fresh = _fresh_soldier(before, previous)
    earlier = chases(before, fresh, include_general_and_soldier=True)
    had = {c.target for c in earlier}
    had_real = {c.target for c in earlier if _counts(before, c)}  # a soldier's allowed chase may turn real
    new: list[Chase] = []
    allowed: list[Chase] = []
    for chase in chases(attacker_view, fresh, include_general_and_soldier=True):
        real = _counts(attacker_view, chase)
        if chase.target in (had_real if real else had):
            continue
        (new if real else allowed).append(chase)
    for chase in allowed:
        notes.append(f"{chase.describe()}: the {piece_name(chase.attacker_piece)} may chase (26.1)")
    described = {c.target for c in allowed} | {c.target for c in new}
    if new and general_evasion:
        notes.append("general answering check: its chase counts as idle (26.1.2)")
        notes.extend(c.describe() for c in new)
        new = []
    if new:
        return MoveClass(ply, move, side, MoveKind.CHASE, tuple(new), tuple(notes))
    notes.extend(_idle_notes(before, after, move, described | had))
    return MoveClass(ply, move, side, MoveKind.IDLE, (), tuple(notes))


def chases(position: Position, fresh_soldier: int | None = None,
           include_general_and_soldier: bool = False) -> list[Chase]:
    """Every opponent piece the side to move could take next move with a real gain (24.3).

    Targets that are not 'pieces' in the sense of 26.7 are skipped: the general, a soldier on
    its own side of the river, and ``fresh_soldier`` (the square of one that has just crossed).
    Captures by the general or a soldier are left out unless ``include_general_and_soldier``.
    """
    board = position.board
    found: dict[int, Chase] = {}
    for move in position.legal_moves():
        target = board[move.to_square]
        if target == "." or target.upper() == "K":
            continue
        if move.to_square in found and found[move.to_square].attacker_piece.upper() not in "KP":
            continue  # a general's or soldier's chase gives way to another piece's on the same target
        if target.upper() == "P" and (own_half(move.to_square, side_of(target))
                                      or move.to_square == fresh_soldier):
            continue
        attacker = board[move.from_square]
        if attacker.upper() in "KP" and not include_general_and_soldier:
            continue
        reason = _capture_gain(position, move)
        if reason:
            found[move.to_square] = Chase(move.from_square, move.to_square, attacker, target, reason)
    return sorted(found.values(), key=lambda c: c.target)


def _counts(position: Position, chase: Chase) -> bool:
    """Is this a chase the 棋例 count: not the general's or a soldier's own (26.1), unless the
    soldier's capture would give check by another piece (26.8)?"""
    return chase.attacker_piece.upper() not in "KP" or _uncovers_check(position, chase)


def _uncovers_check(position: Position, chase: Chase) -> bool:
    """Would the soldier's capture give check by another piece? Then it is a chase (26.8: "兵(卒)吃子时
    产生其他子'将军'，按'捉'处理"); a general's capture never is (26.1)."""
    if chase.attacker_piece.upper() != "P":
        return False
    after = position.play(Move(chase.attacker, chase.target))
    if not after.in_check():
        return False
    defender = after.side_to_move
    general = after.general_square(defender)
    mover = RED if defender == BLACK else BLACK
    return any(square != chase.target for square in after.attackers(general, mover))


def mates_by_checks(position: Position, depth: int) -> bool:
    """Can the side to move mate by checking on every move within ``depth`` of its moves?"""
    if depth <= 0:
        return False
    for move in position.legal_moves():
        if position.piece_at(move.to_square) in ("k", "K"):
            continue
        after = position.play(move)
        if not after.in_check():
            continue
        replies = after.legal_moves()
        if not replies:
            return True
        if depth > 1 and all(mates_by_checks(after.play(r), depth - 1) for r in replies):
            return True
    return False


@lru_cache(maxsize=8192)
def mate_in_one(position: Position) -> bool:
    """Does the side to move have a move that checkmates? (Remembered per position: the exchange
    search asks it of the same positions along every order of the captures.)"""
    for move in position.legal_moves():
        after = position.play(move)
        if after.in_check() and not after.legal_moves():
            return True
    return False


def _capture_gain(position: Position, move: Move) -> str | None:
    """Why taking with ``move`` wins material (a short reason), or ``None`` when it does not."""
    board = position.board
    target, attacker = board[move.to_square], board[move.from_square]
    after = position.play(move)
    if mate_in_one(after):
        return None  # the capturer would be mated at once (24.3; 1999 细则 7)
    lost: list[str] = []
    captured = [target]
    _defend(after, move.to_square, captured, lost, depth=8)
    if not _is_gain(captured, lost):
        return None
    if not lost:
        if not _has_protector(after, move.to_square):
            return UNPROTECTED
        return SHORT_ROOT if _can_recapture(after, move.to_square) else FALSE_ROOT
    if target.upper() == "R" and attacker.upper() != "R":
        return f"chariot attacked by a {piece_name(attacker)}"
    return "wins material in the exchange"


def _defend(position: Position, point: int, gained: list[str], lost: list[str], depth: int) -> None:
    """Extend the exchange on ``point`` with the best choices (side to move = the defender).

    Minimax over legal recaptures on the point; either side may stop. Appends the pieces the
    chaser wins to ``gained`` and loses to ``lost`` along the best line.
    """
    more_gained, more_lost = _exchange(position, point, depth, defending=True)
    gained.extend(more_gained)
    lost.extend(more_lost)


def _attack(position: Position, point: int, gained: list[str], lost: list[str], depth: int) -> None:
    """The chaser's turn in the exchange: recapture on ``point`` or stop, whichever is better."""
    more_gained, more_lost = _exchange(position, point, depth, defending=False)
    gained.extend(more_gained)
    lost.extend(more_lost)


@lru_cache(maxsize=8192)
def _exchange(position: Position, point: int, depth: int, defending: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The chaser's gains and losses along the best line of the exchange on ``point`` from here
    (remembered: the same positions come up along every order of the captures)."""
    best: tuple[int, tuple[str, ...], tuple[str, ...]] = (0, (), ())  # net for the side to move, gains, losses
    if depth > 0:
        taken = position.board[point]
        for reply in position.legal_moves():
            if reply.to_square != point:
                continue
            again = position.play(reply)
            if mate_in_one(again):
                continue  # a false root: recapturing lets the other side mate (24.16)
            later_gained, later_lost = _exchange(again, point, depth - 1, not defending)
            if defending:
                more_gained, more_lost = later_gained, (taken, *later_lost)
                net = _value(list(more_lost)) - _value(list(more_gained))
            else:
                more_gained, more_lost = (taken, *later_gained), later_lost
                net = _value(list(more_gained)) - _value(list(more_lost))
            if net > best[0]:
                best = (net, more_gained, more_lost)
    return best[1], best[2]


def _value(pieces: list[str]) -> int:
    return sum(VALUES[p.upper()] for p in pieces)


def _is_gain(gained: list[str], lost: list[str]) -> bool:
    """Does winning ``gained`` for ``lost`` count as gaining material (26.6, 26.7)?

    Free material is a gain. Otherwise soldiers count for nothing either way (26.7: soldiers
    traded for other pieces are no gain), except that giving soldiers for a chariot is (26.7),
    and the strong/weak values of ``VALUES`` decide the rest (26.6).
    """
    if not gained:
        return False
    if not lost:
        return True
    kept_gained = [p for p in gained if p.upper() != "P"]
    kept_lost = [p for p in lost if p.upper() != "P"]
    if len(kept_lost) < len(lost) and not any(p.upper() == "R" for p in gained):
        return False
    return _value(kept_gained) > _value(kept_lost)


def _can_recapture(position: Position, point: int) -> bool:
    """Has the side to move a legal recapture on ``point`` that does not let the chaser mate at once?
    Without one its protectors are false roots (24.16); with one, declining it says they are too few."""
    return any(reply.to_square == point and not mate_in_one(position.play(reply))
               for reply in position.legal_moves())


def _has_protector(position: Position, point: int) -> bool:
    """Is anything of the side to move aimed at ``point`` (pseudo-legally)? Tells 假根 from no root."""
    return bool(position.attackers(point, position.side_to_move))


def _fresh_soldier(before: Position, previous: Move | None) -> int | None:
    """The square of an opponent soldier that ``previous`` has just brought across the river."""
    if previous is None:
        return None
    piece = before.board[previous.to_square]
    if piece.upper() != "P":
        return None
    side = side_of(piece)
    if own_half(previous.from_square, side) and not own_half(previous.to_square, side):
        return previous.to_square
    return None


def _idle_notes(before: Position, after: Position, move: Move, described: set[int]) -> list[str]:
    """Name the idle notions the move fits: 兑 exchange offer, 献 offer, 跟 follow (24.4-24.7).

    ``described`` are target squares already named in another note.
    """
    notes: list[str] = []
    side = before.side_to_move
    moved = after.board[move.to_square]
    view = after.with_side_to_move(side)
    for target_move in view.legal_moves():
        target = after.board[target_move.to_square]
        if (target_move.from_square != move.to_square or target == "." or target.upper() == "K"
                or target_move.to_square in described):
            continue
        where = square_name(target_move.to_square)
        if target.upper() == moved.upper():
            notes.append(f"offers to exchange (兑) the {piece_name(moved)} for the {piece_name(target)} on {where}")
        else:
            notes.append(f"follows (跟) the {piece_name(target)} on {where}, no gain in taking it")
    if any(m.to_square == move.to_square for m in after.legal_moves()):
        notes.append(f"offers (献) the {piece_name(moved)} on {square_name(move.to_square)}")
    return notes
