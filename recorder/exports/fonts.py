"""Finding the fonts of the printed scoresheet: a CJK TrueType font (Debian's font packages, or
``XQREC_CJK_FONT``) and a fallback with full Latin Extended coverage for the letters a CJK font
lacks (Vietnamese ``ễ ă``, Polish ``ł``...: DejaVu Sans from fonts-dejavu-core, or ``XQREC_LATIN_FONT``).
A sheet whose names or notes hold a character neither has (a rare CJK character) takes the other
installed fonts of :data:`CJK_FONTS` that hold it as further fallbacks (``recorder.exports.pdf``)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

# (path, collection index); the first that exists is used. All embed and subset with fpdf2.
CJK_FONTS: tuple[tuple[str, int], ...] = (
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),  # fonts-wqy-zenhei
    ("/usr/share/fonts/truetype/arphic/uming.ttc", 0),  # fonts-arphic-uming
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2),  # fonts-noto-cjk (SC)
    ("/usr/share/fonts/truetype/arphic/ukai.ttc", 0),  # fonts-arphic-ukai
)


def find_cjk_font() -> tuple[Path, int]:
    """The font file and collection index to print Chinese with; ``FileNotFoundError`` naming the packages."""
    chosen = os.environ.get("XQREC_CJK_FONT")
    if chosen:
        path = Path(chosen)
        if not path.exists():
            raise FileNotFoundError(f"XQREC_CJK_FONT names {path}, which does not exist")
        return path, 0
    for name, index in CJK_FONTS:
        if Path(name).exists():
            return Path(name), index
    raise FileNotFoundError("no CJK font found for the scoresheet: install the Debian package fonts-wqy-zenhei "
                            "(or fonts-arphic-uming), or set XQREC_CJK_FONT to a TrueType font file")


# Fallbacks for the letters the CJK font lacks; the first that exists is used.
LATIN_FONTS: tuple[str, ...] = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",  # fonts-dejavu-core
    "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",  # fonts-noto-core
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",  # fonts-liberation
)


def find_latin_font() -> Path | None:
    """The fallback font for Latin letters outside the CJK font (``None``, with a warning, when none is
    installed: such letters are then left out of the PDF)."""
    chosen = os.environ.get("XQREC_LATIN_FONT")
    if chosen:
        path = Path(chosen)
        if not path.exists():
            raise FileNotFoundError(f"XQREC_LATIN_FONT names {path}, which does not exist")
        return path
    for name in LATIN_FONTS:
        if Path(name).exists():
            return Path(name)
    log.warning("no Latin fallback font found for the scoresheet: letters the CJK font lacks (ễ, ă...) are "
                "left out; install the Debian package fonts-dejavu-core or set XQREC_LATIN_FONT")
    return None
