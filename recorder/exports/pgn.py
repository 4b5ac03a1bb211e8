"""PGN export of a recorded game, built on ``rules.write_pgn``: tags from the store, per-move clock
comments and the arbiter's alerts and corrections as comments; and reading such PGN back.

Each move's comment holds ``[%clk H:MM:SS]`` (the mover's time left after the press that completed
it) and ``[%emt H:MM:SS]`` (the time the move took, from :mod:`recorder.exports.times`), then any
alert raised after it, any position the arbiter restored (art. 5.8) with the moves taken back, and
the game's end, each sentence separated from the next by ``"; "``. Alerts raised before the
first move are in the game comment. :func:`read_clocks` reads the clock annotations back, so a
game written and read again gives the same moves, tags, comments and clock times.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from recorder.events import (
    EQUIPMENT_KINDS,
    NOT_RECORDING,
    SOURCE_CHANGED,
    Alert,
    AlertAcknowledged,
    ClockNoted,
    Comment,
    DetailsEdited,
    Event,
    GameEnded,
    MoveCorrected,
    MoveRecorded,
    PositionRestored,
    ResultMarked,
    SourceGap,
    kind_title,
    kind_title_zh,
    recording_time,
)
from recorder.exports.times import clock_text, move_times, time_control_of
from recorder.scoresheet import RecordedGame, advice_withdrawn, clock_left_text, rebuild
from recorder.store.db import GameInfo
from recorder.store.import_notes import AcknowledgedNote, acknowledged_text, article_tag
from rules import START_FEN, Move, PgnGame, Position, format_move, write_pgn
from rules.squares import RED

log = logging.getLogger(__name__)

_CLK = re.compile(r"\[%clk\s+(\d+):(\d\d):(\d\d)\]")
_EMT = re.compile(r"\[%emt\s+(\d+):(\d\d):(\d\d)\]")
SIDE_NAMES = {"red": "红方", "black": "黑方"}
NOTE_SEPARATOR = "; "  # between the distinct sentences of one comment (alerts, corrections, the end)


def _article(article: str) -> str:
    return f", art. {article}" if article else ""


def _cited(article: str, text: str) -> str:
    """`` (art. A)`` to end a sheet's sentence whose ``text`` does not cite article ``A`` already."""
    if not article or re.search(rf"art\. (?:[\d.]+, )*{re.escape(article)}(?![.\d]*\d)", text):  # also "art. 3.2, 4.1.1"
        return ""
    return f" (art. {article})"


def _zh(kind: str, chinese: bool) -> str:
    """The Chinese title and a space to open a note of ``kind`` on a Chinese sheet ("" elsewhere)."""
    title = kind_title_zh(kind) if chinese else ""
    return f"{title} " if title else ""


def ended_comment(event: GameEnded, sheet: bool = False, chinese: bool = False) -> str:
    """A game-end verdict or advice as a comment sentence (the article left out when it has none);
    on a ``sheet``, the reason in words (``Advice, perpetual check: ...``), not its code, and on a
    ``chinese`` one (the PDF's form) its Chinese title first (``长将 Advice, perpetual check: ...``)."""
    word = "advice" if event.advisory else "end"
    if not sheet:
        return f"{word} ({event.reason}{_article(event.article)}): {event.text}"
    named = "" if event.reason in ("", "arbiter") else f", {kind_title(event.reason).lower()}"
    return f"{_zh(event.reason, chinese)}{word.capitalize()}{named}: {event.text}{_cited(event.article, event.text)}"


def how_ended(game: RecordedGame) -> str:
    """How the game ended, in a few words for a sheet's result box: the arbiter's reason for a result
    marked, or what the rules decided ("checkmate, art. 4.1.1"); "" while open or when nothing says.
    The full sentence is the end note's (a new user read it twice over, the article three times)."""
    ended = game.ended
    if ended is None or not ended.result or ended.advisory:
        return ""
    if isinstance(ended, ResultMarked) and not ended.text and ended.article:
        return f"art. {ended.article}"  # marked with the article it was decided under, and no words
    if isinstance(ended, ResultMarked) or ended.reason in ("", "arbiter", "recorded") or not ended.article:
        # a person's words (an arbiter's reason, read back from a PGN too), or none (an imported result)
        return ended.text
    return f"{kind_title(ended.reason).lower()}, art. {ended.article}"


