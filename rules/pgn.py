"""PGN for Xiangqi: read and write game records (``[Game "Chinese Chess"]``).

A record holds tag pairs (the Seven Tag Roster with ``[Red]``/``[Black]`` in place of
chess's White/Black, ``[FEN]`` for a non-standard start, ``[Format "Chinese"|"WXF"|"ICCS"]``
for the move notation), then the movetext: move numbers, moves, ``{...}`` and ``;``
comments, and the result (``1-0``, ``0-1``, ``1/2-1/2``, ``*``).

Reading is lenient, as imported files are edges of the system: files may be UTF-8 (with
or without BOM), GBK/GB18030 or Big5; moves may be in any notation the readers of
:mod:`rules.notation` accept; annotation glyphs and NAGs are kept at the start of their move's
comment (and written back as NAGs, ``$1``), and variations are left out with a note (``PgnGame.notes``). A move that cannot be read stops that game, and so
does a ``{`` comment or a variation never closed that swallowed moves; the problem is kept in ``PgnGame.errors``
(``strict=True`` raises instead); so is a tag line that does not parse (``malformed tag on
line N``), which is left out. Nothing is logged above debug: the caller decides what a
problem means (an import keeps the moves read, a replay refuses the game) and says it once. Writing is strict and stable: writing what was read and
reading it again gives the same game, and writing that again gives the same text.
"""

from __future__ import annotations

import codecs
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from rules.errors import RulesError
from rules.move import Move
from rules.notation import CHINESE, ICCS, NOTATIONS, WXF, format_move, parse_move
from rules.position import START_FEN, Position

logger = logging.getLogger(__name__)

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
SEVEN_TAG_ROSTER = ("Event", "Site", "Date", "Round", "Red", "Black", "Result")
FORMAT_NAMES = {CHINESE: "Chinese", WXF: "WXF", ICCS: "ICCS"}
_FORMAT_BY_NAME = {name.lower(): notation for notation, name in FORMAT_NAMES.items()}
_START_PLACEMENT = START_FEN.split()[0]


class PgnError(RulesError):
    """A PGN record that cannot be read (raised only by ``read_pgn(..., strict=True)``)."""


@dataclass
class PgnGame:
    """One game record: tags in file order, moves from the start position, comments, result.

    ``comment`` precedes the first move; ``move_comments[i]`` follows ``moves[i]`` (empty
    when there is none); clock annotations such as ``[%clk 0:10:00]`` stay in the comment
    text. ``encoding`` is how the file's bytes were decoded; ``errors`` lists what could
    not be read, and ``cut`` says the moves stop at one of those problems (the game is incomplete).
    ``notes`` lists what was left out that the game itself does not need (variations).
    """

    headers: dict[str, str] = field(default_factory=dict)
    moves: list[Move] = field(default_factory=list)
    comment: str = ""
    move_comments: list[str] = field(default_factory=list)
    result: str = "*"
    encoding: str | None = None
    errors: list[str] = field(default_factory=list)
    cut: bool = False  # the moves stop short: one could not be read (or the start position), the rest is left out
    notes: list[str] = field(default_factory=list)

    @property
    def start_fen(self) -> str:
        """The FEN tag, or the standard start when there is none."""
        return self.headers.get("FEN", "").strip() or START_FEN

    def start_position(self) -> Position:
        return Position.from_fen(self.start_fen)

    def positions(self) -> list[Position]:
        """The start position and the position after every move."""
        position = self.start_position()
        found = [position]
        for move in self.moves:
            position = position.play(move)
            found.append(position)
        return found

    def add_move(self, move: Move, comment: str = "") -> None:
        self.moves.append(move)
        self.move_comments.append(comment)

# --- bytes and text ---------------------------------------------------------------------
_EIGHT_BIT_CODECS = ("gbk", "gb18030", "cp950", "big5hkscs")
_NOTATION_CHARS = frozenset("车車俥马馬傌炮砲包兵卒帅帥将將仕士相象进進退平前后後")


def _plausibility(text: str) -> int:
    """How much decoded text looks like a Chinese game record (notation characters count most)."""
    notation = sum(1 for ch in text if ch in _NOTATION_CHARS)
    odd = sum(1 for ch in text if ord(ch) > 0x7F and not ("\u4e00" <= ch <= "\u9fff" or "\u3000" <= ch <= "\u303f"
                                                           or "\uff00" <= ch <= "\uffef"))
    return 10 * notation - odd


