"""The PDF scoresheet: rendered to PNG (pdftoppm) and read back as text (pdftotext) with every move in it."""

from __future__ import annotations

import logging
import shutil
import subprocess
from pathlib import Path

import pytest

from recorder.exports.fonts import find_latin_font
from recorder.exports.pdf import scoresheet_pdf
from recorder.scoresheet import rebuild
from recorder.store import GameInfo
from rules import Move, Position, format_move
from tests.exports.game_events import game_events

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "games_iccs.txt"
INFO = GameInfo(event="全国象棋个人赛", site="北京", round="5", date="2026.11.30", board=3, red="王天一",
                black="郑惟桐", time_control="5400+30")

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None or shutil.which("pdftoppm") is None,
                                reason="poppler-utils not installed")


def _moves(moves: list[str], short: bool) -> list[str]:
    position, out = Position.start(), []
    for text in moves:
        move = Move.from_iccs(text)
        out.append(format_move(position, move, "chinese", short=short))
        position = position.play(move)
    return out


def _line(number: int) -> tuple[str, list[str]]:
    result, *moves = SHARED.read_text(encoding="utf-8").splitlines()[number - 1].split()
    return result, moves


@pytest.mark.parametrize(("paper", "short", "line"), [("A4", False, 2), ("A5", True, 3), ("A4", False, 309)])
def test_pdf_holds_every_move_and_renders(tmp_path: Path, paper: str, short: bool, line: int) -> None:
    result, moves = _line(line)
    events = game_events(moves, result=result, faults=True)
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(scoresheet_pdf(events, INFO, short=short, paper=paper))
    subprocess.run(["pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "1", str(pdf), str(tmp_path / "page")],
                   check=True)
    (png,) = tmp_path.glob("page*.png")
    assert png.stat().st_size > 10_000
    text = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    words = text.split()  # a move in full is set smaller beside its clock time: apart from it
    game = rebuild(events)
    written = _moves(game.moves, short)
    assert len(written) == len(moves)
    for move in written:
        assert move in words, move
    for expected in ("中国象棋比赛记录表", "红方签名", "黑方签名", "裁判签名", "王天一", "郑惟桐", "90′+30″",
                     "犯规、警告与记录说明", "Illegal move"):
        assert expected in text
    size = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    assert ("595.28 x 841.89" if paper == "A4" else "419.53 x 595.28") in size


def test_long_names_and_paths_stay_inside_their_header_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    from recorder.exports import pdf as pdf_module

    drawn: list[tuple[float, str, float]] = []
    real = pdf_module._Sheet.text_cell

    def spy(self: pdf_module._Sheet, x: float, y: float, w: float, h: float, text: str, **kwargs: object) -> None:
        real(self, x, y, w, h, text, **kwargs)  # type: ignore[arg-type]
        drawn.append((w, text, self.pdf.get_string_width(text)))

    monkeypatch.setattr(pdf_module._Sheet, "text_cell", spy)
    info = GameInfo(event="The 2026 China National Individual Xiangqi Championship, Men's Open Section, Stage Two",
                    red="Wang Tianyi, Grandmaster of the Hangzhou Xiangqi Association Team", black="郑惟桐 特级大师 北京市象棋队",
                    site="/srv/recordings/2026/national-individual/stage-two/hall-b/board-12/game.mp4", board=12)
    scoresheet_pdf(game_events(["h2e2", "h9g7"], seed=1, faults=False, result=None), info)
    values = [(w, text, width) for w, text, width in drawn
              if any(part in text for part in ("Championship", "Wang", "郑惟桐", "game.mp4"))]
    assert len(values) == 4
    assert all(width <= w for w, _, width in values)  # nothing runs into the next cell
    assert any(text.strip().startswith("…") and text.endswith("game.mp4") for _, text, _ in values)  # a path
    # is cut at its front, keeping its file name; a name too long for one line takes two, whole (the
    # players sign the sheet: an organiser tester's "Wang Tianyi, Grandmaster of the Hangzhou Xia…")
    lines = [text.strip() for _, text, _ in drawn]
    assert "Wang Tianyi, Grandmaster of the" in lines and "Hangzhou Xiangqi Association Team" in lines
    assert not any(text.endswith("…") for _, text, _ in drawn)


def test_a_long_site_takes_room_from_a_short_event_rather_than_losing_its_end(monkeypatch: pytest.MonkeyPatch) -> None:
    # a tester's sheet read "Shanghai Internati…": the site box is a quarter of the row, the event's three
    from recorder.exports import pdf as pdf_module

    drawn: list[tuple[float, str]] = []
    real = pdf_module._Sheet.text_cell

    def spy(self: pdf_module._Sheet, x: float, y: float, w: float, h: float, text: str, **kwargs: object) -> None:
        real(self, x, y, w, h, text, **kwargs)  # type: ignore[arg-type]
        drawn.append((w, text.strip()))

    monkeypatch.setattr(pdf_module._Sheet, "text_cell", spy)
    events = game_events(["h2e2", "h9g7"], seed=1, faults=False, result=None)
    site = "Shanghai International Convention Center, Hall 3"
    scoresheet_pdf(events, GameInfo(event="第十八届全国象棋锦标赛（个人）", site=site))
    shown = " ".join(text for _, text in drawn if text and text in site)
    assert shown == site  # whole, on one line or two
    wide = max(w for w, text in drawn if text and text in site)
    drawn.clear()
    scoresheet_pdf(events, GameInfo(event="第十八届全国象棋锦标赛（个人）", site="上海"))
    (narrow,) = [w for w, text in drawn if text == "上海"]
    assert narrow < wide  # a short site keeps its quarter of the row


def test_a_name_too_long_even_for_two_lines_is_cut_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from recorder.exports import pdf as pdf_module

    drawn: list[str] = []
    real = pdf_module._Sheet.text_cell

    def spy(self: pdf_module._Sheet, x: float, y: float, w: float, h: float, text: str, **kwargs: object) -> None:
        real(self, x, y, w, h, text, **kwargs)  # type: ignore[arg-type]
        drawn.append(text)

    monkeypatch.setattr(pdf_module._Sheet, "text_cell", spy)
    scoresheet_pdf(game_events(["h2e2"], seed=1, faults=False, result=None), GameInfo(red="Wang Tianyi " * 20))
    assert any(text.strip().startswith("Wang") and text.endswith("…") for text in drawn)


@pytest.mark.skipif(find_latin_font() is None, reason="no Latin fallback font (fonts-dejavu-core)")
def test_names_in_any_latin_script_keep_every_letter(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    red, black = "Nguyễn Văn Ánh", "Łukasz Żółć Øyvind Şahin"
    pdf = tmp_path / "sheet.pdf"
    with caplog.at_level(logging.WARNING):
        pdf.write_bytes(scoresheet_pdf(game_events(["h2e2", "h9g7"], seed=1), GameInfo(red=red, black=black)))
    assert not [r for r in caplog.records if "missing" in r.getMessage()]  # fpdf2 names the glyphs it left out
    text = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert red in text and black in text


@pytest.mark.parametrize("paper", ["A4", "A5"])
def test_notes_the_footer_cannot_hold_go_on_a_continuation_page_signed_after_them(tmp_path: Path, paper: str) -> None:
    """Tester: 26 alerts printed 9 and an ellipsis on a sheet the arbiter then signed. Every note is
    on the sheet: those the box cannot hold on continuation pages, the signatures after the last."""
    from recorder.events import Alert

    _, moves = _line(2)
    events = list(game_events(moves[:30], faults=False))
    for ply in range(1, 31):
        events.append(Alert(float(ply) * 5 + 1, "board_disturbed", ("e7",), "5.9",
                            f"note number {ply:02d}: the black elephant on e7 lies 0.45 spacings off its point: the board must "
                            "be put right (art. 5.9)", ply))
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(scoresheet_pdf(events, INFO, paper=paper))
    pages = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True,
                           check=True).stdout.split("\f")
    whole = "".join(pages)
    assert all(f"note number {ply:02d}" in whole for ply in range(1, 31))
    assert "more line(s) of notes on the next page" in pages[0] and "裁判签名" not in pages[0]
    last = max(n for n, text in enumerate(pages) if text.strip())
    assert "裁判签名" in pages[last] and "continued" in pages[last]
    assert f"第 {last + 1} / {last + 1} 页" in pages[last].replace("\n", " ")
    # a page come apart from the first names its game (a player tester could not match one)
    assert all("全国象棋个人赛 · round 5 · board 3 · 王天一 – 郑惟桐" in pages[n] for n in range(1, last + 1))
    assert "round 5 · board 3 · 王天一" not in pages[0]  # the first page has the header


def test_a_game_from_a_set_up_position_shows_its_start_beside_the_final_position(tmp_path: Path) -> None:
    from recorder.store.importer import events_from_pgn
    from rules import read_pgn

    (game,) = read_pgn('[FEN "3k5/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1"]\n\n1. a0a9 {mate} 1-0\n')
    events = events_from_pgn(game)
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(scoresheet_pdf(events, INFO))
    text = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "Start position" in text and "Final position" in text and "comment: mate" in text
    standard = scoresheet_pdf(game_events(["h2e2", "h9g7"]), INFO)
    pdf.write_bytes(standard)
    text = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "Start position" not in text and "Final position" in text


@pytest.mark.skipif(not Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc").exists(),
                    reason="fonts-noto-cjk not installed")
def test_a_rare_character_the_main_font_lacks_is_printed_from_another_cjk_font(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A tester's name with a character outside the main CJK font was dropped with a warning."""
    pdf = tmp_path / "sheet.pdf"
    with caplog.at_level(logging.WARNING):
        pdf.write_bytes(scoresheet_pdf(game_events(["h2e2", "h9g7"]), GameInfo(red="吉𠮷", black="洪智")))
    text = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "吉𠮷" in text
    assert not [r for r in caplog.records if "missing" in r.getMessage()]


def test_a_sheet_of_a_game_not_over_is_marked_provisional_on_every_page(tmp_path: Path) -> None:
    # a tester's PDF of a game still being recorded had signature lines and a "Final position", and
    # nothing on the page to tell it from the record to sign
    pdf = tmp_path / "g.pdf"
    moves = ["h0g2", "h9g7", "g2h0", "g7h9"] * 60  # over a page of moves
    pdf.write_bytes(scoresheet_pdf(game_events(moves, seed=1, faults=False, result=None), INFO,
                                   not_over="it is still being recorded"))
    pages = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True,
                           check=True).stdout.split("\f")
    pages = [page for page in pages if page.strip()]
    assert len(pages) >= 2 and all("PROVISIONAL: the game is not over (it is still being recorded)" in page
                                   for page in pages)
    assert "Final position" not in pages[-1] and "After ply 240" in pages[-1]
    pdf.write_bytes(scoresheet_pdf(game_events(moves[:4], seed=1, faults=False, result=None), INFO))
    text = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "PROVISIONAL" not in text and "Final position" in text


def test_a_finished_game_gives_its_spare_rows_to_the_notes_and_one_closed_without_a_result_keeps_them(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # a player tester: a game closed with "*" (the recording ended before the game) lost the rows its
    # last moves are written in by hand
    from recorder.exports import pdf

    drawn: list[int] = []
    real = pdf._Sheet.moves

    def moves(sheet: object, y: float, rows: object, per_block: int, row_h: float) -> float:
        drawn.append(per_block)
        return real(sheet, y, rows, per_block, row_h)  # type: ignore[arg-type]

    monkeypatch.setattr(pdf._Sheet, "moves", moves)
    opening = ["h2e2", "h9g7", "h0g2", "i9h9"]
    scoresheet_pdf(game_events(opening, seed=1, faults=False, result="1-0"), INFO)
    scoresheet_pdf(game_events(opening, seed=1, faults=False, result=None), INFO)
    finished, unfinished = drawn
    assert finished == 2  # the rows (of each of the three columns) the two rounds fill, and a spare one
    assert unfinished > 20  # the page's rows, to write the rest of the game in
    # unless the notes would then go onto a second page (a tester: four rulings on 20 plies)
    from recorder.events import Comment

    events = game_events(opening, seed=1, faults=False, result=None)
    stop = events.pop()
    events += [Comment(stop.t - 1, 4, f"note {i}: " + "the arbiter looked at the clock and the board again " * 3)
               for i in range(12)] + [stop]
    drawn.clear()
    (tmp_path / "g.pdf").write_bytes(scoresheet_pdf(events, INFO))
    info = subprocess.run(["pdfinfo", str(tmp_path / "g.pdf")], capture_output=True, text=True).stdout
    assert drawn == [2] and info.split("Pages:")[1].split()[0] == "1"
