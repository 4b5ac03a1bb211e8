"""PGN from other programs into the store: each game becomes the event log the recorder would write.

Reading is ``rules.read_pgn`` (ICCS, WXF or Chinese moves; UTF-8, GBK or Big5): a move it cannot
read stops that game, and the problem is returned with the game's number so the arbiter sees
what was left out. ``[%clk]`` comments become the clock times of the moves, fitted to the
milliseconds that give back the ``[%emt]`` move times; the rest of each comment becomes the notes
it was written from (alerts, restorations, corrections, advice, the end), or a comment that keeps
its text (:mod:`recorder.store.import_notes`). Exported again, an imported game gives
the text it was read from. A game the store
holds already (same tags, moves and comments: the same file imported twice) is skipped and named.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from dataclasses import replace
from typing import NamedTuple

from recorder.events import (
    IMPORTED,
    Alert,
    AlertAcknowledged,
    Comment,
    Event,
    GameEnded,
    MoveCorrected,
    MoveRecorded,
    PositionRestored,
    RecordingStarted,
    RecordingStopped,
    game_ended,
)
from recorder.scoresheet import rebuild
from recorder.store.db import GameInfo, GameRow, GameStore
from recorder.store.import_notes import (
    AcknowledgedNote,
    AlertNote,
    CommentNote,
    CorrectedNote,
    EndedNote,
    Note,
    RestoredNote,
    plain,
    read_notes,
)
from rules import Game, Move, PgnGame, Position, format_move, read_pgn

log = logging.getLogger(__name__)

_CLK = re.compile(r"\[%clk\s+(\d+):(\d\d):(\d\d(?:\.\d+)?)\]")  # H:MM:SS, seconds with a fraction or not
_EMT = re.compile(r"\[%emt\s+(\d+):(\d\d):(\d\d(?:\.\d+)?)\]")
_TIME_CONTROL = re.compile(r"\s*(\d+)(?:\+(\d+))?\s*")


def _ms(pattern: re.Pattern[str], comment: str) -> int | None:
    match = pattern.search(comment)
    if match is None:
        return None
    hours, minutes, seconds = int(match[1]), int(match[2]), float(match[3])
    return round(((hours * 60 + minutes) * 60 + seconds) * 1000)


def _clock_ms(comment: str) -> int | None:
    return _ms(_CLK, comment)


def _time_control(headers: dict[str, str]) -> tuple[int, int] | None:
    """PGN's ``TimeControl`` (seconds[+increment]) in ms, as the exports read it; ``None`` otherwise."""
    match = _TIME_CONTROL.fullmatch(headers.get("TimeControl", ""))
    return None if match is None else (int(match[1]) * 1000, int(match[2] or 0) * 1000)


def fit_clocks(sides: list[str], clocks: list[int | None], spent: list[int | None],
               control: tuple[int, int] | None) -> list[int | None]:
    """Each ply's time left in ms: its ``[%clk]`` (whole seconds, as a clock shows them) with the
    milliseconds chosen so that the move times worked out from them, as the exports do for a game
    without clock presses (``recorder.exports.times``: the mover's time left before, less after, plus
    the increment, rounded to the second), are the ``[%emt]`` values the file gave. A ``[%emt]`` that
    no such choice gives (the file's times disagree by more than the clock's hidden fraction of a
    second) is left to the clock times. Without a time control the whole seconds are kept.
    """
    fitted = list(clocks)
    if control is None:
        return fitted
    base, increment = control
    for side in set(sides):
        plies = [index for index, mover in enumerate(sides) if mover == side]
        # forward: the interval of time-left values each ply may have, given the plies before it
        spans: list[tuple[int, int] | None] = []
        linked: list[bool] = []  # whether the ply's value is tied to the one before by its [%emt]
        before: tuple[int, int] | None = (base, base)
        for index in plies:
            clk, emt = clocks[index], spent[index]
            if clk is None:
                spans.append(None)
                linked.append(False)
                before = None
                continue
            low, high = clk, clk + 999
            tied = False
            if emt is not None and before is not None:
                least, most = (emt - 499, emt + 499) if emt > 0 else (-10**12, 499)  # round() to emt
                tied_low, tied_high = max(low, before[0] + increment - most), min(high, before[1] + increment - least)
                if tied_low <= tied_high:
                    low, high, tied = tied_low, tied_high, True
            spans.append((low, high))
            linked.append(tied)
            before = (low, high)
        # backward: the least value of each interval that keeps the next ply's [%emt]
        after: int | None = None
        after_tied = False
        emt_after: int | None = None
        for position in range(len(plies) - 1, -1, -1):
            span = spans[position]
            if span is None:
                after = None
                continue
            low, high = span
            if after is not None and after_tied and emt_after is not None:
                least, most = (emt_after - 499, emt_after + 499) if emt_after > 0 else (-10**12, 499)
                low, high = max(low, after - increment + least), min(high, after - increment + most)
            value = low if low <= high else span[0]
            fitted[plies[position]] = value
            after, after_tied, emt_after = value, linked[position], spent[plies[position]]
    return fitted