def _where(data: bytes, start: int) -> str:
    """Where byte ``start`` of ``data`` is, as an editor shows it: line and column (bytes from the
    line's start, 1-based), and the bytes there."""
    line = data.count(b"\n", 0, start) + 1
    column = start - (data.rfind(b"\n", 0, start) + 1) + 1
    return f"at line {line}, column {column} (bytes {data[start:start + 4].hex(' ')})"


def decode_pgn(data: bytes) -> tuple[str, str]:
    """Decode PGN bytes: UTF-8 (BOM or not), else GBK/GB18030 or Big5, whichever reads as a record.

    Legacy Chinese encodings often decode each other's bytes without error (into nonsense),
    so every codec that succeeds is scored by how many notation characters it yields.
    Returns ``(text, encoding)``; raises ``PgnError`` naming each codec's failure.
    """
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8):].decode("utf-8", errors="replace"), "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError as error:  # two bytes of a binary file that happen to be a BOM
            raise PgnError(f"cannot decode the PGN bytes: they begin as UTF-16 text but are not "
                           f"({error.reason} {_where(data, error.start)}): is it a PGN file?") from None
    failures: list[tuple[str, UnicodeDecodeError]] = []
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as error:
        failures.append(("utf-8", error))
    best: tuple[int, str, str] | None = None
    for encoding in _EIGHT_BIT_CODECS:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError as error:
            failures.append((encoding, error))
            continue
        score = _plausibility(text)
        if best is None or score > best[0]:
            best = (score, text, encoding)
    if best is None:
        starts = {error.start for _, error in failures}
        if len(starts) == 1:
            raise PgnError(f"cannot decode the PGN bytes {_where(data, starts.pop())}: no text in "
                           + ", ".join(encoding for encoding, _ in failures))
        raise PgnError("cannot decode the PGN bytes (" + "; ".join(
            f"{encoding}: {error.reason} {_where(data, error.start)}" for encoding, error in failures) + ")")
    logger.debug("decoded PGN as %s (not %s)", best[2], ", ".join(encoding for encoding, _ in failures))
    return best[1], best[2]


_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_TAG_LINE = re.compile(r'\s*(?:\[\s*[A-Za-z0-9_]+\s+"(?:[^"\\]|\\.)*"\s*\]\s*)+')
_LOOSE_TAG = re.compile(r'\s*\[\s*([A-Za-z0-9_]+)\s+"(.*)"\s*\]\s*')
_TAG_START = re.compile(r'\s*\[\s*[A-Za-z0-9_]+(?:\s|"|$)')  # begins as a tag: "[Event", not "[%clk"


def split_records(text: str) -> list[tuple[list[tuple[str, str]], str]]:
    """Split PGN text into (tag pairs, movetext) per game; a tag line after movetext starts a new game."""
    return [(tags, movetext) for tags, movetext, _ in _split_records(text)[0]]


def _split_records(text: str) -> tuple[list[tuple[list[tuple[str, str]], str, list[str]]], Unclosed | None]:
    """:func:`split_records` with each game's malformed tag lines (``malformed tag on line N: ...``),
    which are left out of both its tags and its movetext; and, when a ``{`` comment is never
    closed (everything after it, later games too, reads as that comment), what to say of it."""
    records: list[tuple[list[tuple[str, str]], str, list[str]]] = []
    tags: list[tuple[str, str]] = []
    body: list[str] = []
    problems: list[str] = []
    depth = 0  # open '{' comments carried over lines
    opened = 0  # the line the open comment began on
    for number, line in enumerate(text.splitlines(), start=1):
        if depth == 0 and line.startswith("%"):
            continue
        found = _tags_of(line) if depth == 0 else None
        malformed = found is None and depth == 0 and _TAG_START.match(line) is not None
        if found is not None or malformed:
            if any(part.strip() for part in body):
                records.append((tags, "\n".join(body), problems))
                tags, body, problems = [], [], []
            if found is not None:
                tags.extend(found)
            else:
                why = "" if line.rstrip().endswith("]") else " (no closing ']')"
                problems.append(f"malformed tag on line {number}{why}: {line.strip()!r}")
            continue
        body.append(line)
        was, depth = depth, _comment_depth(line, depth)
        if depth and (not was or "}" in line):
            opened = number
    if tags or problems or any(part.strip() for part in body):
        records.append((tags, "\n".join(body), problems))
    return records, (_unclosed_comment(text.splitlines(), opened) if depth else None)


