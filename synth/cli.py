"""``xqrec render ...``: the simulator's commands.

- ``xqrec render position --fen FEN --seed N --out img.jpg --truth t.json``: one still view.
- ``xqrec render dataset --n N --seed S --outdir DIR [--crops]``: training/evaluation data.

Other ``render`` sub-commands (``render game`` from :mod:`synth.video`) register in
:func:`register` at the marked place.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import time
from pathlib import Path
from typing import Any

import cv2

from rules import START_FEN
from synth.dataset import DatasetOptions, write_dataset
from synth.fonts import FontMissingError
from synth.style import SPLITS, ViewStyle
from synth.view import render_position

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``render`` and its sub-commands to ``xqrec``."""
    parser = subparsers.add_parser("render", help="render simulated camera views, datasets and game videos")
    render_sub = parser.add_subparsers(dest="render_command", metavar="WHAT", required=True)
    _register_position(render_sub)
    _register_dataset(render_sub)
    # --- further `render` sub-commands register below this line (e.g. `render game`, synth.video) ---
    from synth.video_cli import register_game

    register_game(render_sub)


def _style_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--split", choices=SPLITS, default="train", help="style split to sample from (default train)")
    parser.add_argument("--width", type=int, help="image width in pixels (default: sampled)")
    parser.add_argument("--height", type=int, help="image height in pixels (default: sampled)")


def _register_position(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("position", help="render one position as a camera photo, with its truth")
    p.add_argument("--fen", default=START_FEN, help="position to render (default: the start)")
    p.add_argument("--seed", type=int, default=0, help="seed for every random choice (default 0)")
    p.add_argument("--out", type=Path, required=True, help="image file to write (.jpg or .png)")
    p.add_argument("--truth", type=Path, help="write the truth (points, FEN, style) as JSON here")
    p.add_argument("--hand", action="store_true", help="add a hand and forearm over the board")
    _style_arguments(p)
    p.add_argument("--style", type=Path, help="JSON file of ViewStyle fields to use instead of sampling")
    p.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                   help="override one ViewStyle field (JSON value), e.g. --set tilt_deg=0 --set board_material='\"paper\"'")
    p.add_argument("--clean", action="store_true", help="no lens distortion, noise, blur, JPEG, glare or shadows")
    p.set_defaults(handler=run_position)


def _register_dataset(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("dataset", help="render N random views (or per-point crops) with truth")
    p.add_argument("--n", type=int, required=True, help="number of views")
    p.add_argument("--seed", type=int, default=0, help="dataset seed (default 0)")
    p.add_argument("--outdir", type=Path, required=True, help="directory to write into")
    p.add_argument("--crops", action="store_true", help="write labelled per-point crops of the rectified board")
    p.add_argument("--spacing-px", type=int, default=40, help="rectified grid spacing for crops (default 40)")
    p.add_argument("--crop-px", type=int, default=48, help="crop side in pixels (default 48)")
    p.add_argument("--hand-rate", type=float, default=0.25, help="fraction of views with a hand (default 0.25)")
    _style_arguments(p)
    p.set_defaults(handler=run_dataset)


def _parse_value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def build_style(args: argparse.Namespace) -> ViewStyle | None:
    """The style the ``position`` arguments ask for, or None to sample from the seed."""
    import numpy as np

    if args.style:
        style = ViewStyle.from_dict(json.loads(args.style.read_text(encoding="utf-8")))
    elif args.set or args.clean or args.width is not None:
        style = ViewStyle.sample(np.random.default_rng([args.seed, 1]), split=args.split,
                                 width=args.width, height=args.height)
    else:
        return None
    if args.width is not None and args.height is not None:
        style = dataclasses.replace(style, width=args.width, height=args.height)
    overrides: dict[str, Any] = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--set needs FIELD=VALUE, got {item!r}")
        overrides[key.strip()] = _parse_value(value)
    if overrides:
        merged = style.to_dict()
        unknown = set(overrides) - set(merged)
        if unknown:
            raise ValueError(f"unknown style fields: {', '.join(sorted(unknown))}")
        merged.update(overrides)
        style = ViewStyle.from_dict(merged)
    return style.clean() if args.clean else style


IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")
MIN_SIDE_PX, MAX_SIDE_PX = 64, 16384  # a picture smaller than this holds no readable board


def _check_size(args: argparse.Namespace) -> None:
    """Both of --width and --height or neither, each within what a picture of a board can be."""
    if (args.width is None) != (args.height is None):
        raise ValueError("give both --width and --height, or neither")
    for name in ("width", "height"):
        value = getattr(args, name)
        if value is not None and not MIN_SIDE_PX <= value <= MAX_SIDE_PX:
            raise ValueError(f"--{name} {value} is not between {MIN_SIDE_PX} and {MAX_SIDE_PX} pixels")


def distinct_outputs(paths: dict[str, Path]) -> None:
    """``ValueError`` when two of the files a command writes are one: the second would overwrite the
    first (a video's truth written over the video)."""
    seen: dict[Path, str] = {}
    for option, path in paths.items():
        key = path.resolve()
        if key in seen:
            raise ValueError(f"{option} {path} is the file {seen[key]} names: give another path (nothing was written)")
        seen[key] = option


def run_position(args: argparse.Namespace) -> int:
    """Render one view and write the image (and truth)."""
    _check_size(args)
    distinct_outputs({"--out": args.out, **({"--truth": args.truth} if args.truth else {})})
    if args.out.suffix.lower() not in IMAGE_SUFFIXES:
        raise ValueError(f"--out {args.out}: name a picture file ({', '.join(IMAGE_SUFFIXES)})")
    style = build_style(args)
    try:
        image, truth = render_position(args.fen, args.seed, style=style, hand=args.hand, split=args.split)
    except FontMissingError as error:  # reported like other bad input: one line naming the package
        raise ValueError(str(error)) from error
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(args.out), image):  # the suffix was checked above: the folder or disk refused it
        raise ValueError(f"cannot write image {args.out}: the folder {args.out.parent} cannot be written to, or the "
                         "disk is full")
    if args.truth:
        args.truth.parent.mkdir(parents=True, exist_ok=True)
        args.truth.write_text(json.dumps(truth.to_json(), indent=1), encoding="utf-8")
    return 0


def run_dataset(args: argparse.Namespace) -> int:
    """Render a dataset and print a one-line summary."""
    if args.n < 0:
        raise ValueError("--n must be 0 or more")
    _check_size(args)
    if args.crop_px < 8 or args.spacing_px < 8:
        raise ValueError("--crop-px and --spacing-px must be 8 pixels or more")
    if not 0.0 <= args.hand_rate <= 1.0:
        raise ValueError(f"--hand-rate {args.hand_rate} is not a fraction between 0 and 1")
    options = DatasetOptions(n=args.n, seed=args.seed, split=args.split, hand_rate=args.hand_rate,
                             width=args.width, height=args.height, crops=args.crops,
                             spacing_px=args.spacing_px, crop_px=args.crop_px)
    started = time.perf_counter()
    try:
        manifest = write_dataset(options, args.outdir)
    except FontMissingError as error:
        raise ValueError(str(error)) from error
    elapsed = time.perf_counter() - started
    print(f"{args.n} views ({manifest['kind']}) in {elapsed:.1f} s -> {args.outdir}")
    return 0