def _restored_positions(notes: list[Note], start: Position, line: list[Move]) -> dict[int, Position]:
    """The position each restoration among ``notes`` went back to, by its place in ``notes``, where
    the moves say it: those of the record up to the comment (``line``, played from ``start``) and
    those the later restorations took back.

    A restoration's note stands after the ply it went back to, or, when a later one went further
    back, with that one's (the export moves it there, off moves played later): read backwards, each
    restoration gives the line as it stood before it, the record up to its ply and the moves it took
    back, from which the earlier one's position is played. One whose moves are not known or do not
    follow is left out (it is kept as a comment).
    """
    found: dict[int, Position] = {}
    known: list[str] | None = [move.iccs for move in line]
    for index in range(len(notes) - 1, -1, -1):
        note = notes[index]
        if not isinstance(note, RestoredNote):
            continue
        if known is None or len(known) < note.ply:
            known = None
            continue
        try:
            position = start
            for iccs in known[:note.ply]:
                position = position.play(Move.from_iccs(iccs))
        except ValueError:
            known = None
            continue
        found[index] = position
        known = known[:note.ply] + list(note.taken_back)
    return found


def _note_events(notes: list[Note], t: float, ply: int, after: Position,
                 recorded: MoveRecorded | None, result: str | None, last: bool,
                 start: Position | None = None, line: list[Move] | None = None) -> list[Event]:
    """The events of the notes of the comment after ply ``ply`` (0: the game's opening comment);
    ``last``: it is the comment after the game's last move (only there can the game have ended).
    ``start`` and ``line`` (the record's moves up to the comment) place restorations the export moved
    here from later plies (:func:`_restored_positions`)."""
    events: list[Event] = []
    restored = _restored_positions(notes, start, line or []) if start is not None else {}
    for index, note in enumerate(notes):
        if isinstance(note, EndedNote) and not note.advisory and not last:
            note = plain(note)  # "end (resignation): ..." mid-game is an annotator's, not the game's end
        if isinstance(note, RestoredNote) and (note.ply < ply or (note.ply > ply and index not in restored)):
            note = plain(note)  # it stands after the ply it restored, or where a later one went further back
        if isinstance(note, CorrectedNote) and (recorded is None or (note.ply, note.iccs, note.chinese) != (
                ply, recorded.iccs, recorded.chinese)):
            note = plain(note)
        if isinstance(note, CommentNote):
            events.append(Comment(t, ply, note.text))
        elif isinstance(note, AlertNote):
            events.append(Alert(t, note.kind, note.squares, note.article, note.text, ply))
        elif isinstance(note, EndedNote):
            events.append(GameEnded(t, ply, None if note.advisory else result, note.reason, note.article, note.text,
                                    note.advisory))
        elif isinstance(note, AcknowledgedNote):  # its alert's place is found once the log is whole
            events.append(AlertAcknowledged(t, 0, note.kind, note.by, note.note, ruling=note.ruling))
        elif isinstance(note, RestoredNote):
            back = restored.get(index, after) if note.ply != ply else after
            events.append(PositionRestored(t, note.ply, back.fen(), note.taken_back, by=note.by))
        elif recorded is not None:  # the move recorded again, as the arbiter set it: the note's place kept
            events.append(MoveCorrected(t, ply, recorded.iccs, recorded.chinese, recorded.side, recorded.fen_after,
                                        recorded.confidence, None, recorded.red_ms, recorded.black_ms, False,
                                        note.by, note.was))
    return events