_SWALLOWED_PLAY = re.compile(r"\d+\s*\.|(?<!\S)(?:1-0|0-1|1/2-1/2|\*)(?!\S)|^\s*\[\s*[A-Za-z]", re.MULTILINE)


def _unclosed_comment(lines: list[str], opened: int) -> Unclosed:
    """What to say of a ``{`` comment on line ``opened`` that runs to the end of the file: an error
    when it swallowed play (a move number, a result, another game's tags), else only a note."""
    start = lines[opened - 1]
    swallowed = "\n".join([start[start.rfind("{") + 1:]] + lines[opened:])
    last = max((number for number, line in enumerate(lines, start=1) if line.strip()), default=opened)
    if _SWALLOWED_PLAY.search(swallowed):
        return Unclosed(f"the comment opened with '{{' on line {opened} is never closed with '}}': the moves, result "
                        f"or games after it (to line {last}) are not read", lost=True)
    return Unclosed(f"the comment opened with '{{' on line {opened} is never closed with '}}' (no move after it)",
                    lost=False)


@dataclass(frozen=True)
class Unclosed:
    """A ``{`` comment never closed: what to say, and whether it swallowed moves (the game is cut)."""

    text: str
    lost: bool


def _tags_of(line: str) -> list[tuple[str, str]] | None:
    """The tag pairs on a tag line, or ``None`` for movetext.

    Real files hold unescaped quotes inside values (``[Event ""X杯"全国赛"]``); a line
    with one tag takes everything between its first and last quote.
    """
    if _TAG_LINE.fullmatch(line):
        # PGN escapes only a quote and a backslash; a backslash before anything else is the text's own
        # (a Windows path in a Site tag written by a program that does not escape)
        return [(name, re.sub(r'\\(["\\])', r"\1", value)) for name, value in _TAG.findall(line)]
    loose = _LOOSE_TAG.fullmatch(line)
    return [(loose.group(1), loose.group(2))] if loose else None


def _comment_depth(line: str, depth: int) -> int:
    """Whether a ``{`` comment is still open at the end of ``line`` (1) or not (0)."""
    for ch in line:
        if depth == 0 and ch == ";":
            return 0
        if ch == "{":
            depth = 1
        elif ch == "}":
            depth = 0
    return depth


_TOKEN = re.compile(r"\{(?P<brace>[^}]*)\}?|;(?P<semi>[^\n]*)|(?P<paren>[()])|(?P<word>[^\s{};()]+)")
_MOVE_NUMBER = re.compile(r"(\d+)(?:\.+|、|…|．)+(?P<rest>.*)")
_WXF_TWO_FILES = re.compile(r"[1-9][1-9+\-][+\-.=][1-9]")
_RESULT_WORDS = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "½-½": "1/2-1/2", "*": "*"}


_NAG_GLYPHS = {"1": "!", "2": "?", "3": "!!", "4": "??", "5": "!?", "6": "?!"}  # the PGN standard's first six


# the short form of art. 7.5 as the rulebook prints it, spaced: "马2 3" (马23); a piece and its file
# alone is no move, so a lone figure after it is its other half
_HALF_SHORT = re.compile(r"[前中后一二三四五1-5]?[车車俥马馬傌炮砲包相象仕士帅帥将將兵卒][1-9１-９一二三四五六七八九]")
_LONE_FIGURE = re.compile(r"[1-9１-９一二三四五六七八九]")


def tokenize(movetext: str) -> Iterator[tuple[str, str]]:
    """(kind, value) tokens of movetext (see :func:`_tokens`), a spaced short-form move ("马2 3", as
    art. 7.5's example prints it) read as one."""
    held: tuple[str, str] | None = None
    for token in _tokens(movetext):
        if held is not None:
            if token[0] == "move" and _LONE_FIGURE.fullmatch(token[1]):
                yield "move", held[1] + token[1]
                held = None
                continue
            yield held
            held = None
        if token[0] == "move" and _HALF_SHORT.fullmatch(token[1]):
            held = token
            continue
        yield token
    if held is not None:
        yield held


