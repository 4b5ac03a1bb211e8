"""Move notations: Chinese (art. 7.5 of the rules), WXF and ICCS, each a parse/format pair.

``format_move(position, move, notation)`` writes the strict form; ``parse_move(position,
text)`` reads leniently, detecting the notation when none is given. Parse errors are
``InvalidMoveError`` (unreadable), ``IllegalMoveError`` (no legal move fits) and
``AmbiguousMoveError`` (several fit); their messages carry the text and the FEN.
"""

from __future__ import annotations

import re
import unicodedata

from rules.errors import InvalidMoveError
from rules.move import Move
from rules.notation.chinese import format_chinese, parse_chinese
from rules.notation.iccs import format_iccs, parse_iccs
from rules.notation.wxf import format_wxf, parse_wxf
from rules.position import Position

CHINESE, WXF, ICCS = "chinese", "wxf", "iccs"
NOTATIONS = (CHINESE, WXF, ICCS)

_ICCS_SHAPE = re.compile(r"[a-i][0-9]-?[a-i][0-9]", re.IGNORECASE)


def detect_notation(text: str) -> str:
    """Which notation ``text`` is written in: ``iccs``, ``wxf`` or ``chinese`` (anything non-ASCII)."""
    compact = "".join(unicodedata.normalize("NFKC", text).split())
    if _ICCS_SHAPE.fullmatch(compact):
        return ICCS
    return WXF if compact.isascii() else CHINESE


def format_move(
    position: Position,
    move: Move,
    notation: str = CHINESE,
    *,
    traditional: bool = False,
    fullwidth: bool = False,
    short: bool = False,
) -> str:
    """``move`` (legal in ``position``) in ``notation``; the Chinese options are ignored by the others."""
    if notation == CHINESE:
        return format_chinese(position, move, traditional=traditional, fullwidth=fullwidth, short=short)
    if notation == WXF:
        return format_wxf(position, move)
    if notation == ICCS:
        return format_iccs(position, move)
    raise ValueError(f"unknown notation {notation!r}; expected one of {', '.join(NOTATIONS)}")


def parse_move(position: Position, text: str, notation: str | None = None) -> Move:
    """The legal move ``text`` names in ``position``; ``notation=None`` detects it from the text."""
    chosen = notation or detect_notation(text)
    if chosen == CHINESE:
        return parse_chinese(position, text)
    if chosen == WXF:
        try:
            return parse_wxf(position, text)
        except InvalidMoveError as error:
            if notation is None and error.reason.startswith("not WXF notation"):  # guessed: name all three
                raise InvalidMoveError(text, "not a move in ICCS (h2e2), WXF (C2.5) or Chinese (炮二平五) "
                                             "notation", error.fen) from None
            raise
    if chosen == ICCS:
        return parse_iccs(position, text)
    raise ValueError(f"unknown notation {notation!r}; expected one of {', '.join(NOTATIONS)}")


__all__ = [
    "CHINESE",
    "ICCS",
    "NOTATIONS",
    "WXF",
    "detect_notation",
    "format_chinese",
    "format_iccs",
    "format_move",
    "format_wxf",
    "parse_chinese",
    "parse_iccs",
    "parse_move",
    "parse_wxf",
]
