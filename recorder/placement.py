"""The reading of a whole board that the rules allow and the classifier's probabilities favour most.

The classifier reads each point alone, but a board obeys rules that no single crop shows: each side
has one general, at most two advisors, elephants, horses, chariots and cannons and five soldiers;
generals and advisors keep to their palace's points, elephants to their seven points, and before the
river a soldier stands only on its start file (one per file) at or ahead of its start, and a side
with pieces on the board has its general. A point read as a third red chariot, or an advisor outside
the palace, is misread however sure it looked.
``legal_labels`` returns, of all readings that obey these rules, the one with the highest joint
probability (the product over the points), exactly; where the most probable class of every point
already obeys them (most boards) that is simply it. Covered points stay covered: what is under the
hand counts for nothing. It reads one picture, so it knows no side to move and no history; the
recorder judges a board against the game instead (``recorder.resolver``).

The search is a minimum-cost assignment of points to classes with nested capacities (each soldier
file before the river inside the soldier count), solved by cancelling negative cycles (Bellman-Ford)
from the point-wise best reading, in which only the capacities are broken.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence

import numpy as np

from recorder.vision import COVERED, EMPTY, POINT_NAMES, PointProbabilities, fen_placement
from rules.squares import BLACK, PIECE_LIMITS, RED, file_of, own_half, parse_square, standing_problem

log = logging.getLogger(__name__)

_FLOOR = 1e-9  # probabilities are floored here before their logarithm (a zero must not be impossible)
_EXCESS = 1e4  # cost of one piece over a capacity (or of a missing general): above any sum of log odds
_MAX_CYCLES = 360  # corrections of one reading; real boards need under 40, garbage under 100


def legal_labels(probs: PointProbabilities) -> list[str]:
    """Per point (``POINT_NAMES`` order) the class of the most probable reading the rules allow."""
    return list(_reading(tuple(probs.classes)).best(probs.probs))


def legal_fen_placement(probs: PointProbabilities) -> str:
    """The FEN piece placement (red at the bottom) of ``legal_labels``; covered points written empty."""
    return fen_placement(legal_labels(probs))


@functools.lru_cache(maxsize=4)
def _reading(classes: tuple[str, ...]) -> _Reading:
    return _Reading(classes)


class _Reading:
    """The rules of one class list, as costs and capacities over the 90 points."""

    def __init__(self, classes: Sequence[str], points: Sequence[str] = POINT_NAMES) -> None:
        self.classes = tuple(classes)
        squares = [parse_square(name) for name in points]
        pieces = [c for c, name in enumerate(self.classes) if name not in (EMPTY, COVERED)]
        self.allowed = np.ones((len(points), len(self.classes)), dtype=bool)
        self.capacity = np.full(len(self.classes), len(points))
        for c in pieces:
            letter = self.classes[c]
            self.capacity[c] = PIECE_LIMITS[letter.upper()]
            self.allowed[:, c] = [standing_problem(letter, sq) is None for sq in squares]
        # a soldier on its own side of the river belongs to its file's group (capacity one)
        self.group = np.full((len(points), len(self.classes)), -1)
        self.group_class: list[int] = []
        for letter, side in (("P", RED), ("p", BLACK)):
            if letter not in self.classes:
                continue
            c = self.classes.index(letter)
            for file in range(0, 9, 2):
                members = [i for i, sq in enumerate(squares) if file_of(sq) == file and own_half(sq, side)]
                self.group[members, c] = len(self.group_class)
                self.group_class.append(c)
        self.generals = [self.classes.index(g) for g in ("K", "k") if g in self.classes]
        self.side_pieces = {g: [c for c in pieces if c != g and self.classes[c].isupper() == self.classes[g].isupper()]
                            for g in self.generals}  # a general's own side's other pieces
        self.covered = self.classes.index(COVERED) if COVERED in self.classes else -1

    def best(self, probs: np.ndarray) -> np.ndarray:
        """The class names of the most probable allowed reading of ``probs`` (points x classes)."""
        clean = np.nan_to_num(np.asarray(probs, dtype=np.float64), nan=0.0)  # a NaN reading says nothing
        cost = np.where(self.allowed, -np.log(np.maximum(clean, _FLOOR)), np.inf)
        assigned = np.argmin(cost, axis=1)
        # A side with pieces on the board has its general there too: unless a point it may stand on
        # is read as covered, a reading of that side without one is wrong. An empty board (before a
        # game, or cleared after it) needs none.
        required = [g for g in self.generals
                    if np.isin(assigned, self.side_pieces[g]).any()
                    and not (assigned[self.allowed[:, g]] == self.covered).any()]
        for _ in range(_MAX_CYCLES):  # each cancelled cycle lowers the cost
            cycle = self._negative_cycle(cost, assigned, required)
            if cycle is None:
                break
            for point, cls in cycle:
                assigned[point] = cls
        else:
            log.warning("board reading stopped after %d corrections; it may not be the most probable", _MAX_CYCLES)
        return np.array(self.classes, dtype=object)[assigned]

    def _negative_cycle(self, cost: np.ndarray, assigned: np.ndarray,
                        required: list[int]) -> list[tuple[int, int]] | None:
        """A negative-cost cycle of the residual network as (point, new class) changes, or None.

        Nodes: 0 the sink, then the points, the classes and the soldier file groups. A point's unit
        flows to its class (through its file group for a soldier before the river) and on to the sink;
        the arcs out of a class or group that is full cost ``_EXCESS`` more, those back into one that
        is over full ``_EXCESS`` less, so the cheapest cycles first remove what breaks the rules.
        """
        n_points, n_classes = cost.shape
        first_class, first_group = 1 + n_points, 1 + n_points + n_classes
        n_nodes = first_group + len(self.group_class)
        counts = np.bincount(assigned, minlength=n_classes)
        rows = np.arange(n_points)
        in_group = self.group[rows, assigned]
        group_counts = np.bincount(in_group[in_group >= 0], minlength=len(self.group_class))
        target = np.where(self.group >= 0, first_group + self.group, first_class + np.arange(n_classes)[None, :])
        point_node = 1 + rows
        # a point leaves its class (back along its arc) or takes another one
        moves = np.isfinite(cost) & (np.arange(n_classes)[None, :] != assigned[:, None])
        move_point, move_class = np.nonzero(moves)
        src = [target[rows, assigned], point_node[move_point]]
        dst = [point_node, target[move_point, move_class]]
        weight = [-cost[rows, assigned], cost[move_point, move_class]]
        for group, cls in enumerate(self.group_class):
            node, used = first_group + group, group_counts[group]
            src.append(np.array([node]))
            dst.append(np.array([first_class + cls]))
            weight.append(np.array([0.0 if used < 1 else _EXCESS]))
            if used > 0:
                src.append(np.array([first_class + cls]))
                dst.append(np.array([node]))
                weight.append(np.array([-_EXCESS if used > 1 else 0.0]))
        classes = np.arange(n_classes)
        full = counts >= self.capacity
        over = counts > self.capacity
        bonus = np.zeros(n_classes)
        bonus[[g for g in required if counts[g] == 0]] = _EXCESS  # filling an empty required class earns this
        src.append(first_class + classes)
        dst.append(np.zeros(n_classes, dtype=int))
        weight.append(np.where(full, _EXCESS, 0.0) - bonus)
        used = counts > 0
        src.append(np.zeros(int(used.sum()), dtype=int))
        dst.append(first_class + classes[used])
        weight.append(np.where(over[used], -_EXCESS, 0.0)
                      + np.where(np.isin(classes[used], required) & (counts[used] == 1), _EXCESS, 0.0))
        src_all, dst_all = np.concatenate(src), np.concatenate(dst)
        weight_all = np.concatenate(weight)
        cycle = _find_negative_cycle(n_nodes, src_all, dst_all, weight_all)
        if cycle is None:
            return None
        changes = []
        for arc in cycle:
            point = src_all[arc] - 1
            if 0 <= point < n_points:  # an arc out of a point: the point takes the class it leads to
                node = dst_all[arc]
                cls = self.group_class[node - first_group] if node >= first_group else node - first_class
                changes.append((int(point), int(cls)))
        return changes


def _find_negative_cycle(n_nodes: int, src: np.ndarray, dst: np.ndarray, weight: np.ndarray) -> list[int] | None:
    """The arcs of a negative-weight cycle (Bellman-Ford from every node at once), or None."""
    dist = np.zeros(n_nodes)
    pred = np.full(n_nodes, -1)
    last = -1
    for _ in range(n_nodes):
        candidate = dist[src] + weight
        cheapest = np.full(n_nodes, np.inf)
        np.minimum.at(cheapest, dst, candidate)
        improving = np.flatnonzero((candidate <= cheapest[dst]) & (candidate < dist[dst] - 1e-9))
        if not len(improving):
            return None
        # any of the cheapest arcs into a node will do as its predecessor
        pred[dst[improving]] = improving
        dist[dst[improving]] = candidate[improving]
        last = int(dst[improving[0]])
    node = last
    for _ in range(n_nodes):  # walk back onto the cycle (every node on the way was relaxed: pred is set)
        assert pred[node] >= 0
        node = int(src[pred[node]])
    cycle, at = [], node
    while True:
        arc = int(pred[at])
        cycle.append(arc)
        at = int(src[arc])
        if at == node:
            break
    if float(weight[cycle].sum()) >= 0:  # cannot happen with exact arithmetic; stop rather than loop
        return None
    return cycle