def _tokens(movetext: str) -> Iterator[tuple[str, str]]:
    """(kind, value) tokens of movetext: ``move``, ``comment``, ``result``, ``skipped`` or ``unclosed``.

    Move numbers are dropped; NAGs (``$1``, as their glyph ``!`` where it has one) and glyphs (``!?``)
    come as ``glyph``; variations in parentheses
    are skipped whole and reported as ``skipped``, and one never closed as ``unclosed`` at the end.
    """
    depth = 0
    opened = 0  # where the outermost variation being skipped began
    for match in _TOKEN.finditer(movetext):
        paren, word = match.group("paren"), match.group("word")
        if paren:
            if paren == "(" and depth == 0:
                opened = match.start()
            closes = paren == ")" and depth == 1
            depth = depth + 1 if paren == "(" else max(0, depth - 1)
            if closes and movetext[opened + 1:match.start()].strip():  # as written, nested ones too
                yield "skipped", " ".join(movetext[opened:match.end()].split())
            continue
        if depth:
            continue
        if word is None:
            comment = match.group("brace") if match.group("brace") is not None else match.group("semi")
            yield "comment", " ".join(comment.split())
            continue
        if word in _RESULT_WORDS:
            yield "result", _RESULT_WORDS[word]
            continue
        if word.startswith("$"):
            yield "glyph", _NAG_GLYPHS.get(word[1:], word)
            continue
        if not word.strip("!?.…"):
            if word.strip(".…"):
                yield "glyph", word
            continue
        numbered = _MOVE_NUMBER.fullmatch(word)
        if numbered and not _WXF_TWO_FILES.fullmatch(word):
            word = numbered.group("rest").lstrip(".…")
            if not word:
                continue
        move = word.rstrip("!?#")
        yield "move", move
        if word[len(move):].strip("#"):
            yield "glyph", word[len(move):].strip("#")
    if depth:  # a variation never closed took in the rest of the game
        yield "unclosed", " ".join(movetext[opened:].split())


def _problem(game: PgnGame, problem: str, strict: bool, *, cut: bool) -> None:
    """Keep ``problem`` with ``game`` (``cut``: the moves stop there), or raise it when reading strictly."""
    if strict:
        raise PgnError(problem) from None
    game.errors.append(problem)
    game.cut = game.cut or cut


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _notation_of(headers: dict[str, str]) -> str | None:
    return _FORMAT_BY_NAME.get(headers.get("Format", "").strip().lower())


def _read_game(header_text: list[tuple[str, str]], movetext: str, encoding: str | None,
               strict: bool, number: int, tag_problems: list[str] | None = None,
               unclosed: Unclosed | None = None) -> PgnGame:
    game = PgnGame(headers=dict(header_text), encoding=encoding)
    for problem in tag_problems or []:  # the line is left out; the moves are still read
        _problem(game, f"game {number}: {problem}", strict, cut=False)
    notation = _notation_of(game.headers)
    try:
        position = game.start_position()
    except RulesError as error:
        _problem(game, f"game {number}: bad FEN tag: {error}", strict, cut=True)
        return game
    stopped = False
    terminated = False  # the movetext ended with a result (1-0, 0-1, 1/2-1/2 or *), as PGN asks
    glyphs: dict[int, list[str]] = {}  # move index -> the annotator's marks on it (!, ?!, $14...), in order
    for kind, value in tokenize(movetext):
        if kind == "comment":
            # a second comment after the same move is another note: kept apart as the exports write
            # notes ("; "), not run into the first one's last sentence
            if game.moves:
                game.move_comments[-1] = _joined(game.move_comments[-1], value)
            else:
                game.comment = _joined(game.comment, value)
        elif kind == "result":
            game.result = value
            terminated = True
        elif kind == "glyph":  # an annotator's mark on the move before it, kept as the start of its comment
            if game.moves and not stopped:
                glyphs.setdefault(len(game.moves) - 1, []).append(value)
        elif kind == "skipped":
            game.notes.append(f"game {number}: variation left out: {value!r}")
        elif kind == "unclosed":
            _problem(game, f"game {number}: the variation {_clip(value)!r} is never closed with ')': the moves "
                     "after its '(' are not read", strict, cut=True)
        elif kind == "move" and not stopped:
            try:
                move = parse_move(position, value, notation)
            except RulesError as error:
                ply = len(game.moves) + 1
                problem = f"game {number}, ply {ply}: {error}"
                _problem(game, problem, strict, cut=True)
                # the caller reports it (an import skips the rest, a replay refuses the game): not logged twice
                logger.debug("%s; the rest of the game is not read", problem)
                stopped = True
                continue
            game.add_move(move)
            position = position.play(move)
    for index, marks in glyphs.items():
        game.move_comments[index] = " ".join([*marks, game.move_comments[index]]).strip()
    if unclosed is not None and unclosed.lost:  # the moves after the comment's '{' are not read: cut there
        _problem(game, f"game {number}: {unclosed.text}", strict, cut=True)
    elif unclosed is not None:
        game.notes.append(f"game {number}: {unclosed.text}")
    tagged = game.headers.get("Result", "").strip()
    if not game.moves and not terminated and not game.cut and (
            tag_problems or (not movetext.strip() and tagged not in RESULTS)):
        # no moves, no result, and the tags broken off, or nothing after them and no Result tag (a
        # game of no moves with one is a forfeit): the file ends in the game's tag section (a player
        # tester's cut file was stored as an empty, finished game)
        _problem(game, f"game {number} has tags but no moves and no result: the file is cut short there", strict,
                 cut=True)
    if game.moves and not terminated and not stopped and not game.cut and unclosed is None:
        game.notes.append(f"game {number}: the moves end without a result (1-0, 0-1, 1/2-1/2 or *): the file may "
                          "be cut short" + (f"; the Result tag's {tagged} is taken" if tagged in RESULTS else ""))
    if game.result == "*" and tagged in RESULTS:
        game.result = tagged
    elif tagged in RESULTS and tagged not in ("*", game.result):
        game.notes.append(f"game {number}: the Result tag says {tagged} but the moves end with {game.result}; "
                          f"{game.result} is taken")
    return game


