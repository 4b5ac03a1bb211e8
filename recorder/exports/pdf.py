"""The printable, signed scoresheet (art. 9): a PDF in Chinese notation as art. 7.5 shows it.

One page (more for a long game) laid out like a tournament form: the title, a header grid
(event, site, round, board, date, players, time control, result), the moves two columns per
round (red, black) in three blocks of numbered rounds with each move's clock time, the time
used by each side, the fouls and alerts with their move numbers, the final position as a
diagram, and signature lines for both players and the arbiter. Full or short notation
(``short=True``: 炮25), A4 or A5 (everything scales with the page width). Text is set in a CJK
font, with a Latin font as fpdf2's fallback for the letters it lacks (Vietnamese and other Latin
scripts in names; :mod:`recorder.exports.fonts`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from fpdf import FPDF
from fpdf.fonts import TTFFont

from recorder.events import Event, RecordingStarted
from recorder.exports.diagram import RED_INK, diagram_size, draw_position
from recorder.exports.fonts import CJK_FONTS, find_cjk_font, find_latin_font
from recorder.exports.pgn import game_notes, how_ended
from recorder.exports.times import (
    clock_contradicts,
    clock_text,
    time_control_of,
    time_used,
    time_used_upto,
)
from recorder.scoresheet import RecordedGame, clock_left_text, foul_alerts, rebuild
from recorder.store.db import VOID_MARK, GameInfo
from rules import Move, Position, format_move

log = logging.getLogger(__name__)

PAPERS = {"A4": (210.0, 297.0), "A5": (148.0, 210.0)}
RESULT_WORDS = {"1-0": "红胜 1-0", "0-1": "黑胜 0-1", "1/2-1/2": "和棋 ½-½", "*": "未完 *"}
FONT = "cjk"
LATIN_FONT = "latin"  # the fallback for letters the CJK font lacks (names in any Latin script)
BLOCKS = 3  # blocks of numbered rounds across the page
NOTE_POINTS, NOTE_LINE = 6.5, 3.0  # the notes' type size (points) and line height (mm at A4)
NOTE_SIZES = (9.0, 8.0, 7.0, NOTE_POINTS)  # tried in turn: the largest at which every note fits the box
MAX_NOTE = 600  # characters of one note on the sheet (an imported essay of a comment is cut; the PGN keeps it)


@dataclass(frozen=True)
class _Cell:
    text: str
    clock: str = ""


def _rounds(game: RecordedGame, short: bool) -> list[tuple[int, _Cell, _Cell]]:
    """(round number, red cell, black cell) of every round, in the notation asked for."""
    position = Position.from_fen(game.start_fen)
    rows: list[tuple[int, _Cell, _Cell]] = []
    number = position.fullmove
    red: _Cell | None = None
    if position.side_to_move != "red":
        red = _Cell("……")
    for entry in game.plies:
        move = Move.from_iccs(entry.iccs)
        cell = _Cell(format_move(position, move, "chinese", short=short),
                     clock_left_text(entry.clock_ms) if entry.clock_ms is not None else "")
        position = position.play(move)
        if red is None:
            red = cell
        else:
            rows.append((number, red, cell))
            red, number = None, number + 1
    if red is not None:
        rows.append((number, red, _Cell("")))
    return rows


class _Sheet:
    """The page geometry (all in mm, scaled with the page width) and the drawing steps."""

    def __init__(self, paper: str) -> None:
        if paper not in PAPERS:
            raise ValueError(f"paper must be one of {', '.join(PAPERS)}, not {paper!r}")
        width, height = PAPERS[paper]
        self.s = width / 210.0
        self.pdf = FPDF(unit="mm", format=(width, height))
        self.pdf.set_auto_page_break(False)
        self.pdf.set_margins(0, 0, 0)
        font, index = find_cjk_font()
        self.pdf.add_font(FONT, "", str(font), collection_font_number=index)
        self.fallbacks: list[str] = []
        self._held: dict[str, set[int]] = {}  # font name -> the characters it holds (see _characters)
        self._main_font = (font, index)
        latin = find_latin_font()
        if latin is not None:
            self.pdf.add_font(LATIN_FONT, "", str(latin))
            self.fallbacks.append(LATIN_FONT)
            self.pdf.set_fallback_fonts(self.fallbacks, exact_match=False)
        self.width, self.height = width, height
        self.margin = 12 * self.s
        self.inner = width - 2 * self.margin

    def font(self, points: float) -> None:
        self.pdf.set_font(FONT, size=points * self.s)

    def _characters(self, name: str) -> set[int]:
        """The characters font ``name`` holds (read once: a round's PDF asks for every game)."""
        if name not in self._held:
            font = self.pdf.fonts[name]
            self._held[name] = set(font.cmap) if isinstance(font, TTFFont) else set()
        return self._held[name]

    def cover(self, texts: Sequence[str]) -> None:
        """Add as fallbacks the other installed CJK fonts that hold characters of ``texts`` the fonts in
        use lack (a player's name with a rare character, 𠮷, which WenQuanYi Zen Hei has not): looked
        for only then, as loading a CJK font takes most of a second."""
        have: set[int] = set()
        for name in (FONT, *self.fallbacks):
            have |= self._characters(name)
        missing = {ord(c) for text in texts for c in text if not c.isspace()} - have
        for path, index in CJK_FONTS:
            if not missing:
                return
            if not Path(path).exists() or (Path(path), index) == self._main_font:
                continue
            name = f"cjk-{Path(path).stem}-{index}".lower()
            if name not in self.pdf.fonts:
                self.pdf.add_font(name, "", path, collection_font_number=index)
            held = missing & self._characters(name)
            if held and name not in self.fallbacks:
                self.fallbacks.append(name)
                self.pdf.set_fallback_fonts(self.fallbacks, exact_match=False)
                missing -= held

    def text_cell(self, x: float, y: float, w: float, h: float, text: str, *, points: float = 9,
                  align: str = "L", border: Literal[0, 1] = 0, fill: tuple[int, int, int] | None = None,
                  color: tuple[int, int, int] = (0, 0, 0)) -> None:
        self.font(points)
        self.pdf.set_text_color(*color)
        if fill is not None:
            self.pdf.set_fill_color(*fill)
        self.pdf.set_xy(x, y)
        self.pdf.cell(w, h, text, border=border, align=align, fill=fill is not None)
        self.pdf.set_text_color(0, 0, 0)

    def fitted_cell(self, x: float, y: float, w: float, h: float, text: str, *, points: float = 10,
                    smallest: float = 6.5, border: Literal[0, 1] = 0, keep_end: bool = False,
                    fill: tuple[int, int, int] | None = None, two_lines: bool = False) -> None:
        """A cell whose text stays inside it: set smaller (down to ``smallest`` points) when it is too
        long, with ``two_lines`` then on two lines (a name or an event: a sheet the players sign
        must name them whole), and cut with an ellipsis when even that is too long (a file path;
        ``keep_end`` cuts a path's front and keeps its file name)."""
        room = w - 2.0 * self.s
        self.font(points)
        width = self.pdf.get_string_width(text)
        if width > room:
            points = max(smallest, points * room / width)
            self.font(points)
            if two_lines and self.pdf.get_string_width(text) > room:
                split = self._two_lines(text.strip(), room, h, smallest)
                if split is not None:
                    size, first, second = split
                    self.text_cell(x, y, w, h, "", border=border, fill=fill)
                    self.text_cell(x, y, w, h / 2, " " + first, points=size)
                    self.text_cell(x, y + h / 2, w, h / 2, " " + second, points=size)
                    return
            if self.pdf.get_string_width(text) > room:
                text = text.strip()
                while text and self.pdf.get_string_width(" …" + text if keep_end else text + "…") > room:
                    text = text[1:] if keep_end else text[:-1]
                text = " …" + text if keep_end else text.rstrip() + "…"
        self.text_cell(x, y, w, h, text, points=points, border=border, fill=fill)

    def _two_lines(self, text: str, room: float, h: float, smallest: float) -> tuple[float, str, str] | None:
        """The largest size (points, as large as half of ``h`` holds, down to ``smallest``) at which
        ``text`` splits into two lines each ``room`` wide, and the two: split at the space nearest
        the middle that fits, else between any two characters (a Chinese name has no spaces)."""
        largest = (h / 2) / (0.3528 * 1.15 * self.s)  # a line of half the cell (a point is 0.3528 mm)
        middle = len(text) / 2
        spaces = sorted((i for i, c in enumerate(text) if c == " "), key=lambda i: abs(i - middle))
        anywhere = sorted(range(1, len(text)), key=lambda i: abs(i - middle))
        for places in (spaces, anywhere):  # between words at any size before inside one
            size = largest
            while size >= smallest:
                self.font(size)
                for at in places:
                    first, second = text[:at].rstrip(), text[at:].strip()
                    if first and second and max(self.pdf.get_string_width(first),
                                                self.pdf.get_string_width(second)) <= room:
                        return size, first, second
                size -= 0.5
        return None

    def _too_long(self, text: str, span: float) -> bool:
        """Would ``text`` be cut in a header value box of ``span`` quarters of the row (two lines at
        the smallest size)? A long site ("Shanghai International Convention Center, Hall 3") then
        takes half the row from the event, rather than losing its end."""
        width = self.inner / 4 * span
        room = width - min(width * 0.5, 26 * self.s) - 2.0 * self.s
        self.font(6.5)
        return self.pdf.get_string_width(text.strip()) > 2 * room * 0.9  # two lines split where they may

    # --- parts of the form -----------------------------------------------------------------
    def title(self, y: float, continued: int, not_over: str = "") -> float:
        s = self.s
        self.text_cell(self.margin, y, self.inner, 9 * s, "中国象棋比赛记录表", points=18, align="C")
        sub = "Xiangqi scoresheet" + (f"  (续 {continued} / continued)" if continued else "")
        # on every page: a sheet of a void game, or of one not over, must not be signed as the record
        if not_over.startswith(VOID_MARK):
            sub = f"作废对局，不作签字  VOID: {not_over.removeprefix(VOID_MARK)} (not a record of the round)"
        elif not_over:
            sub = f"未完对局，临时记录，不作签字  PROVISIONAL: the game is not over ({not_over})"
        self.text_cell(self.margin, y + 9 * s, self.inner, 5 * s, sub, points=9, align="C",
                       color=RED_INK if not_over else (80, 80, 80))
        return y + 16 * s

    def header(self, y: float, info: GameInfo, game: RecordedGame) -> float:
        s, pdf = self.s, self.pdf
        h = 7 * s
        board = "" if info.board is None else str(info.board)
        site_span = next((span for span in (1.0, 1.5, 2.0) if not self._too_long(info.site, span)
                          and not self._too_long(info.event, 4 - span)), 1.0)
        rows: list[list[tuple[str, str, float]]] = [
            [("比赛名称 Event", info.event, 4 - site_span), ("地点 Site", info.site, site_span)],
            [("轮次 Round", info.round, 1), ("台次 Board", board, 1), ("日期 Date", info.date, 1),
             ("用时 Time control", _time_control_box(game, info.time_control), 1)],
            [("红方 Red", info.red, 2), ("黑方 Black", info.black, 2)],
        ]
        unit = self.inner / 4
        pdf.set_line_width(0.3 * s)
        for row_index, row in enumerate(rows):
            x = self.margin
            for label, value, span in row:
                w = unit * span
                label_w = min(w * 0.5, 26 * s)
                color = RED_INK if label.startswith("红") else (0, 0, 0)
                self.text_cell(x, y + row_index * h, label_w, h, label, points=7.5, border=1,
                               fill=(238, 238, 238), color=color)
                path = "/" in value or "\\" in value
                self.fitted_cell(x + label_w, y + row_index * h, w - label_w, h, " " + value, border=1,
                                 keep_end=path, two_lines=not path)
                x += w
        y += len(rows) * h
        self.text_cell(self.margin, y, 26 * s, h, "结果 Result", points=7.5, border=1, fill=(238, 238, 238))
        result = game.result
        how = how_ended(game)
        fouls_w = self.inner / 4 + unit / 2
        self.fitted_cell(self.margin + 26 * s, y, self.inner - 26 * s - fouls_w, h,
                         " " + RESULT_WORDS.get(result, result) + (f"   {how}" if how else ""), points=11, smallest=7,
                         border=1)
        counts = foul_alerts(game)
        said = "  ".join(f"{'红' if side == 'red' else '黑'} {sum(kinds.values())}" for side, kinds in counts.items())
        if game.no_foul:  # the alerts the count leaves out, and why (the notes say whose ruling)
            said += f" (+{len(game.no_foul)} 不计 ruled out)"
        if game.doubtful:  # presses the clock's mismatch put in doubt (the notes say so)
            said += f" (+{len(game.doubtful)} 钟 clock doubtful)"
        self.fitted_cell(self.margin + self.inner - fouls_w, y, fouls_w, h, f" 犯规提示 Foul alerts: {said}",
                         points=8, smallest=6, border=1)
        return y + h

    def moves(self, y: float, rows: Sequence[tuple[int, _Cell, _Cell]], per_block: int, row_h: float) -> float:
        s = self.s
        gap = 3 * s
        block_w = (self.inner - gap * (BLOCKS - 1)) / BLOCKS
        number_w = 8 * s
        move_w = (block_w - number_w) / 2
        head_h = 6.5 * s
        self.pdf.set_line_width(0.25 * s)
        for block in range(BLOCKS):
            x = self.margin + block * (block_w + gap)
            self.text_cell(x, y, number_w, head_h, "回合", points=7, align="C", border=1, fill=(225, 225, 225))
            self.text_cell(x + number_w, y, move_w, head_h, "红方 Red", points=8, align="C", border=1,
                           fill=(225, 225, 225), color=RED_INK)
            self.text_cell(x + number_w + move_w, y, move_w, head_h, "黑方 Black", points=8, align="C", border=1,
                           fill=(225, 225, 225))
            for line in range(per_block):
                index = block * per_block + line
                top = y + head_h + line * row_h
                shade = (247, 247, 247) if line % 2 else None
                number = str(rows[index][0]) if index < len(rows) else ""
                if index < len(rows):
                    red, black = rows[index][1], rows[index][2]
                else:
                    red = black = _Cell("")
                self.text_cell(x, top, number_w, row_h, number, points=7.5, align="C", border=1, fill=shade)
                for offset, cell in ((number_w, red), (number_w + move_w, black)):
                    points = 10.0
                    if cell.clock:  # a move written in full on a small page gives way to its clock time
                        self.font(5.5)  # the clock's cell is 0.8 narrower; each cell keeps a margin inside
                        room = (move_w - 0.8 * s - self.pdf.get_string_width(cell.clock) - 2 * self.pdf.c_margin
                                - 0.8 * s)
                        self.font(points)
                        wide = self.pdf.get_string_width(" " + cell.text)
                        if wide > room > 0:
                            points = max(7.0, points * room / wide)
                    self.text_cell(x + offset, top, move_w, row_h, " " + cell.text, points=points, border=1,
                                   fill=shade)
                    if cell.clock:
                        self.text_cell(x + offset, top + row_h * 0.45, move_w - 0.8 * s, row_h * 0.55,
                                       cell.clock, points=5.5, align="R", color=(110, 110, 110))
        return y + head_h + per_block * row_h

    def box_width(self, game: RecordedGame, spacing: float) -> float:
        """The width the footer leaves its time and notes boxes beside its diagrams."""
        return self.inner - len(self._diagrams(game)) * (diagram_size(spacing)[0] + 4 * self.s)

    def footer(self, y: float, game: RecordedGame, info: GameInfo, spacing: float, notes: Sequence[str],
               not_over: str = "", spare: float = 0.0, note_points: float = NOTE_POINTS) -> float:
        """Time used, the notes' box (``notes``: the lines that fit it, from ``note_lines``; ``spare``
        mm taller than the diagrams), the start position when it is not the usual one, the final position."""
        s, pdf = self.s, self.pdf
        diagram_w, diagram_h = diagram_size(spacing)
        box_w = self.box_width(game, spacing)
        box_h = diagram_h + spare
        x = self.margin
        used = time_used(game, time_control_of(game, info.time_control)[0])
        clocked = any(entry.clock_ms is not None for entry in game.plies)  # the grey figures beside the moves
        upto = time_used_upto(game)  # the clock went unheard before the end: the time used is to then
        until = (f" (至 to {Position.from_fen(game.start_fen).move_name(upto)}: no press heard after)"
                 if upto is not None and any(value is not None for value in used.values()) else "")
        # where it stops, when it does, says more than what the grey figures are (the box fits one)
        self.fitted_cell(x, y, box_w, 6 * s, " 用时 Time used" + (until or ("    着法旁小字为走后钟面余时 grey figures by the moves: "
                                                                           "time left on the mover's clock" if clocked else "")),
                         points=8, smallest=6, border=1, fill=(225, 225, 225))
        red = clock_text(used["red"]) if used["red"] is not None else "—"
        black = clock_text(used["black"]) if used["black"] is not None else "—"
        self.text_cell(x, y + 6 * s, box_w / 2, 7 * s, f" 红方 {red}", points=10, border=1, color=RED_INK)
        self.text_cell(x + box_w / 2, y + 6 * s, box_w / 2, 7 * s, f" 黑方 {black}", points=10, border=1)
        top = y + 15 * s
        title = " 犯规、警告与记录说明 Fouls, alerts and notes (回合 / move)"
        self.font(6)
        if self.pdf.get_string_width(title) > box_w - 2 * s:  # beside a start diagram: the box is narrower
            title = " 犯规、警告与说明 Fouls, alerts, notes (回合 move)"
        self.fitted_cell(x, top, box_w, 6 * s, title, points=8, smallest=6, border=1, fill=(225, 225, 225))
        pdf.set_line_width(0.25 * s)
        pdf.rect(x, top + 6 * s, box_w, box_h - 21 * s)
        line_h = NOTE_LINE * s * note_points / NOTE_POINTS
        for index, line in enumerate(notes):
            self.text_cell(x + 1 * s, top + 7 * s + index * line_h, box_w - 2 * s, line_h, line,
                           points=note_points, color=(150, 0, 0) if line.startswith("…") else (0, 0, 0))
        if not notes:
            self.text_cell(x + 1 * s, top + 7 * s, box_w - 2 * s, 4 * s, "无 none", points=7, color=(110, 110, 110))
        dx = x + box_w + 4 * s
        for label, position in self._diagrams(game, not_over):
            self.text_cell(dx, y - 0.5 * s, diagram_w, 4 * s, label, points=7, align="C")
            draw_position(pdf, position, dx, y + 3 * s, spacing, FONT)
            dx += diagram_w + 4 * s
        return y + max(box_h, diagram_h + 3 * s)

    def note_lines(self, game: RecordedGame, events: Sequence[Event], width: float,
                   box_h: float) -> tuple[list[str], list[str], float]:
        """The notes as lines of ``width``: those that fit the footer's box of height ``box_h``, the
        rest, for continuation pages (a signed sheet leaves out no foul: the box says how many
        follow, and where), and their type size: the largest of ``NOTE_SIZES`` at which they all fit
        (``NOTE_POINTS`` when none does; on A5 that is 4.6 points, hard to read in print)."""
        s = self.s
        start = Position.from_fen(game.start_fen)
        notes = []
        for ply, text in game_notes(events, game, sheet=True, chinese=True):
            number, side = start.numbered(ply) if ply > 0 else (0, "")
            where = "开局前" if ply <= 0 else f"第{number}回合{'红' if side == 'red' else '黑'}后"
            if len(text) > MAX_NOTE:  # an imported game's essay of a comment: the PGN keeps it whole
                text = text[:MAX_NOTE].rstrip() + "…"
            notes.append(f"{where}: {text}")
        for points in NOTE_SIZES:
            self.font(points)
            line_h = NOTE_LINE * s * points / NOTE_POINTS
            lines: list[str] = []
            for note in notes:
                wrapped = self.pdf.multi_cell(width, line_h, note, dry_run=True, output="LINES")
                lines += [str(line) for line in wrapped] if isinstance(wrapped, list) else []
            room = max(1, int((box_h - 23 * s) // line_h))
            if len(lines) <= room:
                return lines, [], points
        shown, rest = lines[:room - 1], lines[room - 1:]
        return shown + [f"… {len(rest)} more line(s) of notes on the next page (续 / continued)"], rest, NOTE_POINTS

    def continued_notes(self, y: float, lines: Sequence[str], bottom: float) -> float:
        """Notes that did not fit the footer's box, from ``y`` down to ``bottom``; returns where they end."""
        s = self.s
        self.text_cell(self.margin, y, self.inner, 6 * s, " 犯规、警告与记录说明（续） Fouls, alerts and notes (continued)",
                       points=8, border=1, fill=(225, 225, 225))
        y += 7 * s
        for line in lines:
            if y + NOTE_LINE * s > bottom:
                break
            self.text_cell(self.margin + 1 * s, y, self.inner - 2 * s, NOTE_LINE * s, line, points=NOTE_POINTS)
            y += NOTE_LINE * s
        return y

    def signatures(self, y: float) -> float:
        s = self.s
        w = self.inner / 3
        self.pdf.set_line_width(0.3 * s)
        for index, label in enumerate(("红方签名 Red", "黑方签名 Black", "裁判签名 Arbiter")):
            x = self.margin + index * w
            self.text_cell(x, y, w - 4 * s, 5 * s, label, points=8, color=RED_INK if index == 0 else (0, 0, 0))
            self.pdf.line(x, y + 14 * s, x + w - 6 * s, y + 14 * s)
        return y + 16 * s

    @staticmethod
    def _diagrams(game: RecordedGame, not_over: str = "") -> list[tuple[str, Position]]:
        """The footer's positions: the start when the game began from a set-up position (an
        endgame, a game taken up part way), and the final one (of a game not over, the last recorded)."""
        start = position = Position.from_fen(game.start_fen)
        for entry in game.plies:
            position = position.play(Move.from_iccs(entry.iccs))
        last = f"第{len(game.plies)}着后局面 After ply {len(game.plies)}" if not_over else "终局局面 Final position"
        final = [(last, position)]
        usual = Position.start()
        if (start.board, start.side_to_move) == (usual.board, usual.side_to_move):
            return final
        mover = "红先 red to move" if start.side_to_move == "red" else "黑先 black to move"
        return [(f"开局局面 Start position ({mover})", start)] + final


def _provenance(events: Sequence[Event]) -> str:
    """Who wrote the record: the recorder and the piece model's hash (kept with every game)."""
    models = {e.model_sha256 for e in events if isinstance(e, RecordingStarted) and e.model_sha256}
    return "recorded by xqrec" + (f", model sha256 {sorted(models)[0][:12]}" if models else "")


def scoresheet_pdf(events: Sequence[Event], info: GameInfo | None = None, *, short: bool = False,
                   paper: str = "A4", not_over: str = "") -> bytes:
    """The scoresheet of a recorded game as PDF bytes (see the module docstring); ``not_over`` says
    why the game is not over (``GameRow.not_over``), printed on every page as a provisional sheet's mark."""
    return scoresheets_pdf([(events, info)], short=short, paper=paper, not_over=[not_over])


def scoresheets_pdf(games: Sequence[tuple[Sequence[Event], GameInfo | None]], *, short: bool = False,
                    paper: str = "A4", not_over: Sequence[str] = ()) -> bytes:
    """Several games' scoresheets in one PDF (a round's, for the organiser), one after another, each
    starting on a new page and numbering its own pages; ``not_over`` as for :func:`scoresheet_pdf`,
    one for each game (none: all over)."""
    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)  # bitmap tables it drops are not needed
    sheet = _Sheet(paper)
    for index, (events, info) in enumerate(games):
        _draw(sheet, events, info or GameInfo(), short, not_over[index] if index < len(not_over) else "")
    return bytes(sheet.pdf.output())


def _time_control_box(game: RecordedGame, given: str) -> str:
    """The time control in the header's narrow box, as players write it ("15′+10″" for PGN's
    900+10; "(clock)" when it was read from the clock's presses); the PGN form for other controls."""
    def written(control: str) -> str:
        if (found := re.fullmatch(r"(\d+)(?:\+(\d+))?", control)) is not None and int(found.group(1)) % 60 == 0:
            return f"{int(found.group(1)) // 60}′" + (f"+{found.group(2)}″" if found.group(2) not in (None, "0") else "")
        return control

    control, read = time_control_of(game, given)
    if given and clock_contradicts(game, given):  # the sheet's control is not the clock's: say so (the box
        return f"{written(control)} ≠ clock"     # holds no more; the text sheet says what the clock ran)
    return f"{written(control)} (clock)" if control and read else written(control)


def _draw(sheet: _Sheet, events: Sequence[Event], info: GameInfo, short: bool, not_over: str = "") -> None:
    """Add one game's scoresheet to ``sheet``, from a new page."""
    game = rebuild(events)
    sheet.cover([info.event, info.site, info.round, info.date, info.red, info.black, info.time_control,
                 *(text for _, text in game_notes(events, game, sheet=True, chinese=True))])
    s = sheet.s
    rows = _rounds(game, short)
    spacing = 6.2 * s
    footer_h = max(diagram_size(spacing)[1] + 3 * s, diagram_size(spacing)[1]) + 4 * s + 16 * s
    row_h = 5.6 * s
    title_h, header_h, head_h, gap = 16 * s, 4 * 7 * s + 4 * s, 6.5 * s, 4 * s

    def per_block(first: bool, last: bool) -> int:
        room = sheet.height - 2 * sheet.margin - title_h - (header_h if first else gap) - head_h - gap
        return max(1, int((room - (footer_h if last else 0)) // row_h))

    pages: list[tuple[list[tuple[int, _Cell, _Cell]], int]] = []
    rest = list(rows)
    while True:  # full pages of moves while the rest does not fit beside the footer
        first = not pages
        if len(rest) <= BLOCKS * per_block(first, True):
            pages.append((rest, per_block(first, True)))
            break
        lines = per_block(first, False)
        pages.append((rest[:BLOCKS * lines], lines))
        rest = rest[BLOCKS * lines:]
    diagram_w, diagram_h = diagram_size(spacing)
    bottom = sheet.height - sheet.margin
    per_page = max(1, int((bottom - sheet.margin - title_h - gap - 7 * s - 16 * s) // (NOTE_LINE * s)))
    shown: list[str] = []  # the notes' lines the footer's box holds, and their type size
    note_points = NOTE_POINTS
    continued: list[list[str]] = []  # the rest, a page of lines each

    # a page after the first names its game: a page come apart from the first (which has the header)
    # could not be matched to its game (a player tester's three-page sheet)
    which = " · ".join(part for part in (info.event, f"round {info.round}" if info.round else "",
                                         f"board {info.board}" if info.board is not None else "",
                                         f"{info.red or '?'} – {info.black or '?'}", game.result) if part)

    def page_footer(number: int) -> None:
        y = sheet.height - sheet.margin + 2 * s
        sheet.text_cell(sheet.margin, y, sheet.inner, 4 * s,
                        f"{_provenance(events)}    第 {number + 1} / {len(pages) + len(continued)} 页", points=6,
                        align="R", color=(120, 120, 120))
        if number:
            sheet.fitted_cell(sheet.margin, y, sheet.inner * 0.6, 4 * s, which, points=7, smallest=5)

    # A finished game's last page keeps the rows its moves fill and a spare one; the rows it does not
    # need go to the notes, which then stay on the sheet the players sign (an A5 sheet of 13 rounds put
    # two lines of notes and the signatures alone on a second page). A game not over keeps its rows,
    # and so does one closed without a result (``*``: its last moves and result are written by hand)
    # unless its notes would then run onto another page (a tester's 20 plies with four rulings).
    last_rows, last_lines = pages[-1]
    needed = -(-len(last_rows) // BLOCKS) + 1
    spare = 0.0
    unfinished = game.result == "*"

    def give_rows() -> None:
        nonlocal spare
        spare = (last_lines - needed) * row_h
        pages[-1] = (last_rows, needed)

    if not not_over and not unfinished and needed < last_lines:
        give_rows()
    for number, (page, lines) in enumerate(pages):
        sheet.pdf.add_page()
        if number == 0:  # the notes the footer's box cannot hold, measured once a page exists to measure on
            width = sheet.box_width(game, spacing) - 2 * s
            shown, more, note_points = sheet.note_lines(game, events, width, diagram_h + spare)
            if more and not not_over and unfinished and needed < last_lines:
                give_rows()
                shown, more, note_points = sheet.note_lines(game, events, width, diagram_h + spare)
                lines = pages[0][1]
            continued = [more[i:i + per_page] for i in range(0, len(more), per_page)]
        y = sheet.title(sheet.margin, number, not_over)
        y = sheet.header(y, info, game) + gap if number == 0 else y + gap
        if page or number == 0:  # a last page after full ones may hold only the footer and signatures
            y = sheet.moves(y, page, lines, row_h) + gap
        if number == len(pages) - 1:
            y = sheet.footer(y, game, info, spacing, shown, not_over, spare, note_points) + gap
            if not continued:
                sheet.signatures(y)
        page_footer(number)
    for index, chunk in enumerate(continued):  # the notes the footer's box could not hold; signed after them
        sheet.pdf.add_page()
        y = sheet.title(sheet.margin, len(pages) + index, not_over) + gap
        y = sheet.continued_notes(y, chunk, bottom - 16 * s) + gap
        if index == len(continued) - 1:
            sheet.signatures(y)
        page_footer(len(pages) + index)


def write_scoresheet_pdf(path: str | Path, events: Sequence[Event], info: GameInfo | None = None, *,
                         short: bool = False, paper: str = "A4", not_over: str = "") -> Path:
    """Write the scoresheet PDF to ``path`` (``not_over`` as for :func:`scoresheet_pdf`); returns the path."""
    target = Path(path)
    target.write_bytes(scoresheet_pdf(events, info, short=short, paper=paper, not_over=not_over))
    return target
