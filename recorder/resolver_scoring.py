"""Scoring candidate positions against an observation: log-likelihood under per-point probabilities.

A candidate board explains an observation as well as the classifier believes each of its points:
the score is the sum over the visible points of ``log p(point shows the candidate's piece)``
(probabilities floored so one misread point costs a bounded amount). Points the classifier
clearly contradicts are counted as ``bad`` points.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from recorder.observer import CLASSES, PIECE_CLASSES

_LUT = np.zeros(256, dtype=np.int64)
for _index, _name in enumerate(CLASSES[:PIECE_CLASSES]):
    _LUT[ord("." if _name == "empty" else _name)] = _index


def board_classes(board: str) -> np.ndarray:
    """(90,) class index of each square of a 90-character board string ('.' empty)."""
    return _LUT[np.frombuffer(board.encode("ascii"), dtype=np.uint8)]


def boards_classes(boards: list[str]) -> np.ndarray:
    """(N, 90) class indices of several boards."""
    if not boards:
        return np.zeros((0, 90), dtype=np.int64)
    return _LUT[np.frombuffer("".join(boards).encode("ascii"), dtype=np.uint8).reshape(len(boards), 90)]


class Scorer:
    """Scores of boards under one observation.

    ``piece_probs`` (90, 15) are the probabilities of empty and the 14 pieces, renormalised
    without "covered"; ``visible`` marks the points that count. ``unreliable`` points (blown
    out by glare) count in the scores but are never a clear contradiction (``trusted``): under
    glare the classifier often reads an empty point surely as a piece, or a piece as empty. ``ignored``
    points count neither in the scores nor as contradictions, but stay ``visible`` (their discs are
    still measured): readings known to say nothing now. A point's probability is read
    in three parts: whether it is occupied (floored at ``floor``), the piece's colour given that
    (floored at ``colour_floor``) and its kind given the colour (floored at ``type_floor``, much
    higher): a classifier tells a piece from an empty point best and red from black next, and
    nearly every legal continuation differs from the others in occupancy or colour, so a
    doubtful piece kind must not outweigh them.
    """

    def __init__(self, probs: np.ndarray, mask: np.ndarray, floor: float = 1e-3, bad_p: float = 0.1,
                 type_floor: float = 0.1, colour_floor: float = 0.02, unreliable: np.ndarray | None = None,
                 ignored: np.ndarray | None = None) -> None:
        piece = np.asarray(probs, dtype=np.float64)[:, :PIECE_CLASSES]
        piece = piece / np.maximum(piece.sum(axis=1, keepdims=True), 1e-12)
        self.piece_probs = piece
        self.visible = ~np.asarray(mask, dtype=bool)
        self.trusted = self.visible if unreliable is None else self.visible & ~np.asarray(unreliable, dtype=bool)
        self.occupied_p = 1.0 - piece[:, 0]
        red, black = piece[:, 1:8], piece[:, 8:15]
        red_p, black_p = red.sum(axis=1), black.sum(axis=1)
        occupied = np.maximum(self.occupied_p, 1e-12)
        logp = np.empty_like(piece)
        logp[:, 0] = np.log(np.maximum(piece[:, 0], floor))
        occ = np.log(np.maximum(self.occupied_p, floor))[:, None]
        for columns, side_p in ((slice(1, 8), red_p), (slice(8, 15), black_p)):
            colour = np.log(np.maximum(side_p / occupied, colour_floor))[:, None]
            kind = np.log(np.maximum(piece[:, columns] / np.maximum(side_p, 1e-12)[:, None], type_floor))
            logp[:, columns] = occ + colour + kind
        if ignored is not None:  # seen, but read as it was when known wrong: no score, no contradiction
            self.trusted = self.trusted & ~np.asarray(ignored, dtype=bool)
        self.logp = logp * (self.visible if ignored is None else self.visible & ~np.asarray(ignored, dtype=bool))[:, None]
        self._read_logp = logp  # every point as read, hidden or not (what a covered point reads besides)
        self.bad_p = bad_p
        self._rows = np.arange(90)

    def scores(self, classes: np.ndarray) -> np.ndarray:
        """(N,) log-likelihoods of (N, 90) class boards."""
        return self.logp[self._rows[None, :], classes].sum(axis=1)

    def read_fit(self, classes: np.ndarray, squares: Sequence[int]) -> float:
        """Log-likelihood of the (90,) class board on ``squares`` as each reads, hidden or not: a point
        read as "covered" counts by what it reads besides (often "empty", under glare)."""
        rows = np.asarray(list(squares), dtype=np.int64)
        return float(self._read_logp[rows, classes[rows]].sum())

    def bad_points(self, classes: np.ndarray) -> np.ndarray:
        """(90,) True where a trusted point clearly contradicts the occupancy of the (90,) class board."""
        p = np.where(classes == 0, self.piece_probs[:, 0], self.occupied_p)
        return self.trusted & (p < self.bad_p)

    def shows_side(self, square: int, red: bool, sure_p: float) -> bool:
        """Does trusted ``square`` read, surely, as holding a piece of one side (``red`` or black)?

        Occupied more likely than not, and that side's share of the occupied probability at least
        ``sure_p``: the colour of a disc is read far more surely than its character.
        """
        occupied = float(self.occupied_p[square])
        if not self.trusted[square] or occupied < 0.5:
            return False
        side = self.piece_probs[square, 1:8] if red else self.piece_probs[square, 8:15]
        return float(side.sum()) / occupied >= sure_p

    def red_share(self) -> np.ndarray:
        """(90,) the share of each point's occupied probability that is a red piece."""
        return np.asarray(self.piece_probs[:, 1:8].sum(axis=1) / np.maximum(self.occupied_p, 1e-12))

    def reading(self) -> tuple[np.ndarray, np.ndarray]:
        """The most probable class at each point and its probability."""
        best = np.argmax(self.piece_probs, axis=1)
        return best, self.piece_probs[self._rows, best]


def colour_agreement(probs: np.ndarray, expected: np.ndarray) -> tuple[int, float, float]:
    """How well a reading shows an expected board, by what each point holds: empty, red or black.

    ``probs`` (90, 16) in ``CLASSES`` order, ``expected`` (90,) class indices. Returns the number of
    points not read as covered, the share of them whose most likely empty/red/black reading is the
    expected one, and the share of the expected pieces among them read with their colour. Piece kinds
    are left out on purpose: a blurred or glare-washed character is often unreadable while the
    colour and place of its disc are not, and place is what this is for (confirming a grid).
    """
    probs = np.asarray(probs, dtype=np.float64)
    visible = probs.argmax(axis=1) != PIECE_CLASSES
    groups = np.stack([probs[:, 0], probs[:, 1:8].sum(axis=1), probs[:, 8:15].sum(axis=1)], axis=1)
    read = groups.argmax(axis=1)
    want = np.where(expected == 0, 0, np.where(expected < 8, 1, 2))
    seen = int(visible.sum())
    if seen == 0:
        return 0, 0.0, 0.0
    agree = float(np.mean(read[visible] == want[visible]))
    pieces = visible & (want > 0)
    piece_share = float(np.mean(read[pieces] == want[pieces])) if pieces.any() else 0.0
    return seen, agree, piece_share
