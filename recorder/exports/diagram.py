"""The final position drawn on a PDF page: the board's lines, river, palaces, and round pieces with
their characters (red at the bottom, as the scoresheet is read from red's side).

Drawn with fpdf2's primitives (lines and circles), so it prints sharp at any size.
"""

from __future__ import annotations

from fpdf import FPDF

from rules import Position
from rules.squares import square

_FACES = {"K": "帅", "A": "仕", "B": "相", "N": "马", "R": "车", "C": "炮", "P": "兵",
          "k": "将", "a": "士", "b": "象", "n": "马", "r": "车", "c": "炮", "p": "卒"}
RED_INK = (190, 20, 20)
BLACK_INK = (20, 20, 20)
_RED_FILES = "九八七六五四三二一"


def diagram_size(spacing: float) -> tuple[float, float]:
    """Width and height (page units) the diagram takes with ``spacing`` between lines, labels included."""
    return 10 * spacing, 11.6 * spacing


def draw_position(pdf: FPDF, position: Position, x: float, y: float, spacing: float, font: str) -> None:
    """Draw ``position`` with its top-left corner (file labels included) at ``(x, y)``."""
    left, top = x + spacing, y + 1.3 * spacing
    right, bottom = left + 8 * spacing, top + 9 * spacing
    pdf.set_draw_color(*BLACK_INK)
    pdf.set_line_width(spacing * 0.09)
    pdf.rect(left - 0.25 * spacing, top - 0.25 * spacing, 8.5 * spacing, 9.5 * spacing)
    pdf.set_line_width(spacing * 0.035)
    for rank in range(10):
        pdf.line(left, top + rank * spacing, right, top + rank * spacing)
    for file in range(9):
        px = left + file * spacing
        if file in (0, 8):
            pdf.line(px, top, px, bottom)
        else:
            pdf.line(px, top, px, top + 4 * spacing)
            pdf.line(px, top + 5 * spacing, px, bottom)
    for row in (0, 7):  # the palaces' diagonals
        pdf.line(left + 3 * spacing, top + row * spacing, left + 5 * spacing, top + (row + 2) * spacing)
        pdf.line(left + 5 * spacing, top + row * spacing, left + 3 * spacing, top + (row + 2) * spacing)
    size_pt = spacing * 0.62 / 0.3528  # characters about 60 % of a point spacing
    pdf.set_font(font, size=size_pt)
    pdf.set_text_color(110, 110, 110)
    river = top + 4.5 * spacing
    for text, cx in (("楚 河", left + 2 * spacing), ("汉 界", left + 6 * spacing)):
        pdf.set_xy(cx - 1.5 * spacing, river - 0.4 * spacing)
        pdf.cell(3 * spacing, 0.8 * spacing, text, align="C")
    pdf.set_font(font, size=size_pt * 0.7)
    for file in range(9):
        px = left + file * spacing
        pdf.set_text_color(*BLACK_INK)
        pdf.set_xy(px - 0.5 * spacing, y)
        pdf.cell(spacing, 0.6 * spacing, str(file + 1), align="C")
        pdf.set_text_color(*RED_INK)
        pdf.set_xy(px - 0.5 * spacing, bottom + 0.45 * spacing)
        pdf.cell(spacing, 0.6 * spacing, _RED_FILES[file], align="C")
    radius = 0.44 * spacing
    pdf.set_font(font, size=size_pt)
    for rank in range(10):
        for file in range(9):
            letter = position.board[square(file, rank)]
            if letter == ".":
                continue
            cx, cy = left + file * spacing, top + (9 - rank) * spacing
            ink = RED_INK if letter.isupper() else BLACK_INK
            pdf.set_fill_color(250, 243, 225)
            pdf.set_draw_color(*ink)
            pdf.set_line_width(spacing * 0.05)
            pdf.ellipse(cx - radius, cy - radius, 2 * radius, 2 * radius, style="DF")
            pdf.ellipse(cx - 0.8 * radius, cy - 0.8 * radius, 1.6 * radius, 1.6 * radius, style="D")
            pdf.set_text_color(*ink)
            pdf.set_xy(cx - radius, cy - radius)
            pdf.cell(2 * radius, 2 * radius, _FACES[letter], align="C")
    pdf.set_text_color(*BLACK_INK)
    pdf.set_draw_color(*BLACK_INK)
