"""Still views: any position (FEN) rendered as a camera photo, with its truth.

``render_position(fen, seed)`` is deterministic: the seed fixes the style (unless given), the
scene, the pieces' rotations and offsets, the hand and the sensor noise.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rules import Position
from rules.squares import square_name
from synth.hand_shape import HandOverlay, HandPose
from synth.pieces import Placement
from synth.scene import Overlay, Scene
from synth.style import ViewStyle

log = logging.getLogger(__name__)


@dataclass
class ViewTruth:
    """What a rendered view shows.

    ``points`` maps "a0".."i9" (ICCS, from red's view) to the pixel position of the board point in
    the final image (after perspective and lens distortion; pixel centres at integers).
    ``red_side`` is the image edge red's back rank faces. ``covered`` lists points hidden by a
    hand or arm (over 40 % of a point's neighbourhood); ``cover`` gives that share for every point
    a hand or arm reaches (the points at its edge are doubtful either way). ``piece_offsets`` gives, per occupied point, the piece centre's offset in grid
    spacings (+x toward file i, +y toward rank 9); ``piece_rotations`` the rotation in degrees
    (counter-clockwise seen from above, 0 = upright for red). ``camera`` holds the board-plane to
    undistorted-pixel homography (board x = file, y = rank) and the lens model.
    """

    fen: str
    points: dict[str, tuple[float, float]]
    red_side: str
    covered: list[str] = field(default_factory=list)
    cover: dict[str, float] = field(default_factory=dict)
    piece_offsets: dict[str, tuple[float, float]] = field(default_factory=dict)
    piece_rotations: dict[str, float] = field(default_factory=dict)
    style: dict[str, Any] = field(default_factory=dict)
    camera: dict[str, Any] = field(default_factory=dict)
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict (tuples become lists)."""
        return {
            "fen": self.fen,
            "seed": self.seed,
            "width": self.style.get("width"),
            "height": self.style.get("height"),
            "points": {k: [round(v[0], 3), round(v[1], 3)] for k, v in self.points.items()},
            "red_side": self.red_side,
            "covered": list(self.covered),
            "cover": {k: round(v, 3) for k, v in self.cover.items()},
            "piece_offsets": {k: [round(v[0], 4), round(v[1], 4)] for k, v in self.piece_offsets.items()},
            "piece_rotations": {k: round(v, 2) for k, v in self.piece_rotations.items()},
            "style": self.style,
            "camera": self.camera,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ViewTruth:
        """Inverse of :meth:`to_json`."""
        return cls(
            fen=data["fen"],
            points={k: (float(v[0]), float(v[1])) for k, v in data["points"].items()},
            red_side=data["red_side"],
            covered=list(data.get("covered", [])),
            cover={k: float(v) for k, v in data.get("cover", {}).items()},
            piece_offsets={k: (float(v[0]), float(v[1])) for k, v in data.get("piece_offsets", {}).items()},
            piece_rotations={k: float(v) for k, v in data.get("piece_rotations", {}).items()},
            style=dict(data.get("style", {})),
            camera=dict(data.get("camera", {})),
            seed=int(data.get("seed", 0)),
        )


def place_pieces(position: Position, style: ViewStyle, rng: np.random.Generator) -> dict[str, Placement]:
    """Placements for every piece of ``position``: black faces black, with the style's rotation
    spread and off-centre offsets up to ``style.offset_max`` spacings."""
    out = {}
    for sq, letter in position.pieces():
        base = 0.0 if letter.isupper() else 180.0
        spread = style.rotation_spread
        rotation = float(rng.uniform(0, 360)) if spread >= 180 else base + float(rng.uniform(-spread, spread))
        angle = rng.uniform(0, 2 * np.pi)
        r = style.offset_max * float(np.sqrt(rng.random()))
        out[square_name(sq)] = Placement(letter, rotation % 360.0, (float(r * np.cos(angle)), float(r * np.sin(angle))))
    return out


def camera_json(scene: Scene) -> dict[str, Any]:
    """The camera model as JSON: homography (board -> undistorted pixels) and lens distortion."""
    cam = scene.camera
    return {
        "homography": [[float(v) for v in row] for row in cam.homography],
        "barrel": cam.barrel,
        "distortion_model": "p_u = c + (p_d - c) * (1 + barrel * |p_d - c|^2 / n^2), c = image centre, n = half diagonal",
        "centre_units": list(cam.centre),
        "spacing_px": scene.spacing_px,
    }


def render_position(
    fen: str, seed: int, *, style: ViewStyle | None = None, hand: bool = False, split: str = "train"
) -> tuple[np.ndarray, ViewTruth]:
    """Render ``fen`` as a camera photo (BGR uint8) with its :class:`ViewTruth`.

    ``style`` defaults to one sampled from ``seed`` (in ``split``); ``hand`` adds a hand and
    forearm reaching over the board and reports the points it hides.
    """
    image, truth, _ = render_view(fen, seed, style=style, hand=hand, split=split)
    return image, truth


def render_view(
    fen: str, seed: int, *, style: ViewStyle | None = None, hand: bool = False, split: str = "train"
) -> tuple[np.ndarray, ViewTruth, Scene]:
    """:func:`render_position` that also returns the :class:`Scene` (for rectified crops)."""
    position = Position.from_fen(fen)
    if style is None:
        style = ViewStyle.sample(np.random.default_rng([seed, 1]), split=split)
    scene = Scene(style, seed)
    placements = place_pieces(position, style, np.random.default_rng([seed, 2]))
    overlays: list[Overlay] = []
    if hand:
        overlays.append(HandOverlay(HandPose.sample(np.random.default_rng([seed, 3]), scene)))
    frame = scene.render_frame(placements, overlays, 0.0)
    truth = ViewTruth(
        fen=position.fen(),
        points=frame.points,
        red_side=scene.red_side(),
        covered=frame.covered,
        cover=frame.cover_shares,
        piece_offsets={k: p.offset for k, p in placements.items()},
        piece_rotations={k: p.rotation for k, p in placements.items()},
        style=style.to_dict(),
        camera=camera_json(scene),
        seed=seed,
    )
    return frame.image, truth, scene
