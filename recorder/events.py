"""Typed recorder events and the append-only event log (one JSON object per line, with a ``"type"``).

The event log is the single record of a game: the scoresheet and PGN are derived from it
(:mod:`recorder.scoresheet`). Every event is a frozen dataclass with the video time ``t`` (seconds)
at which the recorder knew it; :func:`event_to_json` adds the class name as ``"type"`` and
:func:`event_from_json` reads it back. Alerts (things an arbiter must look at) share the base
:class:`Alert`: a ``kind`` code, the ``squares`` involved, the rule ``article`` and a sentence.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import logging
import types
import typing
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from rules import Game, Move, Outcome, Position, format_move

log = logging.getLogger(__name__)

EVENT_LOG_VERSION = 1


def recording_time(t: float) -> str:
    """A time of the recording (its source's seconds) as an alert or note says it, ``0:01:44.0``: hours,
    minutes, seconds and tenths, as a video player shows where it stands, and readable in a game of
    three hours, where ``10523.4 s`` is not."""
    seconds, tenth = divmod(int(round(max(t, 0.0) * 10)), 10)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}.{tenth}"


@dataclass(frozen=True)
class Event:
    """Base of every event: ``t`` is the video (or stream) time in seconds."""

    t: float


@dataclass(frozen=True)
class RecordingStarted(Event):
    """The recorder began watching ``source`` from ``start_fen`` (the model hash names the classifier)."""

    source: str
    start_fen: str
    model_sha256: str | None = None
    version: int = EVENT_LOG_VERSION
    source_origin: float | None = None  # a followed folder's time 0 (epoch s): a later run times its pictures alike


@dataclass(frozen=True)
class RecordingStopped(Event):
    """The recorder stopped (end of file, or told to stop); ``frames`` read in all.

    A ``reason`` that starts with "stopped" (:func:`stopped_on_purpose`) says the recorder was
    stopped before the game ended but not by a fault: a signal, a file cut short; the game goes on
    with ``record --resume``."""

    frames: int
    reason: str = "end of source"


STOPPED_BY_ERROR = "stopped by an error of the recorder's"  # RecordingStopped.reason's start after a fault


def stopped_on_purpose(reason: str) -> bool:
    """Does a :class:`RecordingStopped` reason say the recorder was stopped (Ctrl-C, SIGTERM, a file
    that ended early), not lost (a crash, an error of its own, a pulled cable)?"""
    return reason.startswith("stopped") and not reason.startswith(STOPPED_BY_ERROR)


@dataclass(frozen=True)
class MoveRecorded(Event):
    """A move confirmed from the board: ply (1-based), ICCS and Chinese notation, clock times if known.

    ``t_still`` is the time the board was first seen still after the move; ``confidence`` is the
    posterior probability of this move among the candidates the resolver weighed; ``pair`` is
    true for each move of two recorded from one still view (a fast player moved twice).
    ``rivals`` (ICCS) are legal moves that explained the view nearly as well: the camera could not
    rule them out (glare or a shadow over the points that tell them apart), so the arbiter may
    want to look; a later view that only a rival explains corrects the record (``MoveCorrected``
    by "recorder").
    """

    ply: int
    iccs: str
    chinese: str
    side: str
    fen_after: str
    confidence: float
    t_still: float | None = None
    red_ms: int | None = None
    black_ms: int | None = None
    pair: bool = False
    rivals: tuple[str, ...] = field(default=(), kw_only=True)


@dataclass(frozen=True)
class ClockPressed(Event):
    """A clock press: the button's ``side``, both times after it, and the ply it completed (if any).

    ``effective`` is false for a press of the button whose time was not running (it changes
    nothing on a real clock).
    """

    side: str
    red_ms: int
    black_ms: int
    ply: int | None = None
    effective: bool = True


@dataclass(frozen=True)
class PositionRestored(Event):
    """The board is back at the position after ``ply`` (art. 5.8): moves after it are taken back.

    ``taken_back`` lists the ICCS of the moves removed from the record (empty when the board
    only came back to the last confirmed position after a disturbance or an illegal move). ``by``
    names the arbiter who took them back in the console (at ``at``, wall time); "" when the
    recorder saw the position restored on the board.
    """

    ply: int
    fen: str
    taken_back: tuple[str, ...] = ()
    kind: str = "position_restored"
    by: str = ""
    at: str = ""


@dataclass(frozen=True)
class CalibrationChanged(Event):
    """The board grid was found again (camera or board moved, red side found)."""

    reason: str
    shift: float
    red_side: str | None
    confidence: float


NOT_RECORDING = "the recorder was not running"  # SourceGap.reason of a live game taken up after a stop
SOURCE_CHANGED = "the game went on from another source"  # SourceGap.reason of a game moved to another source
PICTURE_BLANK = "the picture was blank"  # SourceGap.reason of a stretch of black frames from a watched camera
PICTURE_FROZEN = "the picture froze"  # ... of a live camera's picture repeated unchanged
IMPORTED = "imported"  # RecordingStopped.reason of a game read from a PGN file: its times are no recording's


@dataclass(frozen=True)
class SourceGap(Event):
    """The frame source stalled or dropped from ``t`` until ``t_resumed``; it was reopened. A game
    taken up again after its recorder stopped (``NOT_RECORDING``) or from another source
    (``SOURCE_CHANGED``) starts its new run with the time between as such a gap."""

    t_resumed: float
    reason: str
    reopen_attempts: int = 1


@dataclass(frozen=True)
class GameEnded(Event):
    """A game-end verdict from ``rules``: checkmate, stalemate (definite) or advice for the arbiter.

    A repetition verdict carries the moves it judged (``judged``: one line each, its ply, Chinese
    notation and kind, e.g. ``"ply 56 车2进1: 将 check"``), so the arbiter can check it on the board."""

    ply: int
    result: str | None
    reason: str
    article: str
    text: str
    advisory: bool
    judged: tuple[str, ...] = ()


def game_ended(t: float, game: Game, outcome: Outcome) -> GameEnded:
    """The event of the rules' ``outcome`` for ``game`` as it stands, a repetition verdict with the
    moves it judged: the recorder's as it watches, an imported record's as it is read."""
    judged: tuple[str, ...] = ()
    if outcome.verdict is not None:
        positions = game.positions
        judged = tuple(f"ply {m.ply} {format_move(positions[m.ply - 1], m.move, 'chinese')}: {m.kind_text}"
                       for m in outcome.verdict.cycle)
    return GameEnded(t, game.ply, outcome.result, outcome.reason, outcome.article, outcome.text, outcome.advisory,
                     judged)


# Every kind of alert the recorder, the clock link and the console raise: what the arbiter may be
# told. A PGN comment naming another kind is someone's words, not an alert (recorder.store.import_notes).
ALERT_KINDS = frozenset({
    "illegal_move", "wrong_side", "board_disturbed", "unexplained", "two_moves", "moves_while_away",
    "press_without_move", "move_without_press", "flag_fallen", "clock_disconnected", "no_clock",
    "clock_times_changed", "clock_restarted", "clock_log_damaged", "clock_log_mismatch",
    "camera_lost", "board_not_found", "board_covered", "second_board", "glare", "source_ended_early",
    "recorder_lost", "clock_sides_swapped", "record_damaged", "set_up_again", "moves_after_result", "lost_track",
    "camera_shaking", "picture_dark", "picture_colourless",
})
# What each alert kind, and each reason the rules give for an arbiter's ruling or a game's end, is
# called where people read it: the console's tiles (each alert and piece of advice carries its title
# to the pages) and the notes of the text and PDF sheets. The codes stay in the log and the PGN,
# which the import reads back.
KIND_TITLES: dict[str, str] = {
    "illegal_move": "Illegal move", "wrong_side": "Moved out of turn", "board_disturbed": "Board disturbed",
    "unexplained": "Board not understood", "two_moves": "Two moves at once",
    "moves_while_away": "Moves made while the board was not watched",
    "press_without_move": "Clock pressed without a move", "move_without_press": "Move without clock press",
    "flag_fallen": "Flag fallen", "clock_disconnected": "Clock disconnected", "no_clock": "No clock answers",
    "clock_times_changed": "Clock times changed", "clock_restarted": "Clock restarted",
    "clock_log_damaged": "Clock log damaged", "clock_log_mismatch": "Clock not this game's",
    "camera_lost": "Camera lost", "board_not_found": "Board not found", "board_covered": "Board hidden",
    "second_board": "Second board in view", "glare": "Glare hides points", "source_ended_early": "Video ended early",
    "recorder_lost": "Recorder stopped", "clock_sides_swapped": "Clock started on the wrong side",
    "record_damaged": "Record damaged", "set_up_again": "Pieces set up for a new game",
    "moves_after_result": "Moves after the result", "lost_track": "Recorder lost the game",
    "camera_shaking": "Camera shaking", "picture_dark": "Picture too dark", "picture_colourless": "Picture without colour",
    # the rules' advice for the arbiter, and the games' ends
    "perpetual_check": "Perpetual check", "must_change": "Must change moves",
    "forbidden_not_changed": "Did not change: loses", "draw_both_forbidden": "Repetition, both forbidden",
    "draw_both_allowed": "Repetition, both allowed", "draw_not_changed": "Repetition, neither changed: draw",
    "no_attacking_pieces": "No attacking pieces left",
    "natural_limit": "Natural move limit", "checkmate": "Checkmate", "stalemate": "Stalemate",
    "second_press_without_move": "Second press without a move: loses", "move_rule_breaches": "Second move against the rules",
    "three_fouls": "Third foul: loses",
    "arbiter": "Result marked by the arbiter",
}


# the plies a clock_log_mismatch looks back over: four press faults within them and the presses are
# taken for another game's (recorder.resolver_clock), and the presses without a move told within them
# are not counted as fouls (recorder.scoresheet; a second press without a move already loses, art. 4.1.9)
MISMATCH_PLIES = 10


# The same in Chinese, for the printed scoresheet: a Chinese form, whose notes an arbiter reads by
# their titles first. The 2011 rules' own words where they name the thing (未走棋先按钟 art. 4.1.9,
# 违反行棋规定 4.1.8, 棋子意外挪动 5.8.2, 三次犯规 4.1.10, 长将, 将死, 困毙, 自然限着), plain words elsewhere.
KIND_TITLES_ZH: dict[str, str] = {
    "illegal_move": "违反行棋规定", "wrong_side": "非轮走方走棋", "board_disturbed": "棋子意外挪动",
    "unexplained": "局面无法辨认", "two_moves": "连走两着", "moves_while_away": "未监看时走棋",
    "press_without_move": "未走棋先按钟", "move_without_press": "走棋未按钟",
    "flag_fallen": "超时", "clock_disconnected": "棋钟断开", "no_clock": "棋钟无应答",
    "clock_times_changed": "钟面时间被改", "clock_restarted": "棋钟重新开始",
    "clock_log_damaged": "棋钟记录损坏", "clock_log_mismatch": "棋钟记录不属本局",
    "camera_lost": "摄像中断", "board_not_found": "未找到棋盘", "board_covered": "棋盘被遮挡",
    "second_board": "画面中另有棋盘", "glare": "反光遮挡棋点", "source_ended_early": "录像提前结束",
    "recorder_lost": "记录器停止", "clock_sides_swapped": "棋钟方向放错",
    "record_damaged": "记录损坏", "set_up_again": "重新摆棋",
    "moves_after_result": "结果后仍走棋", "lost_track": "记录器失去对局",
    "camera_shaking": "摄像头晃动", "picture_dark": "画面过暗", "picture_colourless": "画面无彩色",
    "perpetual_check": "长将", "must_change": "应变着", "forbidden_not_changed": "应变不变，判负",
    "draw_both_forbidden": "双方禁止着法", "draw_both_allowed": "双方允许着法",
    "draw_not_changed": "双方不变作和", "no_attacking_pieces": "双方无进攻子力",
    "natural_limit": "自然限着", "checkmate": "将死", "stalemate": "困毙",
    "second_press_without_move": "两次未走棋先按钟，判负", "move_rule_breaches": "两次违反行棋规定，判负",
    "three_fouls": "三次犯规，判负", "arbiter": "裁判员判定结果",
}


def kind_title_zh(kind: str) -> str:
    """The Chinese title of an alert kind or a ruling's reason ("" for a code with none: a kind written
    by a later version, or read from someone's PGN; the English title then stands alone)."""
    return KIND_TITLES_ZH.get(kind, "")


def kind_title(kind: str) -> str:
    """What an alert kind or a ruling's reason is called on the pages and the sheets (its code in
    words when it has no title: a kind written by a later version, or read from someone's PGN)."""
    return KIND_TITLES.get(kind) or (kind.replace("_", " ").capitalize() if kind else "Alert")


# those about the equipment (camera, clock, video), not about what a player did: the exports say so,
# so a scoresheet's notes do not read a camera outage as a foul
EQUIPMENT_KINDS = frozenset({"camera_lost", "board_not_found", "board_covered", "second_board", "glare",
                             "source_ended_early", "clock_disconnected", "no_clock", "clock_log_damaged",
                             "clock_log_mismatch", "recorder_lost", "clock_sides_swapped", "record_damaged",
                             "lost_track", "camera_shaking", "picture_dark", "picture_colourless"})


@dataclass(frozen=True)
class Alert(Event):
    """Something the arbiter must look at: ``kind`` code, ``squares`` (ICCS names), rule ``article``."""

    kind: str
    squares: tuple[str, ...]
    article: str
    text: str
    ply: int = 0  # plies recorded when the alert was raised


@dataclass(frozen=True)
class IllegalMoveAlert(Alert):
    """A physical move that is not legal (``kind`` ``illegal_move``) or by the side not on turn
    (``wrong_side``); ``piece`` is its FEN letter and ``violation`` the rules' code
    (``leg_blocked``, ``eye_blocked``, ``no_screen``, ``flying_general``, ``self_check``...)."""

    piece: str = ""
    violation: str = ""
    iccs: str = ""


@dataclass(frozen=True)
class BoardDisturbed(Alert):
    """A piece knocked off its point, missing or extra (``board_disturbed``), a board that no legal
    continuation explains (``unexplained``), a board not found (``board_not_found``) or hidden on every
    still view for a while (``board_covered``: something left on it, or a moved camera), another board
    in the picture (``second_board``: the one recorded may be the neighbours'), points glare
    blows out so no piece can be read there (``glare``), or moves made while the camera was away,
    recorded in an order it did not see (``moves_while_away``)."""

    fen_seen: str = ""


@dataclass(frozen=True)
class ClockAlert(Alert):
    """A clock press with no move (``press_without_move``, art. 8.1.7) or a move with no press
    (``move_without_press``, art. 6)."""

    side: str = ""


@dataclass(frozen=True)
class ClockNoted(Event):
    """What the clock tells that needs no arbiter: the clock answered (``clock_connected``, also when
    it comes back after a gap), which side of it is red's (``clock_mapping``, art. 6), the line fell
    quiet for a while (``clock_quiet``), a ply whose press may have been lost while the clock
    could not be heard (``press_unheard``), presses by both sides a moment apart with no move
    (``press_glitch``: a damaged message and the good one after it, not the players'), and the
    opponent's press that gave back the time of a press without a move (``press_back``: the clock put
    right, no foul), and presses that follow the board again after a ``clock_log_mismatch``
    (``clock_follows_again``: judged again from there)."""

    kind: str
    text: str
    side: str = ""
    ply: int = 0


@dataclass(frozen=True)
class TwoMovesSeen(Alert):
    """Two moves were made between two still views (``two_moves``); both are recorded, in order."""

    moves: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Comment(Event):
    """Words kept from an imported record after ply ``ply`` (0: before the first move): an annotator's
    or another program's comment, part of the game's text, never a foul or an alert."""

    ply: int
    text: str


# --- the arbiter's actions (from the live console) and the alert's camera still -------------------
NO_FOUL, FOUL = "no_foul", "foul"  # AlertAcknowledged.ruling


@dataclass(frozen=True)
class AlertAcknowledged(Event):
    """The arbiter saw the alert stored as event ``seq`` of this game and dealt with it; ``by`` names
    who, ``at`` the wall-clock time (UTC, ISO 8601); ``t`` is the game's latest source time.
    ``ruling`` on a foul alert: ``no_foul`` (``NO_FOUL``), the arbiter ruled that no foul was
    committed (the camera misread, or the move was legal after all), so the alert does not count
    among the side's fouls (art. 4.1.8); ``foul`` (``FOUL``), a no-foul ruling withdrawn (a mis-tap,
    or the video seen again): it counts again. The latest ruling stands; "" for none."""

    seq: int
    kind: str
    by: str
    note: str = ""
    at: str = ""
    ruling: str = ""


@dataclass(frozen=True)
class MoveCorrected(MoveRecorded):
    """Ply ``ply`` was set to ``iccs`` (it replaces ``was``) by ``by``: the arbiter in the console, or
    "recorder" when a later view showed the recorded move was misread. Later plies are recorded again
    after it (``was`` equal to ``iccs``). A ``MoveRecorded``, so the game rebuilt from the log carries
    the correction."""

    by: str = ""
    was: str = ""
    at: str = ""


def corrections(before: Position, ply: int, moves: Sequence[Move], was: str, t: float, by: str, *,
                clocks: Mapping[int, tuple[int | None, int | None]] | None = None, confidence: float = 1.0,
                t_still: float | None = None, at: str = "") -> list[MoveCorrected]:
    """The events that set ply ``ply`` (played from ``before``) to ``moves[0]``, replacing ``was``, and
    record the ``moves`` after it again, each with its clock times from ``clocks`` (ply -> red, black ms).

    Raises ``ValueError`` when a move is not legal where it comes.
    """
    made: list[MoveCorrected] = []
    position = before
    for number, move in enumerate(moves, ply):
        if not position.is_legal(move):
            raise ValueError(f"ply {number} ({move.iccs}) is no longer legal")
        after = position.play(move)
        red_ms, black_ms = (clocks or {}).get(number, (None, None))
        first = number == ply
        made.append(MoveCorrected(t, number, move.iccs, format_move(position, move, "chinese"), position.side_to_move,
                                  after.fen(), confidence if first else 1.0, t_still if first else None, red_ms,
                                  black_ms, False, by, was if first else move.iccs, at))
        position = after
    return made


@dataclass(frozen=True)
class ResultMarked(GameEnded):
    """The arbiter marked the game's result (a ``GameEnded`` that is not advisory); ``by`` names who."""

    by: str = ""
    at: str = ""


@dataclass(frozen=True)
class AlertFrame(Event):
    """The camera's still frame of the moment of the alert raised at time ``t``: a JPEG at ``path``
    (relative to the store's folder, or absolute), saved by the recorder just after the alert."""

    path: str
    kind: str = ""


@dataclass(frozen=True)
class DetailsEdited(Event):
    """The arbiter corrected the game's details or voided it (``xqrec edit``): ``changes`` says what,
    one phrase each ("round 03 -> 3", "voided: a test recording"); ``by`` names who, ``at`` the
    wall-clock time (UTC, ISO 8601); ``t`` is the game's latest source time. Logged so the record
    keeps who changed what, and so the live pages learn of it."""

    changes: tuple[str, ...]
    by: str
    at: str = ""


@dataclass(frozen=True)
class EventWithdrawn(Event):
    """What stands in a game's log in place of an event a run wrote to a game it was not recording
    (``record --resume`` with another game's source, refused once its board showed so): ``was`` is
    the event's type, ``why`` says why. Kept in its place, at the time the game had reached, so the
    log's numbering and the console's feed stay as they were; read by nothing else."""

    was: str
    why: str


OLD_COMMENT_KIND = "comment"  # imported comments were once kept as alerts of this kind
EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (RecordingStarted, RecordingStopped, MoveRecorded, ClockPressed, PositionRestored,
                CalibrationChanged, SourceGap, GameEnded, Alert, IllegalMoveAlert, BoardDisturbed,
                ClockAlert, ClockNoted, TwoMovesSeen, AlertAcknowledged, MoveCorrected, ResultMarked, AlertFrame,
                Comment, DetailsEdited, EventWithdrawn)
}