def read_pgn(source: str | bytes, *, strict: bool = False) -> list[PgnGame]:
    """Every game in a PGN text or file content (bytes are decoded, see :func:`decode_pgn`)."""
    text, encoding = _text_of(source)
    games = []
    records, unclosed = _split_records(text)
    for number, (headers, movetext, problems) in enumerate(records, start=1):
        last = number == len(records)
        games.append(_read_game(headers, movetext, encoding, strict, number, problems, unclosed if last else None))
    return games


def read_pgn_game(source: str | bytes, number: int) -> tuple[PgnGame | None, int]:
    """Game ``number`` (1-based) of a PGN text or file content, read alone, and how many games it
    holds (None when it holds fewer). A player tester's 30 000-game file took 2.5 minutes to replay
    its first game, every game being read first."""
    text, encoding = _text_of(source)
    records, unclosed = _split_records(text)
    if not 1 <= number <= len(records):
        return None, len(records)
    headers, movetext, problems = records[number - 1]
    last = number == len(records)
    return _read_game(headers, movetext, encoding, False, number, problems, unclosed if last else None), len(records)


def _text_of(source: str | bytes) -> tuple[str, str | None]:
    """The text of a PGN source and the encoding its bytes were read in (None for text)."""
    if isinstance(source, bytes):
        return decode_pgn(source)
    return source.removeprefix("\ufeff"), None


def one_line(value: str) -> str:
    """``value`` with each control character (a line break, a tab) read as a space: a tag's value,
    a player's name in a sheet's box, keeps to one line."""
    if not any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        return value
    return "".join(" " if ord(ch) < 32 or ord(ch) == 127 else ch for ch in value)


def _quote(value: str) -> str:
    """A tag value as written: escaped, on one line (a name typed with a line break would end the tag)."""
    return one_line(value).replace("\\", "\\\\").replace('"', '\\"')


EXPORT_WIDTH = 79  # PGN's export format keeps lines this short (255 at most), breaking at spaces


def _wrapped(line: str, width: int = EXPORT_WIDTH) -> list[str]:
    """``line`` broken at spaces into lines of at most ``width`` characters where its words allow
    (a comment's line breaks read back as the spaces they replace); a ``;`` comment, which runs to
    the line's end, is never broken."""
    if line.startswith(";"):
        return [line]
    lines: list[str] = []
    current = ""
    for word in line.split(" "):
        # a line opening with "%" is an escape line to PGN readers: never start one so
        if current and len(current) + 1 + len(word) > width and not word.startswith("%"):
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    return [*lines, current]


def _joined(first: str, second: str) -> str:
    """Two comments of one place as one: ``"a; b"`` (either alone when the other is empty)."""
    return "; ".join(part for part in (first.strip(), second.strip()) if part)