def events_from_pgn(game: PgnGame, source: str = "") -> list[Event]:
    """The event log of a read PGN game: one ``MoveRecorded`` per move (a second apart), the notes of its
    comments (:mod:`recorder.store.import_notes`), its result.

    ``[%clk]`` gives each move's clock time, with the milliseconds that give back its ``[%emt]``
    (:func:`fit_clocks`).
    """
    position = start = game.start_position()
    result = game.result if game.result in ("1-0", "0-1", "1/2-1/2") else None
    events: list[Event] = [RecordingStarted(0.0, source, position.fen())]
    events += _note_events(read_notes(game.comment), 0.5, 0, position, None, result, not game.moves)
    comments = [game.move_comments[index] if index < len(game.move_comments) else ""
                for index in range(len(game.moves))]
    sides = [board.side_to_move for board in game.positions()[:-1]]
    fitted = fit_clocks(sides, [_clock_ms(comment) for comment in comments], [_ms(_EMT, c) for c in comments],
                        _time_control(game.headers))
    clocks: dict[str, int | None] = {"red": None, "black": None}
    ended = any(isinstance(event, GameEnded) and not event.advisory for event in events)
    judge = Game(position)
    advised: str | None = None  # the rules' advice in force, told once while it holds (as the recorder does)
    for ply, move in enumerate(game.moves, 1):
        side = position.side_to_move
        after = position.play(move)
        judge.push(move)
        clocks[side] = fitted[ply - 1]
        recorded = MoveRecorded(float(ply), ply, move.iccs, format_move(position, move, "chinese"), side,
                                after.fen(), 1.0, None, clocks["red"], clocks["black"])
        events.append(recorded)
        noted = _note_events(read_notes(comments[ply - 1]), ply + 0.5, ply, after, recorded, result,
                             ply == len(game.moves), start, game.moves[:ply])
        told = [event for event in noted if isinstance(event, GameEnded)]
        if told:  # the file's own note of it (an export of a recorded game): taken as written
            advised = told[-1].reason if told[-1].advisory else None
        elif not ended:  # a record from elsewhere: the rules' verdicts, as the recorder would have given them
            outcome = judge.outcome()
            if outcome is None or not outcome.advisory:
                advised = None
            if outcome is not None and outcome.reason != advised:
                noted.append(game_ended(ply + 0.5, judge, outcome))
                advised = outcome.reason if outcome.advisory else None
        ended = ended or any(isinstance(event, GameEnded) and not event.advisory for event in noted)
        events += noted
        position = after
    end = float(len(game.moves) + 1)
    if result is not None and not ended:  # no note says how it ended: the result, with no sentence
        events.append(GameEnded(end, len(game.moves), result, "recorded", "", "", False))
    events.append(RecordingStopped(end, 0, IMPORTED))
    return _acknowledging(events)


def _acknowledging(events: list[Event]) -> list[Event]:
    """The log with each arbiter's note read from a comment pointing at its alert (by its place in
    the log, as the store numbers events): the alert of its kind it follows, with only other notes on
    that alert between (the export writes them so: an alert acknowledged, then ruled no foul), else the
    latest alert of its kind before it not yet dealt with (an older export put them after the ply's
    other notes). A note with no such alert is kept as the comment it was."""
    out: list[Event] = []
    dealt: set[int] = set()
    for event in events:
        if isinstance(event, AlertAcknowledged) and event.seq == 0:
            kind = event.kind
            before = len(out) - 1
            while before >= 0 and isinstance(out[before], AlertAcknowledged):
                before -= 1
            follows = before >= 0 and isinstance(alert := out[before], Alert) and alert.kind == kind
            target = before if follows else next(
                (index for index in range(len(out) - 1, -1, -1) if index not in dealt
                 and isinstance(alert := out[index], Alert) and alert.kind == kind), None)
            if target is None:
                words = plain(AcknowledgedNote(event.by, event.kind, event.note, event.ruling)).text
                out.append(Comment(event.t, _ply_before(out), words))
                continue
            dealt.add(target)
            event = replace(event, seq=target + 1)
        out.append(event)
    return out