def alert_comment(alert: Alert) -> str:
    """One alert as a comment sentence: kind, squares, article (unless the text ends citing it), text
    (``equipment`` for the camera's and the clock's troubles, ``alert`` for the rest); read back by
    :mod:`recorder.store.import_notes`."""
    where = " " + " ".join(alert.squares) if alert.squares else ""
    word = "equipment" if alert.kind in EQUIPMENT_KINDS else "alert"
    return f"{word} {alert.kind}{where}{article_tag(alert.article, alert.text)}: {alert.text}"


def alert_sentence(alert: Alert, chinese: bool = False) -> str:
    """One alert as a sheet's note says it: its kind in words, the squares unless its text names
    them, the text, and the article unless the text cites it (``Clock pressed without a move: ...``;
    on a ``chinese`` sheet, the PDF's form, its Chinese title first: ``未走棋先按钟 Clock pressed ...``);
    the equipment's troubles are marked so, so no one reads a camera outage as a foul."""
    squares = [square for square in alert.squares if not re.search(rf"(?<![a-z]){square}(?!\d)", alert.text)]
    where = f" ({' '.join(alert.squares)})" if squares else ""
    equipment = " (equipment)" if alert.kind in EQUIPMENT_KINDS else ""
    title, text = kind_title(alert.kind), alert.text
    if text.lower().startswith(title.lower() + " ") and not where + equipment:  # "Illegal move of the red horse ..."
        return f"{_zh(alert.kind, chinese)}{text[:1].upper()}{text[1:]}{_cited(alert.article, text)}"
    return f"{_zh(alert.kind, chinese)}{title}{equipment}{where}: {text}{_cited(alert.article, text)}"


def ply_name(ply: int, start: Position | None = None) -> str:
    """How a note names ply ``ply``: ``ply 12`` in a PGN comment (what
    :mod:`recorder.store.import_notes` reads back), ``move 6 (black)`` where people read it, numbered
    as the scoresheet numbers moves from the game's ``start``."""
    return f"ply {ply}" if start is None else start.move_name(ply)


def _after(ply: int, start: Position | None) -> str:
    return "at the start" if start is not None and ply <= 0 else f"after {ply_name(ply, start)}"


def restored_comment(event: PositionRestored, start: Position | None = None) -> str:
    """A restoration as a comment sentence (read back by :mod:`recorder.store.import_notes`), naming the
    arbiter who took the moves back in the console; with ``start``, worded for a sheet (``ply_name``)."""
    taken = f"; taken back: {' '.join(event.taken_back)}" if event.taken_back else ""
    by = f" (by {event.by})" if event.by and event.taken_back else ""
    return f"arbiter: position {_after(event.ply, start)} restored (art. 5.8){taken}{by}"


def taken_back_text(event: PositionRestored, start: Position | None = None) -> str:
    """What an arbiter's take-back in the console did, as the console lists it: the plies, each in
    Chinese notation and ICCS (``plies 9-10 taken back: 炮二平七 (h2c2), 炮2平1 (b7a7)``; with
    ``start``, ``move 5 (red) to move 5 (black) taken back: ...``)."""
    last = event.ply + len(event.taken_back)
    if start is not None:
        plies = (ply_name(last, start) if len(event.taken_back) == 1
                 else f"{ply_name(event.ply + 1, start)} to {ply_name(last, start)}")
    else:
        plies = f"ply {last}" if len(event.taken_back) == 1 else f"plies {event.ply + 1}-{last}"
    named = []
    position: Position | None = Position.from_fen(event.fen)
    for iccs in event.taken_back:
        move = Move.from_iccs(iccs)
        if position is not None and position.is_legal(move):
            named.append(f"{format_move(position, move)} ({iccs})")
            position = position.play(move)
        else:  # a log whose moves do not follow (written by hand): the ICCS alone
            named.append(iccs)
            position = None
    goes_on = (f"from ply {event.ply}" if start is None
               else "from the start" if event.ply <= 0 else f"after {ply_name(event.ply, start)}")
    return f"{plies} taken back: {', '.join(named)}; the record goes on {goes_on}"


