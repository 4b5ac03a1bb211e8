"""Boards drawn flat, a second renderer for the benchmarks: a look neither training nor ``synth`` makes.

``synth`` renders pieces as lit 3-D discs on textured boards; the classifier and the board locator
were trained and tuned on its views. This draws a board the way a diagram or a printed set looks
from straight above (solid pieces with a ring and a character, plain lines, no lighting model), then
puts it on a table in perspective with a brightness gradient, blur, noise and JPEG, so that what the
benchmarks measure on it is how the pipeline copes with a look it never saw. The characters come
from the test split's faces only. ``draw_view`` makes one still picture; ``FlatGame`` films a game,
with a flat arm and hand that fetches each piece from the mover's side and a clock press after it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from rules import Move, Position
from synth.fonts import glyph_mask
from synth.pieces import CHARACTERS

FACES = ("noto-serif-bold", "noto-sans-bold", "cwfs", "hanamin")  # the test split's faces (synth.style)
SIZES = ((640, 480), (800, 600), (1024, 768), (1280, 960), (1920, 1080))
BLACK_INKS = ((25, 25, 25), (40, 110, 30), (150, 60, 20))  # BGR: black, green, blue
RED_INK = (30, 30, 190)
SPACING, MARGIN = 96, 80  # the flat board's drawing: pixels per grid spacing, border
BOARD_W, BOARD_H = 8 * SPACING + 2 * MARGIN, 9 * SPACING + 2 * MARGIN


def placement_points(placement: str) -> list[str]:
    """The 90 points of a FEN piece placement in reading order (rank 9 first), "." where empty; for
    comparing readings point by point, including readings no game could show."""
    return [c for row in placement.split("/") for c in "".join("." * int(ch) if ch.isdigit() else ch for ch in row)]


@dataclass(frozen=True)
class FlatStyle:
    """One board's look and camera, drawn once from an rng."""

    face: str
    simplified: bool
    paper: tuple[int, int, int]
    line: tuple[int, int, int]
    thick: int
    piece: tuple[int, int, int]
    black_ink: tuple[int, int, int]
    radius: float  # pixels on the flat board
    upright: bool  # each side's characters face its player (else any angle)
    size: tuple[int, int]
    homography: np.ndarray = field(repr=False)  # flat board -> picture
    table: tuple[int, int, int]
    shade: tuple[float, float]  # brightness at the picture's left and right edges
    blur: float
    jpeg: int

    @classmethod
    def sample(cls, rng: np.random.Generator, size: tuple[int, int] | None = None) -> FlatStyle:
        face = FACES[int(rng.integers(len(FACES)))]
        simplified = face not in ("cwfs", "hanamin") and bool(rng.random() < 0.5)  # Big5 faces: traditional
        paper = (int(rng.uniform(150, 215)), int(rng.uniform(185, 230)), int(rng.uniform(205, 240)))
        line = (int(rng.uniform(10, 60)), int(rng.uniform(10, 50)), int(rng.uniform(10, 90)))
        thick = int(rng.integers(2, 5))
        piece = (int(rng.uniform(160, 235)), int(rng.uniform(190, 240)), int(rng.uniform(215, 250)))
        black_ink = BLACK_INKS[int(rng.integers(len(BLACK_INKS)))]
        radius = SPACING * float(rng.uniform(0.40, 0.46))
        upright = bool(rng.random() < 0.5)
        size = size or SIZES[int(rng.integers(len(SIZES)))]
        homography = _camera(size, rng)
        table = tuple(int(v) for v in rng.uniform(30, 150, 3))
        shade = (float(rng.uniform(0.7, 1.0)), float(rng.uniform(1.0, 1.25)))
        return cls(face, simplified, paper, line, thick, piece, black_ink, radius, upright, size, homography,
                   (table[0], table[1], table[2]), shade, float(rng.uniform(0.5, 1.2)), int(rng.integers(50, 95)))

    def angle(self, letter: str, rng: np.random.Generator) -> float:
        """A new piece's character angle in degrees."""
        if self.upright:
            return (0.0 if letter.isupper() else 180.0) + float(rng.normal(0, 5))
        return float(rng.uniform(0, 360))


@dataclass(frozen=True)
class FlatView:
    """One drawn view: the image, the placement it shows (FEN, red at the bottom) and how it was drawn."""

    image: np.ndarray
    placement: str
    face: str
    size: tuple[int, int]


def draw_view(fen: str, rng: np.random.Generator) -> FlatView:
    """A flat drawing of ``fen`` in perspective on a table, every choice drawn from ``rng``."""
    style = FlatStyle.sample(rng)
    pieces = {sq: (letter, style.angle(letter, rng), (0.0, 0.0)) for sq, letter in Position.from_fen(fen).pieces()}
    image = picture(draw_board(pieces, style), style, rng)
    return FlatView(image, fen.split()[0], style.face, style.size)