def _plain(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def event_to_json(event: Event) -> dict[str, Any]:
    """The event as a JSON-ready dict with ``"type"`` first (floats rounded to milliseconds)."""
    data: dict[str, Any] = {"type": type(event).__name__}
    for item in dataclasses.fields(event):
        data[item.name] = _plain(getattr(event, item.name))
    return data


def event_from_json(data: dict[str, Any]) -> Event:
    """Rebuild an event from :func:`event_to_json` output; unknown keys are ignored (newer logs)."""
    name = data.get("type")
    if name == "Alert" and data.get("kind") == OLD_COMMENT_KIND:  # a store from before comments had their event
        return Comment(float(data.get("t", 0.0)), int(data.get("ply", 0)), str(data.get("text", "")))
    cls = EVENT_TYPES.get(str(name))
    if cls is None:
        raise ValueError(f"unknown event type {name!r}")
    values: dict[str, Any] = {}
    hints = _field_types(cls.__name__)
    for item in dataclasses.fields(cls):
        if item.name in data:
            value = _typed(data[item.name], hints[item.name])
            if value is _MISFIT:  # a row edited by hand ("904652" for a time): read, it would fail far from here
                raise ValueError(f"{name} event's {item.name} is {data[item.name]!r}, not {_said_type(hints[item.name])}")
            values[item.name] = value
    try:
        return cls(**values)
    except TypeError as error:
        raise ValueError(f"{name} event is missing a field: {error}") from None


_MISFIT = object()


@functools.cache
def _field_types(name: str) -> dict[str, Any]:
    """The declared type of each field of the event type ``name``."""
    return typing.get_type_hints(EVENT_TYPES[name])


def _typed(value: Any, hint: Any) -> Any:
    """``value`` as the field of type ``hint`` holds it (a JSON list as a tuple, a whole number as a
    float), or ``_MISFIT`` when it is of another type."""
    options = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    if value is None:
        return None if type(None) in options else _MISFIT
    for option in options:
        if option is bool and isinstance(value, bool):
            return value
        if option is int and isinstance(value, int) and not isinstance(value, bool):
            return value
        if option is float and isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        if option is str and isinstance(value, str):
            return value
        if typing.get_origin(option) is tuple and isinstance(value, list | tuple):
            (inner, *_) = typing.get_args(option)
            items = tuple(_typed(item, inner) for item in value)
            return _MISFIT if any(item is _MISFIT for item in items) else items
        if option is typing.Any:
            return tuple(value) if isinstance(value, list) else value
    return _MISFIT


def _said_type(hint: Any) -> str:
    words = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}
    options = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    return " or ".join(words.get(option, "a list" if typing.get_origin(option) is tuple else "null")
                       for option in options)


