"""Every look choice of a rendered view in one frozen dataclass, and how to draw one at random.

A :class:`ViewStyle` fixes the board, the pieces, the camera, the light and the sensor. It is
sampled from a seeded ``numpy.random.Generator`` so a seed reproduces a view exactly. The
``split`` argument partitions fonts and the colour palettes of boards, pieces and tables so a
test set can hold looks that training never saw.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
from dataclasses import dataclass
from typing import Any

import numpy as np

from synth.fonts import FONTS

log = logging.getLogger(__name__)

SPLITS = ("train", "dev", "test")
# Seeds of each split live in disjoint ranges (used by the dataset command).
SPLIT_SEED_BASE = {"train": 0, "dev": 100_000_000, "test": 200_000_000}

FONTS_BY_SPLIT = {
    "train": ("ukai", "noto-serif", "wqy-zenhei", "clerical-ming", "bkai", "gkai", "bsmi", "gbsn",
              "wqy-microhei", "cwkai", "cwheib", "cwyen", "wenkai"),
    "dev": ("uming", "noto-sans", "cwming"),
    "test": ("noto-serif-bold", "noto-sans-bold", "clerical-kai", "cwfs", "hanamin"),
}
# Faces added to the train split's for the classifier's fourth training stage (``faces="wide"``):
# kept apart so the first three stages' data, drawn from the train faces above, stay reproducible.
WIDE_TRAIN_FONTS = ("kouzan", "kouzan-gyosho", "kiloji", "ipaexg")
FACE_SETS = ("base", "wide")

BOARD_MATERIALS = ("wood", "paper", "cloth", "vinyl", "plastic")
PIECE_FACES = ("wood", "bone", "plastic")
TABLE_MATERIALS = ("dark-wood", "light-wood", "cloth", "laminate")

# Palettes are BGR. Entry i belongs to split "train" when i % 5 < 3, "dev" when 3, "test" when 4.
BOARD_PALETTES: dict[str, tuple[tuple[int, int, int], ...]] = {
    "wood": ((92, 168, 214), (70, 140, 196), (110, 180, 222), (80, 150, 200), (60, 125, 180), (100, 160, 205)),
    "paper": ((200, 228, 240), (180, 220, 236), (214, 236, 244), (170, 210, 228), (196, 222, 226), (160, 205, 232)),
    "cloth": ((120, 190, 215), (150, 205, 220), (100, 170, 190), (130, 175, 160), (110, 195, 225), (140, 200, 215)),
    "vinyl": ((150, 205, 225), (190, 220, 230), (120, 185, 215), (160, 195, 170), (175, 215, 235), (140, 190, 210)),
    "plastic": ((205, 232, 242), (190, 225, 240), (215, 235, 238), (180, 218, 232), (200, 226, 236), (185, 222, 245)),
}
PIECE_PALETTES: dict[str, tuple[tuple[int, int, int], ...]] = {
    "wood": ((110, 175, 215), (90, 155, 200), (125, 190, 225), (80, 140, 185), (120, 170, 205), (100, 165, 210)),
    "bone": ((200, 228, 238), (215, 235, 242), (190, 220, 232), (205, 225, 230), (185, 215, 228), (210, 232, 240)),
    "plastic": ((232, 240, 242), (215, 235, 245), (225, 232, 236), (200, 225, 240), (238, 238, 238), (220, 238, 248)),
}
TABLE_PALETTES: dict[str, tuple[tuple[int, int, int], ...]] = {
    "dark-wood": ((40, 60, 95), (30, 45, 70), (50, 75, 115), (35, 55, 80), (45, 58, 90)),
    "light-wood": ((105, 160, 200), (90, 145, 190), (120, 175, 210), (100, 150, 180), (110, 155, 195)),
    "cloth": ((70, 110, 40), (110, 60, 30), (60, 60, 130), (85, 90, 90), (40, 80, 20)),
    "laminate": ((170, 170, 165), (200, 200, 200), (150, 160, 170), (180, 185, 175), (140, 140, 150)),
}
LINE_COLOURS = {"red": (40, 40, 170), "black": (35, 35, 35), "brown": (20, 42, 78)}
BLACK_INKS = {"black": (30, 30, 30), "green": (55, 85, 20), "blue": (110, 50, 25)}
RED_INK = (40, 35, 175)
RIVER_TEXTS = {"traditional": ("楚河", "漢界"), "simplified": ("楚河", "汉界")}


def _aside(rng: np.random.Generator) -> np.random.Generator:
    """A generator seeded from ``rng``'s state without drawing from it: a look added later takes its
    draws here, so no other draw of the style (camera, light, pieces, ...) changes with it."""
    digest = hashlib.sha256(repr(rng.bit_generator.state).encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


def _split_indices(n: int, split: str) -> list[int]:
    wanted = {"train": (0, 1, 2), "dev": (3,), "test": (4,)}[split]
    picks = [i for i in range(n) if i % 5 in wanted]
    return picks or list(range(n))


def _pick(rng: np.random.Generator, options: tuple[Any, ...] | list[Any], weights: list[float] | None = None) -> Any:
    if weights is None:
        return options[int(rng.integers(len(options)))]
    p = np.asarray(weights, dtype=float)
    return options[int(rng.choice(len(options), p=p / p.sum()))]


def _jitter(rng: np.random.Generator, colour: tuple[int, int, int], amount: float) -> tuple[int, int, int]:
    # mostly lighter/darker, only a little change of hue (a shade of the same material)
    shifted = np.clip(np.asarray(colour, float) + rng.normal(0.0, amount) + rng.normal(0.0, amount / 3, 3), 0, 255)
    return (int(shifted[0]), int(shifted[1]), int(shifted[2]))


def _white_balance(rng: np.random.Generator) -> tuple[float, float, float]:
    """BGR gains of a camera's white-balance error: mostly along the warm-cool axis (lamp light vs
    daylight), with only a trace of green-magenta."""
    temperature = float(np.clip(rng.normal(0.0, 0.06), -0.15, 0.15))  # > 0 warm (tungsten), < 0 cool
    tint = float(rng.normal(0.0, 0.012))
    return (1.0 - temperature, 1.0 + tint, 1.0 + temperature)


@dataclass(frozen=True)
class ViewStyle:
    """All look choices of one view. Lengths are in units of the grid spacing unless named ``_px``."""

    # board
    board_material: str = "wood"
    board_colour: tuple[int, int, int] = (92, 168, 214)
    line_colour: tuple[int, int, int] = (35, 35, 35)
    line_name: str = "black"
    line_width: float = 0.025
    border_gap: float = 0.12
    border_width: float = 0.05
    border_double: bool = False
    margin: float = 0.75
    river_script: str = "traditional"
    river_font: str = "ukai"
    river_facing: str = "red"
    cross_marks: bool = True
    file_numbers: bool = False  # file numerals outside the border: 1-9 facing black, 九-一 facing red
    folds: int = 0
    wear: float = 0.0  # 0..1 stains and grime on the board surface
    board_thickness: float = 0.1
    table_material: str = "dark-wood"
    table_colour: tuple[int, int, int] = (40, 60, 95)
    props: bool = False  # a clock, score sheets and a pen on the table
    # pieces
    piece_face: str = "wood"
    piece_colour: tuple[int, int, int] = (110, 175, 215)
    piece_radius: float = 0.44
    piece_height: float = 0.3
    font: str = "ukai"
    charset: str = "traditional"
    carved: bool = True
    ring: bool = True
    double_ring: bool = False
    red_ink: tuple[int, int, int] = RED_INK
    black_ink: tuple[int, int, int] = BLACK_INKS["green"]
    black_ink_name: str = "green"
    rotation_spread: float = 10.0
    offset_max: float = 0.06
    # camera
    width: int = 640
    height: int = 480
    tilt_deg: float = 0.0
    tilt_azimuth_deg: float = 0.0
    roll_deg: float = 0.0
    coverage: float = 0.8
    distance: float = 20.0
    centre_shift: tuple[float, float] = (0.0, 0.0)
    barrel: float = 0.0
    # light and sensor
    light_azimuth_deg: float = 135.0
    light_elevation_deg: float = 60.0
    gradient: float = 0.15
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)
    exposure: float = 1.0
    glare_spots: int = 0
    glare_strength: float = 0.0
    people_shadows: int = 0
    noise_sigma: float = 2.0
    blur_sigma: float = 0.0
    motion_blur: float = 0.0  # streak length in pixels (camera shake or a long exposure)
    focus_falloff: float = 0.0  # 0..1: one side of the frame drifts out of focus (shallow depth of field)
    focus_angle_deg: float = 0.0
    motion_angle_deg: float = 0.0
    jpeg_quality: int = 0  # 0 means no JPEG round trip

    def to_dict(self) -> dict[str, Any]:
        """The style as plain JSON-able values."""
        out = dataclasses.asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in out.items()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ViewStyle:
        """Inverse of :meth:`to_dict`; unknown keys, values of the wrong type, names the renderer does
        not know and values it cannot draw are a ``ValueError`` (a truth file must describe the
        picture made from it)."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = set(data) - set(fields)
        if unknown:
            raise ValueError(f"unknown ViewStyle fields: {sorted(unknown)}")
        default = cls()
        values: dict[str, Any] = {name: _checked(name, value, getattr(default, name)) for name, value in data.items()}
        for name, allowed in _CHOICES.items():
            if name in values and values[name] not in allowed:
                raise ValueError(f"style {name} {values[name]!r} is not one of {', '.join(allowed)}")
        for name, (low, high) in _LIMITS.items():
            if name in values and not low <= values[name] <= high:
                raise ValueError(f"style {name} {values[name]} is outside what can be drawn ({low} to {high})")
        return cls(**values)

    def clean(self) -> ViewStyle:
        """The same look with no lens distortion, noise, blur, JPEG, glare or shadows (for geometry checks)."""
        return dataclasses.replace(
            self, barrel=0.0, noise_sigma=0.0, blur_sigma=0.0, motion_blur=0.0, focus_falloff=0.0, jpeg_quality=0,
            glare_spots=0,
            people_shadows=0,
        )

    @classmethod
    def sample(
        cls, rng: np.random.Generator, *, split: str = "train", width: int | None = None, height: int | None = None,
        faces: str = "base",
    ) -> ViewStyle:
        """Draw a style. ``split`` selects disjoint fonts and palettes; ``width``/``height`` fix the resolution;
        ``faces="wide"`` adds ``WIDE_TRAIN_FONTS`` to the train split's faces."""
        if split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
        if faces not in FACE_SETS or (faces == "wide" and split != "train"):
            raise ValueError(f"faces must be one of {FACE_SETS} ('wide' for the train split only), not {faces!r}")
        material = _pick(rng, BOARD_MATERIALS, [0.28, 0.27, 0.12, 0.2, 0.13])
        board_palette = BOARD_PALETTES[material]
        board_colour = _jitter(rng, board_palette[_pick(rng, _split_indices(len(board_palette), split))], 6)
        if material == "wood":
            line_name = _pick(rng, ("black", "brown", "red"), [0.55, 0.3, 0.15])
        elif material in ("paper", "plastic"):
            line_name = _pick(rng, ("red", "black", "brown"), [0.55, 0.35, 0.1])
        else:
            line_name = _pick(rng, ("black", "red", "brown"), [0.5, 0.3, 0.2])
        face = _pick(rng, PIECE_FACES, [0.45, 0.2, 0.35])
        piece_palette = PIECE_PALETTES[face]
        piece_colour = _jitter(rng, piece_palette[_pick(rng, _split_indices(len(piece_palette), split))], 5)
        table = _pick(rng, TABLE_MATERIALS)
        table_palette = TABLE_PALETTES[table]
        table_colour = _jitter(rng, table_palette[_pick(rng, _split_indices(len(table_palette), split))], 8)
        fonts = FONTS_BY_SPLIT[split] + (WIDE_TRAIN_FONTS if faces == "wide" else ())
        font = _pick(rng, fonts)
        charset = _pick(rng, ("traditional", "simplified"), [0.65, 0.35])
        if charset not in FONTS[font].charsets:  # a Big5 or GB face: the script it was made for
            charset = FONTS[font].charsets[0]
        black_ink_name = _pick(rng, ("black", "green", "blue"), [0.5, 0.35, 0.15])
        if width is None or height is None:
            width, height = _pick(rng, ((640, 480), (800, 600), (1024, 768), (1280, 720), (1280, 960), (1920, 1080)))
        if rng.random() < 0.65:  # the camera is usually set up square to the table
            roll = float(_pick(rng, (0.0, 90.0, 180.0, 270.0)) + rng.normal(0.0, 4.0))
        else:
            roll = float(rng.uniform(0.0, 360.0))
        rotation_spread = float(_pick(rng, (4.0, 12.0, 30.0, 180.0), [0.3, 0.35, 0.2, 0.15]))
        glossy = material in ("vinyl", "plastic") or face == "plastic"
        return cls(
            board_material=material,
            board_colour=board_colour,
            line_colour=_jitter(rng, LINE_COLOURS[line_name], 8),
            line_name=line_name,
            line_width=float(rng.uniform(0.015, 0.04)),
            border_gap=float(rng.uniform(0.08, 0.2)),
            border_width=float(rng.uniform(0.02, 0.07)),
            border_double=bool(rng.random() < 0.3),
            margin=float(rng.uniform(0.55, 1.1)),
            river_script=_pick(rng, ("traditional", "simplified"), [0.7, 0.3]),
            river_font=_pick(rng, fonts),
            river_facing=_pick(rng, ("red", "both")),
            cross_marks=bool(rng.random() < 0.9),
            wear=float(rng.uniform(0.2, 1.0)) if rng.random() < 0.5 else 0.0,
            folds=int(_pick(rng, (0, 1, 2, 3))) if material in ("plastic", "vinyl", "paper") else 0,
            board_thickness=float(rng.uniform(0.1, 0.35)) if material == "wood" else float(rng.uniform(0.0, 0.03)),
            table_material=table,
            table_colour=table_colour,
            props=bool(rng.random() < 0.6),
            piece_face=face,
            piece_colour=piece_colour,
            piece_radius=float(rng.uniform(0.40, 0.46)),
            piece_height=float(rng.uniform(0.18, 0.38)),
            font=font,
            charset=charset,
            carved=bool(rng.random() < (0.75 if face == "wood" else 0.35)),
            ring=bool(rng.random() < 0.8),
            double_ring=bool(rng.random() < 0.3),
            red_ink=_jitter(rng, RED_INK, 10),
            black_ink=_jitter(rng, BLACK_INKS[black_ink_name], 6),
            black_ink_name=black_ink_name,
            rotation_spread=rotation_spread,
            offset_max=float(rng.uniform(0.0, 0.15)),
            width=int(width),
            height=int(height),
            tilt_deg=float(min(25.0, abs(rng.normal(0.0, 10.0)))),
            tilt_azimuth_deg=float(rng.uniform(0.0, 360.0)),
            roll_deg=roll % 360.0,
            coverage=float(rng.uniform(0.65, 0.95) if rng.random() < 0.75 else rng.uniform(0.4, 0.65)),
            distance=float(rng.uniform(14.0, 30.0)),
            centre_shift=(float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1))),
            barrel=float(rng.uniform(0.0, 0.06)) if rng.random() < 0.6 else 0.0,
            light_azimuth_deg=float(rng.uniform(0.0, 360.0)),
            light_elevation_deg=float(rng.uniform(40.0, 80.0)),
            gradient=float(rng.uniform(0.0, 0.35)),
            cast=_white_balance(rng),
            exposure=float(rng.uniform(0.9, 1.2)),
            glare_spots=int(rng.integers(0, 3)) if glossy else int(rng.random() < 0.2),
            glare_strength=float(rng.uniform(0.15, 0.5) if glossy else rng.uniform(0.04, 0.12)),
            people_shadows=int(_pick(rng, (0, 0, 1, 2))),
            noise_sigma=float(rng.uniform(0.5, 6.0)),
            blur_sigma=float(_pick(rng, (0.0, 0.0, 0.6, 1.0, 1.5))),
            motion_blur=float(rng.uniform(2.0, 6.0)) if rng.random() < 0.12 else 0.0,
            motion_angle_deg=float(rng.uniform(0.0, 180.0)),
            focus_falloff=float(rng.uniform(0.3, 1.0)) if rng.random() < 0.25 else 0.0,
            focus_angle_deg=float(rng.uniform(0.0, 360.0)),
            jpeg_quality=int(_pick(rng, (0, 60, 75, 85, 95))),
            file_numbers=bool(_aside(rng).random() < 0.5),
        )


