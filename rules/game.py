"""``Game``: a recorded game (start, moves, positions) and how it ends (art. 3, 4, 22, 23, 25, 26).

``Game`` is a mutable recorder: :meth:`Game.push` appends a move, :meth:`Game.pop` takes the last
one back (a correction on the board). Positions themselves stay immutable values. Each push
does a constant amount of bookkeeping besides the move's legality test: an index of positions
by (placement, side) for repetition, and running counts of captures and checks for the natural
limit. The costly 棋例 classification of moves only runs when a position stands for the third
time or nine rounds without a capture went round in a cycle (23.4), and each move is classified
at most once.

:meth:`Game.outcome` says how the game stands: checkmate (4.1.1) and stalemate (4.1.2) are
definite; a repetition verdict (23, 25, 26), the natural limit (4.2.4) and a position with no
attacking pieces left (4.2.2) are advice for the arbiter (``Outcome.advisory``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from rules.move import Move
from rules.move_kinds import MoveClass, classify_move
from rules.position import Position
from rules.repetition import (
    DRAWS_TOLD,
    LONG_ATTACK_ROUNDS,
    RepetitionVerdict,
    draw_due,
    goes_round,
    judge,
    long_attack,
    long_attack_points,
)
from rules.squares import BLACK, RED, opponent

logger = logging.getLogger(__name__)

#: How far back (plies) a repetition verdict looks for the run of verdicts it continues.
RUN_LOOKBACK = 4 * LONG_ATTACK_ROUNDS

_SIDE_ZH = {RED: "红方", BLACK: "黑方"}


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the game ends or stands: ``result`` (``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` or ``None``),
    the ``winner`` side, a ``reason`` code, the deciding ``article``, a Chinese + English ``text``.

    ``reason`` is ``checkmate``, ``stalemate``, ``natural_limit``, ``no_attacking_pieces``, or a
    repetition verdict code (see :class:`rules.RepetitionVerdict`, then ``verdict`` is set).
    ``advisory`` is true for everything an arbiter has to decide (repetitions, natural limit).
    """

    result: str | None
    winner: str | None
    reason: str
    article: str
    text: str
    advisory: bool
    verdict: RepetitionVerdict | None = None


@dataclass(frozen=True, slots=True)
class RepetitionEpisode:
    """A run of repeated positions: from the first threefold repetition until a side changed.

    ``verdicts`` holds the verdict where the threefold repetition appeared and each later one
    whose decision differs (another code or another side to change); ``last`` is the verdict at
    the last ply that repeated a position for the third time or more (``end_ply``), and
    ``max_count`` the most times one position stood in the episode.
    """

    start_ply: int
    end_ply: int
    max_count: int
    verdicts: tuple[RepetitionVerdict, ...]
    last: RepetitionVerdict

    @property
    def first(self) -> RepetitionVerdict:
        return self.verdicts[0]

    @property
    def codes(self) -> tuple[str, ...]:
        """The decisions met along the episode, e.g. ``("perpetual_check", "draw_both_allowed")``."""
        return tuple(v.code for v in self.verdicts)