def correction_text(event: MoveCorrected, start: Position | None = None) -> str:
    """What a correction did, in the words every place shows it (the console, PGN, PDF, text): a ply
    set to another move (``was`` names the one recorded before), or a ply added after the last one
    (a move the camera missed: ``was`` is empty). With ``start``, the move is named as the sheet
    numbers it (``ply_name``)."""
    name = ply_name(event.ply, start)
    if not event.was:
        who = "recorder" if event.by == "recorder" else "arbiter"
        return f"{name} added by the {who}: {event.iccs} ({event.chinese})"
    return f"{name} corrected to {event.iccs} ({event.chinese}), was {event.was}"


def corrected_comment(event: MoveCorrected, start: Position | None = None) -> str:
    """A corrected or added move as a comment sentence: who did it, and what was recorded before."""
    return f"{event.by or 'arbiter'}: {correction_text(event, start)}"


def _when(at: str) -> str:
    """" (HH:MM UTC)" from an action's wall-clock time ("" when it has none): a sheet says when the
    arbiter acted, as the console does."""
    return f" ({at[11:16]} UTC)" if len(at) >= 16 else ""


def _acknowledged(events: Sequence[Event]) -> dict[int, str]:
    """`` (acknowledged by NAME, HH:MM UTC)`` for each event an arbiter acknowledged without a note,
    by its place in ``events`` (0-based): a signed sheet shows every alert dealt with, and who did it."""
    said: dict[int, str] = {}
    for event in events:
        if isinstance(event, AlertAcknowledged) and not event.note and not event.ruling and 0 < event.seq <= len(events):
            when = f", {event.at[11:16]} UTC" if len(event.at) >= 16 else ""
            said.setdefault(event.seq - 1, f" (acknowledged by {event.by or 'the arbiter'}{when})")
    return said


