"""``BoardGeometry``: where the 90 board points are in a camera frame, both ways, and a top-down view.

The geometry is a board-to-image homography (board units: one grid spacing, ``(file, rank)`` from
red's view) plus, optionally, the lens model it was made through. It rectifies frames to a fixed
top-down image in which point (file, rank) sits at ``rectified_point(file, rank)``, and saves to
JSON with the pixel position of every point in the source image. ``load`` refuses a file whose grid
cannot be read (:meth:`BoardGeometry.unreadable`): too fine, outside the frame, or folded over.
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from calibration.board import CENTRE, FILES, RANKS, all_points, parse_point, point_name
from calibration.evidence import project
from calibration.lens import Lens, RadialDistortion, board_to_image, lens_from_json, source_maps

if TYPE_CHECKING:
    from calibration.drift import DriftResult

log = logging.getLogger(__name__)

RED_SIDES = ("bottom", "top", "left", "right")
JSON_VERSION = 1
POINTS_AGREE_SPACINGS = 0.25  # a saved file's points lie this near where its homography puts them
ROTATE_180 = np.array([[-1.0, 0.0, FILES - 1.0], [0.0, -1.0, RANKS - 1.0], [0.0, 0.0, 1.0]])
MIN_SPACING_PX = 8.0  # median grid spacing in the frame below which a piece cannot be read
MIN_LOCAL_SPACING_PX = 4.0  # nor anywhere on the grid (the far ranks of a steep view) below this
OUTSIDE_SPACINGS = 0.5  # a point farther than this (in spacings) outside the frame cannot be read
# BoardGeometry.details key of a grid the lines did not confirm but the pieces did (the share that agreed)
CONFIRMED_BY_PIECES = "confirmed_by_pieces"
EDGE_INSET_SPACINGS = 0.1  # a point nearer the frame's edge than this (or outside) shows too little of its piece


def side_of_rank0(h: np.ndarray) -> str:
    """The image edge that rank 0 (red's back rank under this labelling) faces."""
    centre = project(h, CENTRE[None, :])[0]
    back = project(h, np.array([[4.0, 0.0]]))[0] - centre
    if abs(back[0]) > abs(back[1]):
        return "right" if back[0] > 0 else "left"
    return "bottom" if back[1] > 0 else "top"


@dataclass(frozen=True)
class BoardGeometry:
    """A found board: board-to-image homography, the frame size it was made for, confidence, red side.

    ``red_side`` is the image edge red's back rank faces, or ``None`` while undetermined (no pieces
    and no explicit side): the point names are then provisional and may be turned by 180 degrees.
    """

    homography: np.ndarray
    image_size: tuple[int, int]  # (width, height) of the frames it applies to
    confidence: float
    red_side: str | None
    lens: Lens | None = None
    spacing: int = 48  # rectified image: pixels per grid spacing
    margin: float = 1.0  # rectified image: border around the grid, in spacings
    details: dict[str, float] = field(default_factory=dict, compare=False)

    # -- mapping -------------------------------------------------------------------------------
    def point(self, file: int | float, rank: int | float) -> tuple[float, float]:
        """Pixel position in the source frame of board point (file, rank)."""
        xy = self.points_array(np.array([[float(file), float(rank)]]))[0]
        return float(xy[0]), float(xy[1])

    def points_array(self, board: np.ndarray) -> np.ndarray:
        """Source-frame pixels of an (N, 2) array of board coordinates."""
        return board_to_image(self.homography, self.lens, np.asarray(board, dtype=np.float64))

    def image_to_board(self, xy: tuple[float, float] | np.ndarray) -> tuple[float, float]:
        """Board coordinates (file, rank), as floats, of a source-frame pixel."""
        pts = np.asarray(xy, dtype=np.float64).reshape(1, 2)
        if self.lens is not None:
            pts = self.lens.undistort_points(pts)
        uv = project(np.linalg.inv(self.homography), pts)[0]
        return float(uv[0]), float(uv[1])

    def points(self) -> dict[str, tuple[float, float]]:
        """All 90 points: ICCS name -> source-frame pixel."""
        board = all_points()
        xy = self.points_array(board)
        return {point_name(int(u), int(v)): (float(x), float(y)) for (u, v), (x, y) in zip(board, xy, strict=True)}

    def points_off_frame(self, inset: float = EDGE_INSET_SPACINGS) -> list[str]:
        """Names of the points that lie outside the frame or less than ``inset`` spacings inside it
        (a piece there is cut by the picture's edge), spacings measured at each point: the points a
        picture of a board partly out of view does not show."""
        width, height = self.image_size
        board = all_points()
        xy = self.points_array(board)
        grid = xy.reshape(RANKS, FILES, 2)
        along_file = np.linalg.norm(np.diff(grid, axis=0), axis=2)
        along_rank = np.linalg.norm(np.diff(grid, axis=1), axis=2)
        local = np.full((RANKS, FILES), np.inf)  # the shortest spacing from each point to a neighbour
        local[:-1] = np.minimum(local[:-1], along_file)
        local[1:] = np.minimum(local[1:], along_file)
        local[:, :-1] = np.minimum(local[:, :-1], along_rank)
        local[:, 1:] = np.minimum(local[:, 1:], along_rank)
        room = np.minimum.reduce([xy[:, 0], width - 1 - xy[:, 0], xy[:, 1], height - 1 - xy[:, 1]])
        cut = ~np.isfinite(room) | (room < inset * local.ravel())
        return [point_name(int(u), int(v)) for (u, v), c in zip(board, cut, strict=True) if c]

    def spacing_px(self) -> float:
        """Median length of one grid spacing in the source frame, pixels."""
        from calibration.evidence import spacing_px

        return spacing_px(self.homography)

    def unreadable(self) -> str | None:
        """Why pieces could not be read through this geometry, or ``None``: a mapping that cannot be
        inverted or folds the board over (part of it beyond the camera's horizon), a grid spacing too
        small to read (``MIN_SPACING_PX``; ``MIN_LOCAL_SPACING_PX`` at its finest), points outside the
        frame. A calibration the locator makes passes; a hand-made or damaged file may not."""
        h = np.asarray(self.homography, dtype=np.float64)
        if not np.all(np.isfinite(h)) or np.linalg.cond(h) > 1e12:
            return "the homography cannot be inverted"
        corners = np.array([[0.0, 0.0], [FILES - 1.0, 0.0], [FILES - 1.0, RANKS - 1.0], [0.0, RANKS - 1.0]])
        w = corners @ h[2, :2] + h[2, 2]
        if not (np.all(w > 1e-9) or np.all(w < -1e-9)):
            return "the homography folds the board over (part of it maps beyond the camera's horizon)"
        board = all_points()
        xy = self.points_array(board)
        if not np.all(np.isfinite(xy)):
            return "the board's points do not map to pixels"
        grid = xy.reshape(RANKS, FILES, 2)
        local = np.r_[np.linalg.norm(np.diff(grid, axis=1), axis=2).ravel(),
                      np.linalg.norm(np.diff(grid, axis=0), axis=2).ravel()]
        median = float(np.median(local))
        if median < MIN_SPACING_PX or float(local.min()) < MIN_LOCAL_SPACING_PX:
            return (f"the grid spacing is {median:.1f} px (smallest {float(local.min()):.1f} px): too small to "
                    f"read pieces (at least {MIN_SPACING_PX:.0f} px, {MIN_LOCAL_SPACING_PX:.0f} px anywhere); "
                    "is the homography in pixels of this frame?")
        width, height = self.image_size
        reach = OUTSIDE_SPACINGS * median
        outside = (xy[:, 0] < -reach) | (xy[:, 0] > width - 1 + reach) | (xy[:, 1] < -reach) | (
            xy[:, 1] > height - 1 + reach)
        if np.any(outside):
            names = [point_name(int(u), int(v)) for u, v in board[outside]]
            shown = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
            return f"{len(names)} board point(s) lie outside the {width}x{height} frame ({shown})"
        return None

    # -- rectification -------------------------------------------------------------------------
    @property
    def rectified_size(self) -> tuple[int, int]:
        """(width, height) of ``rectify``'s output."""
        width = int(round((FILES - 1 + 2 * self.margin) * self.spacing)) + 1
        height = int(round((RANKS - 1 + 2 * self.margin) * self.spacing)) + 1
        return width, height

    def rectified_point(self, file: int | float, rank: int | float) -> tuple[float, float]:
        """Pixel of board point (file, rank) in the rectified image (red's back rank at the bottom)."""
        return ((self.margin + file) * self.spacing, (self.margin + RANKS - 1 - rank) * self.spacing)

    def rectified_to_board(self) -> np.ndarray:
        """Homography from rectified pixels to board coordinates."""
        s, m = float(self.spacing), self.margin
        return np.array([[1 / s, 0.0, -m], [0.0, -1 / s, RANKS - 1 + m], [0.0, 0.0, 1.0]])

    def rectify(self, frame: np.ndarray) -> np.ndarray:
        """The fixed-size top-down view of the board (see ``rectified_point``)."""
        self._check_frame(frame)
        size = self.rectified_size
        to_image = self.homography @ self.rectified_to_board()
        if self.lens is None:
            return cv2.warpPerspective(frame, to_image, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                       borderMode=cv2.BORDER_REPLICATE)
        maps = self.__dict__.get("_rectify_maps")
        if maps is None:  # the lens makes the mapping non-projective: build the pixel maps once
            maps = source_maps(to_image, self.lens, size)
            object.__setattr__(self, "_rectify_maps", maps)
        return cv2.remap(frame, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def _check_frame(self, frame: np.ndarray) -> None:
        height, width = frame.shape[:2]
        if (width, height) != tuple(self.image_size):
            raise ValueError(f"frame is {width}x{height} but the calibration was made for "
                             f"{self.image_size[0]}x{self.image_size[1]}")

    # -- orientation ---------------------------------------------------------------------------
    def turned(self) -> BoardGeometry:
        """The same grid with its point names turned by 180 degrees (red on the other side)."""
        h = self.homography @ ROTATE_180
        side = side_of_rank0(h) if self.red_side is not None else None
        return replace(self, homography=h, red_side=side)

    def mirrored(self) -> BoardGeometry | None:
        """The same grid in the picture flipped left to right, its files named the other way round so
        each name stays on its point of the board; ``None`` with a lens model that is not symmetric
        about the picture's centre (locate the board in the flipped picture instead)."""
        if self.lens is not None and not isinstance(self.lens, RadialDistortion):
            return None
        width = self.image_size[0]
        flip_image = np.array([[-1.0, 0.0, width - 1.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
        flip_files = np.array([[-1.0, 0.0, FILES - 1.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
        side = {"left": "right", "right": "left"}.get(self.red_side, self.red_side) if self.red_side else None
        return replace(self, homography=flip_image @ self.homography @ flip_files, red_side=side)

    def with_red_side(self, side: str) -> BoardGeometry:
        """Name the points so that red's back rank faces image edge ``side`` (as near as the grid allows)."""
        if side not in RED_SIDES:
            raise ValueError(f"red side must be one of {', '.join(RED_SIDES)}, not {side!r}")
        h = self.homography
        want = {"bottom": (0.0, 1.0), "top": (0.0, -1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}[side]
        centre = project(h, CENTRE[None, :])[0]
        back = project(h, np.array([[4.0, 0.0]]))[0] - centre
        if float(np.dot(back, want)) < 0:
            h = h @ ROTATE_180
        return replace(self, homography=h, red_side=side_of_rank0(h))

    # -- drift ---------------------------------------------------------------------------------
    def check_drift(self, frame: np.ndarray) -> DriftResult:
        """Has the board or camera moved since this calibration? (cheap; see ``calibration.drift``)."""
        from calibration.drift import DriftCheck

        checker = self.__dict__.get("_drift")
        if checker is None:
            checker = DriftCheck(self)
            object.__setattr__(self, "_drift", checker)
        return checker.check(frame)

    # -- persistence ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: image size, points (source pixels, ICCS from red's view), red side, ..."""
        return {
            "version": JSON_VERSION,
            "image_size": [int(self.image_size[0]), int(self.image_size[1])],
            "red_side": self.red_side,
            "confidence": round(float(self.confidence), 4),
            "points": {name: [round(x, 3), round(y, 3)] for name, (x, y) in self.points().items()},
            "homography": [[float(v) for v in row] for row in self.homography],
            "rectified": {"spacing": self.spacing, "margin": self.margin},
            "lens": self.lens.to_json() if self.lens is not None else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BoardGeometry:
        """Rebuild from ``to_json`` output; a file with only ``points`` is fitted from them."""
        if "image_size" not in data or "points" not in data:
            raise ValueError("calibration JSON needs 'image_size' and 'points'")
        version = data.get("version", JSON_VERSION)
        if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= JSON_VERSION:
            raise ValueError(f"calibration JSON version {version!r} is not one this program reads (1 to "
                             f"{JSON_VERSION}): written by a newer xqrec, or not by xqrec")
        if not isinstance(data["points"], dict) or not all(
                isinstance(xy, list | tuple) and len(xy) == 2 and all(isinstance(v, int | float) for v in xy)
                for xy in data["points"].values()):
            raise ValueError("calibration JSON 'points' must map point names to [x, y] pixel pairs")
        size = data["image_size"]
        if not (isinstance(size, list | tuple) and len(size) == 2
                and all(isinstance(v, int | float) and not isinstance(v, bool) and float(v).is_integer() for v in size)):
            raise ValueError(f"calibration JSON 'image_size' must be [width, height] in whole pixels, not {size!r}")
        width, height = (int(v) for v in size)
        red_side = data.get("red_side")
        if red_side is not None and red_side not in RED_SIDES:
            raise ValueError(f"bad red_side in calibration JSON: {red_side!r}")
        lens = lens_from_json(data["lens"]) if data.get("lens") else None
        if data.get("homography") is not None:
            h = np.array(data["homography"], dtype=np.float64).reshape(3, 3)
        else:
            names = list(data["points"])
            board = np.array([parse_point(n) for n in names], dtype=np.float64)
            image = np.array([data["points"][n] for n in names], dtype=np.float64)
            if lens is not None:
                image = lens.undistort_points(image)
            if len(names) < 4:
                raise ValueError("calibration JSON needs at least 4 points")
            found, _ = cv2.findHomography(board, image, 0)
            if found is None:
                raise ValueError("calibration JSON points do not define a homography")
            h = np.asarray(found, dtype=np.float64)
        if not np.all(np.isfinite(h)) or abs(h[2, 2]) < 1e-12 or abs(np.linalg.det(h)) < 1e-12:
            raise ValueError("calibration JSON homography is degenerate")
        if width < 1 or height < 1:
            raise ValueError(f"bad image_size in calibration JSON: {data['image_size']!r}")
        rect = data.get("rectified") or {}
        geometry = cls(homography=h / h[2, 2], image_size=(width, height),
                       confidence=float(data.get("confidence", 1.0)), red_side=red_side, lens=lens,
                       spacing=int(rect.get("spacing", 48)), margin=float(rect.get("margin", 1.0)))
        if data.get("homography") is not None and data["points"]:
            # the points are written beside the homography for people and other programs: a file
            # whose two disagree was edited by hand, and which of them is meant cannot be told
            drawn = geometry.points()
            for name in data["points"]:
                parse_point(name)  # a name that is no point is an error, not a point ignored
            worst = max(math.dist(drawn[name], xy) for name, xy in data["points"].items())
            if worst > POINTS_AGREE_SPACINGS * geometry.spacing_px():
                raise ValueError(f"its points and its homography disagree by up to {worst:.0f} px (edited by "
                                 "hand?); calibrate again")
        return geometry

    def save(self, path: str | Path) -> None:
        """Write ``to_json`` to ``path``."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> BoardGeometry:
        """Read a file written by ``save``; ``ValueError`` naming the file when it is not a usable
        calibration (not one at all, or one whose grid cannot be read: :meth:`unreadable`)."""
        try:
            try:
                data = json.loads(Path(path).read_text(encoding="utf-8"))
            except json.JSONDecodeError as error:
                raise ValueError(f"not JSON (line {error.lineno}: {error.msg}); a calibration is the file "
                                 "`xqrec calibrate` writes") from None
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            geometry = cls.from_json(data)
            problem = geometry.unreadable()
            if problem is not None:
                raise ValueError(problem)
        except (ValueError, TypeError, KeyError, AttributeError, IndexError, UnicodeDecodeError,
                np.linalg.LinAlgError) as error:
            raise ValueError(f"calibration {path} is not usable: {error}") from None
        return geometry
