"""Finding a CJK TrueType font for the printed scoresheet (Debian's font packages, or ``XQREC_CJK_FONT``)."""

from __future__ import annotations

import os
from pathlib import Path

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
