"""Chinese move notation as in art. 7.5 of the rules (``炮二平五``, ``马8进7``, ``前车进二``).

Red's files and numbers are written in Chinese numerals, black's in digits, each side's
files counted from its own right. Pieces sharing a file are told apart by 前/中/后; four
or five soldiers on one file by their place from the front (一兵, 二兵, ...); soldiers two
or more on each of two files by place and file, without the piece (前七进一).

Writing is strict: simplified characters by default (red 帅仕相马车炮兵, black
将士象马车炮卒), traditional on request, ASCII digits for black unless ``fullwidth``.
Reading is lenient: traditional and simplified characters and their variants, full-width
or ASCII digits and Chinese numerals for either side, the place after the piece (马前进七),
a plain file number where 前/后 was due when only one legal move fits, and the short form
without a direction (``炮25``, art. 7.5) when only one legal move fits.
"""

from __future__ import annotations

import logging
import re
import unicodedata

from rules.errors import AmbiguousMoveError, InvalidMoveError
from rules.move import Move
from rules.notation.common import BACKWARD, FORWARD, SIDEWAYS, Description, Spec, describe, resolve
from rules.position import Position
from rules.squares import RED

logger = logging.getLogger(__name__)

_NUMERALS = "一二三四五六七八九"
_FULLWIDTH = "１２３４５６７８９"

_NAMES = {
    (RED, False): {"K": "帅", "A": "仕", "B": "相", "N": "马", "R": "车", "C": "炮", "P": "兵"},
    (RED, True): {"K": "帥", "A": "仕", "B": "相", "N": "馬", "R": "車", "C": "炮", "P": "兵"},
    ("black", False): {"K": "将", "A": "士", "B": "象", "N": "马", "R": "车", "C": "炮", "P": "卒"},
    ("black", True): {"K": "將", "A": "士", "B": "象", "N": "馬", "R": "車", "C": "炮", "P": "卒"},
}
_DIRECTIONS = {
    False: {FORWARD: "进", BACKWARD: "退", SIDEWAYS: "平"},
    True: {FORWARD: "進", BACKWARD: "退", SIDEWAYS: "平"},
}
_PLACES = {False: ("前", "中", "后"), True: ("前", "中", "後")}

# Reading: every accepted character mapped to one ASCII token (after NFKC, which turns
# full-width digits into ASCII ones).
_READ = {
    **dict.fromkeys("帅帥将將", "K"),
    **dict.fromkeys("仕士", "A"),
    **dict.fromkeys("相象", "B"),
    **dict.fromkeys("马馬傌", "N"),
    **dict.fromkeys("车車俥伡", "R"),
    **dict.fromkeys("炮砲包", "C"),
    **dict.fromkeys("兵卒", "P"),
    **dict.fromkeys("进進", FORWARD),
    "退": BACKWARD,
    "平": SIDEWAYS,
    "前": "f",
    "中": "m",
    **dict.fromkeys("后後", "r"),
    **{numeral: str(value) for value, numeral in enumerate(_NUMERALS, start=1)},
}
_TABLE = str.maketrans(_READ)
_PLACE_CODES = {"f": "front", "m": "middle", "r": "rear"}

_PIECE = "[KABNRCP]"
_MOVE = r"([+\-.])([1-9])"
_PATTERNS = (
    # 炮二平五: piece, file, direction, number
    (re.compile(rf"({_PIECE})([1-9]){_MOVE}"), ("kind", "file", "direction", "number")),
    # 前马退四 / 二兵平四: place, piece, direction, number
    (re.compile(rf"([fmr1-5])({_PIECE}){_MOVE}"), ("place", "kind", "direction", "number")),
    # 马前退四 (lenient): piece, place, direction, number
    (re.compile(rf"({_PIECE})([fmr]){_MOVE}"), ("kind", "place", "direction", "number")),
    # 前七进一: place, file (soldiers on two files)
    (re.compile(rf"([fmr])([1-9]){_MOVE}"), ("place", "file", "direction", "number")),
    # 前兵七进一 (lenient): place, piece, file
    (re.compile(rf"([fmr1-5])({_PIECE})([1-9]){_MOVE}"), ("place", "kind", "file", "direction", "number")),
    # 炮25 / 马2 3 (short form, art. 7.5): piece, file, number
    (re.compile(rf"({_PIECE})([1-9])([1-9])"), ("kind", "file", "number")),
    # 后车6 / 2兵6 (short form of tandem pieces): place, piece, number
    (re.compile(rf"([fmr1-5])({_PIECE})([1-9])"), ("place", "kind", "number")),
    # 前76 (short form, soldiers on two files): place, file, number
    (re.compile(r"([fmr])([1-9])([1-9])"), ("place", "file", "number")),
)