def _ply_before(events: list[Event]) -> int:
    return next((e.ply for e in reversed(events) if isinstance(e, MoveRecorded)), 0)


# tags the store has columns for, or that the export writes itself (the result, the start, the notation, the id)
KNOWN_TAGS = frozenset({"Event", "Site", "Round", "Date", "Board", "Red", "Black", "TimeControl", "Game", "Result",
                        "FEN", "SetUp", "Format", "GameId", "Void"})


_DAY = re.compile(r"(\d{4})\s*[-./年。]\s*(\d{1,2}|\?\?)\s*[-./月。]\s*(\d{1,2}|\?\?)(?!\d)")
_DAY_RUN = re.compile(r"(\d{4})(\d{2})(\d{2})(?!\d)")  # 20090831
_DAY_FIRST = re.compile(r"(\d{1,2})\s*[-./。]\s*(\d{1,2})\s*[-./。]\s*(\d{4})(?!\d)")  # 22-8-2009, 8/22/2009


def pgn_day(text: str) -> str:
    """An imported Date tag as PGN writes a date (YYYY.MM.DD, ``??`` where unknown) when it starts with
    one in any common form (``2009-11-29 13:0``, ``2009/11/29``, ``2009年11月29日``, ``1999。1。20``,
    ``20090831``, full-width digits, and a day and month before the year where one of them can only be
    the day: ``22-8-2009``); else as it came (``3-4-2009`` may be either). A player tester found 47 of
    300 exported files dated in such forms."""
    plain = unicodedata.normalize("NFKC", text).strip()
    found = _DAY.match(plain)
    if found is not None:
        year, month, day = found.groups()
    elif (run := _DAY_RUN.match(plain)) is not None:
        year, month, day = run.groups()
    elif (first := _DAY_FIRST.match(plain)) is not None:
        one, two, year = first.groups()
        if int(one) > 12 >= int(two) or int(one) == int(two):  # 22-8-2009; 3-3-2009 reads the same either way
            day, month = one, two
        elif int(two) > 12 >= int(one):
            month, day = one, two
        else:
            return text
    else:
        return f"{plain}.??.??" if re.fullmatch(r"\d{4}", plain) else text
    if not (month == "??" or 1 <= int(month) <= 12) or not (day == "??" or 1 <= int(day) <= 31):
        return text
    return f"{year}.{month.zfill(2)}.{day.zfill(2)}"


def info_from_headers(headers: dict[str, str]) -> GameInfo:
    """The store's game details from PGN tags (``?`` and empty tags are left empty); every other tag
    (ECCO, Opening, RedTeam...) is kept as it came."""
    def tag(name: str) -> str:
        value = headers.get(name, "").strip()
        return "" if value in ("?", "????.??.??") else value

    board = tag("Board")
    others = tuple((name, value) for name, value in headers.items()
                   if (name not in KNOWN_TAGS or (name == "Board" and not board.isdigit())) and value.strip())
    return GameInfo(event=tag("Event"), site=tag("Site"), round=tag("Round"), date=pgn_day(tag("Date")),
                    board=int(board) if board.isdigit() else None, red=tag("Red"), black=tag("Black"),
                    time_control=tag("TimeControl"), tags=others)


def _void_reason(headers: dict[str, str]) -> str:
    """Why the game was void where it was exported (its ``Void`` tag, on one line), or ""."""
    return " ".join(headers.get("Void", "").split())


NOT_IMPORTED = " not imported)"  # ends each problem of a game left out whole (``Imported.problems``)


class Imported(NamedTuple):
    """What :func:`import_pgn` did: the new games' ids, the games not imported because a move could not
    be read (one line each: which game, which ply, why), and the games skipped because the store
    holds them already (one line each, naming the stored game)."""

    ids: list[int]
    problems: list[str]
    duplicates: list[str]


