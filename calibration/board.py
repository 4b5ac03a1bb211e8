"""The Xiangqi board's geometry in board units: 9 files x 10 ranks, one unit per grid spacing.

Board coordinates are ``(u, v)`` = (file index from red's left, rank index from red's side), so
point ``a0`` is ``(0, 0)`` and ``i9`` is ``(8, 9)``. The lists of segments here describe what a
correct grid must show (lines between neighbouring points, the palace diagonals) and must not show
(the interior files across the river).
"""

from __future__ import annotations

import numpy as np

FILES = 9
RANKS = 10
FILE_NAMES = "abcdefghi"
CENTRE = np.array([(FILES - 1) / 2, (RANKS - 1) / 2])  # the middle of the river, in board units


def point_name(file: int, rank: int) -> str:
    """ICCS name of a point from red's view, e.g. ``(4, 0) -> 'e0'``."""
    return f"{FILE_NAMES[file]}{rank}"


def parse_point(name: str) -> tuple[int, int]:
    """``'e0' -> (4, 0)``; raises ``ValueError`` on anything else."""
    if len(name) != 2 or name[0] not in FILE_NAMES or not name[1].isdigit():
        raise ValueError(f"not an ICCS point name: {name!r}")
    return FILE_NAMES.index(name[0]), int(name[1])


def all_points() -> np.ndarray:
    """The 90 points as an (90, 2) float array, rank-major (a0, b0, ..., i0, a1, ..., i9)."""
    ranks, files = np.mgrid[0:RANKS, 0:FILES]
    return np.stack([files.ravel(), ranks.ravel()], axis=1).astype(np.float64)


def _segments() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(drawn straight segments, river gaps, palace diagonal halves) as (N, 2, 2) endpoint arrays."""
    drawn: list[tuple[tuple[float, float], tuple[float, float]]] = []
    river: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for file in range(FILES):
        for rank in range(RANKS - 1):
            seg = ((float(file), float(rank)), (float(file), float(rank + 1)))
            if rank == 4 and 0 < file < FILES - 1:
                river.append(seg)
            else:
                drawn.append(seg)
    for rank in range(RANKS):
        for file in range(FILES - 1):
            drawn.append(((float(file), float(rank)), (float(file + 1), float(rank))))
    diagonals = []
    for r0 in (0, 7):
        for a, b in (((3, r0), (4, r0 + 1)), ((4, r0 + 1), (5, r0 + 2)),
                     ((5, r0), (4, r0 + 1)), ((4, r0 + 1), (3, r0 + 2))):
            diagonals.append(((float(a[0]), float(a[1])), (float(b[0]), float(b[1]))))
    return np.array(drawn), np.array(river), np.array(diagonals)


DRAWN_SEGMENTS, RIVER_SEGMENTS, PALACE_SEGMENTS = _segments()


def outer_line(segments: np.ndarray) -> np.ndarray:
    """Per segment, the outermost grid line it runs along: 0 and 1 the files 0 and 8, 2 and 3 the
    ranks 0 and 9; -1 for any other segment."""
    a, b = segments[:, 0, :], segments[:, 1, :]
    line = np.full(len(segments), -1)
    for index, (axis, value) in enumerate(((0, 0.0), (0, FILES - 1.0), (1, 0.0), (1, RANKS - 1.0))):
        line[(a[:, axis] == value) & (b[:, axis] == value)] = index
    return line


def outside_segments() -> np.ndarray:
    """Unit segments on the lines one spacing outside the grid (where a too-small lattice would be)."""
    segs = []
    for file in (-1, FILES):
        for rank in range(RANKS - 1):
            segs.append(((float(file), float(rank)), (float(file), float(rank + 1))))
    for rank in (-1, RANKS):
        for file in range(FILES - 1):
            segs.append(((float(file), float(rank)), (float(file + 1), float(rank))))
    return np.array(segs)


OUTSIDE_SEGMENTS = outside_segments()