def event_from_stored(data: str) -> Event:
    """An event from the JSON text a store or log keeps; ``ValueError`` saying why when it cannot be
    read (a damaged row, a newer program's event)."""
    try:
        parsed = json.loads(data)
        if not isinstance(parsed, dict):
            raise ValueError("not a JSON object")
        return event_from_json(parsed)
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise ValueError(str(error) or type(error).__name__) from None


def damaged_record(seq: int, why: str, before: Sequence[Event]) -> Alert:
    """What stands in the log for stored event ``seq`` that cannot be read (``why``): a
    ``record_damaged`` alert at the time and ply of the events ``before`` it, so the rest of the game
    stays readable and every sheet says the record was damaged there."""
    t = before[-1].t if before else 0.0
    ply = next((event.ply for event in reversed(before) if isinstance(event, MoveRecorded)), 0)
    return Alert(t, "record_damaged", (), "", f"event {seq} of the stored record could not be read ({why[:80]}): "
                 "what it said is lost; check the moves around it against the players' memory or the video", ply)


class EventLog:
    """An append-only JSON-lines event log; also keeps the events in memory (``events``).

    ``path`` ``None`` keeps them in memory only. Each line is flushed as it is written so a
    reader (or a crash) sees every event up to the last one.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self.events: list[Event] = []
        self._out: IO[str] | None = None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._out = self.path.open("a", encoding="utf-8")

    def append(self, event: Event) -> None:
        """Keep ``event``, and write it to the file. A file that can no longer be written (a full disk)
        is given up with a warning, not the recording: the events are kept, and the store has them."""
        self.events.append(event)
        if self._out is not None:
            try:
                self._out.write(json.dumps(event_to_json(event), ensure_ascii=False) + "\n")
                self._out.flush()
            except OSError as error:
                log.warning("the event log %s cannot be written (%s): it stops at %d event(s); the recording "
                            "goes on", self.path, error.strerror or error, len(self.events) - 1)
                with contextlib.suppress(OSError):
                    self._out.close()
                self._out = None

    def extend(self, events: Iterable[Event]) -> None:
        for event in events:
            self.append(event)

    def close(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None

    def __enter__(self) -> EventLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def iter_events(lines: Iterable[str]) -> Iterator[Event]:
    """Events from JSON lines; blank lines are skipped, a bad line raises ``ValueError`` naming it."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield event_from_json(json.loads(line))
        except (ValueError, TypeError) as error:
            raise ValueError(f"event log line {number}: {error}") from None


def read_events(path: str | Path) -> list[Event]:
    """Every event of a log file, in order."""
    with open(path, encoding="utf-8") as source:
        return list(iter_events(source))
