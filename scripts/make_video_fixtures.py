"""Render the short game videos in tests/fixtures/ (committed; each under 2 MB).

- ``game_short``: the first 10 plies of line 1 of ../shared/data/games_iccs.txt, no faults.
- ``game_faults``: the first 20 plies of line 2 with every injectable arbiter case once.

Each comes as ``NAME.mp4``, ``NAME.truth.json`` and ``NAME.clock.jsonl``. Run from the
repository root: ``.venv/bin/python scripts/make_video_fixtures.py`` (needs ffmpeg for
H.264; without it OpenCV's mp4v makes files several times larger).
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from synth.game_script import ScriptOptions  # noqa: E402
from synth.video import render_game  # noqa: E402
from synth.video_faults import INJECTION_KINDS  # noqa: E402

GAMES = REPO.parent / "shared" / "data" / "games_iccs.txt"
OUT = REPO / "tests" / "fixtures"
LIMIT = 2_000_000

FIXTURES = {
    # name: (line, plies, seed, injections)
    "game_short": (1, 10, 101, ()),
    "game_faults": (2, 20, 202, tuple(f"{kind}" for kind in INJECTION_KINDS)),
}


def main() -> None:
    lines = GAMES.read_text(encoding="utf-8").splitlines()
    options = ScriptOptions(think_min=0.8, think_median=1.5, think_max=3.0, bumps=0)
    for name, (line, plies, seed, inject) in FIXTURES.items():
        moves = lines[line - 1].split()[1:][:plies]
        out = OUT / f"{name}.mp4"
        result = render_game(moves, seed, out=out, truth_path=OUT / f"{name}.truth.json",
                             clock_path=OUT / f"{name}.clock.jsonl", inject=list(inject), fps=10.0,
                             width=640, height=480, split="dev", options=options)
        size = out.stat().st_size
        print(f"{out.relative_to(REPO)}: {result.frames} frames, {size / 1e6:.2f} MB")
        if size > LIMIT:
            raise SystemExit(f"{out} is over {LIMIT / 1e6:.0f} MB")


if __name__ == "__main__":
    main()
