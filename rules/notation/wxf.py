"""WXF move notation (``C2.5``, ``H8+7``, ``R+.3``, ``C-+1``), the AXF/WXF standard.

A move is the piece letter (K A E H R C P), its file counted from the mover's right (1-9
for both sides), the direction (``+`` forward, ``-`` backward, ``.`` sideways) and a
number (a file, or points for pieces moving straight along a file).

Tandem pieces replace the file by ``+`` (front) or ``-`` (rear): ``R+.3``. Soldiers: of
three on a file the middle keeps the plain file (``P3.4``); of four, ``++`` ``P+`` ``P-``
``--`` from the front; of five, ``++`` ``P+`` ``P3`` ``P-`` ``--``; when two files each hold
two or more, the file replaces the letter: ``3+.4``, ``33.4`` (middle), ``3-.4``.

Writing uses upper case letters and ``.``; reading also takes ``=`` for sideways, lower
case, B/N for E/H, and a leading place (``+R.3``).
"""

from __future__ import annotations

import logging
import re
import unicodedata

from rules.errors import InvalidMoveError
from rules.move import Move
from rules.notation.common import Spec, describe, resolve
from rules.position import Position

logger = logging.getLogger(__name__)

_LETTERS = {"K": "K", "A": "A", "B": "E", "N": "H", "R": "R", "C": "C", "P": "P"}
_READ = str.maketrans({"E": "B", "H": "N", "=": ".", "G": "K", "M": "B"})

_MOVE = r"([+\-.])([1-9])"
_PIECE = "([KABNRCP])"
_PLAIN = re.compile(rf"{_PIECE}([1-9]){_MOVE}")
_TANDEM = re.compile(rf"{_PIECE}([+\-]){_MOVE}")
_TANDEM_LEADING = re.compile(rf"([+\-]){_PIECE}{_MOVE}")
_OUTERMOST = re.compile(rf"(\+\+|--){_MOVE}")
_TWO_FILES = re.compile(rf"([1-9])([+\-1-9]){_MOVE}")


def format_wxf(position: Position, move: Move) -> str:
    """The strict WXF notation of a legal ``move``."""
    found = describe(position, move)
    letter = _LETTERS[found.kind]
    tail = f"{found.direction}{found.number}"
    if found.order is None:
        return f"{letter}{found.file}{tail}"
    index, count = found.order
    if found.two_files:
        place = "+" if index == 0 else "-" if index == count - 1 else str(found.file)
        return f"{found.file}{place}{tail}"
    if count <= 3:
        place = "+" if index == 0 else "-" if index == count - 1 else str(found.file)
        return f"{letter}{place}{tail}"
    places = ["++", "P+", f"P{found.file}", "P-", "--"] if count == 5 else ["++", "P+", "P-", "--"]
    return places[index] + tail


def parse_spec(text: str) -> Spec:
    """Parse WXF text into a :class:`Spec` without a position; raises ``InvalidMoveError``."""
    tokens = "".join(unicodedata.normalize("NFKC", text).split()).rstrip("!?").upper().translate(_READ)
    if match := _PLAIN.fullmatch(tokens):
        kind, file, direction, number = match.groups()
        return Spec(kind, int(file), None, direction, int(number), middle_by_file=True)
    if match := _TANDEM.fullmatch(tokens) or _TANDEM_LEADING.fullmatch(tokens):
        first, second, direction, number = match.groups()
        kind, sign = (first, second) if first.isalpha() else (second, first)
        return Spec(kind, None, "wxf" + sign, direction, int(number))
    if match := _OUTERMOST.fullmatch(tokens):
        signs, direction, number = match.groups()
        return Spec("P", None, "wxf" + signs, direction, int(number))
    if match := _TWO_FILES.fullmatch(tokens):
        file, place, direction, number = match.groups()
        if place.isdigit() and place != file:
            raise InvalidMoveError(text, f"a middle soldier repeats its file ({file}{file}), not {file}{place}")
        code = "front" if place == "+" else "rear" if place == "-" else "middle"
        return Spec("P", int(file), code, direction, int(number))
    raise InvalidMoveError(text, "not WXF notation (e.g. C2.5, H8+7, R+.3)")


def parse_wxf(position: Position, text: str) -> Move:
    """The legal move named by WXF ``text`` in ``position``.

    Raises ``InvalidMoveError``, ``IllegalMoveError`` or ``AmbiguousMoveError``.
    """
    try:
        spec = parse_spec(text)
    except InvalidMoveError as error:
        raise InvalidMoveError(text, error.reason, position.fen()) from None
    return resolve(position, spec, text)