# names the renderer knows (another name would be drawn as some default while the truth kept the name)
_CHOICES: dict[str, tuple[str, ...]] = {
    "board_material": BOARD_MATERIALS, "piece_face": PIECE_FACES, "table_material": TABLE_MATERIALS,
    "font": tuple(FONTS), "river_font": tuple(FONTS), "charset": ("traditional", "simplified"),
    "river_script": ("traditional", "simplified"), "river_facing": ("red", "both"),
    "black_ink_name": tuple(BLACK_INKS), "line_name": tuple(LINE_COLOURS),
}
# values outside which no picture of a board comes out (the sampled ranges are far narrower: docs/synth.md)
_LIMITS: dict[str, tuple[float, float]] = {
    "width": (64, 16384), "height": (64, 16384), "tilt_deg": (0.0, 75.0), "coverage": (0.05, 1.5),
    "distance": (1.0, 1000.0), "piece_radius": (0.1, 0.5), "piece_height": (0.0, 2.0), "margin": (0.0, 3.0),
    "line_width": (0.0, 0.2), "exposure": (0.05, 5.0), "jpeg_quality": (0, 100), "glare_spots": (0, 20),
    "people_shadows": (0, 10), "noise_sigma": (0.0, 100.0), "blur_sigma": (0.0, 20.0), "motion_blur": (0.0, 100.0),
    "focus_falloff": (0.0, 1.0), "wear": (0.0, 1.0), "glare_strength": (0.0, 2.0), "folds": (0, 8),
    "offset_max": (0.0, 0.5), "rotation_spread": (0.0, 360.0), "barrel": (-0.5, 0.5),
}


def _checked(name: str, value: Any, default: Any) -> Any:
    """``value`` for the field ``name`` as the type of its ``default`` (a JSON list for a tuple, an int
    for a float); ``ValueError`` naming the field when it is of another type."""
    wanted = (f"a list of {len(default)} numbers" if isinstance(default, tuple) else "true or false"
              if isinstance(default, bool) else "a whole number" if isinstance(default, int) else "a number"
              if isinstance(default, float) else 'a string (JSON, in double quotes: \'"paper"\')')
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, float):
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        value = float(value) if ok else value
    elif isinstance(default, str):
        ok = isinstance(value, str)
    else:
        ok = (isinstance(value, list | tuple) and len(value) == len(default)
              and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value))
        value = tuple(value) if ok else value
    if not ok:
        raise ValueError(f"style {name} must be {wanted}, not {value!r}")
    return value
