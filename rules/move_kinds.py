"""What a move does, in the terms of the 棋例 (art. 24): 将 check, 杀 mate threat, 捉 chase, 闲 idle.

The repetition verdicts (art. 25/26) rest on this classification of every move of a cycle.
Each move gets one kind, the heaviest of its effects (art. 26.4): check, then mate threat,
then chase, then idle. The chases it makes are listed with their target.

What is implemented, and where the rule texts were simplified (documented per function):

* 将 (24.1): the move leaves the opponent's general attacked.
* 杀 (24.2): after the move, were the opponent to pass, the mover would mate by a move that
  checks, or by consecutive checks within ``mate_depth`` of its own moves (default 3: the text
  sets no limit; a reviewer's 长杀 needed three checks, which two missed, calling a forbidden cycle a
  draw. Three changed no final verdict of the shared games; over 3 367 of their positions the search
  took 0.9 ms on average (two checks 0.6 ms), over 400 random positions of six attacking pieces 2.7 ms,
  at most 35 ms).
* 捉 (24.3; 1999 art. 29): after the move the mover could, by a legal capture, win material
  that it could not win before the move (29.2 and the 1999 细则 2 and 6: a chase must be new).
  Material is counted through the whole exchange on the target's point (完整互吃交换, 24.3), so a
  protected piece (有根子) is not chased unless the exchange still wins (a chariot taken by a
  horse or cannon, 少根子 with fewer protectors than attackers). A protector that cannot legally
  recapture (pinned to its general) or whose recapture would let the chaser mate at once is a
  false root (假根, 24.16) and does not count. A capture after which the capturer is mated at once
  is no chase (24.3; 1999 细则 7). A capture by a piece that is another's only root, or pinned in
  front of one (做根子, 被牵子), is no chase when the defender, instead of recapturing, takes what it
  left exposed and the whole is a loss (26.5 得不偿失; only captures that gain now and did not
  before count). Each chase says why the target is lost (``Chase.reason``), so
  26.9.1 can tell the grave chases (of a chariot, or of an unprotected piece or one on a false
  root) from the others (a short-protected piece, 少根子).
* 抽将 and 连续将军 (24.3 "从下一着开始运用将军或连续“将军”得子"): a piece won by checking first is
  chased too (:func:`chases_by_check`): one check, quiet or capturing, or a series of up to
  :data:`CHECK_SERIES_MAX` checks, after every legal answer to which (capturing the checker and
  interposing included, their captures counted as lost) a capture by a piece other than the general
  or a soldier (26.8 "兵借其他子抽吃对方的子，按闲处理", 26.1) wins the target under the same exchange
  and protection rules as a direct chase (24.3 完整互吃交换, 24.15, 24.16), and the whole line still
  gains (26.6, 26.7); or another check does so in turn (a different one for each answer if need
  be), or mates. The target and taker are named by their squares after the move classified. It
  must be new (29.2): not a piece the mover could win directly, or by checking first, before the
  move; a direct chase of a piece that could only be won through a check before stays new (a
  direct attack is a new threat; direct verdicts are as without 抽将).
* 联合捉子 (24.17, a joint chase): a direct chase names the chaser's other pieces without any one of
  which the capture would not win (``Chase.partners``): a cannon's own screen, a second attacker
  that makes taking a protected piece pay. A chase won by checking first names none.
* Chases by the general or a soldier itself are allowed (26.1) and count as idle, unless the
  soldier's capture would give check by another piece (26.8), and never hide another piece's chase
  of the same target; a general's
  move that answers check and so creates a chase or threat is idle (26.1.2). Another piece's
  answer to a check is charged only with what it makes new (26.1.2 "新的"): not with a chase or
  mate threat that stood before the check, or that the checking piece's leaving its post opened
  (26.3 自毙, "做为根的子，自己离线断根将军...责由自负"), nor with winning by a check the checker
  itself, left hanging where it landed. A soldier that has
  not crossed the river, or one that has just crossed, is not a piece to be chased (26.7).
* 守和要点 (26.2): a chase of an advisor or elephant by a side with one attacking piece left stays a
  chase, with a note for the arbiter, who judges whether it stands on a key point for the draw
  (then it is idle).
* The idle notions 兑 (exchange offer, 24.4 and 26.10), 献 (offer, 24.5) and 跟 (follow, 24.7)
  are recognised as notes on idle moves; 拦 (block, 24.6) is not told apart from other idle moves.
  An exchange offer that also wins the target if it is not taken up (a chariot backed by another
  lining up with a loose chariot) is a chase: 兑兼捉按捉 (26.4; the 1999 细则 5 says the same), and
  26.10 leaves idle only the offers that win nothing; the chase's notes say it is an offer too.
  A horse (cannon) offered to a horse (cannon) with a chariot of the mover's in contact too is an
  exchange offer when the target has a root and taking the offer is horse for horse and no more
  (26.11.2, 车马同时与马); without a root it is a chase (26.11.1).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass, replace
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
    check: Move | None = None  # the check played first when the piece is won by checking (抽将), else None
    checks: int = 1  # with ``check``: the most checks in a row (连续将军) any defence needs before the capture
    # the chaser's other pieces without any one of which the capture would not win (联合捉子, 24.17):
    # a cannon's own screen, a second attacker that makes taking a protected piece pay
    partners: tuple[int, ...] = ()

    @property
    def joint(self) -> bool:
        """Is this a joint chase (联合捉子, 24.17): does it take two or more of the chaser's pieces?"""
        return bool(self.partners)

    @property
    def grave(self) -> bool:
        """Is this a chase 26.9.1 lists (捉车, 捉无根子): of a chariot, or of a piece with no real
        protector (none, or a false root, 24.16)? A short-protected piece (少根子, 24.15) or a
        protected one won in the exchange is chased too, but not gravely."""
        return self.target_piece.upper() == "R" or self.reason in (UNPROTECTED, FALSE_ROOT)

    def describe(self) -> str:
        """E.g. ``"horse c7 chases chariot d9 (unprotected)"``, or for a piece won by checking first
        ``"horse c7 chases chariot d9 (after the check b2b9, 抽将: unprotected)"``, or after a series of checks
        ``"... (after 2 checks from b2b9, 连续将军 抽将: unprotected)"``."""
        if self.check is None:
            why = self.reason
            if self.partners:
                why += ", jointly with " + " and ".join(square_name(sq) for sq in self.partners) + " (联合捉子)"
        elif self.checks > 1:
            why = f"after {self.checks} checks from {self.check.iccs}, 连续将军 抽将: {self.reason}"
        else:
            why = f"after the check {self.check.iccs}, 抽将: {self.reason}"
        return (f"{piece_name(self.attacker_piece)} {square_name(self.attacker)} chases "
                f"{piece_name(self.target_piece)} {square_name(self.target)} ({why})")


