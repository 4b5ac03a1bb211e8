"""Catching up after the board and the record parted: the moves that explain the views seen since.

When a still view fits no legal continuation (two points misread at once, a piece hidden by glare
while it moves), the resolver stops recording, and the game goes on. Each later view alone is
then several moves away from the record, out of reach of the one-view candidates. ``catch_up``
reads all the views seen since the last confirmed position as one sequence: a path of legal
moves, at most one new move per view (two where the touched points allow it: a fast
player), scored by how well each view explains the position the path
has reached by then (a beam search, best path per board kept at each view). A move is only
allowed in a view when something moved near both its points since the view before (the motion
detector's touched points): a piece does not change places without a hand. A misread point in
one view is outvoted by the views before and after it. The path is used only when it leads the
best path to any other board by a clear margin and fits the latest view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from recorder.resolver_scoring import Scorer, boards_classes
from rules import Move, Position


@dataclass(frozen=True)
class CatchUp:
    """A path from the record's position through the views: ``steps[i]`` is what view ``i`` first
    showed, ``positions[i]`` the position the path has reached at view ``i``."""

    steps: tuple[tuple[Move, ...], ...]
    positions: tuple[Position, ...]
    score: float
    gap: float  # over the best path that ends on another board (nats)
    bad: int  # points of the latest view that clearly contradict the path's last board
    rivals: tuple[tuple[str, float], ...] = ()  # (board, nats behind the path) of the paths to other boards, nearest first

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(m for step in self.steps for m in step)

    @property
    def position(self) -> Position:
        """Where the path ends."""
        return self.positions[-1]


@dataclass(frozen=True)
class _State:
    score: float
    position: Position
    steps: tuple[tuple[Move, ...], ...]
    positions: tuple[Position, ...]


def _after(board: str, move: Move) -> str:
    """The board string after ``move`` (no rules checked: the move comes from ``legal_moves``)."""
    cells = list(board)
    cells[move.to_square] = cells[move.from_square]
    cells[move.from_square] = "."
    return "".join(cells)


def _moves_near(position: Position, moved: np.ndarray | None) -> list[Move]:
    """Legal moves of ``position`` whose two points something moved near (all of them without a mask)."""
    moves = position.legal_moves()
    if moved is None:
        return list(moves)
    return [m for m in moves if moved[m.from_square] and moved[m.to_square]]


def catch_up(start: Position, views: Sequence[Scorer], touched: Sequence[np.ndarray | None] | None = None, *,
             beam: int = 48, stay_prior: float = 0.5, pair_prior: float = 3.0) -> CatchUp | None:
    """The best path of legal moves (none or one per view) from ``start`` through ``views``, or None.

    ``touched[i]`` marks the points something moved near before view ``i`` (None: anything may
    have moved). ``stay_prior`` is charged (nats) for each view that shows no new move, so a
    path does not linger where a move explains the view as well, ``pair_prior`` for two moves in
    one view (tried only where the touched points are known: they keep the pairs few).
    """
    if not views:
        return None
    near = list(touched) if touched is not None else [None] * len(views)
    if len(near) != len(views):
        raise ValueError("one touched mask (or None) per view")
    states = [_State(0.0, start, (), ())]
    for scorer, moved in zip(views, near, strict=True):
        boards: list[str] = []
        origins: list[tuple[int, tuple[Move, ...], Position]] = []  # parent, moves, position before the last
        for index, state in enumerate(states):
            board = state.position.board
            boards.append(board)
            origins.append((index, (), state.position))
            for move in _moves_near(state.position, moved):
                after = _after(board, move)
                boards.append(after)
                origins.append((index, (move,), state.position))
                if moved is not None:
                    middle = state.position.play(move)
                    for reply in _moves_near(middle, moved):
                        boards.append(_after(after, reply))
                        origins.append((index, (move, reply), middle))
        priors = {0: stay_prior, 1: 0.0, 2: pair_prior}
        scores = scorer.scores(boards_classes(boards))
        scores += np.array([states[i].score - priors[len(step)] for i, step, _ in origins])
        best_per_board: dict[str, int] = {}
        for k in np.argsort(-scores, kind="stable"):
            best_per_board.setdefault(boards[k], int(k))
            if len(best_per_board) >= beam:
                break
        survivors: list[_State] = []
        for k in best_per_board.values():
            parent_index, step, before_last = origins[k]
            parent = states[parent_index]
            position = before_last.play(step[-1]) if step else before_last
            survivors.append(_State(float(scores[k]), position, parent.steps + (step,), parent.positions + (position,)))
        states = sorted(survivors, key=lambda s: -s.score)
    best = states[0]
    runner = states[1].score if len(states) > 1 else -np.inf
    last = views[-1]
    bad = int(last.bad_points(boards_classes([best.position.board])[0]).sum())
    return CatchUp(best.steps, best.positions, best.score, best.score - runner, bad,
                   tuple((state.position.board, best.score - state.score) for state in states[1:]))