def notes_of(events: Sequence[Event], sheet: bool = False, start: Position | None = None,
             chinese: bool = False) -> list[tuple[int, str]]:
    """(ply, sentence) of every alert (and the arbiter's note when acknowledging it), restoration,
    corrected move, camera gap, clock reconnection, press the clock could not be heard for and
    imported comment, in recorded order. ``events`` is a game's whole log as stored (an
    acknowledgement names its alert by its place in it). A comment is its words as they came (a PGN
    gives them back), or on a ``sheet`` ``comment: WORDS`` (not to pass them off as the recorder's),
    where the arbiter's corrections and notes also say when they were made, and an alert
    acknowledged without a note says by whom. A restoration moves the notes of the plies it took
    back to the ply it went back to (before its own). On a ``sheet`` the moves are named as the
    sheet numbers them from the game's ``start`` (the standard one unless given), not by ply. An
    arbiter's note on an alert, or ruling it no foul, comes straight after the alert: the import
    gives it to the latest alert of its kind before it (two presses without a move at one ply). On a
    ``chinese`` sheet (the PDF's form) an alert opens with its Chinese title."""
    if sheet and start is None:
        start = Position.start()
    named_from = start if sheet else None
    notes: list[tuple[int, str]] = []
    order: list[tuple[int, int]] = []  # each note's place: the event it tells of, or the alert a note is on
    restored: list[tuple[int, int]] = []  # (place in events, ply gone back to) of each restoration
    ply = 0
    acknowledged = _acknowledged(events) if sheet else {}
    marks = [index for index, event in enumerate(events) if isinstance(event, ResultMarked)]

    def add(note: tuple[int, str], on: int | None = None) -> None:  # a note on the event being read
        notes.append(note)
        order.append((index, 0) if on is None else (on, 1))

    for index, event in enumerate(events):
        if isinstance(event, MoveRecorded):
            ply = event.ply
        if isinstance(event, ResultMarked) and (event.result is None or index != marks[-1]):
            # the results marked and reopened before the one that stands (which the game's end gives),
            # in the PGN as on the sheets (an arbiter tester's PGN kept the reopenings but not the two
            # results they reopened; a reopened game read "end (arbiter): ..." there before)
            said = f"result {event.result} marked" if event.result else "result reopened (*)"
            add((event.ply, f"arbiter {event.by or ''}".strip() + f": {said}"
                          + (f": {event.text}" if event.text else "") + (_when(event.at) if sheet else "")))
        if isinstance(event, PositionRestored):
            ply = event.ply
            # what was said about the moves taken back stays with the record's history, at the ply
            # it went back to: a later move played at the same ply number is another move
            notes = [(min(at, event.ply), said) for at, said in notes]
            restored.append((index, event.ply))
            if event.taken_back:
                add((event.ply, restored_comment(event, named_from) + (_when(event.at) if sheet else "")))
        elif isinstance(event, Alert):
            add((event.ply, (alert_sentence(event, chinese) if sheet else alert_comment(event)) + acknowledged.get(index, "")))
        elif isinstance(event, Comment):
            add((event.ply, f"comment: {event.text}" if sheet else event.text))
        elif isinstance(event, MoveCorrected) and event.was != event.iccs:
            add((event.ply, corrected_comment(event, named_from) + (_when(event.at) if sheet else "")))
        elif isinstance(event, AlertAcknowledged) and (event.note or event.ruling):
            target = events[event.seq - 1] if 0 < event.seq <= len(events) else None
            at = target.ply if isinstance(target, Alert) else ply
            at = min([at] + [back for where, back in restored if where > event.seq - 1])
            add((at, acknowledged_text(AcknowledgedNote(event.by or "", event.kind, event.note, event.ruling), sheet)
                 + (_when(event.at) if sheet else "")), event.seq - 1 if isinstance(target, Alert) else None)
        elif isinstance(event, DetailsEdited) and sheet:
            add((ply, f"details edited by {event.by}: {'; '.join(event.changes)}{_when(event.at)}"))
        elif isinstance(event, SourceGap) and event.reason == NOT_RECORDING:
            add((ply, f"recorder: not running from {recording_time(event.t)} to {recording_time(event.t_resumed)} of the recording (moves made "
                               "meanwhile were read from the board after it)"))
        elif isinstance(event, SourceGap) and event.reason == SOURCE_CHANGED:
            add((ply, f"recorder: the game went on from another camera or file at {recording_time(event.t_resumed)}"))
        elif isinstance(event, SourceGap):
            add((ply, f"camera: no picture from {recording_time(event.t)} to {recording_time(event.t_resumed)} of the recording ({event.reason})"))
        elif isinstance(event, ClockNoted) and event.kind in ("clock_connected", "press_unheard", "press_back") and event.t > 0:
            if event.kind == "clock_connected" and not event.text.startswith("clock back"):
                continue  # the clock answering at the start is no news (recorder.clock.link words both)
            # a press back is told after the ply its press came at (0: before the first move)
            add((event.ply if event.kind == "press_back" else event.ply or ply, f"clock: {event.text}"))
    return [notes[i] for i in sorted(range(len(notes)), key=lambda i: order[i])]


def game_notes(events: Sequence[Event], game: RecordedGame, sheet: bool = False,
               chinese: bool = False) -> list[tuple[int, str]]:
    """(ply, sentence) of every alert, restoration, correction and comment (:func:`notes_of`), then
    the advice and the game's end (on a ``sheet``, the result an arbiter marked says who and when,
    and the notes go by ply, those of one ply in the order they were raised; on a ``chinese`` one,
    the PDF's form, alerts, advice and ends open with their Chinese titles)."""
    acknowledged = _acknowledged(events) if sheet else {}
    place = {id(event): index for index, event in enumerate(events)}
    notes = notes_of(events, sheet, Position.from_fen(game.start_fen), chinese) + [(advice.ply, ended_comment(advice, sheet, chinese)
                                        + _withdrawn(game, advice) + acknowledged.get(place.get(id(advice), -1), ""))
                                       for advice in game.advice]
    ended = game.ended
    if isinstance(ended, ResultMarked) and not ended.text and ended.result:
        # marked with no words (an article, or none): who marked what still goes on the sheet (a tester's
        # sheet said only "Result: 1-0", the PGN nothing of the arbiter)
        ended = replace(ended, text=f"result {ended.result} marked")
    if ended is not None and ended.text:
        marked = ""
        if sheet and isinstance(ended, ResultMarked) and ended.by:
            when = f", {ended.at[11:16]} UTC" if len(ended.at) >= 16 else ""
            marked = f" (marked by {ended.by}{when})"
        notes.append((ended.ply, ended_comment(ended, sheet, chinese) + marked))
    if sheet:  # in the order of the moves (a clock's notes told late went after later moves' alerts)
        notes.sort(key=lambda note: note[0])
    return notes


