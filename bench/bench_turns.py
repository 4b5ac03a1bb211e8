"""Board location under the picture's eight turns and mirrors: does the camera's mounting matter?

A camera can be mounted at any angle, and a mirror setting flips its picture, so whether the board
is found must not depend on which way up the picture is. The frames are taken from rendered game
videos (640x360, the recorder benchmark's, where thin lines are one or two pixels wide and the
locator is nearest its limits): for each frame, the board is located in all eight turns and mirrors,
and a frame counts as consistent when all eight agree (all found, or all refused).

Prints how many frames were found in all eight, in none, and in some but not all, with the found
rate per transform. Make the videos first: ``python -m bench.bench_recorder --games 50 --cases 0
--seed-base 1800000 --render-only`` (any seed bases; ``--videos`` picks the folder).

``python -m bench turns`` or ``python -m bench.bench_turns --frames 40``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from calibration import BoardLocator, BoardNotFoundError

TURNS = [(mirror, quarter) for mirror in (False, True) for quarter in range(4)]


def turned(image: np.ndarray, mirror: bool, quarter: int) -> np.ndarray:
    """``image`` mirrored left to right (first), then turned ``quarter`` quarter turns anticlockwise."""
    out = image[:, ::-1] if mirror else image
    return np.ascontiguousarray(np.rot90(out, quarter))


def video_frames(folder: Path, count: int, at_s: float, pattern: str = "*clean-*.mp4") -> list[tuple[str, np.ndarray]]:
    """One frame ``at_s`` seconds into each of the first ``count`` videos in ``folder`` named by ``pattern``."""
    out = []
    for video in sorted(folder.glob(pattern)):
        capture = cv2.VideoCapture(str(video))
        fps = capture.get(cv2.CAP_PROP_FPS) or 10.0
        capture.set(cv2.CAP_PROP_POS_FRAMES, int(at_s * fps))
        ok, frame = capture.read()
        capture.release()
        if ok:
            out.append((video.stem, frame))
        if len(out) == count:
            break
    return out


def run(frames: list[tuple[str, np.ndarray]]) -> dict[str, object]:
    """Locate every frame in every turn; per frame the list of found flags (``TURNS`` order)."""
    found: dict[str, list[bool]] = {}
    times = []
    for name, frame in frames:
        flags = []
        for mirror, quarter in TURNS:
            started = time.process_time()
            try:
                BoardLocator().locate(turned(frame, mirror, quarter))
                flags.append(True)
            except BoardNotFoundError:
                flags.append(False)
            times.append(1000 * (time.process_time() - started))
        found[name] = flags
    return {"found": found, "median_ms": statistics.median(times) if times else 0.0}


def main(argv: list[str] | None = None) -> None:
    """Print the figures (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--videos", type=Path, default=Path("out/bench/videos"))
    parser.add_argument("--frames", type=int, default=40, help="videos to take a frame from")
    parser.add_argument("--at", type=float, default=0.5, help="seconds into each video")
    parser.add_argument("--pattern", default="*clean-*.mp4", help="which videos of the folder (a glob)")
    args = parser.parse_args(argv)
    frames = video_frames(args.videos, args.frames, args.at, args.pattern)
    if not frames:
        print(f"no clean game videos in {args.videos}: render them with python -m bench.bench_recorder "
              "--games 50 --cases 0 --render-only")
        return
    figures = run(frames)
    found: dict[str, list[bool]] = figures["found"]  # type: ignore[assignment]
    every = [name for name, flags in found.items() if all(flags)]
    none = [name for name, flags in found.items() if not any(flags)]
    some = {name: flags for name, flags in found.items() if any(flags) and not all(flags)}
    print(f"board location under 8 turns and mirrors, {len(found)} frames at {args.at:g} s of the videos "
          f"{args.videos / args.pattern} (one core):")
    print(f"  found in all 8: {len(every)}   in none: {len(none)}   in some but not all: {len(some)}")
    rates = "  ".join(f"{'m' if mirror else ''}{quarter * 90}: {sum(f[i] for f in found.values())}"
                      for i, (mirror, quarter) in enumerate(TURNS))
    print(f"  found per transform (of {len(found)}): {rates}")
    for name, flags in some.items():
        print(f"    {name}: found in {sum(flags)} of 8")
    print(f"  locate (CPU): median {figures['median_ms']:.0f} ms")


if __name__ == "__main__":
    main()