class Game:
    """A game from ``start`` (default: the standard start) with its ``moves`` (``Move`` or ICCS).

    Mutable: :meth:`push` and :meth:`pop` change it in place; the properties return tuples.
    ``mate_depth`` sets how deep the mate-threat (杀) test looks, in the attacker's moves.
    """

    def __init__(self, start: Position | None = None, moves: Iterable[Move | str] = (),
                 mate_depth: int = 3) -> None:
        first = start if start is not None else Position.start()
        self._start = first
        self._mate_depth = mate_depth
        self._positions: list[Position] = [first]
        self._moves: list[Move] = []
        self._counts: list[int] = [1]  # counted occurrences of positions[i] up to ply i (0: not counted)
        self._seen: dict[Position, list[int]] = {first: [0]}
        self._last_capture: list[int] = [-1]  # ply of the latest capture at or before ply i
        self._checks: dict[str, list[int]] = {RED: [0], BLACK: [0]}  # prefix counts of checks by side
        self._classes: dict[int, MoveClass] = {}
        self._verdicts: dict[int, RepetitionVerdict | None] = {}  # the plain threefold verdict at each ply judged
        for move in moves:
            self.push(move)

    # --- recording ---------------------------------------------------------------
    def push(self, move: Move | str) -> Position:
        """Play ``move`` (raises ``IllegalMoveError``) and return the new position."""
        before = self._positions[-1]
        if isinstance(move, str):
            move = Move.from_iccs(move)
        capture = before.is_capture(move)
        after = before.play(move)
        ply = len(self._moves) + 1
        self._moves.append(move)
        self._positions.append(after)
        mover = before.side_to_move
        check = after.in_check()
        for side in (RED, BLACK):
            counts = self._checks[side]
            counts.append(counts[-1] + (1 if check and side == mover else 0))
        self._last_capture.append(ply if capture else self._last_capture[-1])
        if capture:
            self._counts.append(0)  # 23.2: a cycle's first move that captures is not counted
        else:
            plies = self._seen.setdefault(after, [])
            plies.append(ply)
            self._counts.append(len(plies))
        return after

    def pop(self) -> Move:
        """Take back the last move and return it (raises ``IndexError`` when there is none)."""
        if not self._moves:
            raise IndexError("no move to take back")
        ply = len(self._moves)
        move = self._moves.pop()
        after = self._positions.pop()
        if self._counts.pop():
            plies = self._seen[after]
            plies.pop()
            if not plies:
                del self._seen[after]
        self._last_capture.pop()
        for side in (RED, BLACK):
            self._checks[side].pop()
        self._classes.pop(ply, None)
        self._verdicts.pop(ply, None)
        return move

    # --- values ------------------------------------------------------------------
    @property
    def start(self) -> Position:
        return self._start

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def positions(self) -> tuple[Position, ...]:
        """Every position from the start, one more than there are moves."""
        return tuple(self._positions)

    @property
    def position(self) -> Position:
        """The current position."""
        return self._positions[-1]

    @property
    def ply(self) -> int:
        """Moves played so far."""
        return len(self._moves)

    def __len__(self) -> int:
        return len(self._moves)

    def occurrences(self, ply: int | None = None) -> tuple[int, ...]:
        """The plies at which the position at ``ply`` (default: now) stood and counts (23.1, 23.2)."""
        ply = self.ply if ply is None else ply
        if not self._counts[ply]:
            return ()
        return tuple(self._seen[self._positions[ply]][: self._counts[ply]])

    # --- classification and repetition ------------------------------------------------
    def classify(self, ply: int) -> MoveClass:
        """The 棋例 kind of the move that produced ply ``ply`` (1-based), cached."""
        found = self._classes.get(ply)
        if found is None:
            previous = self._moves[ply - 2] if ply >= 2 else None
            found = classify_move(self._positions[ply - 1], self._moves[ply - 1], ply, previous, self._mate_depth)
            self._classes[ply] = found
        return found

    def repetition(self, ply: int | None = None) -> RepetitionVerdict | None:
        """The verdict when the position at ``ply`` (default: now) stands for the third time or more.

        A side told to change has two rounds to do it (23.5.2): one that has made two moves since it
        was first told, each keeping the repetition going, has not changed and loses (23.5.2.2), in a
        cycle of any length (a cycle of three rounds does not give it three). The telling may have
        come from nine rounds of attacks (23.4) before the threefold repetition: its two rounds do
        not start again there. A side found not to have changed stays lost while the repetition
        goes on."""
        ply = self.ply if ply is None else ply
        verdict = self._threefold(ply)
        if verdict is not None and verdict.code in DRAWS_TOLD:
            return draw_due(verdict) if ply - self._draw_told(verdict.code, ply) >= 4 else verdict
        if verdict is None or verdict.result is not None or verdict.must_change is None:
            return verdict
        side = verdict.must_change
        told, lost = self._run_before(side, ply)
        return self._threefold(ply, lost={side}) if lost or self._moves_by(side, told, ply) >= 2 else verdict

    def _draw_told(self, code: str, ply: int) -> int:
        """The ply the unbroken run of ``code`` draw verdicts up to ``ply`` began at: from there each
        side has two rounds to change (23.5.2), and if neither does the draw is due (23.5.2.1). The
        run is followed back at most :data:`RUN_LOOKBACK` plies."""
        found = ply
        for p in range(ply - 1, max(ply - RUN_LOOKBACK, 0) - 1, -1):
            if self._counts[p] == 2:  # stood before, not yet a third time: the repetition goes on
                continue
            three = self._threefold(p)
            if three is None or three.code != code:
                break
            found = p
        return found

    def _moves_by(self, side: str, after: int, ply: int) -> int:
        """How many of the moves of plies ``after + 1`` to ``ply`` ``side`` made."""
        return sum(1 for p in range(after + 1, ply + 1) if self._positions[p - 1].side_to_move == side)

    def _threefold(self, ply: int, lost: frozenset[str] | set[str] = frozenset()) -> RepetitionVerdict | None:
        """The threefold verdict at ``ply`` from its own cycles alone (cached), or with the sides
        ``lost`` already found not to have changed."""
        if not lost and ply in self._verdicts:
            return self._verdicts[ply]
        occurrences = self.occurrences(ply)
        found = None
        if len(occurrences) >= 3:
            classes = [self.classify(i) for i in range(occurrences[-3] + 1, ply + 1)]
            earlier = [self.classify(i) for i in range(occurrences[-4] + 1, occurrences[-2] + 1)] if len(occurrences) >= 4 else []
            found = judge(self._positions[ply].fen(), ply, occurrences, classes, earlier, lost)
        if not lost:
            self._verdicts[ply] = found
        return found

    def _run_before(self, side: str, ply: int) -> tuple[int, bool]:
        """The unbroken run of verdicts up to ``ply`` telling ``side`` to change (nine rounds of
        attacks, 23.4, or a threefold repetition): the ply of its first, and whether one of its
        threefold verdicts found the side had not changed. The run is followed back at most
        :data:`RUN_LOOKBACK` plies."""
        found, lost = ply, False
        for p in range(ply - 1, max(ply - RUN_LOOKBACK, 0) - 1, -1):
            nine = self._long_attack(p)
            if nine is not None and nine.must_change == side:
                found = p
                continue
            three = self._threefold(p)
            if three is None or three.must_change != side:
                break
            found = p
            lost = lost or three.code == "forbidden_not_changed"
        return found, lost

    def long_attack(self, ply: int | None = None) -> RepetitionVerdict | None:
        """The 23.4 verdict at ``ply`` (default: now): nine rounds without a capture or a threefold
        repetition in which a side attacked on every move over three or more points while both
        sides' play went round (:func:`rules.repetition.long_attack`). A side told to change that
        went on for two more rounds loses (23.5.2)."""
        ply = self.ply if ply is None else ply
        verdict = self._long_attack(ply)
        if verdict is None or verdict.must_change is None or verdict.result is not None:
            return verdict
        side = verdict.must_change
        earlier = [self._long_attack(p) for p in range(ply - 4, ply)]
        if all(v is not None and v.must_change == side for v in earlier):
            return self._long_attack(ply, {side})
        return verdict

    def _long_attack(self, ply: int, stubborn: set[str] | None = None) -> RepetitionVerdict | None:
        first = ply - 2 * LONG_ATTACK_ROUNDS + 1
        if first < 1 or self._last_capture[ply] >= first:
            return None
        if any(self._counts[p] >= 3 for p in range(first, ply + 1)):
            return None  # a threefold repetition in the stretch: judged as such (23.1)
        window = self._moves[first - 1: ply]
        movers = (window[0::2], window[1::2])
        if not all(goes_round(m) for m in movers) or max(long_attack_points(m) for m in movers) < 3:
            return None  # checked before classifying: most stretches of a game go somewhere
        classes = [self.classify(i) for i in range(first, ply + 1)]
        return long_attack(self._positions[ply].fen(), ply, self.occurrences(ply), classes, stubborn or set())

    def long_attacks(self) -> list[RepetitionVerdict]:
        """Every 23.4 verdict of the game where it first holds or its decision changes."""
        found: list[RepetitionVerdict] = []
        previous: RepetitionVerdict | None = None
        for ply in range(2 * LONG_ATTACK_ROUNDS, self.ply + 1):
            verdict = self.long_attack(ply)
            if verdict is not None and (previous is None or (verdict.code, verdict.must_change)
                                        != (previous.code, previous.must_change)):
                found.append(verdict)
            previous = verdict
        return found

    def repetitions(self) -> list[RepetitionEpisode]:
        """Every repetition episode of the game, in order.

        An episode starts where a position stands for the third time and lasts while each
        following position has stood before; the first new position means a side changed.
        """
        episodes: list[RepetitionEpisode] = []
        ply = 1
        while ply <= self.ply:
            if self._counts[ply] < 3:
                ply += 1
                continue
            start, best = ply, self._counts[ply]
            verdicts: list[RepetitionVerdict] = []
            last: RepetitionVerdict | None = None
            while True:
                if self._counts[ply] >= 3:
                    last = self.repetition(ply)
                    assert last is not None
                    if not verdicts or (last.code, last.must_change) != (verdicts[-1].code, verdicts[-1].must_change):
                        verdicts.append(last)
                    best = max(best, self._counts[ply])
                if ply + 1 > self.ply or self._counts[ply + 1] < 2:
                    break
                ply += 1
            assert last is not None
            episodes.append(RepetitionEpisode(start, last.ply, best, tuple(verdicts), last))
            ply += 1
        return episodes

    # --- the natural limit ----------------------------------------------------------
    def quiet_rounds(self, claimant: str, max_checks_counted: int = 10) -> int:
        """Rounds without a capture as an arbiter counts them for ``claimant`` (4.2.4, 22.2).

        A round is two plies; plies before the start come from the start FEN's counter. Of the
        claimant's checks since the last capture at most ``max_checks_counted`` count: each
        further check takes its round off the count (22.2).
        """
        ply = self.ply
        last = self._last_capture[ply]
        plies = ply - last if last >= 0 else ply + self._start.quiet_plies
        since = max(last, 0)
        checks = self._checks[claimant][ply] - self._checks[claimant][since]
        excess = max(0, checks - max_checks_counted)
        return max(0, plies - 2 * excess) // 2

    def natural_limit(self, rounds: int = 60, max_checks_counted: int = 10) -> Outcome | None:
        """An advisory draw once ``rounds`` rounds have passed without a capture (4.2.4, 22.2).

        ``rounds`` is 60 by the rules and may be lowered for lower events (4.2.4: 50, 40...).
        The side(s) whose count has reached the limit may claim the draw.
        """
        claimants = [s for s in (RED, BLACK) if self.quiet_rounds(s, max_checks_counted) >= rounds]
        if not claimants:
            return None
        zh = "、".join(_SIDE_ZH[s] for s in claimants)
        en = " and ".join(claimants)
        text = (f"连续{rounds}回合未吃子（将军最多计{max_checks_counted}着），{zh}可按自然限着提和（第4.2.4条、第22.2条）。"
                f" {rounds} rounds without a capture (at most {max_checks_counted} checks counted):"
                f" {en} may claim a draw by the natural limit (art. 4.2.4, 22.2). Advice for the arbiter.")
        return Outcome("1/2-1/2", None, "natural_limit", "4.2.4", text, True)

    # --- the outcome ----------------------------------------------------------------
    def outcome(self, rounds: int = 60, max_checks_counted: int = 10) -> Outcome | None:
        """How the game stands now: mate or stalemate, else a repetition verdict, the natural
        limit or a position without attacking pieces (advice), else ``None``.
        """
        position = self.position
        mover = position.side_to_move
        winner = opponent(mover)
        result = "1-0" if winner == RED else "0-1"
        if position.is_checkmate():
            text = (f"{_SIDE_ZH[mover]}被将死，{_SIDE_ZH[winner]}胜（第3.2条、第4.1.1条）。"
                    f" {mover.capitalize()} is checkmated: {winner} wins (art. 3.2, 4.1.1).")
            return Outcome(result, winner, "checkmate", "4.1.1", text, False)
        if position.is_stalemate():
            text = (f"{_SIDE_ZH[mover]}无子可走，被困毙，{_SIDE_ZH[winner]}胜（第3.3条、第4.1.2条）。"
                    f" {mover.capitalize()} has no legal move (stalemate) and loses: {winner} wins (art. 3.3, 4.1.2).")
            return Outcome(result, winner, "stalemate", "4.1.2", text, False)
        verdict = self.repetition() or self.long_attack()
        if verdict is not None:
            return Outcome(verdict.result, verdict.winner, verdict.code, verdict.article, verdict.text, True, verdict)
        limit = self.natural_limit(rounds, max_checks_counted)
        if limit is not None:
            return limit
        if not any(p.upper() in "RNCP" for p in position.board if p != "."):
            text = ("双方均无进攻子力，无取胜可能，可判和（第4.2.2条）。"
                    " Neither side has a chariot, horse, cannon or soldier left: nobody can win,"
                    " a draw (art. 4.2.2). Advice for the arbiter.")
            return Outcome("1/2-1/2", None, "no_attacking_pieces", "4.2.2", text, True)
        return None
