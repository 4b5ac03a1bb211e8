"""``xqrec record SOURCE``: record a game from a video file, camera, stream or image folder.

Writes the event log (``--events``), the PGN (``--pgn``) and the scoresheet (``--scoresheet``),
prints one status line per recorded move or alert, and a progress bar on stderr for files.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import math
import os
import shlex
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from recorder.clock.model import DEFAULT_TIME_CONTROL, notice_event, time_control_argument
from recorder.clock.presses import log_time_faults
from recorder.clocklog_input import LOG_BEYOND_S
from recorder.commands import command_name, distinct_files
from recorder.events import (
    STOPPED_BY_ERROR,
    Alert,
    BoardDisturbed,
    CalibrationChanged,
    ClockAlert,
    ClockNoted,
    ClockPressed,
    Event,
    EventLog,
    GameEnded,
    MoveCorrected,
    MoveRecorded,
    PositionRestored,
    RecordingStarted,
    RecordingStopped,
    SourceGap,
    recording_time,
)
from recorder.exports import export_pgn, export_text
from recorder.exports.times import clock_contradicts
from recorder.scoresheet import clock_left_text, rebuild
from recorder.store.recording import (
    add_store_arguments,
    info_from_args,
    live_time_control,
    open_for_record,
    resume_session,
    source_key,
)
from recorder.store.resume import StoreRecording, presses_after, store_remedy
from rules import Position

if TYPE_CHECKING:
    from collections.abc import Sequence

    from recorder.clocklog_input import ClockLog, ClockPress
    from recorder.session import RecordingSession
    from recorder.sources import FrameSource

log = logging.getLogger(__name__)


RECORD_EXIT_STATUSES = """\
Exit status:
  0    the source was read to its end (or the game had ended before a cut)
  1    not one move recorded where a game went on (the board never found, never matching the game, the
       clock pressed with no move read), a source too short to judge (under 5 frames), a file cut short
       or damaged with the game left open (go on with --resume GAME), an image folder that grew while
       read, or a --resume source that shows another game
  2    an error before or while recording (an option, a source that cannot be opened), or the record
       could not all be written (the store still refusing events, --pgn or --scoresheet not writable),
       or a fault of the recorder's own stopped it (the moves recorded up to it are written out)
  128+N  stopped by signal N with the game left open: 130 Ctrl-C, 143 SIGTERM, 129 SIGHUP"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "record", help="record a game from a camera, stream, video file or image folder",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=RECORD_EXIT_STATUSES)
    parser.add_argument("source", help="video file, camera index (0, 1...), stream URL (rtsp://, http://) or image folder")
    parser.add_argument("--clock-log", type=Path, help="clock presses as JSON lines (the format synth writes)")
    parser.add_argument("--clock", help="live clock: serial port (/dev/ttyUSB0, a pty, a pyserial URL) "
                        "or '-' for the keyboard clock on stdin (docs/clock-protocol.md)")
    parser.add_argument("--clock-protocol", choices=("dgt", "text", "keyboard"), default="dgt",
                        help="what the clock speaks (default dgt)")
    parser.add_argument("--clock-red-side", choices=("left", "right"), default="left",
                        help="red's side of the clock facing its display (default left; the first running side confirms)")
    parser.add_argument("--time-control", default=None, type=time_control_argument,
                        help=f"live clock: minutes+increment seconds; the keyboard clock runs it (default: "
                        f"--tc's, else {DEFAULT_TIME_CONTROL}), a clock on a link is checked against its increment")
    parser.add_argument("--clock-rate", type=positive_number, default=1.0,
                        help="with --clock, read a video file at this many times real time; the keyboard "
                        "clock's times run at that rate too (default 1)")
    parser.add_argument("--pgn", type=Path, help="write the PGN here")
    parser.add_argument("--events", type=Path, help="append the event log (JSON lines) here")
    parser.add_argument("--scoresheet", type=Path, help="write the scoresheet (Chinese notation) here")
    parser.add_argument("--calibration", type=Path, help="board calibration JSON (default: find the board)")
    parser.add_argument("--model", type=Path, help="piece classifier ONNX file (default: the bundled model)")
    parser.add_argument("--fen", help="start position (default: the standard start)")
    parser.add_argument("--notation", choices=("iccs", "chinese", "wxf"), default="iccs",
                        help="move notation in the PGN (default iccs)")
    parser.add_argument("--wait-for-source", type=float, default=0.0, metavar="SECONDS",
                        help="keep trying to open a camera or stream this long before giving up (default: "
                             "four tries, so that a wrong address is told soon: a few seconds, half a minute for a "
                             "server that accepts and never answers); for recorders "
                             "started before their cameras")
    parser.add_argument("--fps", type=positive_number,
                        help="frame rate of an image folder (default 10), or to override a file's")
    parser.add_argument("--follow", action="store_true",
                        help="the source is a folder a camera is still writing pictures into: read each new "
                             "picture as it is written, timed by when it was written, until stopped (Ctrl-C); "
                             "a camera that stops writing is alerted as lost")
    parser.add_argument("--roi", type=region_argument, metavar="X,Y,W,H",
                        help="read only this part of each frame (pixels: left, top, width, height), e.g. the "
                             "one board to record in a wide shot of several; a --calibration is then of that part")
    parser.add_argument("--threads", type=int, default=1, help="classifier threads (default 1)")
    parser.add_argument("--no-store-hint", action="store_true", help=argparse.SUPPRESS)  # the demo says it itself
    parser.add_argument("--quiet", action="store_true",
                        help="no status lines, progress bar or scoresheet at the end: only warnings and errors")
    add_store_arguments(parser)
    parser.set_defaults(handler=run)


