"""The hand choreography of a game video: ordinary moves and the injected arbiter cases.

A :class:`Choreographer` keeps the physical board (where every piece really stands, with
its rotation and offset), the clock and a time cursor, and appends hand tracks, board
changes, clock presses, ply records and injection records as it acts. Times are seconds,
positions board coordinates (see :mod:`synth.video_timeline`).
"""

from __future__ import annotations

import dataclasses
import math
import random

from rules import BLACK, RED, Move, Position
from rules.squares import file_of, rank_of, square_name
from synth.clocklog import GameClock
from synth.video_faults import NUDGE_MAX, illegal_destination, knock_target, nudge_target, wrong_side_move
from synth.video_timeline import (
    BoardChange,
    BoardState,
    HandTrack,
    Injection,
    Keyframe,
    Placement,
    PlyRecord,
    Press,
    clear_of_others,
    state_board,
    state_from_dict,
)

ARBITER = "arbiter"
SKIN_TONES = 6
SLEEVES = 8


def _other(side: str) -> str:
    return BLACK if side == RED else RED


def _xy(sq: int) -> tuple[float, float]:
    return float(file_of(sq)), float(rank_of(sq))


class _Hand:
    """Builds one hand track key by key; ``holding`` applies from the last key on."""

    def __init__(self, actor: str, purpose: str, t0: float, rest: tuple[float, float],
                 speed: float, holding: tuple[str, ...] = ()) -> None:
        self.actor, self.purpose, self.speed = actor, purpose, speed
        self.holding = holding
        self.keys = [Keyframe(t0, rest[0], rest[1], 0.7, holding)]

    @property
    def t(self) -> float:
        return self.keys[-1].t

    @property
    def at(self) -> tuple[float, float]:
        return self.keys[-1].x, self.keys[-1].y

    def go(self, x: float, y: float, z: float, duration: float) -> None:
        self.keys.append(Keyframe(self.t + duration / self.speed, x, y, z, self.holding))

    def pause(self, duration: float) -> None:
        last = self.keys[-1]
        self.go(last.x, last.y, last.z, duration)

    def _hold(self, holding: tuple[str, ...]) -> None:
        self.holding = holding
        self.keys[-1] = dataclasses.replace(self.keys[-1], holding=holding)

    def take(self, piece: str) -> None:
        self._hold((*self.holding, piece))

    def drop(self, piece: str) -> None:
        held = list(self.holding)
        held.remove(piece)
        self._hold(tuple(held))


