"""Scoring a lattice hypothesis against line evidence: does the projected 9x10 board look drawn here?

A hypothesis is a board-to-image homography. Each unit segment of the board (between neighbouring
points, the palace diagonals) is sampled on the line and at both sides of it; a segment is
*supported* when the line is clearly stronger than its sides. A correct grid supports most drawn
segments that pieces leave visible, shows nothing across the river's interior files, and nothing on
the lines one spacing outside the grid -- the last two tell a correct grid from one shifted by a line.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.board import (
    CENTRE,
    DRAWN_SEGMENTS,
    OUTSIDE_SEGMENTS,
    PALACE_SEGMENTS,
    RIVER_SEGMENTS,
    outer_line,
)
from calibration.evidence import sample
from calibration.lens import Lens, board_to_image

_T = np.array([0.3, 0.4, 0.5, 0.6, 0.7])
_SIDE = 0.22  # side samples, in spacings from the line
_SIDE_FAR = 0.36
_RIVER_ROW = 4  # the row of cells between ranks 4 and 5


_SCORED_SEGMENTS = np.concatenate([DRAWN_SEGMENTS, RIVER_SEGMENTS, PALACE_SEGMENTS, OUTSIDE_SEGMENTS])
_SCORED_SPLITS = np.cumsum([len(DRAWN_SEGMENTS), len(RIVER_SEGMENTS), len(PALACE_SEGMENTS)])


@dataclass(frozen=True)
class LatticeScore:
    """How well a hypothesis matches the evidence (fractions in 0..1)."""

    drawn: float  # drawn segments supported
    river: float  # river gaps left empty
    palace: float  # palace diagonal halves supported
    outside: float  # segments one spacing outside the grid left empty
    strength: float  # the reference line strength used
    clear: float = 1.0  # supported / (supported + contradicted): hidden segments (pieces, hands) left out
    supported: int = 0  # drawn segments supported

    @property
    def total(self) -> float:
        """One number for ranking hypotheses: mostly the drawn support, the rest as tie-breakers."""
        return self.drawn + 0.3 * self.river + 0.3 * self.palace + 0.3 * self.outside


def segment_contrast(response: np.ndarray, h: np.ndarray, segments: np.ndarray,
                     lens: Lens | None = None, *, inner_edges: bool = False) -> np.ndarray:
    """Per segment: line response minus the side response (2nd best of 5 places along it).

    Each side is sampled at two distances and the weaker kept, so a parallel line close by (the outer
    frame next to the grid's edge, a point mark) does not hide a real line. With ``inner_edges``
    only the inner side counts on the grid's outermost lines: the outer side holds the board's frame
    and, on boards with a narrow margin, the board's own edge, both of which respond like lines.
    """
    if len(segments) == 0:
        return np.zeros(0)
    a = segments[:, 0, :]
    d = segments[:, 1, :] - a
    length = np.linalg.norm(d, axis=1, keepdims=True)
    normal = np.c_[-d[:, 1], d[:, 0]] / length
    on = a[:, None, :] + _T[None, :, None] * d[:, None, :]
    offsets = [_SIDE, _SIDE_FAR, -_SIDE, -_SIDE_FAR]
    pts = np.stack([on] + [on + k * normal[:, None, :] for k in offsets], axis=0)
    values = sample(response, board_to_image(h, lens, pts))
    left = np.minimum(values[1], values[2])
    right = np.minimum(values[3], values[4])
    side = np.maximum(left, right)
    edge = outer_line(segments) >= 0 if inner_edges else np.zeros(len(segments), dtype=bool)
    if edge.any():
        inward = np.sum((CENTRE - (a + 0.5 * d)) * normal, axis=1) > 0  # the "left" (+normal) side is inside
        inner = np.where(inward[:, None], left, right)
        side = np.where(edge[:, None], inner, side)
    contrast = values[0] - side
    contrast.sort(axis=1)
    return contrast[:, -2]


def reference_strength(response: np.ndarray, h: np.ndarray, lens: Lens | None = None) -> float:
    """A typical drawn-line strength: a high percentile of the line response on the grid's lines."""
    a = DRAWN_SEGMENTS[:, 0, :]
    d = DRAWN_SEGMENTS[:, 1, :] - a
    on = a[:, None, :] + _T[None, :, None] * d[:, None, :]
    values = sample(response, board_to_image(h, lens, on)).ravel()
    return float(max(np.percentile(values, 75), 1.0))


def hidden_segments(frame: np.ndarray, response: np.ndarray, h: np.ndarray, strength: float,
                    lens: Lens | None = None, segments: np.ndarray = DRAWN_SEGMENTS) -> np.ndarray:
    """Per segment: is something on it (a colour unlike the board's, busy strokes beside the line, or
    glare that saturates the sensor)?

    The board's colour is taken beside each segment, as the median over the middles of the one or two
    grid cells it borders (pieces never cover a cell's middle): a lamp's gradient across the board
    can change the board's colour more than a pale piece differs from it. The samples lie on a small
    cross about each middle, off the palace's diagonals that run through it; the river's cells,
    which carry its characters, are replaced by the cells on either bank at the same file. How far a
    colour may stray comes from how far each cell's samples lie from their own median: the board's
    texture counts, its gradient across the board does not.
    """
    cells = np.array([[u + 0.5 + du, v + 0.5 + dv] for v in range(9) for u in range(8)
                      for du, dv in ((-0.2, 0.0), (0.2, 0.0), (0.0, -0.2), (0.0, 0.2))])
    board = sample(frame, board_to_image(h, lens, cells)).reshape(9, 8, 4, -1)  # rank row, file column, sample
    middles = np.median(board, axis=2)  # (9, 8, channels)
    board[_RIVER_ROW] = np.nan
    middles[_RIVER_ROW] = np.nan
    spread = np.linalg.norm(board - middles[:, :, None, :], axis=-1)
    limit = max(25.0, 3.0 * float(np.nanmedian(spread)))
    a = segments[:, 0, :]
    d = segments[:, 1, :] - a
    normal = np.c_[-d[:, 1], d[:, 0]] / np.linalg.norm(d, axis=1, keepdims=True)
    near = []  # the samples of the cells on either side of each segment (for a river cell, the cells
    # across the river from each other at its file), NaN off the grid
    for sign in (1.0, -1.0):
        centre = a + d / 2 + sign * 0.5 * normal
        inside = (centre[:, 0] > 0) & (centre[:, 0] < 8) & (centre[:, 1] > 0) & (centre[:, 1] < 9)
        u = np.clip(centre[:, 0].astype(int), 0, 7)
        v = np.clip(centre[:, 1].astype(int), 0, 8)
        for shift in (-1, 1):
            cell = np.where(v == _RIVER_ROW, v + shift, v)
            near.append(np.where(inside[:, None, None], board[cell, u], np.nan))
    colour = np.nanmedian(np.concatenate(near, axis=1), axis=1)
    on = a[:, None, :] + _T[None, :, None] * d[:, None, :]
    sides = np.stack([on + _SIDE * normal[:, None, :], on - _SIDE * normal[:, None, :]], axis=0)
    pixels = board_to_image(h, lens, sides)
    colours = sample(frame, pixels)
    foreign = np.linalg.norm(colours - colour[None, :, None, :], axis=-1) > limit
    busy = sample(response, pixels) > 0.5 * strength
    # glare that saturates the sensor wipes the lines out: no evidence either way there
    on_pixels = board_to_image(h, lens, on)
    on_colours = sample(frame, on_pixels)
    blown = (on_colours.min(axis=-1) >= 240)[None, :, :] | (colours.min(axis=-1) >= 240)
    hidden = (foreign | busy | blown).mean(axis=(0, 2)) > 0.5
    # nor beyond the picture's edge: a board cut off by it was refused as a grid whose lines were not
    # found there ("a sharper picture helps", a tester was told of a sharp picture two ranks short)
    height, width = frame.shape[:2]
    beyond = ((on_pixels[..., 0] < 0) | (on_pixels[..., 1] < 0) | (on_pixels[..., 0] > width - 1)
              | (on_pixels[..., 1] > height - 1))
    return np.asarray(hidden | (beyond.mean(axis=1) > 0.5))


def score_lattice(response: np.ndarray, h: np.ndarray, strength: float | None = None,
                  lens: Lens | None = None, frame: np.ndarray | None = None) -> LatticeScore:
    """Score board-to-image homography ``h`` against ``response`` (see the module docstring).

    With the colour ``frame``, ``clear`` counts only the segments that are supported or plainly bare.
    """
    if strength is None:
        strength = reference_strength(response, h, lens)
    thr = 0.3 * strength
    # every family sampled in one call: the per-call overhead was most of the cost (hundreds of calls a frame)
    contrast = segment_contrast(response, h, _SCORED_SEGMENTS, lens) > thr
    drawn, river, palace, outside = np.split(contrast, _SCORED_SPLITS)
    clear = 1.0
    if frame is not None and frame.ndim == 3:
        hidden = hidden_segments(frame, response, h, strength, lens)
        # an edge line is judged against its inner side alone before it counts as missing (it is not
        # when its outer side is busy); the ranking above keeps both sides, so a lattice slid
        # outwards onto the frame gains nothing from this
        seen = drawn | (segment_contrast(response, h, DRAWN_SEGMENTS, lens, inner_edges=True) > thr)
        contradicted = ~seen & ~hidden
        along_files = DRAWN_SEGMENTS[:, 0, 0] == DRAWN_SEGMENTS[:, 1, 0]
        # files and ranks apart: a lattice slid along the files still sits on every file line
        clear = min(float(seen[m].sum() / max(int(seen[m].sum() + contradicted[m].sum()), 1))
                    for m in (along_files, ~along_files))
    return LatticeScore(
        drawn=float(drawn.mean()),
        river=float(1.0 - river.mean()),
        palace=float(palace.mean()),
        outside=float(1.0 - outside.mean()),
        strength=strength,
        clear=clear,
        supported=int(drawn.sum()),
    )


def shifted(h: np.ndarray, du: float, dv: float) -> np.ndarray:
    """The same image lattice with its board labels moved by (du, dv) points."""
    t = np.array([[1.0, 0.0, du], [0.0, 1.0, dv], [0.0, 0.0, 1.0]])
    return h @ t
