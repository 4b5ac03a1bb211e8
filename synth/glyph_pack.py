"""``python -m synth.glyph_pack OUT.npz``: every glyph the renderer draws, rasterised once.

A machine lent for a training run (a GPU box with no network) has none of the Debian font
packages, and the faces are hundreds of MB. The pack holds each face's raster of each character
``synth`` can draw (piece names in both scripts, river texts, file numerals), a few MB; with
``XQ_GLYPH_PACK=OUT.npz`` set there, the renderer draws from it exactly what it draws here.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from synth.fonts import FONTS, FontMissingError, pack_name, rasterise


def drawn_characters() -> str:
    """Every character ``synth`` may draw with a face: the CJK ones in its sources, and digits."""
    chars = {ch for path in Path(__file__).parent.glob("*.py")
             for ch in path.read_text(encoding="utf-8") if ord(ch) >= 0x2E80}
    return "".join(sorted(chars)) + "0123456789"


def build_pack() -> dict[str, np.ndarray]:
    """Rasters of every (face, character, script) the installed faces can draw."""
    glyphs: dict[str, np.ndarray] = {}
    for key in FONTS:
        for simplified in (False, True):
            for char in drawn_characters():
                try:
                    glyphs[pack_name(key, char, simplified)] = rasterise(key, char, simplified)
                except FontMissingError:
                    continue  # a glyph no face in its fallback chain has: the pack lacks it as the fonts do
    return glyphs


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m synth.glyph_pack", description=__doc__)
    parser.add_argument("out", type=Path, help="the .npz to write")
    args = parser.parse_args()
    glyphs = build_pack()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **glyphs)  # type: ignore[arg-type]
    print(f"{len(glyphs)} glyphs of {len(FONTS)} faces -> {args.out} ({args.out.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