def _same_details(row: GameRow, info: GameInfo, result: str) -> bool:
    """The details that tell games apart (site and date are not compared: a game stored before
    schema 3 shows its tournament's site and round's date; board 0 is kept as none)."""
    return (row.info.event, row.info.round, row.info.board, row.info.red, row.info.black,
            row.info.time_control, row.result) == (info.event, info.round, info.board or None, info.red, info.black,
                                                   info.time_control, result)


def find_duplicate(store: GameStore, game: PgnGame) -> int | None:
    """The id of a stored game with the same tags, moves and comments as ``game`` (same start, same
    result), if any: the same file imported twice. Another annotated copy of a game (its own
    annotator, comments or opening code) is a game of its own. The other tags are compared only with
    a game stored with them (before schema 5 they were not kept)."""
    info = info_from_headers(game.headers)
    fen = game.start_position().fen()
    moves = [move.iccs for move in game.moves]
    comments: list[tuple[int, str]] | None = None
    void = bool(_void_reason(game.headers))  # a void game's file is a copy of a void game only
    for row in store.games(event=info.event or None, round_name=info.round or None, void=void):
        if not (_same_details(row, info, game.result) and row.plies == len(moves) and row.start_fen == fen
                and (not row.info.tags or row.info.tags == info.tags)):
            continue
        stored = store.events(row.id)
        if rebuild(stored).moves != moves:
            continue
        if comments is None:
            comments = _comments(events_from_pgn(game))
        if _comments(stored) == comments:
            return row.id
    return None


def _comments(events: list[Event]) -> list[tuple[int, str]]:
    return [(event.ply, event.text) for event in events if isinstance(event, Comment)]


def import_pgn(store: GameStore, data: str | bytes, source: str = "") -> Imported:
    """Store every game of a PGN text or file content that the store does not hold already; returns
    (game ids, problems found while reading, games skipped as already stored)."""
    result = Imported([], [], [])
    for number, game in enumerate(read_pgn(data), 1):
        if game.cut:  # a record cut short at a move it cannot read would pass for the whole game
            result.problems.extend(f"{error} (game {number}{NOT_IMPORTED}" for error in game.errors)
            continue
        result.problems.extend(game.errors + game.notes)  # left out, the moves all read: a bad tag line, a variation
        stored = find_duplicate(store, game)
        if stored is not None:
            log.debug("game %d of %s is game %d of the store", number, source, stored)
            result.duplicates.append(f"game {number} is already stored as game {stored} "
                                     "(same tags, moves and comments)")
            continue
        info = info_from_headers(game.headers)
        void = _void_reason(game.headers)
        others = store.games_on_board(info) if info.round and not void else []  # (a void one is shown nowhere)
        if others:  # stored still (a replayed game is legitimate), but never in silence
            result.problems.append(
                f"game {number} is board {info.board} of round {info.round}, where game(s) "
                f"{', '.join(str(other.id) for other in others)} stand already: the round's PGN and the broadcast "
                "show both (void the wrong one: xqrec edit GAME --void REASON)")
        game_id = store.create_game(source or "imported PGN", info)
        events = events_from_pgn(game, source)
        for event in events:
            store.append(game_id, event)
        # the result the record ends with: a mate or stalemate decides it (art. 4.1.1, 4.1.2), as every
        # export says; the list said the tag's 0-1 where the sheets said 1-0 (a player tester)
        ended = next((e for e in reversed(events) if isinstance(e, GameEnded) and not e.advisory), None)
        stored_result = ended.result if ended is not None and ended.result else game.result
        if stored_result != game.result and game.result in ("1-0", "0-1", "1/2-1/2"):
            result.problems.append(f"game {number}'s Result tag says {game.result}, but its moves end in "
                                   f"{ended.reason if ended is not None else 'another result'}: stored as "
                                   f"{stored_result} (art. 4.1.1-4.1.2; xqrec edit GAME --result R --reason TEXT "
                                   "if the tag was right and the moves are not)")
        store.close_game(game_id, stored_result)
        if void:  # a void game's file (exported for a dispute) stays void: not a game of the round
            store.set_void(game_id, void)
            result.problems.append(f"game {number} was void where it was exported ({void}): imported as game "
                                   f"{game_id}, void (xqrec edit {game_id} --unvoid takes that back)")
        result.ids.append(game_id)
    return result