def _withdrawn(game: RecordedGame, advice: GameEnded) -> str:
    reason = advice_withdrawn(game, advice.reason, advice.result or "")
    return f" (it {reason})" if reason else ""


_PGN_DATE = re.compile(r"(\d{4}|\?{4})\.(\d{2}|\?{2})\.(\d{2}|\?{2})")
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d{2}|2\d{3})(?!\d)")


def pgn_date_tag(date: str) -> str:
    """PGN's Date for a stored date: as stored when in PGN's form (YYYY.MM.DD, ``??`` for what is not
    known); else only its year, where one year stands in it (an imported ``11/12/2001`` may be either
    day first: ``2001.??.??``), else unknown. The store, the text and the PDF keep it as it came."""
    if _PGN_DATE.fullmatch(date):
        return date
    years = set(_YEAR.findall(date))
    return f"{years.pop()}.??.??" if len(years) == 1 else "????.??.??"


def headers_for(info: GameInfo | None, result: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    """PGN tags from the store's game information (``?`` where unknown, as PGN asks)."""
    info = info or GameInfo()
    headers = {"Event": info.event or "?", "Site": info.site or "?", "Date": pgn_date_tag(info.date),
               "Round": info.round or "?", "Red": info.red or "?", "Black": info.black or "?",
               "Result": result}
    if info.time_control:
        headers["TimeControl"] = info.time_control
    if info.board is not None:
        headers["Board"] = str(info.board)
    headers.update((name, value) for name, value in info.tags if name not in headers)
    headers.update(extra or {})
    return headers


# How a result the arbiter marked is told to the public: in the rules' words for the article it was
# marked under (the console's "how"), never in the arbiter's own: a tester's override reason ("video
# review shows...; see appeal form 3", which the server asks for in the note) went out to the hall's
# screen and the relay sites word for word. The sheet, the log and the game's own exports keep them.
_ARTICLE_WORDS = (
    ("4.1.1", "被将死 checkmated"), ("4.1.2", "被困毙 stalemated"), ("4.1.3", "自杀 left its general en prise"),
    ("4.1.4", "长将 perpetual check"), ("4.1.5", "禁例不变 did not change a forbidden repetition"),
    ("4.1.6", "超时 lost on time"), ("4.1.7", "迟到 did not come in time"),
    ("4.1.8", "违反行棋规定 moves against the rules"), ("4.1.9", "两次未走棋先按钟 two presses without a move"),
    ("4.1.10", "三次犯规 three fouls"), ("4.1.11", "自然限着不实 a false claim of the natural limit"),
    ("4.1.12", "认输 resigned"), ("4.1.13", "违纪 refused the rules or misconduct"),
    ("4.2.1", "议和 draw agreed"), ("4.2.2", "双方无胜机 no winning chances"),
    ("4.2.3", "不变作和 repetition, draw"), ("4.2.4", "自然限着 natural move limit"), ("21", "超时 lost on time"),
)


def article_words(article: str) -> str:
    """The rules' words for how a game ended under ``article`` (``认输 resigned`` for 4.1.12, also for
    a clause of it, ``art. 21.3`` as typed too); "" for an article without them."""
    article = article.strip().removeprefix("art.").strip()
    return next((words for head, words in _ARTICLE_WORDS if _under(article, (head,))), "")


def public_ending(ended: GameEnded) -> str:
    """How the game ended as spectators may read it: the rules' own sentence for an end they decided
    (a mate), and for a result the arbiter marked the words of its article, never the arbiter's own;
    "" where nothing may be said (a result marked with no article, or one without words)."""
    return article_words(ended.article) if isinstance(ended, ResultMarked) else ended.text


def public_notes(game: RecordedGame) -> list[tuple[int, str]]:
    """(ply, sentence) of what spectators may read: how the game ended once it has (:func:`public_ending`),
    never the arbiter's alerts, notes, own words or repetition advice (advice is the arbiter's to rule
    on, art. 5.8)."""
    ended = game.ended
    if ended is None or ended.advisory:
        return []
    said = public_ending(ended)
    return [(ended.ply, ended_comment(replace(ended, text=said)))] if said else []


def to_pgn_game(events: Sequence[Event], info: GameInfo | None = None,
                extra: dict[str, str] | None = None, public: bool = False, live: bool = False) -> PgnGame:
    """The recorded game as a ``rules.PgnGame`` with clock comments, and the alert, correction and
    advice comments unless it is for the ``public`` (a broadcast: clocks and the game's end only)."""
    game = rebuild(events)
    control, read = time_control_of(game, info.time_control if info else "")
    if read:  # the clock's own setting, as its presses show it (no --tc given)
        info = dataclasses.replace(info or GameInfo(), time_control=control)
    notes: list[list[str]] = [[] for _ in game.plies]
    opening: list[str] = []
    for ply, text in public_notes(game) if public else game_notes(events, game):
        _attach(notes, opening, ply, text)
    pgn = PgnGame(headers=headers_for(info, game.result))
    if game.start_fen != START_FEN:
        pgn.headers["FEN"] = game.start_fen
    termination = termination_of(game)
    if termination:  # a broadcast shows how the game ended, not only its result (an organiser's tester)
        pgn.headers["Termination"] = termination
    elif game.result == "*" or any(isinstance(event, ResultMarked) for event in events):
        # an imported game's own Termination told how the result it came with was reached: one the
        # arbiter marked since, or an open game, has none of it (a tester's resignation went out as
        # the time forfeit its file had said)
        pgn.headers.pop("Termination", None)
    # the caller's own tags (the store's GameId) last: an import keeps the game's tags but not those,
    # and the file it exports again then has its tags in the same order (a player tester)
    pgn.headers.update(extra or {})
    pgn.comment = NOTE_SEPARATOR.join(opening)
    times = move_times(game, control)
    shown = published_plies(game) if live else len(game.plies)
    for entry, spent, extra_notes in zip(game.plies[:shown], times[:shown], notes[:shown], strict=True):
        parts = []
        if entry.clock_ms is not None:
            parts.append(f"[%clk {clock_left_text(entry.clock_ms)}]")
        if spent is not None:
            parts.append(f"[%emt {clock_text(spent)}]")
        comment = NOTE_SEPARATOR.join(extra_notes)
        pgn.add_move(Move.from_iccs(entry.iccs), " ".join(parts + ([comment] if comment else [])))
    pgn.result = game.result
    return pgn


def published_plies(game: RecordedGame) -> int:
    """The plies a broadcast shows: those up to a result the arbiter marked, when moves were recorded
    after it. Those are the players' analysis on the board after a resignation, or the result is on the
    wrong game (the console's ``moves_after_result`` alert asks which): spectators had seen the moves of
    a post-mortem under "1-0". Reopening the game (result ``*``) shows them."""
    ended = game.ended
    if isinstance(ended, ResultMarked) and ended.result and ended.ply < len(game.plies):
        return max(ended.ply, 0)
    return len(game.plies)


_TIME_ARTICLES = ("21", "4.1.6")  # the flag fell; the moves not made in time
# self-check, perpetual check, a forbidden repetition not changed, fouls, refusing the rules; the 棋例
_INFRACTION_ARTICLES = ("3.4", "4.1.3", "4.1.4", "4.1.5", "4.1.8", "4.1.9", "4.1.10", "4.1.11", "4.1.13", "8", "23",
                        "24", "25", "26")
_REPETITION_ARTICLES = ("23", "24", "25", "26")  # 棋例: a side that must change and does not loses; else a draw
_ABANDONED_ARTICLES = ("4.1.7",)  # did not come in time
_NORMAL_ARTICLES = ("4.1.1", "4.1.2", "4.1.12", "4.2")  # mated, stalemated, resigned, drawn


def _under(article: str, heads: tuple[str, ...]) -> bool:
    """Is ``article`` one of ``heads`` or a clause of one (4.1.10 is not under 4.1.1)?"""
    return any(article == head or article.startswith(head + ".") for head in heads)


def termination_of(game: RecordedGame) -> str:
    """PGN's Termination tag for a game that ended (``""`` when it has not, or how is not known):
    ``normal`` for a mate, stalemate, resignation or agreed or ruled draw, ``time forfeit``,
    ``rules infraction`` (fouls, 自杀, forbidden repetitions), ``abandoned`` (a player who did not come),
    as the ending event or the arbiter's marked article says; nothing for a win marked without one (a
    draw without one is ``normal``: a broadcaster tester's agreed draw had no Termination).
    A draw under the repetition articles (25.2, 26.9.4: neither side must change) is ``normal``: no
    one broke a rule."""
    ended = game.ended
    if ended is None or not ended.result:
        return ""
    return termination(ended.result, ended.reason, ended.article)


def termination(result: str, reason: str, article: str) -> str:
    """PGN's Termination for a game ended with ``result`` for ``reason`` under ``article`` (see
    ``termination_of``)."""
    if reason in ("checkmate", "stalemate"):
        return "normal"
    article = article.strip().removeprefix("art.").strip()
    if _under(article, _TIME_ARTICLES):
        return "time forfeit"
    if _under(article, _ABANDONED_ARTICLES):
        return "abandoned"
    if result == "1/2-1/2" and (not article or _under(article, _REPETITION_ARTICLES)):
        return "normal"  # a draw marked with no article: agreed, or as the rules have it; no one lost to a rule
    if _under(article, _INFRACTION_ARTICLES):
        return "rules infraction"
    return "normal" if _under(article, _NORMAL_ARTICLES) else ""


def _attach(notes: list[list[str]], opening: list[str], ply: int, text: str) -> None:
    text = " ".join(text.replace("{", "(").replace("}", ")").split())
    if ply <= 0 or not notes:
        opening.append(text)
    else:
        notes[min(ply, len(notes)) - 1].append(text)


def export_pgn(events: Sequence[Event], info: GameInfo | None = None, notation: str = "iccs",
               extra: dict[str, str] | None = None, public: bool = False, live: bool = False) -> str:
    """PGN text of a recorded game, moves in ``notation`` (``iccs``, ``wxf`` or ``chinese``); a
    ``public`` one leaves the arbiter's alerts, notes and advice out, and a ``live`` one (the
    broadcast) the moves recorded after a result the arbiter marked (see :func:`published_plies`)."""
    return write_pgn(to_pgn_game(events, info, extra, public, live), notation)


@dataclass(frozen=True)
class ClockMark:
    """The clock annotations of one move as read back: time left and time used, in milliseconds."""

    clk_ms: int | None
    emt_ms: int | None


def _ms(match: re.Match[str] | None) -> int | None:
    if match is None:
        return None
    hours, minutes, seconds = (int(part) for part in match.groups())
    return ((hours * 60 + minutes) * 60 + seconds) * 1000


def read_clocks(game: PgnGame) -> list[ClockMark]:
    """``[%clk]`` and ``[%emt]`` of every move of a read PGN game (``None`` where absent)."""
    marks = []
    for comment in game.move_comments:
        marks.append(ClockMark(_ms(_CLK.search(comment)), _ms(_EMT.search(comment))))
    return marks


def side_name(side: str) -> str:
    """红方 / 黑方 for the printed forms."""
    return SIDE_NAMES.get(side, side) if side else SIDE_NAMES[RED]