class Choreographer:
    """Acts a game out on the physical board, move by move, recording what happens and when."""

    def __init__(self, rng: random.Random, initial: BoardState, clock: GameClock,
                 speed: float = 1.0, nudge_rate: float = 0.15) -> None:
        self.rng, self.clock, self.speed, self.nudge_rate = rng, clock, speed, nudge_rate
        self.board: dict[int, Placement] = dict(initial)
        self.t = 0.0
        self.changes: list[BoardChange] = []
        self.tracks: list[HandTrack] = []
        self.presses: list[Press] = []
        self.plies: list[PlyRecord] = []
        self.injections: list[Injection] = []
        skins = rng.sample(range(SKIN_TONES), 3)
        sleeves = rng.sample(range(SLEEVES), 3)
        self.looks = {RED: (skins[0], sleeves[0]), BLACK: (skins[1], sleeves[1]), ARBITER: (skins[2], sleeves[2])}
        lateral = {RED: rng.uniform(1.0, 3.5), BLACK: rng.uniform(1.0, 3.5)}
        # Players are right-handed: red's right is towards file i, black's towards file a.
        self.shoulders = {RED: (4.0 + lateral[RED] + 1.5, -11.0), BLACK: (4.0 - lateral[BLACK] - 1.5, 20.0)}
        self.rests = {RED: (4.0 + lateral[RED], -7.5), BLACK: (4.0 - lateral[BLACK], 16.5)}
        arbiter_side = rng.choice((-1.0, 1.0))
        self.shoulders[ARBITER] = (4.0 + arbiter_side * 16.0, rng.uniform(3.0, 6.0))
        self.rests[ARBITER] = (4.0 + arbiter_side * 12.0, self.shoulders[ARBITER][1])
        self.leave_started = 0.0
        self.knocked: tuple[int, tuple[float, float]] = (0, (0.0, 0.0))

    # --- primitives ---------------------------------------------------------------
    def _u(self, low: float, high: float) -> float:
        return self.rng.uniform(low, high)

    def _change(self, t: float, why: str) -> None:
        if self.changes and t < self.changes[-1].t:
            raise AssertionError("board changes must come in time order")
        self.changes.append(BoardChange(t, state_from_dict(self.board), why))

    def _start(self, actor: str, purpose: str, holding: tuple[str, ...] = (), t0: float | None = None) -> _Hand:
        rest = self.rests[actor]
        jitter = (self._u(-0.8, 0.8), self._u(-0.5, 0.5))
        return _Hand(actor, purpose, self.t if t0 is None else t0,
                     (rest[0] + jitter[0], rest[1] + jitter[1]), self.speed, holding)

    def _reach(self, hand: _Hand, x: float, y: float) -> None:
        hand.go(x + self._u(-0.15, 0.15), y + self._u(-0.15, 0.15), 0.3, self._u(0.5, 0.8))
        hand.go(x, y, 0.0, self._u(0.15, 0.25))

    def _lift(self, hand: _Hand, sq: int, why: str) -> Placement:
        placement = self.board.pop(sq)
        self._change(hand.t, f"{why}: {placement.piece} lifted from {square_name(sq)}")
        hand.take(placement.piece)
        x, y = _xy(sq)
        hand.go(x, y, 0.3, self._u(0.12, 0.2))
        return placement

    def _carry(self, hand: _Hand, x: float, y: float) -> None:
        distance = math.hypot(x - hand.at[0], y - hand.at[1])
        hand.go(x, y, 0.3, 0.2 + 0.07 * distance * self._u(0.8, 1.2))
        hand.go(x, y, 0.0, self._u(0.12, 0.2))

    def _capture(self, hand: _Hand, sq: int, why: str) -> Placement:
        captured = self.board.pop(sq)
        self._change(hand.t, f"{why}: {captured.piece} captured on {square_name(sq)}")
        hand.take(captured.piece)
        hand.pause(self._u(0.15, 0.3))
        return captured

    def _put(self, hand: _Hand, sq: int, piece: str, why: str) -> None:
        owner_turn = 0.0 if piece.isupper() else 180.0
        rotation = (owner_turn + self.rng.gauss(0.0, 9.0)) % 360.0
        dx = max(-0.15, min(0.15, self.rng.gauss(0.0, 0.05)))
        dy = max(-0.15, min(0.15, self.rng.gauss(0.0, 0.05)))
        dx, dy = clear_of_others(self.board, sq, dx, dy)
        self.board[sq] = Placement(piece, rotation - owner_turn, dx, dy)
        self._change(hand.t, f"{why}: {piece} placed on {square_name(sq)}")
        hand.drop(piece)
        hand.pause(self._u(0.08, 0.15))

    def _shift(self, t: float, sq: int, offset: tuple[float, float], why: str, absolute: bool = False) -> None:
        """Move the piece on ``sq`` to ``offset`` (``absolute``: a knock) or by it (a nudge: nudges add up,
        but never past ``NUDGE_MAX`` from the point, so a clean game keeps every piece on its point)."""
        old = self.board[sq]
        dx, dy = offset if absolute else (old.dx + offset[0], old.dy + offset[1])
        if not absolute and math.hypot(dx, dy) > NUDGE_MAX:
            scale = NUDGE_MAX / math.hypot(dx, dy)
            dx, dy = dx * scale, dy * scale
        if not absolute:
            dx, dy = clear_of_others(self.board, sq, dx, dy, (old.dx, old.dy))
        self.board[sq] = dataclasses.replace(old, dx=dx, dy=dy)
        self._change(t, f"{why}: {old.piece} on {square_name(sq)} to offset ({dx:.2f}, {dy:.2f})")

    def _leave(self, hand: _Hand) -> int:
        x, y = hand.at
        hand.go(x, y, 0.3, self._u(0.12, 0.2))
        rest = self.rests[hand.actor]
        hand.go(rest[0] + self._u(-0.8, 0.8), rest[1] + self._u(-0.5, 0.5), 0.7, self._u(0.5, 0.8))
        skin, sleeve = self.looks[hand.actor]
        self.tracks.append(HandTrack(hand.actor, hand.purpose, tuple(hand.keys),
                                     self.shoulders[hand.actor], skin, sleeve))
        return len(self.tracks) - 1

    def _press(self, t: float, side: str, ply: int | None, note: str = "") -> Press:
        event = self.clock.press(t, side)
        press = Press(t, side, event.red_ms, event.black_ms, ply, note)
        self.presses.append(press)
        return press

    def _physical_fen(self, side: str) -> str:
        return Position(state_board(state_from_dict(self.board)), side).fen()

    def _carry_piece(self, hand: _Hand, src: int, dst: int, why: str) -> Placement | None:
        """Reach ``src``, lift its piece, carry it to ``dst`` (capturing what stands there), place it."""
        self._reach(hand, *_xy(src))
        placement = self._lift(hand, src, why)
        self._carry(hand, *_xy(dst))
        captured = self._capture(hand, dst, why) if dst in self.board else None
        self._put(hand, dst, placement.piece, why)
        return captured

    # --- ordinary moves -------------------------------------------------------------
    def play(self, ply: int, before: Position, move: Move, *, press: bool = True,
             knock: bool = False, t0: float | None = None) -> PlyRecord:
        """One ordinary move: reach, lift, capture, place (maybe nudging a neighbour), leave, press."""
        mover = before.side_to_move
        hand = self._start(mover, f"ply {ply}", t0=t0)
        captured = self._carry_piece(hand, move.from_square, move.to_square, f"ply {ply}")
        board = state_board(state_from_dict(self.board))
        near = [move.to_square]
        if knock:
            target = knock_target(board, near, {move.to_square}, self.rng)
            if target is None:
                raise ValueError(f"no piece next to {square_name(move.to_square)} can be knocked at ply {ply}")
            self._shift(hand.t, target[0], target[1], f"ply {ply} knock", absolute=True)
            self.knocked = target
        elif self.rng.random() < self.nudge_rate:
            nudge = nudge_target(board, near, {move.to_square}, self.rng)
            if nudge is not None:
                self._shift(hand.t, nudge[0], nudge[1], f"ply {ply} nudge")
        self.leave_started = hand.t
        track = self._leave(hand)
        self.t = hand.t
        press_t = None
        if press:
            press_t = self.t + self._u(0.1, 0.35)
            self._press(press_t, mover, ply)
            self.t = press_t
        record = PlyRecord(ply, move.iccs, mover, "", captured.piece if captured else None,
                           hand.t, press_t, track)
        self.plies.append(record)
        return record

    def quick_pair(self, ply: int, before: Position, move: Move, middle: Position, reply: Move) -> None:
        """Two moves with no still view between: the reply's hand comes in as the first one leaves."""
        first = self.play(ply, before, move)
        t0 = self.leave_started + self._u(0.0, 0.3)
        second = self.play(ply + 1, middle, reply, t0=t0)
        first.stable_after = False
        self.injections.append(Injection(
            "quick_pair", ply, before.side_to_move, [move.iccs, reply.iccs], self.tracks[first.track].start,
            second.t_complete, "two moves between stable views: both recorded, in order, from one change",
            {"alerts": ["two_moves"], "moves": [move.iccs, reply.iccs]}, [first.track, second.track]))

    # --- injected cases ---------------------------------------------------------------
    def inject(self, kind: str, ply: int, before: Position, move: Move) -> None:
        """Act out ply ``ply`` with the fault ``kind`` (see :data:`synth.video_faults.INJECTION_KINDS`)."""
        handler = {
            "illegal": self._illegal,
            "restore": self._restore,
            "wrong_side": self._wrong_side,
            "knock": self._knock,
            "press_no_move": self._press_no_move,
            "no_press": self._no_press,
        }.get(kind)
        if handler is None:
            raise ValueError(f"unknown injection {kind!r}")
        handler(ply, before, move)

    def _illegal_attempt(self, ply: int, before: Position, move: Move) -> tuple[int, str, str, Placement | None, int]:
        dst, code, text = illegal_destination(before, move, self.rng)
        hand = self._start(before.side_to_move, f"ply {ply} illegal")
        captured = self._carry_piece(hand, move.from_square, dst, f"ply {ply} illegal")
        track = self._leave(hand)
        self.t = hand.t
        return dst, code, text, captured, track

    def _illegal(self, ply: int, before: Position, move: Move) -> None:
        mover = before.side_to_move
        start = self.t
        dst, code, text, captured, track = self._illegal_attempt(ply, before, move)
        seen, seen_t = self._physical_fen(_other(mover)), self.t
        self.t += self._u(1.5, 3.0)
        holding = (captured.piece,) if captured else ()
        hand = self._start(mover, f"ply {ply} correction", holding)
        self._reach(hand, *_xy(dst))
        placement = self._lift(hand, dst, f"ply {ply} correction")
        if captured:
            self._put(hand, dst, captured.piece, f"ply {ply} correction")
        self._carry(hand, *_xy(move.to_square))
        taken = self._capture(hand, move.to_square, f"ply {ply}") if move.to_square in self.board else None
        self._put(hand, move.to_square, placement.piece, f"ply {ply}")
        second = self._leave(hand)
        self.t = hand.t + self._u(0.1, 0.35)
        self._press(self.t, mover, ply)
        self.plies.append(PlyRecord(ply, move.iccs, mover, "", taken.piece if taken else None,
                                    hand.t, self.t, second))
        self.injections.append(Injection(
            "illegal", ply, mover, [square_name(move.from_square), square_name(dst)], start, hand.t,
            f"IllegalMoveAlert for {square_name(move.from_square)}{square_name(dst)} ({text}) once the board is "
            f"still; no move recorded for it; the player then moves the same piece and ply {ply} ({move.iccs}) "
            "is recorded",
            {"alerts": ["illegal_move"], "violation": code, "reason": text, "fen_seen": seen,
             "t_seen": seen_t, "captured": captured.piece if captured else None, "pressed": False},
            [track, second]))

    def _restore(self, ply: int, before: Position, move: Move) -> None:
        mover = before.side_to_move
        start = self.t
        dst, code, text, captured, track = self._illegal_attempt(ply, before, move)
        seen, seen_t = self._physical_fen(_other(mover)), self.t
        self.t += self._u(0.1, 0.35)
        self._press(self.t, mover, ply, "after an illegal move")
        self.t += self._u(1.5, 3.0)
        holding = (captured.piece,) if captured else ()
        hand = self._start(ARBITER, f"ply {ply} arbiter restores", holding)
        self._reach(hand, *_xy(dst))
        placement = self._lift(hand, dst, "arbiter")
        if captured:
            self._put(hand, dst, captured.piece, "arbiter")
        self._carry(hand, *_xy(move.from_square))
        self._put(hand, move.from_square, placement.piece, "arbiter")
        arbiter = self._leave(hand)
        restored_t = hand.t
        self.t = hand.t + self._u(0.2, 0.5)
        self._press(self.t, _other(mover), None, "arbiter gives the move back")
        self.t += self._u(1.0, 2.5)
        record = self.play(ply, before, move)
        self.injections.append(Injection(
            "restore", ply, mover, [square_name(move.from_square), square_name(dst)], start, record.t_complete,
            f"IllegalMoveAlert for {square_name(move.from_square)}{square_name(dst)} ({text}); the arbiter "
            f"restores the position (art. 5.8.3) and presses the clock back: PositionRestored; then ply {ply} "
            f"({move.iccs}) with the touched piece is recorded",
            {"alerts": ["illegal_move", "position_restored"], "violation": code, "reason": text,
             "fen_seen": seen, "t_seen": seen_t, "t_restored": restored_t, "fen_restored": before.fen(),
             "captured": captured.piece if captured else None, "pressed": True},
            [track, arbiter, record.track]))

    def _wrong_side(self, ply: int, before: Position, move: Move) -> None:
        mover, other = before.side_to_move, _other(before.side_to_move)
        wrong = wrong_side_move(before, self.rng)
        start = self.t
        hand = self._start(other, f"ply {ply} wrong side")
        self._carry_piece(hand, wrong.from_square, wrong.to_square, f"ply {ply} wrong side")
        first = self._leave(hand)
        seen, seen_t = self._physical_fen(mover), hand.t
        self.t = hand.t + self._u(1.5, 3.0)
        hand = self._start(other, f"ply {ply} take back")
        self._carry_piece(hand, wrong.to_square, wrong.from_square, f"ply {ply} take back")
        back = self._leave(hand)
        restored_t = hand.t
        self.t = hand.t + self._u(1.0, 2.0)
        record = self.play(ply, before, move)
        self.injections.append(Injection(
            "wrong_side", ply, other, [square_name(wrong.from_square), square_name(wrong.to_square)], start,
            record.t_complete,
            f"alert: {other} moved {wrong.iccs} while {mover} is to move (art. 2.1); the move is taken back "
            f"(PositionRestored); then ply {ply} ({move.iccs}) by {mover} is recorded",
            {"alerts": ["wrong_side", "position_restored"], "move": wrong.iccs, "fen_seen": seen,
             "t_seen": seen_t, "t_restored": restored_t},
            [first, back, record.track]))

    def _knock(self, ply: int, before: Position, move: Move) -> None:
        mover = before.side_to_move
        record = self.play(ply, before, move, knock=True)
        sq, offset = self.knocked
        piece = self.board[sq].piece
        knocked_t = record.t_complete
        self.t += self._u(1.5, 3.0)
        hand = self._start(mover, f"ply {ply} fix knocked piece")
        x, y = _xy(sq)
        self._reach(hand, x + offset[0], y + offset[1])
        hand.go(x, y, 0.0, self._u(0.25, 0.4))
        self._shift(hand.t, sq, (self.rng.gauss(0.0, 0.03), self.rng.gauss(0.0, 0.03)), "put back", absolute=True)
        fix = self._leave(hand)
        self.t = hand.t
        distance = math.hypot(*offset)
        self.injections.append(Injection(
            "knock", ply, mover, [square_name(sq)], knocked_t, hand.t,
            f"BoardDisturbed: the {piece} on {square_name(sq)} lies {distance:.2f} grid spacings off its point "
            f"after ply {ply}; cleared when the mover puts it back (art. 5.9); no move recorded for the fix",
            {"alerts": ["board_disturbed"], "piece": piece, "offset": [round(offset[0], 3), round(offset[1], 3)],
             "t_fixed": hand.t},
            [record.track, fix]))

    def _press_no_move(self, ply: int, before: Position, move: Move) -> None:
        mover = before.side_to_move
        start = self.t
        self._press(self.t, mover, None, "pressed without a move")
        self.t += self._u(1.0, 2.5)
        back_t = self.t
        self._press(self.t, _other(mover), None, "opponent presses back")
        self.t += self._u(1.0, 2.5)
        record = self.play(ply, before, move)
        self.injections.append(Injection(
            "press_no_move", ply, mover, [], start, back_t,
            f"ClockPressed by {mover} with no move on the board (art. 8.1.7); the opponent's press back gives the "
            f"time back (a press_back note, no foul); no move recorded until ply {ply} ({move.iccs})",
            {"alerts": ["press_without_move"], "t_press": start, "t_press_back": back_t},
            [record.track]))

    def _no_press(self, ply: int, before: Position, move: Move) -> None:
        mover = before.side_to_move
        record = self.play(ply, before, move, press=False)
        self.injections.append(Injection(
            "no_press", ply, mover, [move.iccs[:2], move.iccs[2:]], self.tracks[record.track].start,
            record.t_complete,
            f"ply {ply} ({move.iccs}) is recorded from the board with no clock press; {mover}'s time keeps "
            "running, so the opponent's next press changes nothing on the clock",
            {"alerts": ["move_without_press"]}, [record.track]))