def point(file: float, rank: float) -> tuple[int, int]:
    """Pixel of a board point on the flat drawing (rank 9 at the top)."""
    return int(round(MARGIN + file * SPACING)), int(round(MARGIN + (9 - rank) * SPACING))


def draw_board(pieces: dict[int, tuple[str, float, tuple[float, float]]], style: FlatStyle) -> np.ndarray:
    """The flat board with ``pieces`` (square -> (FEN letter, character angle, offset off the point in
    spacings along the files and ranks))."""
    img = np.empty((BOARD_H, BOARD_W, 3), np.uint8)
    img[:] = style.paper
    line, thick = style.line, style.thick
    for rank in range(10):
        cv2.line(img, point(0, rank), point(8, rank), line, thick, cv2.LINE_AA)
    for file in range(9):
        if file in (0, 8):
            cv2.line(img, point(file, 0), point(file, 9), line, thick, cv2.LINE_AA)
        else:
            cv2.line(img, point(file, 0), point(file, 4), line, thick, cv2.LINE_AA)
            cv2.line(img, point(file, 5), point(file, 9), line, thick, cv2.LINE_AA)
    for low in (0, 7):
        cv2.line(img, point(3, low), point(5, low + 2), line, thick, cv2.LINE_AA)
        cv2.line(img, point(5, low), point(3, low + 2), line, thick, cv2.LINE_AA)
    gap = int(SPACING * 0.15)
    cv2.rectangle(img, (MARGIN - gap, MARGIN - gap), (BOARD_W - MARGIN + gap, BOARD_H - MARGIN + gap), line,
                  thick + 2, cv2.LINE_AA)
    rim = tuple(int(v * 0.6) for v in style.piece)
    for sq, (letter, angle, (du, dv)) in pieces.items():
        x, y = point(sq % 9 + du, sq // 9 + dv)
        ink = RED_INK if letter.isupper() else style.black_ink
        cv2.circle(img, (x, y), int(style.radius), rim, -1, cv2.LINE_AA)
        cv2.circle(img, (x, y), int(style.radius * 0.94), style.piece, -1, cv2.LINE_AA)
        cv2.circle(img, (x, y), int(style.radius * 0.8), ink, max(1, thick - 1), cv2.LINE_AA)
        charset = "simplified" if style.simplified else "traditional"
        mask = glyph_mask(style.face, CHARACTERS[charset][letter], int(style.radius * 1.15), style.simplified)
        _stamp(img, mask, (x, y), angle, ink)
    return img


def _stamp(img: np.ndarray, mask: np.ndarray, centre: tuple[int, int], angle: float, ink: tuple[int, ...]) -> None:
    """Blend ``ink`` into ``img`` through ``mask`` (0-1) turned by ``angle`` degrees, centred on ``centre``."""
    h, w = mask.shape
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    mask = cv2.warpAffine(mask.astype(np.float32), turn, (w, h))
    x0, y0 = centre[0] - w // 2, centre[1] - h // 2
    region = img[y0:y0 + h, x0:x0 + w].astype(np.float32)
    alpha = mask[:region.shape[0], :region.shape[1], None]
    img[y0:y0 + h, x0:x0 + w] = (region * (1 - alpha) + np.array(ink, np.float32) * alpha).astype(np.uint8)


def _camera(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A flat-board-to-picture homography: the board 70-92 % of the picture's height, a little
    perspective (the far edge narrower), turned up to 6 degrees, off centre."""
    width, height = size
    tall = height * rng.uniform(0.7, 0.92)
    wide = tall * BOARD_W / BOARD_H
    cx, cy = width / 2 + rng.uniform(-0.1, 0.1) * width, height / 2 + rng.uniform(-0.03, 0.03) * height
    tilt = rng.uniform(0.0, 0.12) * wide
    corners = np.array([[cx - wide / 2 + tilt / 2, cy - tall / 2], [cx + wide / 2 - tilt / 2, cy - tall / 2],
                        [cx + wide / 2, cy + tall / 2], [cx - wide / 2, cy + tall / 2]], dtype=np.float32)
    corners += rng.normal(0, 0.01 * tall, corners.shape).astype(np.float32)
    spin = cv2.getRotationMatrix2D((cx, cy), rng.uniform(-6, 6), 1.0)
    corners = np.asarray(cv2.transform(corners[None], spin)[0], dtype=np.float32)
    flat = np.array([[0, 0], [BOARD_W, 0], [BOARD_W, BOARD_H], [0, BOARD_H]], dtype=np.float32)
    return np.asarray(cv2.getPerspectiveTransform(flat, corners), dtype=np.float64)


def picture(board: np.ndarray, style: FlatStyle, rng: np.random.Generator,
            arm: tuple[tuple[int, int], tuple[int, int]] | None = None) -> np.ndarray:
    """The camera's picture of the flat ``board``: on the table, shaded, blurred, noisy, JPEG-compressed;
    with ``arm`` (shoulder, hand in flat-board pixels) an arm over board and table alike."""
    width, height = style.size
    table = np.empty((height, width, 3), np.uint8)
    table[:] = style.table
    warped = cv2.warpPerspective(board, style.homography, (width, height), flags=cv2.INTER_AREA)
    inside = cv2.warpPerspective(np.full(board.shape[:2], 255, np.uint8), style.homography, (width, height)) > 127
    table[inside] = warped[inside]
    if arm is not None:
        _draw_arm(table, style.homography, *arm)
    shade = np.linspace(style.shade[0], style.shade[1], width, dtype=np.float32)[None, :, None]
    image = np.clip(cv2.GaussianBlur(table, (0, 0), style.blur) * shade + rng.normal(0, 3, table.shape), 0, 255)
    _, data = cv2.imencode(".jpg", image.astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, style.jpeg])
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR))


SKIN = (120, 150, 205)  # BGR


@dataclass(frozen=True)
class _Trip:
    """One visit of a hand: after ``rest`` still frames, ``side``'s arm lifts the piece on ``pick`` and
    sets it on ``place``, ``offset`` (file, rank spacings) off the point; ``knock`` (square, offset)
    is a neighbour its arm bumps off its point on the way out."""

    rest: int
    side: str
    pick: int
    place: int
    offset: tuple[float, float] = (0.0, 0.0)
    knock: tuple[int, tuple[float, float]] | None = None


@dataclass
class FlatGame:
    """A game filmed on a flat board at ``fps``: each ply a still spell, then the mover's arm comes in
    from its own side, lifts the piece, sets it down (taking a captured piece away) and leaves; the
    clock is pressed a moment later. ``inject`` adds cases for the arbiter: ``illegal`` (a piece set on
    a point it cannot reach, left for 3 s, taken back, then the game's move) and ``knock`` (a
    neighbour bumped 0.4 spacings off its point as the arm leaves, put right 3 s later). The timeline
    is planned first: ``plies`` holds the truth (ply, iccs, t_complete: the first frame without the
    hand), ``injections`` the cases (kind, ply, t_start, t_end, t_seen) and ``presses`` the clock log
    (t, side, red_ms, black_ms), before a frame is drawn."""

    moves: list[str]
    seed: int
    size: tuple[int, int] = (640, 480)
    fps: float = 10.0
    inject: tuple[str, ...] = ()
    plies: list[dict[str, object]] = field(default_factory=list, init=False)
    injections: list[dict[str, object]] = field(default_factory=list, init=False)
    presses: list[tuple[float, str, int, int]] = field(default_factory=list, init=False)
    _trips: list[_Trip] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        rng = np.random.default_rng([self.seed, 0])
        at = {"illegal": len(self.moves) // 3 + 1, "knock": 2 * len(self.moves) // 3 + 1}
        position = Position.start()
        left = {"red": 900_000, "black": 900_000}
        frame = 0

        def trip(item: _Trip) -> tuple[float, float]:  # (t the hand comes, t it has gone)
            nonlocal frame
            self._trips.append(item)
            frame += item.rest + _HAND_FRAMES
            return (frame - _HAND_FRAMES) / self.fps, frame / self.fps

        for ply, iccs in enumerate(self.moves, start=1):
            move, side = Move.from_iccs(iccs), position.side_to_move
            rest = int(rng.uniform(2.0, 3.5) * self.fps)
            wrong = _unreachable(position, move.from_square, rng) if "illegal" in self.inject and ply == at["illegal"] else None
            if wrong is not None:
                came, seen = trip(_Trip(rest, side, move.from_square, wrong))
                _, back = trip(_Trip(int(3 * self.fps), side, wrong, move.from_square))
                self.injections.append({"kind": "illegal", "ply": ply, "t_start": came, "t_end": back, "t_seen": seen})
                rest = int(self.fps)
            bump = _bumped(position, move, rng) if "knock" in self.inject and ply == at["knock"] else None
            came, t_complete = trip(_Trip(rest, side, move.from_square, move.to_square, knock=bump))
            position = position.play(move)
            left[side] -= int(rng.uniform(2000, 8000))
            self.plies.append({"ply": ply, "iccs": iccs, "t_complete": t_complete})
            self.presses.append((round(t_complete + float(rng.uniform(0.2, 0.6)), 3), side, left["red"], left["black"]))
            if bump is not None:
                _, fixed = trip(_Trip(int(3 * self.fps), side, bump[0], bump[0]))
                self.injections.append({"kind": "knock", "ply": ply, "t_start": came, "t_end": fixed,
                                        "t_seen": t_complete})

    def frames(self) -> Iterator[tuple[float, np.ndarray]]:
        """(t, picture) for every frame."""
        rng = np.random.default_rng([self.seed, 1])
        style = FlatStyle.sample(np.random.default_rng([self.seed, 2]), self.size)
        pieces = {sq: (letter, style.angle(letter, rng), (0.0, 0.0)) for sq, letter in Position.start().pieces()}
        frame = 0
        board = draw_board(pieces, style)
        for item in self._trips:
            for _ in range(item.rest):  # the board at rest
                yield frame / self.fps, picture(board, style, rng)
                frame += 1
            shift = float(rng.uniform(-3, 3))
            home = point(4 + shift, -3.0 if item.side == "red" else 12.0)  # the arm's shoulder, off the board
            start = point(item.pick % 9, item.pick // 9)
            end = point(item.place % 9 + item.offset[0], item.place // 9 + item.offset[1])
            letter, angle, _ = pieces.pop(item.pick)
            path = ([_towards(home, start, k / 4) for k in range(1, 5)]
                    + [_towards(start, end, k / 4) for k in range(1, 5)]
                    + [end] * 2 + [_towards(end, home, k / 4) for k in range(1, 4)])
            for index, hand in enumerate(path):
                if index == 4:  # the piece is lifted
                    board = draw_board(pieces, style)
                if index == 9:  # and set down, any piece there taken away
                    pieces[item.place] = (letter, angle, item.offset)
                    if item.knock is not None:
                        bumped, off = item.knock
                        pieces[bumped] = (*pieces[bumped][:2], off)
                    board = draw_board(pieces, style)
                yield frame / self.fps, picture(board, style, rng, (home, hand))
                frame += 1
        for _ in range(int(3 * self.fps)):
            yield frame / self.fps, picture(board, style, rng)
            frame += 1


_HAND_FRAMES = 13  # a hand's visit: 4 frames coming in, 4 carrying, 2 setting down, 3 leaving


def _unreachable(position: Position, origin: int, rng: np.random.Generator) -> int | None:
    """An empty point near ``origin`` that its piece cannot move to now, or None."""
    legal = {m.to_square for m in position.legal_moves() if m.from_square == origin}
    options = []
    for sq in range(90):
        near = max(abs(sq % 9 - origin % 9), abs(sq // 9 - origin // 9))
        if 1 <= near <= 2 and sq not in legal and position.piece_at(sq) is None:
            options.append(sq)
    return int(rng.choice(options)) if options else None


def _bumped(position: Position, move: Move, rng: np.random.Generator) -> tuple[int, tuple[float, float]] | None:
    """A piece next to ``move``'s target to knock 0.4 spacings away from it into free space, or None."""
    after = position.play(move)
    occupied = {sq for sq, _ in after.pieces()}
    choices = []
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        f, r = move.to_square % 9 + df, move.to_square // 9 + dr
        sq = r * 9 + f
        if 0 <= f < 9 and 0 <= r < 10 and sq in occupied and sq != move.to_square:
            off = (0.4 * df, 0.4 * dr)  # pushed straight on, away from the piece just set down
            spot = (f + off[0], r + off[1])
            clear = all(np.hypot(spot[0] - o % 9, spot[1] - o // 9) >= 0.9 for o in occupied if o != sq)
            if clear and -0.3 <= spot[0] <= 8.3 and -0.3 <= spot[1] <= 9.3:
                choices.append((sq, off))
    return choices[int(rng.integers(len(choices)))] if choices else None


def _towards(a: tuple[int, int], b: tuple[int, int], share: float) -> tuple[int, int]:
    return int(round(a[0] + (b[0] - a[0]) * share)), int(round(a[1] + (b[1] - a[1]) * share))


def _draw_arm(image: np.ndarray, homography: np.ndarray, shoulder: tuple[int, int], hand: tuple[int, int]) -> None:
    """A flat arm from ``shoulder`` to a hand over ``hand`` (flat-board pixels), drawn on the picture."""
    ends = cv2.perspectiveTransform(np.array([[shoulder, hand, (hand[0] + SPACING, hand[1])]], np.float64),
                                    homography)[0]
    scale = float(np.hypot(*(ends[2] - ends[1]))) / SPACING  # picture pixels per flat-board pixel near the hand
    a, b = tuple(int(round(v)) for v in ends[0]), tuple(int(round(v)) for v in ends[1])
    dark = tuple(int(v * 0.8) for v in SKIN)
    cv2.line(image, a, b, dark, max(2, int(SPACING * 0.95 * scale)), cv2.LINE_AA)
    cv2.line(image, a, b, SKIN, max(1, int(SPACING * 0.75 * scale)), cv2.LINE_AA)
    cv2.circle(image, b, max(2, int(SPACING * 0.62 * scale)), SKIN, -1, cv2.LINE_AA)
