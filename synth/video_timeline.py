"""The data a game video is made from: board states, hand tracks, clock presses, faults, all in time.

A :class:`Timeline` is pure data in *board coordinates* (x = file 0-8 from red's left,
y = rank 0-9 from red's side, both in grid spacings) and seconds, so it can be built and
checked without drawing anything; :mod:`synth.video` maps it to pixels.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Placement:
    """One piece standing on (or near) a point.

    ``rotation`` is in degrees counter-clockwise, 0 = the character upright for its owner;
    ``dx``/``dy`` are the offset of the piece centre from its point in grid spacings
    (+x towards file i, +y towards rank 9).
    """

    piece: str
    rotation: float = 0.0
    dx: float = 0.0
    dy: float = 0.0

    def off_point(self) -> float:
        """Distance of the piece centre from its point, in grid spacings."""
        return math.hypot(self.dx, self.dy)


BoardState = tuple[tuple[int, Placement], ...]
"""The physical board: (square, placement) pairs sorted by square."""

TOUCHING = 0.92  # spacings between two pieces' centres when they touch (the widest drawn: radius 0.46)


def clear_of_others(pieces: dict[int, Placement], sq: int, dx: float, dy: float,
                    fallback: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
    """The offset ``(dx, dy)`` for a piece on ``sq``, drawn back towards ``fallback`` (where it stood,
    or its point) until it overlaps none of the other ``pieces``: pieces pushed together touch, they
    do not overlap (a nudge had drawn two discs 0.69 spacings apart, a picture no real board gives).
    Where even ``fallback`` overlaps one (a neighbour nudged towards the point a piece is put on), the
    piece stands against it, on the far side."""
    x0, y0 = sq % 9, sq // 9
    others = [(other % 9 + p.dx - x0, other // 9 + p.dy - y0) for other, p in pieces.items() if other != sq]

    def clear(x: float, y: float) -> bool:
        return all(math.hypot(ox - x, oy - y) >= TOUCHING - 1e-9 for ox, oy in others)

    for share in (1.0, 0.75, 0.5, 0.25, 0.0):
        x, y = fallback[0] + share * (dx - fallback[0]), fallback[1] + share * (dy - fallback[1])
        if clear(x, y):
            return x, y
    x, y = fallback
    ox, oy = min(others, key=lambda o: math.hypot(o[0] - x, o[1] - y))
    away = math.hypot(x - ox, y - oy) or 1.0
    pushed = (ox + (x - ox) * TOUCHING / away, oy + (y - oy) * TOUCHING / away)
    return pushed if clear(*pushed) else fallback


def state_from_dict(pieces: dict[int, Placement]) -> BoardState:
    """A canonical :data:`BoardState` from a square -> placement mapping."""
    return tuple(sorted(pieces.items()))


def state_board(state: BoardState) -> str:
    """The 90-character board string (as in :class:`rules.Position`) of a physical state."""
    cells = ["."] * 90
    for sq, placement in state:
        cells[sq] = placement.piece
    return "".join(cells)


@dataclass(frozen=True, slots=True)
class Keyframe:
    """Where a hand is at time ``t``: its pinch point (board coordinates), height, what it holds.

    ``z`` is the height above the board (0 = touching a piece, 1 = about a hand's length up);
    ``holding`` lists the pieces in the hand (drawn at the pinch point).
    """

    t: float
    x: float
    y: float
    z: float
    holding: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HandTrack:
    """One hand's visit to the board: who (``red``/``black``/``arbiter``), why, and its keyframes."""

    actor: str
    purpose: str
    keyframes: tuple[Keyframe, ...]
    shoulder: tuple[float, float]
    skin: int
    sleeve: int

    @property
    def start(self) -> float:
        return self.keyframes[0].t

    @property
    def end(self) -> float:
        return self.keyframes[-1].t

    def at(self, t: float) -> Keyframe | None:
        """The interpolated keyframe at ``t`` (eased between keys), or ``None`` outside the track."""
        keys = self.keyframes
        if t < keys[0].t or t > keys[-1].t:
            return None
        times = [k.t for k in keys]
        i = max(0, min(len(keys) - 2, bisect.bisect_right(times, t) - 1))
        a, b = keys[i], keys[i + 1]
        span = b.t - a.t
        u = 0.0 if span <= 0 else (t - a.t) / span
        u = u * u * (3.0 - 2.0 * u)
        return Keyframe(
            t,
            a.x + (b.x - a.x) * u,
            a.y + (b.y - a.y) * u,
            a.z + (b.z - a.z) * u,
            a.holding,
        )


@dataclass(frozen=True, slots=True)
class BoardChange:
    """At ``t`` the physical board becomes ``state`` (a piece lifted, placed, knocked...)."""

    t: float
    state: BoardState
    why: str


@dataclass(frozen=True, slots=True)
class Press:
    """A clock press: ``side`` is the button pressed; the times are those left after the press."""

    t: float
    side: str
    red_ms: int
    black_ms: int
    ply: int | None
    note: str = ""


@dataclass(frozen=True, slots=True)
class Bump:
    """A small knock to the camera: a short shake, then a lasting shift of the view.

    ``shift`` is (dx, dy) in fractions of the image width/height, ``angle`` in degrees,
    about the image centre.
    """

    t: float
    duration: float
    shift: tuple[float, float]
    angle: float


@dataclass(frozen=True, slots=True)
class LightKey:
    """Room light at ``t``: overall ``gain``, per-channel (b, g, r) ``tint`` and a linear gradient."""

    t: float
    gain: float
    tint: tuple[float, float, float]
    gradient: tuple[float, float]


@dataclass(slots=True)
class PlyRecord:
    """One move of the game as it ends up on the board."""

    ply: int
    iccs: str
    side: str
    fen_after: str
    capture: str | None
    t_complete: float
    press_t: float | None
    track: int
    stable_after: bool = True


@dataclass(slots=True)
class Injection:
    """An injected arbiter case: its kind, ply, squares, times and the outcome an arbiter expects."""

    kind: str
    ply: int
    side: str
    squares: list[str]
    t_start: float
    t_end: float
    expected: str
    detail: dict[str, Any] = field(default_factory=dict)
    tracks: list[int] = field(default_factory=list)


@dataclass(slots=True)
class Timeline:
    """Everything that happens in one game video, in seconds and board coordinates."""

    start_fen: str
    initial: BoardState
    changes: list[BoardChange]
    tracks: list[HandTrack]
    presses: list[Press]
    plies: list[PlyRecord]
    injections: list[Injection]
    bumps: list[Bump]
    light: list[LightKey]
    duration: float
    clock_start: dict[str, Any]

    def state_at(self, t: float) -> BoardState:
        """The physical board at time ``t`` (changes take effect at their time)."""
        state = self.initial
        for change in self.changes:
            if change.t > t:
                break
            state = change.state
        return state

    def light_at(self, t: float) -> LightKey:
        """The room light at ``t``, linearly between keys."""
        keys = self.light
        if t <= keys[0].t:
            return keys[0]
        for a, b in zip(keys, keys[1:], strict=False):
            if a.t <= t <= b.t:
                u = 0.0 if b.t == a.t else (t - a.t) / (b.t - a.t)

                def mix(p: float, q: float, u: float = u) -> float:
                    return p + (q - p) * u

                return LightKey(
                    t,
                    mix(a.gain, b.gain),
                    (mix(a.tint[0], b.tint[0]), mix(a.tint[1], b.tint[1]), mix(a.tint[2], b.tint[2])),
                    (mix(a.gradient[0], b.gradient[0]), mix(a.gradient[1], b.gradient[1])),
                )
        return keys[-1]

    def camera_at(self, t: float) -> tuple[float, float, float]:
        """The camera's (dx, dy, angle) offset at ``t``: the lasting shifts so far plus any shake."""
        dx = dy = angle = 0.0
        for bump in self.bumps:
            if t < bump.t:
                break
            if t >= bump.t + bump.duration:
                dx, dy, angle = dx + bump.shift[0], dy + bump.shift[1], angle + bump.angle
                continue
            u = (t - bump.t) / bump.duration
            shake = math.sin(u * math.pi * 5.0) * (1.0 - u) * 2.5
            settle = u * u * (3.0 - 2.0 * u)
            dx += bump.shift[0] * (settle + shake)
            dy += bump.shift[1] * (settle - 0.6 * shake)
            angle += bump.angle * (settle + 0.5 * shake)
        return dx, dy, angle