@dataclass(frozen=True, slots=True)
class MoveClass:
    """The classification of one move: its kind, the new chases it makes, and notes for arbiters."""

    ply: int
    move: Move
    side: str
    kind: MoveKind
    chases: tuple[Chase, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def kind_text(self) -> str:
        """The kind and why: ``"捉 chase (horse c7 chases chariot d9 (unprotected))"``."""
        extra = [c.describe() for c in self.chases] + list(self.notes)
        tail = f" ({'; '.join(extra)})" if extra else ""
        return f"{self.kind.chinese} {self.kind.value}{tail}"

    def describe(self) -> str:
        """One line: ``"ply 12 red h2h9: 捉 chase (horse ...)"``."""
        return f"ply {self.ply} {self.side} {self.move.iccs}: {self.kind_text}"


def classify_move(before: Position, move: Move, ply: int = 0, previous: Move | None = None,
                  mate_depth: int = 3) -> MoveClass:
    """Classify ``move`` played in ``before``; ``previous`` is the opponent's move just before it.

    ``previous`` lets a soldier that has just crossed the river be left out of the chased
    pieces (26.7), and a move answering a check not be charged with what the checking piece's
    leaving its post left open (26.3). ``ply`` is only carried into the result.
    """
    side = before.side_to_move
    after = before.play(move)
    if after.in_check():
        return MoveClass(ply, move, side, MoveKind.CHECK)
    notes: list[str] = []
    moved = after.board[move.to_square]
    general_evasion = before.in_check() and moved.upper() == "K"
    attacker_view = after.with_side_to_move(side)
    # a check answered by another piece: what the checker's leaving its post opened is the
    # checker's side's own doing (26.3 自毙, "做为根的子，自己离线断根将军...责由自负")
    vacated = _checker_gone(before, previous) if before.in_check() and not general_evasion else None
    if mates_by_checks(attacker_view, mate_depth):
        if general_evasion:
            notes.append("general answering check: its threat counts as idle (26.1.2)")
        elif vacated is not None and mates_by_checks(vacated, mate_depth):
            notes.append("answering check: the threat is the one the checking move left open, the checker's "
                         "own doing (自毙, 26.3), not a new one (26.1.2)")
        else:
            return MoveClass(ply, move, side, MoveKind.MATE_THREAT)
    fresh = _fresh_soldier(before, previous)
    earlier = chases(before, fresh, include_general_and_soldier=True)
    had = {c.target for c in earlier}
    had_real = {c.target for c in earlier if _counts(before, c)}  # a soldier's allowed chase may turn real
    if vacated is not None:  # chases the answer takes no part in, open once the checker left its post
        opened = [c for c in chases(vacated, fresh, include_general_and_soldier=True)
                  if c.attacker != move.from_square and move.from_square not in c.partners]
        had |= {c.target for c in opened}
        had_real |= {c.target for c in opened if _counts(vacated, c)}
    found = chases(attacker_view, fresh, include_general_and_soldier=True)
    direct = {c.target for c in found if _counts(attacker_view, c)}  # a soldier's or general's is idle (26.1)
    by_check = [c for c in chases_by_check(attacker_view, fresh) if c.target not in direct | had_real]
    if by_check:  # a chase won by checking first must be new too (29.2): not one the position before allowed
        had_by_check = {c.target for c in chases_by_check(before, fresh)}
        if vacated is not None and previous is not None:  # ... or the checker's leaving opened, or its
            # landing left hanging, unless the answering piece wins it (26.3)
            had_by_check |= {c.target for c in chases_by_check(vacated, fresh)}
            had_by_check |= {c.target for c in by_check
                             if c.target == previous.to_square and c.attacker != move.to_square}
        found += [c for c in by_check if c.target not in had_by_check]
    new: list[Chase] = []
    allowed: list[Chase] = []
    for chase in found:
        real = _counts(attacker_view, chase)
        if chase.target in (had_real if real else had):
            continue
        (new if real else allowed).append(chase)
    offers = [c for c in new if _offer_beside_chariot(after, move, c)]
    for chase in offers:
        new.remove(chase)
        notes.append(f"offers to exchange (兑) the {piece_name(chase.attacker_piece)} for the "
                     f"{piece_name(chase.target_piece)} on {square_name(chase.target)}, a chariot beside it: "
                     "the target has a root, and taking the offer is an even exchange that costs it nothing "
                     "(26.11.2)")
    for chase in allowed:
        notes.append(f"{chase.describe()}: the {piece_name(chase.attacker_piece)} may chase (26.1)")
    described = {c.target for c in allowed} | {c.target for c in new} | {c.target for c in offers}
    if new and general_evasion:
        notes.append("general answering check: its chase counts as idle (26.1.2)")
        notes.extend(c.describe() for c in new)
        new = []
    if new:
        for chase in new:  # a like piece that could take the mover first: an exchange offer too (24.4)
            if (chase.attacker == move.to_square and chase.check is None
                    and chase.attacker_piece.upper() == chase.target_piece.upper()
                    and any(m.from_square == chase.target and m.to_square == move.to_square for m in after.legal_moves())):
                notes.append(f"it also offers to exchange (兑) the {piece_name(chase.attacker_piece)} for the "
                             f"{piece_name(chase.target_piece)} on {square_name(chase.target)}: an offer that also "
                             "chases is a chase (兑兼捉, 26.4; 26.10 leaves idle only an offer that wins nothing)")
        if all(c.target_piece.upper() in "AB" for c in new) and _lone_attacker(after, side):
            notes.append("the side has one attacking piece left: if it stands on a key point for the draw, "
                         "its chase of an advisor or elephant is incidental and idle (守和要点, 26.2): for the "
                         "arbiter to judge")
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
            found[move.to_square] = Chase(move.from_square, move.to_square, attacker, target, reason,
                                          partners=_partners(position, move))
    return sorted(found.values(), key=lambda c: c.target)


def _partners(position: Position, capture: Move) -> tuple[int, ...]:
    """The capturer's own pieces without any one of which ``capture`` would not win material: the
    pieces a joint chase (联合捉子, 24.17: "缺少其中任何一个都无法吃子") takes besides the capturer.

    A cannon's screen of its own side is one (the general too: the cannon jumps it). Each of the
    side's other pieces but the general is then taken off the board in turn and the capture judged
    again: one without which taking a protected piece loses the capturer for it (a second
    attacker), or that keeps a defender's line shut, is one. The general's own safety is left out of
    it: a piece whose removal leaves its general in check, or the capturer pinned to it, shields the
    general and takes no share in the capture (the general cannot be taken off, so its share as a
    second attacker is not judged)."""
    side, board = position.side_to_move, position.board
    screen = _cannon_screen(board, capture)
    partners: list[int] = []
    for square, piece in position.pieces():
        if square == capture.from_square or side_of(piece) != side:
            continue
        if square == screen:
            partners.append(square)
            continue
        if piece.upper() == "K":
            continue
        without = Position(board[:square] + "." + board[square + 1:], side)
        if without.in_check() or not without.is_legal(capture):
            continue  # the general's shield (a pin), or a second shield with the capturer: no share in it
        if _capture_gain(without, capture) is None:
            partners.append(square)
    return tuple(sorted(partners))


def _cannon_screen(board: str, capture: Move) -> int | None:
    """The square of the piece a cannon jumps to make ``capture`` when it is of the capturer's side,
    else None (the screen of a capture along a file or rank: the one piece between)."""
    if board[capture.from_square].upper() != "C":
        return None
    start, end = sorted((capture.from_square, capture.to_square))
    step = 9 if (end - start) % 9 == 0 and start % 9 == end % 9 else 1
    between = [sq for sq in range(start + step, end, step) if board[sq] != "."]
    if len(between) != 1 or side_of(board[between[0]]) != side_of(board[capture.from_square]):
        return None
    return between[0]


#: A check with more legal replies than this is not followed for 抽将: the answers that leave
#: no gain are then many, and each reply costs a search (in the shared games checks have 1-10).
CHECK_REPLIES_MAX = 16

#: The most checks in a row (连续将军, 24.3) followed before the capture that wins, the first
#: included. Each further check multiplies the search by the checks and replies of a level. Over
#: the shared games (1 389 searches) two checks took 1.4 s in all (slowest 27 ms), three 1.6 s
#: (35 ms, two more verdicts changed than with two), four 2.7 s (77 ms, no verdict changed beyond
#: three's, and its slowest search used nearly all of :data:`SERIES_WORK_MAX`).
CHECK_SERIES_MAX = 3

#: The work one :func:`chases_by_check` call may spend on checks after the first: each follow-up
#: search (the captures after a defender's reply) counts one, and each capture judged in it (its
#: exchange, its mate test) one more. When it runs out, lines not yet searched count as escaping
#: (no chase), so a pathological position costs a bounded number of searches. The single-check
#: lines are searched first and never counted against it.
SERIES_WORK_MAX = 200


def chases_by_check(position: Position, fresh_soldier: int | None = None) -> list[Chase]:
    """Pieces the side to move wins by checking first (抽将; 24.3 "从下一着开始运用将军或连续“将军”得子").

    A check, quiet or capturing, or a series of checks (连续将军, at most :data:`CHECK_SERIES_MAX`
    in all), is a chase of the piece ``T`` when, whatever the defender answers to each check
    (capturing the checker, interposing, moving the general: every legal reply, its own capture
    counted as material lost), the checker's side can then take a piece that wins material, or
    check again with a continuation that does (a different one for each reply if need be; a
    check that mates covers its line, but a series that only mates is a mate threat, 24.2, not a
    chase). The capture at the end of each line:

    * the taker is neither the general nor a soldier (26.8 "兵借其他子抽吃对方的子，按闲处理";
      26.1), and the piece taken is not the general, a soldier on its own side of the river, or
      one that has just crossed (26.7);
    * the piece is won on its point under the same rules as a direct chase (24.3 完整互吃交换, 24.15
      有根子/少根子, 24.16 假根): :func:`_exchange` with its false-root test, so an adequately
      protected piece is not won;
    * the taker is not mated at once for it (24.3 "得子后不致立即...被对方将死");
    * the whole line still gains (26.6, 26.7 via :func:`_is_gain`): what the checks took and the
      piece won, against what the replies took and the exchange cost; and instead of recapturing
      the defender may take one piece elsewhere (a checker left hanging), with its own exchange there.

    Where a capture wins after a reply, the attacker takes it rather than checking on: another
    check is looked for only after a reply that leaves no winning capture. The defender's best
    answers decide: the target is the piece won along the line that leaves the least, named (with
    its taker) by its square in ``position``: a piece that moved in a reply (an interposer, or a
    piece that took a checker) by the square it came from; ``Chase.checks`` counts the checks the
    longest of the lines needs (the mating check included). The single checks are all searched
    first, as one-check lines; the series only for the checks that win nothing so. :data:`CHECK_REPLIES_MAX`, the first reply that escapes, the
    memoised exchange and follow-ups, and :data:`SERIES_WORK_MAX` bound the work.
    """
    return list(_chases_by_check(position, fresh_soldier))


@lru_cache(maxsize=4096)
def _chases_by_check(position: Position, fresh_soldier: int | None) -> tuple[Chase, ...]:
    """:func:`chases_by_check`, remembered: a repeated cycle asks it of the same positions again."""
    board = position.board
    general = position.general_square(BLACK if position.side_to_move == RED else RED)
    checks: list[tuple[Move, Position, tuple[str, ...]]] = []
    for check in position.legal_moves():
        if not (_may_check(check, general) and position.gives_check(check)):
            continue
        after_check = position.play(check)
        replies = after_check.legal_moves()
        if not replies or len(replies) > CHECK_REPLIES_MAX:
            continue  # a mate is a mate threat (24.2), not a chase
        taken = board[check.to_square]
        checks.append((check, after_check, (taken,) if taken != "." else ()))
    search = _Series(position)
    found: dict[int, Chase] = {}
    unwon: list[tuple[Move, Position, tuple[str, ...]]] = []
    for series in (False, True):  # one check, then a capture; then for the others a series (连续将军)
        search.series = series
        for check, after_check, gained in (unwon if series else checks):
            won = search.every_reply(after_check, gained, (), _moved(fresh_soldier, check),
                                     CHECK_SERIES_MAX - 1 if series else 0)
            if won is None:
                if not series:
                    unwon.append((check, after_check, gained))
            elif not won.mates:
                won = won.back(check, check=True)
                found.setdefault(won.target, won.chase(check))
    return tuple(sorted(found.values(), key=lambda c: c.target))


def _moved(square: int | None, move: Move) -> int | None:
    """Where the piece on ``square`` stands after ``move`` (``None`` when it is taken or was none)."""
    if square is None or move.to_square == square:
        return None
    return move.to_square if move.from_square == square else square


@dataclass(frozen=True, slots=True)
class _Win:
    """A winning capture at the end of a line of checks, by squares of the position the line is
    searched from: ``net`` for the checker's side, the capture's ``taker`` and ``target`` with their
    pieces, why the target is lost, and the most ``checks`` played before a winning capture from that
    position over the defender's replies (the line of the defender's best reply may need fewer)."""

    net: int
    taker: int
    target: int
    taker_piece: str
    target_piece: str
    reason: str
    checks: int = 0

    @property
    def mates(self) -> bool:
        """Is this the line's end by mate (a check with no reply), no capture at all?"""
        return self.target < 0

    def back(self, move: Move, check: bool = False) -> _Win:
        """The same win seen from before ``move``: a piece that moved in it by the square it came
        from, one more check counted when ``move`` was one."""
        checks = self.checks + (1 if check else 0)
        if self.mates:
            return replace(self, checks=checks)
        taker = move.from_square if self.taker == move.to_square else self.taker
        target = move.from_square if self.target == move.to_square else self.target
        return _Win(self.net, taker, target, self.taker_piece, self.target_piece, self.reason, checks)

    def chase(self, check: Move) -> Chase:
        """The chase made by playing ``check`` first (this win already seen from before it)."""
        return Chase(self.taker, self.target, self.taker_piece, self.target_piece, self.reason, check, self.checks)


#: A line that ends in mate: better than any material for the checker's side, so the defender
#: avoids it when another reply exists.
_MATE = _Win(VALUES["K"], -1, -1, "", "", "")


class _Series:
    """The 抽将 search from one position (``real``): the defender's replies to a check, the winning
    captures after them, and further checks (连续将军), each remembered for the call (the same
    position comes up after the single-check pass and again in the series pass, and along checks
    played in another order)."""

    def __init__(self, real: Position) -> None:
        self.real = real
        self.series = False  # searching series of checks (the follow-ups are then counted)
        self.spent = 0  # the work done in the series pass (SERIES_WORK_MAX)
        self._replies: dict[tuple[object, ...], _Win | None] = {}
        self._follow_ups: dict[tuple[object, ...], _Win | None] = {}

    def every_reply(self, after_check: Position, gained: tuple[str, ...], lost: tuple[str, ...],
                    fresh: int | None, checks_left: int) -> _Win | None:
        """The win left after the defender's best reply to a check (``after_check``: the defender to
        move), or ``None`` when some reply escapes: then neither a capture nor (``checks_left`` > 0)
        another check wins after it. A reply after which there is nothing to take that could gain,
        and no check, escapes without any search; otherwise the replies that capture are tried
        first: they refute most often, and the first reply that refutes ends the search."""
        key = (after_check, tuple(sorted(gained)), tuple(sorted(lost)), fresh, checks_left)
        if key in self._replies:
            return self._replies[key]
        board = after_check.board
        lines = []
        for reply in sorted(after_check.legal_moves(), key=lambda r: -VALUES.get(board[r.to_square].upper(), 0)):
            taken = board[reply.to_square]
            lost_now = (*lost, taken) if taken != "." else lost
            after_reply = after_check.play(reply)
            fresh_now = _moved(fresh, reply)
            if not (any(_candidates(after_reply, reply, gained, lost_now, fresh_now))
                    or (checks_left > 0 and any(_checks(after_reply)))):
                self._replies[key] = None
                return None
            lines.append((reply, after_reply, lost_now, fresh_now))
        worst: _Win | None = None
        for reply, after_reply, lost_now, fresh_now in lines:
            if self.series and self.spent >= SERIES_WORK_MAX:
                worst = None  # out of work: the replies left count as escaping
                break
            best = self.follow_up(after_reply, reply, gained, lost_now, fresh_now)
            if best is None and checks_left > 0:
                best = self.check_again(after_reply, gained, lost_now, fresh_now, checks_left)
            if best is None:
                worst = None
                break
            best = best.back(reply)
            if worst is None or best.net < worst.net:
                worst = replace(best, checks=max(best.checks, worst.checks if worst else 0))
            elif best.checks > worst.checks:
                worst = replace(worst, checks=best.checks)
        self._replies[key] = worst
        return worst

    def check_again(self, position: Position, gained: tuple[str, ...], lost: tuple[str, ...],
                    fresh: int | None, checks_left: int) -> _Win | None:
        """The best further check in ``position`` (the checker's side to move) after which every reply
        still loses material, or ``None``. A check that mates wins outright."""
        board = position.board
        best: _Win | None = None
        for check in _checks(position):
            if self.spent >= SERIES_WORK_MAX:
                break
            after_check = position.play(check)
            replies = after_check.legal_moves()
            if not replies:
                return _MATE.back(check, check=True)  # the mating check counts in the series
            if len(replies) > CHECK_REPLIES_MAX:
                continue
            taken = board[check.to_square]
            won = self.every_reply(after_check, (*gained, taken) if taken != "." else gained, lost,
                                   _moved(fresh, check), checks_left - 1)
            if won is not None and (best is None or won.net > best.net):
                best = won.back(check, check=True)
        return best

    def follow_up(self, position: Position, reply: Move, gained: tuple[str, ...], lost: tuple[str, ...],
                  fresh: int | None) -> _Win | None:
        """The checker's side's best winning capture after the defender's ``reply`` (``position``: the
        checker's side to move; ``gained`` and ``lost`` the line's captures so far), or ``None``."""
        key = (position, reply, tuple(sorted(gained)), tuple(sorted(lost)), fresh)
        if key in self._follow_ups:
            return self._follow_ups[key]
        self.spent += self.series
        line = _Line(self.real, gained, lost)
        board = position.board
        best: _Win | None = None
        for move in _candidates(position, reply, gained, lost, fresh):
            self.spent += self.series
            judged = _judge_capture(position, move, line)
            if judged is None or (best is not None and judged[0] <= best.net):
                continue
            best = _Win(judged[0], move.from_square, move.to_square, board[move.from_square],
                        board[move.to_square], judged[1])
        self._follow_ups[key] = best
        return best


def _candidates(position: Position, reply: Move, gained: tuple[str, ...], lost: tuple[str, ...],
                fresh: int | None) -> Iterator[Move]:
    """The captures after the defender's ``reply`` that may win for the checker's side (to move in
    ``position``), before their exchange is judged: not by the general or a soldier (26.8, 26.1), not
    of the general, a soldier on its own side of the river or one that has just crossed (``fresh``,
    or in the reply itself: 26.7), and gaining with the line's captures were the piece taken for nothing."""
    board = position.board
    for move in position.legal_moves():
        target, attacker = board[move.to_square], board[move.from_square]
        if target == "." or target.upper() == "K" or attacker.upper() in "KP":
            continue
        crossed = move.to_square == reply.to_square and own_half(reply.from_square, side_of(target))
        if target.upper() == "P" and (own_half(move.to_square, side_of(target)) or move.to_square == fresh
                                      or crossed):
            continue
        if _is_gain([*gained, target], list(lost)):
            yield move


def _checks(position: Position) -> Iterator[Move]:
    """The moves of the side to move that check."""
    general = position.general_square(BLACK if position.side_to_move == RED else RED)
    for move in position.legal_moves():
        if _may_check(move, general) and position.gives_check(move):
            yield move


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
    general = position.general_square(BLACK if position.side_to_move == RED else RED)
    for move in position.legal_moves():
        if _may_check(move, general) and position.gives_check(move) and not position.play(move).has_legal_move():
            return True
    return False


def _may_check(move: Move, general: int) -> bool:
    """Could ``move`` change what attacks the general on ``general``? Only if it leaves or enters a
    square on the general's rank or file (a chariot's or cannon's line, a cannon's screen) or within
    two steps of it (a horse, its leg, a soldier). A cheap filter before :meth:`Position.gives_check`."""
    gf, gr = general % 9, general // 9
    for square in (move.from_square, move.to_square):
        f, r = square % 9, square // 9
        if f == gf or r == gr or (abs(f - gf) <= 2 and abs(r - gr) <= 2):
            return True
    return False


def _capture_gain(position: Position, move: Move) -> str | None:
    """Why taking with ``move`` wins material (a short reason), or ``None`` when it does not."""
    judged = _judge_capture(position, move)
    return judged[1] if judged else None


def _judge_capture(position: Position, move: Move, line: _Line | None = None) -> tuple[int, str] | None:
    """Does taking with ``move`` win material: (net value, short reason), or ``None``?

    After a check and its reply (``line``, 抽将) the piece must still be won on its own point, and
    the whole line must gain, also when the defender takes elsewhere instead of recapturing.
    """
    board = position.board
    target, attacker = board[move.to_square], board[move.from_square]
    after = position.play(move)
    lost: list[str] = []
    captured = [target]
    _defend(after, move.to_square, captured, lost, depth=8)
    if not _is_gain(captured, lost):
        return None
    net = _value(captured) - _value(lost)
    if line is not None:
        if not _is_gain([*line.gained, *captured], [*line.lost, *lost]):
            return None
        whole = _value([*line.gained, *captured]) - _value([*line.lost, *lost])
        least = _counter_capture(after, move.to_square, line, [*line.gained, target], whole)
        if least is None:
            return None
        net = least
    if line is None and _left_exposed(position, after, move.to_square, captured, lost) is not None:
        return None  # a root or a pinned piece taking at a loss is idle (26.5)
    if mate_in_one(after):
        return None  # the capturer would be mated at once (24.3; 1999 细则 7)
    if line is not None and line.lost and target.upper() != "R":
        # the defender's reply took material (the checker, most often): the piece is won through an
        # exchange, not as a loose piece, whatever it stands with after the line (26.9.1 lists loose ones)
        return net, "wins material in the exchange"
    if not lost:
        if not _has_protector(after, move.to_square):
            return net, UNPROTECTED
        return net, (SHORT_ROOT if _can_recapture(after, move.to_square) else FALSE_ROOT)
    if target.upper() == "R" and attacker.upper() != "R":
        return net, f"chariot attacked by a {piece_name(attacker)}"
    return net, "wins material in the exchange"


def _left_exposed(real: Position, after: Position, point: int, captured: list[str], lost: list[str]) -> Move | None:
    """The defender's capture, instead of recapturing, of what a direct capture left exposed, when
    the whole is then a loss for the capturer (26.5: "做'根'子和被'牵'子捉子…得不偿失者，按'闲'处理");
    ``None`` when there is none. The capturer may have been the only root of a piece under attack,
    or pinned in front of one: a capture that gains for the defender now and did not before (or was
    not there) is counted, judged by the exchange on its own point; the capturer keeps what it
    took, what it won or lost on ``point`` being the defender's other choice. A trade of equal value
    is no loss ("交换后价值相当…按捉处理")."""
    defender = after.side_to_move
    before = real.with_side_to_move(defender)
    board = after.board
    for reply in after.legal_moves():
        taken = board[reply.to_square]
        if reply.to_square == point or taken == "." or taken.upper() == "K":
            continue
        again = after.play(reply)
        if mate_in_one(again):
            continue  # taking there would get the defender mated
        back_gained, back_lost = _exchange(again, reply.to_square, 8, defending=True)
        if not _is_gain([taken, *back_gained], list(back_lost)):
            continue  # no gain for the defender: no loss for the capturer to weigh
        if _gained_before(before, reply):
            continue  # the defender had it anyway: the capture did not expose it
        if _is_gain([taken, *back_gained], [*captured[:1], *back_lost]):  # the defender comes out ahead
            return reply
    return None


def _gained_before(position: Position, capture: Move) -> bool:
    """Was ``capture`` (of the side to move in ``position``) there already, and a gain on its own point?"""
    if capture not in position.legal_moves():
        return False
    taken = position.board[capture.to_square]
    again = position.play(capture)
    if mate_in_one(again):
        return False
    back_gained, back_lost = _exchange(again, capture.to_square, 8, defending=True)
    return _is_gain([taken, *back_gained], list(back_lost))


def _counter_capture(position: Position, point: int, line: _Line, gained: list[str], net: int) -> int | None:
    """The defender to move, instead of recapturing on ``point``, takes a piece the line exposed
    (a checker left hanging, a piece the reply attacks): the capturer's least net over these
    choices, each judged by the exchange on its own point, or ``None`` when one leaves no gain.
    A capture the defender already had in the real position is not counted: like a direct chase
    (judged on the target's point alone), 抽将 is not undone by the defender's own pending chases."""
    board = position.board
    standing = _standing_captures(line.real)
    for reply in position.legal_moves():
        taken = board[reply.to_square]
        if (reply.to_square == point or taken == "." or taken.upper() == "K"
                or (reply.from_square, reply.to_square, board[reply.from_square], taken) in standing):
            continue
        again = position.play(reply)
        if mate_in_one(again):
            continue  # taking there would get the defender mated (24.16's false root, the other way)
        back_gained, back_lost = _exchange(again, reply.to_square, 8, defending=True)
        line_gained, line_lost = gained + list(back_lost), [*line.lost, taken, *back_gained]
        if not _is_gain(line_gained, line_lost):
            return None
        net = min(net, _value(line_gained) - _value(line_lost))
    return net


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


@dataclass(frozen=True, slots=True)
class _Line:
    """The check or checks and their replies before a capture (抽将), from the ``real`` position: what
    the capturer's side took (``gained``: the checks' captures) and lost (``lost``: the replies')."""

    real: Position
    gained: tuple[str, ...]
    lost: tuple[str, ...]


@lru_cache(maxsize=1024)
def _standing_captures(position: Position) -> frozenset[tuple[int, int, str, str]]:
    """The captures the opponent of the side to move has in ``position``, as (from, to, piece, taken);
    remembered: every follow-up capture of every reply to every check asks it of the same position."""
    view = position.with_side_to_move(BLACK if position.side_to_move == RED else RED)
    board = view.board
    return frozenset((m.from_square, m.to_square, board[m.from_square], board[m.to_square])
                     for m in view.legal_moves() if board[m.to_square] != ".")


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


def _lone_attacker(position: Position, side: str) -> bool:
    """Has ``side`` one attacking piece left (a chariot, horse, cannon or soldier across the river)?"""
    attackers = [sq for sq, piece in position.pieces() if side_of(piece) == side and (
        piece.upper() in "RNC" or (piece.upper() == "P" and not own_half(sq, side)))]
    return len(attackers) == 1


def _offer_beside_chariot(after: Position, move: Move, chase: Chase) -> bool:
    """Is ``chase``, made by the horse or cannon just moved against a horse or cannon like it with a
    chariot of the mover's in contact too, an exchange offer (兑) by 26.11.2: the target has a root,
    and taking the offered piece is retaken, a like piece for a like piece, and no more (its root
    loses nothing)? (26.11.1: a target without a root is chased; 26.11.2: other pieces joining in
    that make a new chase make it a chase; an offered piece taken for nothing is 献, and 献兼捉 is a
    chase, 26.4.)"""
    piece = chase.attacker_piece.upper()
    if (chase.attacker != move.to_square or chase.check is not None or piece not in "NC"
            or chase.target_piece.upper() != piece):
        return False
    board = after.board
    chariots = {sq for sq in chase.partners if board[sq].upper() == "R"}
    if not chariots or set(chase.partners) - chariots:
        return False
    side = after.side_to_move  # the target's side
    if not _has_protector(after, chase.target):
        return False
    for take in after.legal_moves():  # the offer taken: the target takes the piece offered
        if take.from_square != chase.target or take.to_square != chase.attacker:
            continue
        taken = after.play(take)
        gained, lost = [board[chase.attacker]], list[str]()
        _defend(taken, chase.attacker, gained, lost, depth=8)
        # an exchange, horse for horse (cannon for cannon), and no more: the root is not lost to it
        return side_of(board[chase.target]) == side and lost == [board[chase.target]] and len(gained) == 1
    return False


def _checker_gone(before: Position, previous: Move | None) -> Position | None:
    """``before`` (the side checked to move) without the opponent's pieces that give the check
    ``previous`` made: what stood open to the side checked once the checking move's piece left its
    post (26.3), the piece it took, if any, gone too. The checkers are the piece moved when it
    checks itself and any whose line its leaving opened (a discovered check: the root that left its
    line to uncover a check is the same desertion, 26.3's "自己离线断根'将军'"). None where it cannot be
    told: no previous move, a general's move or check (the board needs it), or a check that stays.
    """
    if previous is None:
        return None
    piece = before.board[previous.to_square]
    if piece == "." or side_of(piece) == before.side_to_move or piece.upper() == "K":
        return None
    checkers = before.attackers(before.general_square(before.side_to_move), side_of(piece))
    if not checkers or any(before.board[sq].upper() == "K" for sq in checkers):
        return None
    board = list(before.board)
    for square in checkers:
        board[square] = "."
    checking = side_of(piece)
    own, their = before.general_square(checking), before.general_square(before.side_to_move)
    low, high = sorted((own, their))
    if own % 9 == their % 9 and all(board[sq] == "." for sq in range(low + 9, high, 9)):
        # a checker on the generals' file kept them from facing: a stand-in on its own side's home
        # half, before its general, keeps them apart (it attacks only the point before it and is no
        # piece to chase, 26.7)
        board[own + (9 if checking == RED else -9)] = "P" if checking == RED else "p"
    gone = Position("".join(board), before.side_to_move)
    if gone.in_check() or gone.with_side_to_move(checking).in_check():
        return None
    return gone


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


def _why_not_taken(position: Position, capture: Move) -> str:
    """Why ``capture`` (of the side to move) is no chase, for a note: no gain, or 26.5's loss elsewhere."""
    after = position.play(capture)
    captured, lost = [position.board[capture.to_square]], list[str]()
    _defend(after, capture.to_square, captured, lost, depth=8)
    exposed = _left_exposed(position, after, capture.to_square, captured, lost) if _is_gain(captured, lost) else None
    if exposed is None:
        return "no gain in taking it"
    return (f"taking it would leave the {piece_name(after.board[exposed.to_square])} on "
            f"{square_name(exposed.to_square)} to be taken, 得不偿失 (26.5)")


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
        elif _has_protector(view.play(target_move), target_move.to_square):  # 24.7: a piece with a root
            notes.append(f"follows (跟) the {piece_name(target)} on {where}, {_why_not_taken(view, target_move)}")
        else:
            notes.append(f"attacks the {piece_name(target)} on {where} but cannot win it: "
                         f"{_why_not_taken(view, target_move)}")
    if _offered(after, move.to_square):
        notes.append(f"offers (献) the {piece_name(moved)} on {square_name(move.to_square)}")
    return notes


def _offered(after: Position, point: int) -> bool:
    """Is the piece just moved to ``point`` offered (献, 24.5): can the side to move take it without
    being mated at once or losing material in the exchanges on that point? A piece that can only be
    taken at a loss (the taker retaken by something worth less) is not offered."""
    for capture in after.legal_moves():
        if capture.to_square != point:
            continue
        taken = after.play(capture)
        if mate_in_one(taken):
            continue
        captured, lost = [after.board[point]], list[str]()
        _defend(taken, point, captured, lost, depth=8)
        if _value(lost) <= _value(captured):
            return True
    return False