def _number(value: int, side: str, fullwidth: bool) -> str:
    if side == RED:
        return _NUMERALS[value - 1]
    return _FULLWIDTH[value - 1] if fullwidth else str(value)


def format_chinese(position: Position, move: Move, *, traditional: bool = False, fullwidth: bool = False,
                   short: bool = False) -> str:
    """The strict Chinese notation of a legal ``move`` (``炮二平五``, ``马8进7``, ``前车进二``).

    ``traditional`` writes 帥將馬車進後; ``fullwidth`` writes black's digits full-width
    (``马８进７``), as printed scoresheets do. ``short`` writes the short form of art. 7.5:
    digits for both sides and no direction (``炮25``, ``马87``, ``后车6``), except where that
    would name more than one legal move (the rules' own ``车12``, 平 or 进): there the full
    form is written, so a record in the short form still reads back to one game.
    """
    found = describe(position, move)
    side = found.side
    name = _NAMES[side, traditional][found.kind]
    if short:
        text = _short_form(found, name, fullwidth, traditional)
        try:
            if resolve(position, parse_spec(text), text) == move:
                return text
        except AmbiguousMoveError:
            pass  # written in full below
    tail = _DIRECTIONS[traditional][found.direction] + _number(found.number, side, fullwidth)
    if found.order is None:
        return name + _number(found.file, side, fullwidth) + tail
    index, count = found.order
    front, middle, rear = _PLACES[traditional]
    if count <= 3:
        place = front if index == 0 else rear if index == count - 1 else middle
    else:
        place = _number(index + 1, side, fullwidth)
    if found.two_files:
        return place + _number(found.file, side, fullwidth) + tail
    return place + name + tail


def _short_form(found: Description, name: str, fullwidth: bool, traditional: bool) -> str:
    """Art. 7.5's short form: piece (or place), file and the move's number, all in digits."""
    digits = _FULLWIDTH if fullwidth else "123456789"
    number = digits[found.number - 1]
    if found.order is None:
        return name + digits[found.file - 1] + number
    index, count = found.order
    front, middle, rear = _PLACES[traditional]
    place = (front if index == 0 else rear if index == count - 1 else middle) if count <= 3 else digits[index]
    if found.two_files:
        return place + digits[found.file - 1] + number
    return place + name + number


def normalize_chinese(text: str) -> str:
    """The ASCII token string the reader matches (e.g. ``马８進７`` -> ``N8+7``)."""
    compact = "".join(unicodedata.normalize("NFKC", text).split()).rstrip("!?！？")
    return compact.translate(_TABLE)


def parse_spec(text: str) -> Spec:
    """Parse Chinese move text into a :class:`Spec` without a position; raises ``InvalidMoveError``."""
    tokens = normalize_chinese(text)
    for pattern, fields in _PATTERNS:
        match = pattern.fullmatch(tokens)
        if not match:
            continue
        parts = dict(zip(fields, match.groups(), strict=True))
        place = parts.get("place")
        return Spec(
            kind=parts.get("kind", "P"),
            file=int(parts["file"]) if "file" in parts else None,
            order=_PLACE_CODES.get(place, place) if place else None,
            direction=parts.get("direction"),
            number=int(parts["number"]),
        )
    raise InvalidMoveError(text, "not Chinese move notation (e.g. 炮二平五, 马8进7, 前车进二)")


def parse_chinese(position: Position, text: str) -> Move:
    """The legal move named by Chinese notation ``text`` in ``position``.

    Raises ``InvalidMoveError`` (unreadable), ``IllegalMoveError`` (no legal move fits) or
    ``AmbiguousMoveError`` (several fit, e.g. a short form that could go 平 or 进).
    """
    try:
        spec = parse_spec(text)
    except InvalidMoveError as error:
        raise InvalidMoveError(text, error.reason, position.fen()) from None
    return resolve(position, spec, text)