def region_argument(text: str) -> tuple[int, int, int, int]:
    """``--roi X,Y,W,H``: four whole numbers, a width and height of at least 32 pixels."""
    parts = text.replace(" ", "").split(",")
    try:
        x, y, w, h = (int(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not X,Y,W,H (four whole numbers of pixels)") from None
    if x < 0 or y < 0 or w < 32 or h < 32:
        raise argparse.ArgumentTypeError(f"{text!r}: X and Y must be 0 or more, W and H at least 32 pixels")
    return x, y, w, h


def positive_number(text: str) -> float:
    """``--fps`` and ``--clock-rate``: a number above 0 (a clear error for 0, a negative, nan or inf)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be a number above 0")
    return value


def status_line(event: Event) -> str | None:
    """The one-line terminal status for an event worth showing, or ``None``."""
    if isinstance(event, MoveCorrected):
        if event.was == event.iccs:
            return None  # a later ply carried over unchanged
        return (f"{event.t:8.1f}s  ply {event.ply:>3}  {event.chinese}  {event.iccs}  corrected by {event.by} "
                f"(was {event.was})")
    if isinstance(event, MoveRecorded):
        clock = ""
        if event.red_ms is not None and event.black_ms is not None:
            clock = f"  clock red {clock_left_text(event.red_ms)} black {clock_left_text(event.black_ms)}"
        pair = " (pair)" if event.pair else ""
        unsure = f"  ? not ruled out: {' '.join(event.rivals)}" if event.rivals else ""
        return (f"{event.t:8.1f}s  ply {event.ply:>3}  {event.chinese}  {event.iccs}  "
                f"p={event.confidence:.2f}{clock}{pair}{unsure}")
    if isinstance(event, Alert):
        where = "".join(f" {square}" for square in event.squares)
        return f"{event.t:8.1f}s  !! {event.kind}{where}: {event.text}"
    if isinstance(event, PositionRestored):
        taken = f", taken back: {' '.join(event.taken_back)}" if event.taken_back else ""
        return f"{event.t:8.1f}s  position after ply {event.ply} restored{taken}"
    if isinstance(event, GameEnded):
        return f"{event.t:8.1f}s  game end ({event.reason}{', advice' if event.advisory else ''}): {event.text}"
    if isinstance(event, SourceGap):
        return f"{event.t:8.1f}s  source gap until {event.t_resumed:.1f}s ({event.reason})"
    if isinstance(event, CalibrationChanged):
        side = f"red side {event.red_side}" if event.red_side else "red side not known yet"
        return f"{event.t:8.1f}s  calibration: {event.reason} ({side})"
    if isinstance(event, ClockNoted):
        return f"{event.t:8.1f}s  {event.kind}: {event.text}"
    return None


class Progress:
    """A progress bar on a terminal stream, cleared before each status line."""

    def __init__(self, total: int | None, stream: TextIO, enabled: bool) -> None:
        self.total = total
        self.stream = stream
        self.enabled = enabled and total is not None and total > 0
        self._last = 0.0
        self._shown = False

    def update(self, done: int) -> None:
        if not self.enabled or self.total is None:
            return
        now = time.monotonic()
        if now - self._last < 0.2 and done < self.total:
            return
        self._last = now
        share = min(1.0, done / self.total)
        bar = "#" * int(30 * share)
        self.stream.write(f"\r[{bar:<30}] {share:4.0%} {done}/{self.total} frames")
        self.stream.flush()
        self._shown = True

    def clear(self) -> None:
        if self._shown:
            self.stream.write("\r" + " " * 60 + "\r")
            self.stream.flush()
            self._shown = False


def _classifier(args: argparse.Namespace) -> Any:
    from recorder.vision import PieceClassifier

    try:
        return PieceClassifier(args.model, threads=args.threads)
    except FileNotFoundError as error:
        raise ValueError(str(error)) from None


def record_source(source_spec: str, classifier: Any, *, source: FrameSource | None = None, clock_log: Path | None = None,
                  events_path: Path | None = None, calibration: Path | None = None, fen: str | None = None,
                  fps: float | None = None, show: bool = True, clock: Any = None,
                  store: StoreRecording | None = None,
                  clock_presses: ClockLog | None = None,
                  roi: tuple[int, int, int, int] | None = None) -> list[Event]:
    """Record ``source_spec`` (opened already as ``source`` when given) to the end (or Ctrl-C) and
    return the game's whole event log (with a store: every event of the game, including those of
    earlier runs before a crash). ``clock_presses`` is ``load_clock_log(clock_log)`` when read already;
    ``roi`` (left, top, width, height) is the part of each frame that is read."""
    from calibration import BoardGeometry
    from recorder.clocklog_input import load_clock_log
    from recorder.session import RecordingSession, SessionConfig
    from recorder.sources import FollowedFolderSource, Frame, ImageFolderSource, LiveSource, open_source
    from recorder.stills import StillSaver
    from rules import Position

    source = source if source is not None else open_source(source_spec, fps=fps)
    if clock_presses is None and clock_log:
        clock_presses = load_clock_log(clock_log)
    logged, unreadable, damaged = clock_presses if clock_log and clock_presses is not None else (None, 0, [])
    if clock_log and not logged:
        if show:
            print(f"warning: {clock_log} holds no usable clock press; recording from the board alone", flush=True)
        else:
            log.warning("%s holds no clock press: recording from the board alone", clock_log)
        logged = None
    length = _video_length(source)
    if logged and length is not None and logged[-1].t > length + LOG_BEYOND_S:  # told now, not after the video
        text = (f"the clock log {clock_log} runs to {logged[-1].t:.1f} s but the video lasts {length:.1f} s: is it "
                "this game's log? Presses past the video's end will be reported when it ends")
        if show:
            print(f"warning: {text}", flush=True)
        else:
            log.warning("%s", text)
    seekable = not isinstance(source, LiveSource)
    started_at = store.start_run(seekable=seekable, live=not seekable) if store is not None else 0.0
    if logged and store is not None and store.moved and store.resume is not None:
        # a new source's own clock log: its times start with it, as its frames do (after the stored ones)
        offset = started_at
        presses: list[ClockPress] | None = [replace(p, t=p.t + offset) for p in logged]
        damaged = [(since + offset, until + offset) for since, until in damaged]
    else:
        presses = presses_after(logged, store.resume if store else None)
    # the log's presses whose times no clock can show: told at their times, as a live clock's would be;
    # and where its times show presses it lacks, those stretches are unheard, as its unreadable lines are
    checked = log_time_faults(presses or [], damaged) if clock is None else None
    time_faults = [alert for notice in (checked.faults if checked else [])
                   if isinstance(alert := notice_event(notice), Alert)]
    damaged = sorted([*damaged, *(checked.lost if checked else [])])
    geometry = BoardGeometry.load(calibration) if calibration else None
    start = Position.from_fen(fen) if fen else None
    progress = Progress(source.frame_count, sys.stderr, show and sys.stderr.isatty())

    def on_event(event: Event) -> None:
        if store is not None:
            store.sink(event)  # committed before anything else sees it
        line = status_line(event)
        if line is not None and show:
            progress.clear()
            print(line, flush=True)

    stills = None
    if store is not None and store.store.path is not None:  # alert stills live beside the store
        folder = store.store.path.parent  # named by the store too: two stores in one folder (one a round) share it
        stills = StillSaver(folder / "stills" / store.store.path.stem / f"game-{store.game_id}", folder)
    config = SessionConfig(roi=roi)
    if isinstance(source, (LiveSource, FollowedFolderSource)):  # frames come later than presses: a camera's delay
        config = replace(config, resolver=replace(config.resolver, early_press_margin_s=LIVE_EARLY_PRESS_MARGIN_S))
    if isinstance(source, LiveSource):  # a live camera's frames are never alike: one repeated is a frozen picture
        config = replace(config, frozen_alert_s=LIVE_FROZEN_ALERT_S)
    with EventLog(events_path) as events:
        session = RecordingSession(classifier, geometry=geometry, start=start,
                                   presses=presses if clock is None else [],
                                   events=events, source_name=source_key(source_spec), on_event=on_event,
                                   stills=stills, config=config, started_at=started_at, presses_lost=damaged,
                                   source_origin=getattr(source, "origin", None))
        if unreadable and logged:  # the arbiter must see that the log, not a player, may have lost presses
            ply = store.resume.ply if store is not None and store.resume is not None else 0
            alert = ClockAlert(started_at, "clock_log_damaged", (), "", f"{unreadable} line(s) of the clock log "
                               f"{clock_log} could not be read: a press on them is lost, so a move near one that "
                               "shows no press is noted as such (press_unheard), not blamed on its player", ply, "")
            # told once: a run going on with the same file was told already, if that run had the log
            told = (store is not None and store.resume is not None and not store.moved
                    and any(getattr(e, "kind", "") == "clock_log_damaged" for e in store.resume.events))
            if not told:
                events.append(alert)
                on_event(alert)
        if clock is not None and clock.sides_guessed and session.resolver.clock is not None:
            session.resolver.clock.sides_guessed = True  # a serial clock's sides: from the first side running
        if clock is not None:  # a live clock (serial link or keyboard): its feed is a ClockFeed
            moved_on = isinstance(source, LiveSource) or (store is not None and store.moved)  # times go on
            # the recording time the clock starts at: where this run's frames start (a file taken up
            # again is read on from where it was stored, the frames before skipped unpaced: paced, the
            # keyboard clock charged the side to move for the part skipped, a tester's 58 s)
            resumed = started_at
            if isinstance(source, FollowedFolderSource):  # the pictures' times: when the camera wrote them
                resumed = source.now() + (started_at if store is not None and store.moved else 0.0)
            clock_origin = time.monotonic() - resumed / clock.rate
            session.clock = clock.start(origin=clock_origin)
            if store is not None and store.resume is not None and moved_on:  # no recorder listened meanwhile
                session.resolver.clock_heard(-math.inf, [(store.resume.t, resumed)])
            elif isinstance(source, FollowedFolderSource):  # pictures written before this run: presses unheard
                since = store.resume.t if store is not None and store.resume is not None else 0.0
                session.resolver.clock_heard(-math.inf, [(since, resumed)])
        judged = len(events.events)  # this run's events up to here were looked at by _not_this_game
        try:
            taken_up = resume_session(session, store, source, seekable)
            items = (clock.pace(taken_up, live=getattr(source, "live", False), origin=clock_origin)
                     if clock is not None else taken_up)
            next_look = 0.0
            told_after: int | None = None  # the ply a move after the marked result was told at
            for item in items:
                # the clock's notices up to this item's time first: a note the session's events depend
                # on (the clock back after a gap, before the plies whose presses it lost) comes before them
                if clock is not None:
                    clock.board_side_to_move(session.resolver.game.position.side_to_move)
                until = getattr(item, "t", session.last_t)
                for clock_event in (clock.events_until(until, session.resolver.game.ply) if clock is not None
                                    else _due(time_faults, until, session.resolver.game.ply)):
                    events.append(clock_event)
                    on_event(clock_event)
                session.feed(item)
                if clock is not None and session.resolver.clock is not None:
                    for clock_event in clock.follow_swap(session.resolver.clock.swapped_at, session.resolver.game.ply):
                        events.append(clock_event)
                        on_event(clock_event)
                if store is not None and time.monotonic() >= next_look:  # the arbiter's corrections (console)
                    next_look = time.monotonic() + CORRECTIONS_EVERY_S
                    _take_corrections(session, store, show)
                after = _moves_after_result(store, session.resolver.game.ply, session.last_t, told_after)
                if after is not None:
                    told_after = after.ply
                    events.append(after)
                    on_event(after)
                if isinstance(item, Frame):
                    progress.update(item.index + 1)
                if store is not None and store.moved and judged >= 0:
                    judged = _not_this_game(store, session, events.events, judged)
            reason, complete = "end of source", True
            for fault in _due(time_faults, session.last_t, session.resolver.game.ply):  # the last presses' faults
                events.append(fault)
                on_event(fault)
            cut = source.ended_early
            if cut:  # kept with the game: a record that stops early must say why
                ended = Alert(session.last_t, "source_ended_early", (), "", cut, session.resolver.game.ply)
                events.append(ended)
                on_event(ended)
                # not the game's end: it stays open for the rest (the next file: --resume GAME), and the
                # clock log's later presses wait for that run
                reason, complete = (FOLDER_GREW if isinstance(source, ImageFolderSource) else ENDED_EARLY), False
            elif not session.board_watched and not _board_seen_before(store):
                # nothing was seen, so nothing is known of the game: it is not closed as a record of
                # no moves, but left for a run that can see the board (another camera or file). A run on a
                # given calibration watches the board from its first frame (a tester's game of 30 moves
                # was left open "with no move": no board found event came, none being looked for); a run
                # with no frame left to read goes by what the earlier runs saw
                reason, complete = NEVER_FOUND, False
            elif logged and clock is None and not isinstance(source, LiveSource):
                # the presses as fed (a resumed run's log moved on with its frames), not as logged
                stray = clock_log_mismatch(presses or [], session.last_t, clock_log, session.resolver.game.ply)
                if stray is not None:
                    events.append(stray)
                    on_event(stray)
        except NotThisGame as wrong:
            source.stop()
            reason, complete = f"{NOT_THIS_GAME}: {wrong}", False
        except KeyboardInterrupt as stop:
            source.stop()
            reason, complete = (f"stopped ({stop})" if str(stop) else "stopped by the user"), False
        except Exception as error:  # a fault of the recorder's own: what it recorded is still written out
            source.stop()
            log.error("the recorder failed (please report this, with the lines below)", exc_info=True)
            reason, complete = f"{STOPPED_BY_ERROR} ({type(error).__name__}: {error})", False
        progress.clear()
        try:
            if clock is not None:
                clock.stop()
                for clock_event in clock.events_until(math.inf, session.resolver.game.ply):  # told after the last frame
                    events.append(clock_event)
                    on_event(clock_event)
            session.finish(reason, complete=complete)
        except Exception as error:  # the end's own judgements (the last presses, the clock's grace) failed
            log.error("the recorder failed closing the record (please report this, with the lines below)",
                      exc_info=True)
            if not reason.startswith(STOPPED_BY_ERROR):
                reason = f"{STOPPED_BY_ERROR} ({type(error).__name__}: {error})"
            session.close_after_fault(reason)
        return store.events() if store is not None else list(events.events)


def _due(pending: list[Alert], t: float, ply: int) -> list[Alert]:
    """The events of ``pending`` up to time ``t`` (taken out of it), told at ply ``ply``."""
    due = [replace(event, ply=ply) for event in pending if event.t <= t]
    del pending[:len(due)]
    return due


def _repair_hint(source: str, resume: str) -> str:
    """How to copy out what a damaged video still holds, and go on with the game from the copy (a
    tester's file with a broken index stopped at 44 of 425 frames, every one of which FFmpeg could
    still decode)."""
    path = Path(source)
    repaired = shlex.quote(str(path.with_name(f"{path.stem}-repaired.mp4")))
    return (f"`ffmpeg -err_detect ignore_err -i {shlex.quote(str(path))} -c:v libx264 {repaired}` copies every "
            f"frame that can be decoded, and `xqrec record {repaired} {resume}` goes on with the game "
            "from the copy (the plies stored are followed, not recorded twice)")


class NotThisGame(Exception):
    """The source a game was taken up from shows another game: the run stops (see ``_not_this_game``)."""


LIVE_FROZEN_ALERT_S = 3.0  # a live camera's picture unchanged to the last pixel this long is frozen
NOT_THIS_GAME = "stopped: the board is not the game's"
NOT_THIS_GAME_POINTS = 16  # points a resumed game's first board may differ from it by and still be it
NOT_THIS_GAME_PIECES = 2  # pieces it may show beyond the game's (misread ones, a capture recorded wrong)


def _not_this_game(store: StoreRecording, session: RecordingSession, events: list[Event], judged: int) -> int:
    """Raise ``NotThisGame`` when the source a game was taken up from (``record --resume GAME`` from
    another file or camera) shows a board that is no position of the game; else where the next look
    starts in ``events`` (-1 once the source showed the game: nothing more to check).

    A tester resumed game 2 from another game's video: it was recorded on, its source rewritten, with
    an alert at every press and exit status 0. A board no continuation explains, differing from the
    game's position on ``NOT_THIS_GAME_POINTS`` points or more, before any view showed that position,
    is another game when the source first showed the game's earlier positions and then went another
    way (a backup camera's file of the same game follows them to the recorded position; another game
    from the standard start leaves them), or when it shows ``NOT_THIS_GAME_PIECES`` pieces or more that
    the game has lost (moves made during a camera swap only take pieces away): the run stops there.
    Any other far board (a long camera swap, many moves made meanwhile) is alerted as usual, for the
    arbiter to add the moves in the console."""
    if session.resolver.followed_or_seen:
        return -1
    new = events[judged:]
    if any(isinstance(event, MoveRecorded) for event in new):
        return -1
    resolver = session.resolver
    for event in new:
        if not (isinstance(event, BoardDisturbed) and event.kind in ("unexplained", "lost_track")
                and len(event.squares) >= NOT_THIS_GAME_POINTS):
            continue
        back = _pieces_come_back(resolver.game.position.board, event.fen_seen)
        if resolver.left_followed is not None or back >= NOT_THIS_GAME_PIECES:
            why = (f"it showed the game's ply {resolver.left_followed} and then went another way"
                   if resolver.left_followed is not None else f"it shows {back} pieces that game has lost")
            raise NotThisGame(f"{len(event.squares)} points differ from game {store.game_id}'s position after ply "
                              f"{resolver.game.ply}, and {why}")
    return judged + len(new)


def _pieces_come_back(board: str, fen_seen: str) -> int:
    """How many pieces the placement ``fen_seen`` shows beyond what ``board`` (90 characters) holds of
    their kind and colour: pieces taken in a game never come back, so a board showing them is no
    later position of that game (moves made during a camera swap only ever take pieces away)."""
    if not fen_seen:
        return 0
    try:
        seen = Position.from_fen(f"{fen_seen} w").board
    except ValueError:
        return 0
    held = Counter(piece for piece in board if piece != ".")
    shown = Counter(piece for piece in seen if piece != ".")
    return sum(max(0, count - held[piece]) for piece, count in shown.items())


def _board_seen_before(store: StoreRecording | None) -> bool:
    """Did the earlier runs of a resumed game see its board (a grid found, or a move recorded)?"""
    return store is not None and store.resume is not None and any(
        isinstance(event, (CalibrationChanged, MoveRecorded)) for event in store.resume.events)


ENDED_EARLY = "stopped: the video ended early"
FOLDER_GREW = "stopped: images were added to the folder while it was being read"
NEVER_FOUND = "stopped: the board was never found in the picture"
MIN_FRAMES = 5  # fewer frames than this cannot show the board still, judged and seen again


def _video_length(source: object) -> float | None:
    """A video file's length in seconds as it states it, or None (a stream, a folder)."""
    length = getattr(source, "duration", None)
    return float(length) if length else None


def clock_log_mismatch(presses: Sequence[ClockPress], end_t: float, path: Path | None, ply: int) -> ClockAlert | None:
    """The alert when the clock log ``presses`` runs well past the end of the recorded video at
    ``end_t``: a log of another game (or of a longer recording) attaches wrong times to the moves."""
    late = [press for press in presses if press.t > end_t + LOG_BEYOND_S]
    if not late:
        return None
    return ClockAlert(end_t, "clock_log_mismatch", (), "",
                      f"{len(late)} press(es) of the clock log {path} come after the video ends (the last at "
                      f"{recording_time(late[-1].t)}, the video ends at {recording_time(end_t)}): is it this game's log? The move "
                      f"times recorded from it may be wrong (the presses past the end are not used)", ply, "")


def writable(path: Path) -> None:
    """``OSError`` with the reason unless a file can be written at ``path`` (tried, not guessed)."""
    existed = path.exists()
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as error:
        raise OSError(f"cannot write {path}: {error.strerror or error}") from None
    if not existed:
        path.unlink()


# A live camera's picture comes 0.3-1.5 s after what it shows (the clock's presses come at once): with
# a camera, a press counts as made before the move only this long before the board was last seen still.
LIVE_EARLY_PRESS_MARGIN_S = 1.5
CORRECTIONS_EVERY_S = 1.0  # how often a recording into the store looks for the console's corrections


def _folder_timing_differs(stored: StoreRecording, source: object, *, followed: bool) -> str:
    """Why a folder's game cannot go on in this run, or "": a folder read as it stands times its
    pictures by their order, a followed one by when they were written. A game recorded one way
    and resumed the other would skip the wrong pictures and mix two time scales in one record."""
    from recorder.sources import ImageFolderSource

    if stored.resume is None or not (followed or isinstance(source, ImageFolderSource)):
        return ""
    was_followed = any(isinstance(e, RecordingStarted) and e.source_origin is not None for e in stored.resume.events)
    if was_followed == followed:
        return ""
    game = stored.game_id
    if followed:
        return (f"game {game} was recorded from this folder read as it stood (pictures timed by their order), and "
                "--follow times them by when they were written: the two runs' times would not line up. Leave out "
                f"--follow to go on with game {game}, or give --new-game to record a new one")
    return (f"game {game} was recorded from this folder with --follow (pictures timed by when they were written): "
            f"give --follow again to go on with game {game}, or --new-game to record a new one")


def _moves_after_result(store: StoreRecording | None, ply: int, t: float, told: int | None) -> Alert | None:
    """The alert, once a result is marked, for the first move recorded after it (an arbiter tester
    marked a resignation on a game still being played, or on the wrong board, and its next moves were
    stored after the end without a word); None otherwise (told already, or nothing after it)."""
    marked = store.result_marked if store is not None else None
    if marked is None or ply <= marked.ply or (told is not None and told > marked.ply):
        return None
    by = f" by {marked.by}" if marked.by else ""
    why = f" ({marked.text})" if marked.text else ""
    return Alert(t, "moves_after_result", (), "", f"a move was recorded after the result {marked.result} was marked"
                 f"{by} after ply {marked.ply}{why}: is it marked on the right game? The moves are recorded; if play "
                 "went on, open the game again (result *)", ply)


def _take_corrections(session: Any, store: StoreRecording, show: bool) -> None:
    """Judge the board against the game as the arbiter corrected it in the console, and count the
    fouls as ruled there (a foul ruled no foul decides no loss)."""
    fixes = store.corrections()
    for alert, ruling in store.rulings:
        session.fouls.ruled(alert, ruling)
    store.rulings.clear()
    if not fixes:
        return
    for fix in fixes:  # the run's event log holds them too (the store has them from the console): a log
        session.log.append(fix)  # read alone had ply 2 as first recorded, and later plies played from the correction
    plies = [entry.iccs for entry in store.game().plies]
    taken = [fix for fix in fixes if isinstance(fix, PositionRestored)]
    session.adopt_record(plies, keep_later=not taken)  # plies taken back are not read back in
    first = min(fix.ply for fix in fixes)
    log.info("ply %d %s in the console by %s: the record now has %d plies", first,
             "taken back to" if taken else "corrected", fixes[0].by, len(plies))
    if show:
        for fix in fixes:  # each (a tester's two quick corrections, the second putting the first back, showed one)
            if isinstance(fix, MoveCorrected) and fix.was == fix.iccs:
                continue  # a later ply recorded again after the correction, unchanged
            said = (f"plies after {fix.ply} taken back by {fix.by or 'the arbiter'}"
                    if isinstance(fix, PositionRestored) else
                    f"ply {fix.ply} added by {fix.by or 'the arbiter'}: {fix.iccs}" if not fix.was else
                    f"ply {fix.ply} corrected by {fix.by or 'the arbiter'}: {fix.iccs} (was {fix.was})")
            print(f"          {said}; recording goes on from the corrected game", flush=True)


@contextlib.contextmanager
def _stopping_signals_as_ctrl_c() -> Iterator[None]:
    """A recording stopped by the system (``kill``, ``systemctl stop``: SIGTERM) or by its terminal
    going away (an SSH session dropped: SIGHUP) ends as after Ctrl-C: the game is left open to be
    resumed, and the PGN and scoresheet asked for are written with the moves recorded so far."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, _frame: object) -> None:
        for other in previous:  # a second signal must not cut the shutdown (the exports) short
            signal.signal(other, signal.SIG_IGN)
        if signum == getattr(signal, "SIGHUP", None):  # the terminal is gone: writing to it would fail
            devnull = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (lives as long as the process)
            sys.stdout = sys.stderr = devnull
        raise KeyboardInterrupt(signal.Signals(signum).name)

    wanted = [signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
    # a signal ignored already stays so (``nohup xqrec record ...`` ignores SIGHUP on purpose)
    previous = {signum: signal.signal(signum, stop) for signum in wanted
                if signal.getsignal(signum) is not signal.SIG_IGN}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


class _OutputThatMayClose:
    """Standard output that a closed reader cannot stop a recording with: ``record ... | head`` (or a
    ``tee`` that died) ended a tester's live recording at ply 3, with status 0, no PGN and no word. The
    first write that finds the pipe closed says so on standard error; later ones go nowhere."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.lost = False

    def write(self, text: str) -> int:
        if not self.lost:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._lose()
        return len(text)

    def flush(self) -> None:
        if not self.lost:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._lose()

    def _lose(self) -> None:
        self.lost = True
        with contextlib.suppress(OSError, ValueError):  # Python's own flush at exit would meet the pipe again
            os.dup2(os.open(os.devnull, os.O_WRONLY), self._stream.fileno())
        log.warning("standard output was closed (whatever read it ended): the status lines and scoresheet are no "
                    "longer shown; the recording goes on")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def run(args: argparse.Namespace) -> int:
    if not isinstance(sys.stdout, _OutputThatMayClose):
        sys.stdout, kept = _OutputThatMayClose(sys.stdout), sys.stdout
        try:
            return _run(args)
        finally:
            sys.stdout = kept
    return _run(args)


def _run(args: argparse.Namespace) -> int:
    if args.no_db and args.db is not None:  # which one was meant cannot be told (a tester's slip)
        raise ValueError(f"--db {args.db} and --no-db contradict each other: give one")
    if args.no_db and args.quiet and not (args.pgn or args.scoresheet or args.events):
        raise ValueError("--no-db with --quiet keeps nothing of the game: give --pgn, --scoresheet or --events (or "
                         "leave out --quiet, and the scoresheet is printed at the end)")
    clock = None
    clock_runs: str | None = None  # the time control given for the live clock (None: the store's, else its default)
    if args.clock or args.clock_protocol == "keyboard":
        from recorder.clock.live import LiveClock
        from rules import Position

        if args.clock_log:
            raise ValueError("--clock and --clock-log exclude each other")
        if args.clock_protocol == "keyboard" and args.clock not in (None, "-"):
            raise ValueError(f"--clock-protocol keyboard reads the keyboard (stdin), not {args.clock}: give --clock - "
                             "for the keyboard, or the clock's protocol (dgt, text) for a clock on that port")
        first = Position.from_fen(args.fen).side_to_move if args.fen else "red"
        protocol = "keyboard" if args.clock == "-" else args.clock_protocol  # '-' is the keyboard, as --help says
        clock_runs = live_time_control(args)
        clock = LiveClock(args.clock or "-", protocol, red_side=args.clock_red_side, first_mover=first,
                          time_control=clock_runs, rate=args.clock_rate)
    else:
        if args.time_control:
            print("xqrec record: --time-control sets a live clock's time (with --clock); without one it is not used. "
                  "The record's time control is --tc (PGN seconds, e.g. 5400+30)", file=sys.stderr)
        unused = [name for name, given in (("--clock-protocol text", args.clock_protocol == "text"),
                                           ("--clock-rate", args.clock_rate != 1.0),
                                           ("--clock-red-side right", args.clock_red_side == "right")) if given]
        if unused:  # an operator who forgot --clock PORT would otherwise record a game with no times
            verb, pronoun = ("apply", "they are") if len(unused) > 1 else ("applies", "it is")
            print(f"xqrec record: warning: {' and '.join(unused)} {verb} to a live clock (--clock PORT, or "
                  f"--clock - for the keyboard); without --clock {pronoun} not used", file=sys.stderr)
    # Everything that can fail at once is checked before a game is opened in the store: the source
    # opens, the output files can be written (a game recorded to the end must not be lost to a typo).
    from recorder.clocklog_input import load_clock_log
    from recorder.sources import FollowedFolderSource, LiveSource, open_source, public_name

    distinct_files({"--pgn": args.pgn, "--scoresheet": args.scoresheet, "--events": args.events},
                   {"the source": Path(args.source), "--clock-log": args.clock_log, "--calibration": args.calibration,
                    "--model": args.model, "--db": None if args.no_db else args.db})
    for output in (args.pgn, args.scoresheet, args.events):
        if output is not None:
            writable(output)
    clock_presses = load_clock_log(args.clock_log) if args.clock_log else None  # a log with no press read: refused
    geometry = None
    if args.calibration is not None:
        from calibration import BoardGeometry

        geometry = BoardGeometry.load(args.calibration)  # a broken file is reported before anything starts
    classifier = _classifier(args)
    source = open_source(args.source, fps=args.fps, follow=args.follow)
    frame_size = getattr(source, "frame_size", None)  # None: not known before the first frame
    if args.roi is not None and frame_size is not None:
        x, y, w, h = args.roi
        if x + w > frame_size[0] or y + h > frame_size[1]:
            raise ValueError(f"--roi {x},{y},{w},{h} reaches beyond the {frame_size[0]}x{frame_size[1]} frames of "
                             f"{public_name(args.source)}")
        frame_size = (w, h)  # what is read, and what a calibration must be made for
    if geometry is not None and frame_size is not None and tuple(geometry.image_size) != frame_size:
        made, given = ("x".join(str(v) for v in size) for size in (geometry.image_size, frame_size))
        raise ValueError(f"{args.calibration} was made for {made} frames but {public_name(args.source)} gives "
                         f"{given}: calibrate on a frame of this video (xqrec calibrate), or leave --calibration "
                         "out and the recorder finds the board itself")
    if isinstance(source, FollowedFolderSource) and clock is not None and args.clock_rate != 1.0:
        raise ValueError("--clock-rate replays a video file faster than real time; a camera writing into a folder "
                         "runs in real time (leave --clock-rate out)")
    if isinstance(source, LiveSource):
        if clock is not None and args.clock_rate != 1.0:
            raise ValueError("--clock-rate replays a video file faster than real time; a camera or stream "
                             "runs in real time (leave --clock-rate out)")
        if args.wait_for_source < 0:
            raise ValueError("--wait-for-source must be 0 or more seconds")
        try:
            source.check(wait_s=args.wait_for_source,
                         told=lambda text: print(f"xqrec record: {text}", file=sys.stderr, flush=True))
        except KeyboardInterrupt:
            print(f"xqrec record: stopped while waiting for {source.name} to answer; nothing was recorded",
                  file=sys.stderr)
            raise
    if isinstance(source, FollowedFolderSource):
        if args.wait_for_source < 0:
            raise ValueError("--wait-for-source must be 0 or more seconds")
        source.wait_for_first(args.wait_for_source,
                              told=lambda text: print(f"xqrec record: {text}", file=sys.stderr, flush=True))
    stored = open_for_record(args, args.source)
    if stored is not None and stored.resume is not None and not stored.moved:
        refused = _folder_timing_differs(stored, source, followed=isinstance(source, FollowedFolderSource))
        if refused:
            stored.abandon()
            raise ValueError(refused)
    if isinstance(source, FollowedFolderSource) and stored is not None and stored.resume is not None:
        # the game's own time 0: its pictures keep their times, and those recorded are skipped
        origins = [e.source_origin for e in stored.resume.events
                   if isinstance(e, RecordingStarted) and e.source_origin is not None]
        if origins and not stored.moved:
            source.origin = origins[0]
    time_control = (stored.store.game(stored.game_id).info if stored is not None else info_from_args(args)).time_control
    if clock is not None and clock_runs is None and stored is not None:
        # a time control the game has from the store (its event's, or the game resumed): the keyboard
        # clock runs it, a clock on a link is checked against it
        from recorder.exports.times import parse_pgn_time_control

        known = parse_pgn_time_control(time_control)
        if known is not None:
            clock.know_time_control(*known)
    if clock is not None and stored is not None and stored.resume is not None:
        clock.go_on(stored.resume.events, stored.resume.position.side_to_move)
    elif clock is not None and not time_control:  # a clock on a link does not say its setting
        print("xqrec record: warning: the game's time control is not known (a clock on a link does not say its "
              "setting): it is read from the clock's presses once they show it, else the PGN gets no TimeControl "
              "and the scoresheet no time used. Give --tc (PGN seconds, e.g. 5400+30), or set it later with xqrec "
              "edit GAME --tc", file=sys.stderr)
    if (stored is not None and stored.resume is not None and clock is None and not args.clock_log
            and any(isinstance(e, ClockPressed) for e in stored.resume.events)):
        print(f"xqrec record: warning: game {stored.game_id} was recorded with its clock's presses and this run "
              "has none: the moves from here get no times and no press is checked (give --clock-log, or --clock "
              "for a clock on a serial link)", file=sys.stderr)
    with _stopping_signals_as_ctrl_c():
        events = record_source(args.source, classifier, source=source, clock_log=args.clock_log,
                               events_path=args.events, calibration=args.calibration, fen=args.fen, fps=args.fps,
                               show=not args.quiet, clock=clock, store=stored, clock_presses=clock_presses,
                               roi=args.roi)
    # The same exports as `xqrec export`: one PGN writer, one scoresheet text, the same headers (the
    # stored game's: a run going on with a game, --resume, names no players and keeps the first run's)
    info = stored.store.game(stored.game_id).info if stored is not None else info_from_args(args)
    headers: dict[str, str] = {} if stored is None else {"GameId": str(stored.game_id)}
    # the site is --site or PGN's unknown "?", never the source (a stream's password, a local path)
    pgn_text = export_pgn(events, info, args.notation, headers)
    sheet = export_text(events, info)
    wrong_tc = clock_contradicts(rebuild(events), info.time_control)
    if wrong_tc:  # a mistyped --tc is told, not left to show in the broadcast as a 75-minute first move
        print(f"xqrec record: warning: {wrong_tc}", file=sys.stderr)
    if not args.quiet:  # shown before the files are written: a full disk must not take it too
        print()
        print(sheet, end="")
    if (stored is None and not (args.pgn or args.scoresheet or args.events)
            and getattr(sys.stdout, "lost", False)):  # the scoresheet above was the only copy, and it went nowhere
        print("xqrec record: standard output was closed, and with --no-db and no --pgn, --scoresheet or --events "
              "nothing else holds the game: its PGN follows here", file=sys.stderr)
        print(pgn_text, end="", file=sys.stderr)
        return 2
    unwritten = [f"{path}: {problem}" for path, text in ((args.pgn, pgn_text), (args.scoresheet, sheet))
                 if path is not None and (problem := _write(path, text))]
    if unwritten:
        kept = (f"the game is in the store: xqrec export {stored.game_id} --db {stored.store.path} --out FILE"
                if stored is not None
                else f"the event log {args.events} holds it" if args.events else "its PGN follows on standard output")
        print(f"xqrec record: cannot write {'; '.join(unwritten)}; {kept}", file=sys.stderr)
        if stored is None and not args.events:
            _print_record(pgn_text)
    if stored is not None and stored.backlog:  # the store refused them to the end (a full disk)
        written = [str(path) for path in (args.pgn, args.scoresheet)  # an event log on a full disk stopped too
                   if path is not None and not any(item.startswith(f"{path}:") for item in unwritten)]
        plies = sum(1 for e in stored.backlog if isinstance(e, MoveRecorded))
        where = (f"they are in {', '.join(written)}" if written else "the game's PGN follows on standard output")
        print(f"xqrec record: the game store {stored.store.path} could not be written ({stored.store_error}): the "
              f"last {len(stored.backlog)} event(s) of this run, {plies} recorded move(s) among them, are not in "
              f"game {stored.game_id}; {where}. {store_remedy(stored.store_error).capitalize()}: the same command (or --resume "
              f"{stored.game_id}) goes on from what the store holds", file=sys.stderr)
        if not written:
            _print_record(pgn_text)
        return 2
    if stored is not None and not args.quiet and not args.no_store_hint and any(
            isinstance(e, MoveRecorded) for e in events):  # where the game went (a new user: the output ended with the sheet)
        call, path = command_name(), shlex.quote(str(stored.store.path))
        db = f" --db {path}" if args.db is not None or stored.store_moved else ""
        print(f"\nStored as game {stored.game_id} in {path} ({call} show {stored.game_id}{db}; "
              f"{call} export {stored.game_id}{db} --format pdf --out sheet.pdf)")
    if stored is not None and stored.store_rescued:  # told at the end too: the log scrolled away
        print(f"xqrec record: {stored.store_rescued}", file=sys.stderr)
    stopped = next((e for e in reversed(events) if isinstance(e, RecordingStopped)), None)
    ended_early = stopped is not None and stopped.reason == ENDED_EARLY
    never_found = stopped is not None and stopped.reason == NEVER_FOUND
    closed = False
    if stored is not None and stopped is not None and stopped.reason.startswith("stopped"):
        row = stored.store.game(stored.game_id)
        resume = stored.store.resume_option(stored.game_id)
        closed = row.status == "closed"
        if closed:
            print(f"xqrec record: {stopped.reason}; game {stored.game_id} has its result ({row.result}) and is "
                  "closed", file=sys.stderr)
        elif _to_be_void(stored, events):
            cut = " (a cut or damaged file?)" if ended_early else ""
            print(f"xqrec record: {stopped.reason}{cut}", file=sys.stderr)  # the game is voided below, with why
        elif stopped.reason.startswith(NOT_THIS_GAME):
            stored.not_this_game()
            print(f"xqrec record: {stopped.reason}: is it game {stored.game_id}? Check --resume GAME and the camera (or "
                  "correct the record in the console if it went wrong before, then resume again). "
                  f"Game {stored.game_id} is left as it was (its source set back; the alert is kept in its log, closed); "
                  "to record this source as a game of its own, leave out --resume", file=sys.stderr)
            return 1
        elif never_found:  # the same file again would not show it either
            print(f"xqrec record: game {stored.game_id} is left open, with no move: record it from a view "
                  f"that shows the board with {resume} (a calibration from an earlier frame "
                  "of the same camera: --calibration FILE)", file=sys.stderr)
        elif stopped.reason.startswith(STOPPED_BY_ERROR):
            print(f"xqrec record: {stopped.reason}; the moves recorded are stored and game {stored.game_id} is left "
                  f"open: going on with {resume} may meet the same fault (record the rest from "
                  f"the next moves on, or add them on the game page)", file=sys.stderr)
            return 2
        elif stopped.reason == FOLDER_GREW:
            print(f"xqrec record: {stopped.reason}; game {stored.game_id} is left open: the same command goes on "
                  "with it, the images added included", file=sys.stderr)
        elif ended_early:  # the same file again would stop at the same place
            print(f"xqrec record: {stopped.reason} (a cut or damaged file?); the moves read are stored and game "
                  f"{stored.game_id} is left open: record the rest from another file or camera with "
                  f"{resume}. A file damaged rather than cut may still hold the rest: "
                  f"{_repair_hint(args.source, resume)}", file=sys.stderr)
        else:
            print(f"xqrec record: {stopped.reason}; game {stored.game_id} is left open: the same command goes on "
                  f"with it (from another camera or file: {resume})", file=sys.stderr)
    elif stopped is not None and stopped.reason.startswith(STOPPED_BY_ERROR):
        written = [str(path) for path in (args.pgn, args.scoresheet, args.events) if path is not None]
        where = f"in {', '.join(written)}" if written else "only in the scoresheet above (no store, no file asked for)"
        print(f"xqrec record: {stopped.reason}; the moves recorded are {where}", file=sys.stderr)
        return 2
    elif ended_early:
        written = [str(path) for path in (args.pgn, args.scoresheet, args.events) if path is not None]
        where = f"in {', '.join(written)}" if written else "only in the scoresheet above (no store, no file asked for)"
        print(f"xqrec record: {ENDED_EARLY} (a cut or damaged file?); the moves read are {where}", file=sys.stderr)
    nothing = _nothing_recorded(events, never_found)
    if nothing:
        see = "" if _too_short(events) is not None else "; see the alerts above or in the log"  # none is raised then
        print(f"xqrec record: no move was recorded: {nothing}{see}", file=sys.stderr)
        if stored is not None and _void_empty_game(stored, events):
            print(f"xqrec record: game {stored.game_id} is void (nothing in it; kept in the store: xqrec edit "
                  f"{stored.game_id} --unvoid takes it back)", file=sys.stderr)
    # a cut game is bad input a script must not take for a whole one, unless it had ended before the cut;
    # a recording with not one move where a game went on (the board never found, presses with no
    # move) is as bad, and a batch script must be able to tell
    grew = stopped is not None and stopped.reason == FOLDER_GREW  # no signal: the folder is read to its end
    if (stopped is not None and not closed and not (ended_early or never_found or grew)
            and stopped.reason.startswith("stopped")):
        return signal_status(stopped.reason)
    if unwritten or (stored is not None and stored.store_moved):  # a script must not look for it where it was
        return 2
    return 1 if ((ended_early or grew) and not closed) or nothing else 0


def _print_record(text: str) -> None:
    """The record on standard output, where nothing else holds it; on standard error once standard
    output was found closed (it would go nowhere)."""
    print(text, end="", file=sys.stderr if getattr(sys.stdout, "lost", False) else sys.stdout)


def _write(path: Path, text: str) -> str:
    """Write ``text`` to ``path``; the reason it could not be written, or ""."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        return error.strerror or str(error)
    return ""


def signal_status(reason: str) -> int:
    """The shell's status for a recording a signal stopped with its game open: 128 + the signal's
    number (Ctrl-C 130, SIGTERM 143, SIGHUP 129), so a script can tell an interrupted game from a whole one."""
    for name in ("SIGTERM", "SIGHUP"):
        if f"({name})" in reason and hasattr(signal, name):
            return 128 + int(getattr(signal, name))
    return 128 + int(signal.SIGINT)


def _too_short(events: list[Event]) -> int | None:
    """The frames the run read when they were too few to judge a still board (``MIN_FRAMES``), else None."""
    frames = next((e.frames for e in reversed(events) if isinstance(e, RecordingStopped)), None)
    return frames if frames is not None and frames < MIN_FRAMES else None


def _void_empty_game(stored: StoreRecording, events: list[Event]) -> bool:
    """Void the game this run opened when its source was too short to judge, so it does not stand
    in the listings and on the console as a game in play; True when it was voided.

    Only a new game with no move: a resumed game keeps what it holds, and the void is the store's own
    (the game is kept and ``edit --unvoid`` takes it back).
    """
    if not _to_be_void(stored, events):
        return False
    stored.store.set_void(stored.game_id, f"the source held {_too_short(events)} frame(s), too few to record from")
    return True


def _to_be_void(stored: StoreRecording, events: list[Event]) -> bool:
    """Whether :func:`_void_empty_game` will void the game: not one to tell how to go on with (a tester
    was told to resume a game that the next line said was void, and resuming it was refused)."""
    return (stored.resume is None and _too_short(events) is not None and not stored.backlog
            and not any(isinstance(e, MoveRecorded) for e in events))


def _nothing_recorded(events: list[Event], never_found: bool) -> str:
    """Why a game went on but not one move was recorded ("" when moves were, or nothing happened);
    ``never_found``: the run never found the board (with a calibration given, it is never looked for)."""
    if any(isinstance(e, MoveRecorded) for e in events):
        return ""
    if never_found:
        return "the board was never found in the picture"
    frames = _too_short(events)
    if frames is not None:  # a new user's folder of one picture: an empty game, exit 0
        return (f"the source held {frames} frame(s), too few to see the board stand still and judge it (a single "
                "picture is read with xqrec read-board)")
    unexplained = sum(1 for e in events if isinstance(e, Alert) and e.kind == "unexplained")
    if unexplained:  # a tester's second file of a game, recorded as a new game from the start position
        return (f"the board never matched the game's position ({unexplained} views explained by no move): a film "
                "that goes on with a game recorded from an earlier file is recorded with --resume GAME, and a game "
                "from a set-up position with --fen")
    presses = sum(1 for e in events if isinstance(e, ClockPressed))
    return f"the clock was pressed {presses} times with no move read from the board" if presses > 1 else ""