def _comment(text: str) -> str:
    """A comment as written: spaces as one and none at either end (as it reads back)."""
    return " ".join(text.split())


def _braced(comment: str) -> list[str]:
    """How a comment is written after what it follows: ``{...}`` on that line, or, holding a ``}``
    (which ends a brace comment, and PGN has no escape for it), a ``;`` comment on a line of its own,
    which runs to the line's end and reads back the same (a reviewer's round trip)."""
    return [" {" + comment + "}"] if "}" not in comment else ["", "; " + comment]


_GLYPH_NAGS = {glyph: f"${number}" for number, glyph in _NAG_GLYPHS.items()}


def _nags(comment: str) -> tuple[list[str], str]:
    """The annotator's marks a move's comment starts with (as reading keeps them: ``!``, ``?!``,
    ``$14``), written as the NAGs PGN's export format asks for (``$1``, ``$6``, ``$14``), and the
    rest of the comment. Other programs read ``{!}`` as a note, not as the annotation it was."""
    words = comment.split(" ")
    nags: list[str] = []
    while words and (words[0] in _GLYPH_NAGS or (words[0][:1] == "$" and words[0][1:].isdigit())):
        nags.append(_GLYPH_NAGS.get(words[0], words[0]))
        words.pop(0)
    return nags, " ".join(words)


def write_pgn(game: PgnGame, notation: str = CHINESE, *, traditional: bool = False,
              fullwidth: bool = False) -> str:
    """The game as PGN text with moves in ``notation`` (strict writing, one move pair a line, lines
    of at most 79 characters where the words allow).

    ICCS moves are written ``H2-E2``, as PGN files in that format write them (``h2e2`` reads too).
    Tags: ``Game`` first, the Seven Tag Roster (``?`` where unknown, ``Result`` from the
    game), ``SetUp`` and ``FEN`` only for a non-standard start, ``Format`` for the notation, then the
    game's other tags in their order.
    """
    if notation not in NOTATIONS:
        raise ValueError(f"unknown notation {notation!r}; expected one of {', '.join(NOTATIONS)}")
    try:
        position: Position | None = game.start_position()
    except RulesError:
        if game.moves:
            raise
        # read with a FEN tag that is no position (read_pgn keeps such a game, with no move and the
        # problem in its errors): written as read, its tag as it was (a reviewer)
        position = None
    tags: dict[str, str] = {"Game": "Chinese Chess"}
    for name in SEVEN_TAG_ROSTER:
        tags[name] = game.headers.get(name, "?")
    tags["Result"] = game.result
    if position is None:
        tags["SetUp"], tags["FEN"] = "1", game.start_fen
    elif position.board != Position.start().board or position.side_to_move != "red":
        tags["SetUp"] = "1"  # PGN's companion of FEN: the game starts from a set-up position
        tags["FEN"] = position.fen()
    tags["Format"] = FORMAT_NAMES[notation]
    for name, value in game.headers.items():
        if name not in tags and name not in ("FEN", "SetUp"):
            tags[name] = value
    lines = [f'[{name} "{_quote(value)}"]' for name, value in tags.items()]
    lines.append("")
    body: list[str] = []
    opening = _comment(game.comment)
    if opening:
        body += [part.strip() for part in _braced(opening) if part]
    line = ""
    for index, move in enumerate(game.moves):
        assert position is not None  # a game with moves has a start position (above)
        text = format_move(position, move, notation, traditional=traditional, fullwidth=fullwidth)
        if notation == ICCS:  # the form PGN files of the ICCS format use (WXF's file format draft)
            text = f"{text[:2].upper()}-{text[2:].upper()}"
        if position.side_to_move == "red" or not line:
            if line:
                body.append(line)
            number = position.fullmove
            line = f"{number}. {text}" if position.side_to_move == "red" else f"{number}... {text}"
        else:
            line += f" {text}"
        nags, comment = _nags(_comment(game.move_comments[index] if index < len(game.move_comments) else ""))
        line += "".join(f" {nag}" for nag in nags)
        if comment:
            first, *rest = _braced(comment)
            body += [line + first, *rest]
            line = ""
        position = position.play(move)
    if line:
        body.append(line)
    body.append(game.result)
    return "\n".join(lines + [part for line in body for part in _wrapped(line)]) + "\n"

