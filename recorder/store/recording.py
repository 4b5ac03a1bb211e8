"""Plugging the store into ``xqrec record``: the command-line options and the hooks around a session.

:func:`add_store_arguments` adds ``--db`` and the game's details (tournament, round, board,
players, time control, camera and clock set-up) to the record command; :func:`open_for_record`
finds the open game for the same source and board (or creates one); :func:`resume_session`
brings a new session to the point a crashed run reached and returns the source items still to
read (a file's frames after the stored time; a live source's frames all).
"""

from __future__ import annotations

import argparse
import datetime
import logging
import re
from collections.abc import Iterable
from dataclasses import replace
from itertools import chain
from pathlib import Path
from typing import Any, TypeVar, cast

from recorder.clock.model import DEFAULT_TIME_CONTROL, parse_time_control
from recorder.events import recording_time
from recorder.sources import public_name
from recorder.store.db import MAX_ID, GameInfo, GameStore
from recorder.store.resume import StoreRecording, continue_times, prime_resolver, resume_gap, skip_seen

log = logging.getLogger(__name__)

T = TypeVar("T")


def add_store_arguments(parser: argparse.ArgumentParser) -> None:
    """The store's options of ``xqrec record``."""
    group = parser.add_argument_group("game store")
    group.add_argument("--db", type=Path,
                       help="game store (default $XDG_DATA_HOME/xiangqi-recorder/recorder.sqlite3, created on first use)")
    group.add_argument("--no-db", action="store_true", help="do not store the game")
    group.add_argument("--new-game", action="store_true", help="start a new game even if one is open for this board")
    group.add_argument("--resume", type=game_number, metavar="GAME",
                       help="go on with this stopped or interrupted game (its number in `xqrec games`) from SOURCE, "
                            "e.g. after the camera was replaced or its address changed")
    group.add_argument("--take-over", action="store_true",
                       help="with --resume: go on with a game a recorder on another machine seems to hold (the "
                            "store was moved here after that machine failed)")
    group.add_argument("--event", default="", help="tournament name")
    group.add_argument("--site", default="", help="where it is played")
    group.add_argument("--round", default="", help="round")
    group.add_argument("--date", default="", type=pgn_date,
                       help="date (YYYY.MM.DD or YYYY-MM-DD; default: today, the day it is recorded)")
    group.add_argument("--board", type=board_number, help="board number (1, 2, ...)")
    group.add_argument("--red", default="", help="red player")
    group.add_argument("--black", default="", help="black player")
    group.add_argument("--tc", default="", type=pgn_tc, help='time control for the record, PGN form seconds[+increment], '
                       'e.g. "5400+30"; a live clock runs it too (default: from --time-control when a live clock is used)')
    group.add_argument("--camera-setup", default="", help="camera set-up (model, mounting, distance)")
    group.add_argument("--clock-setup", default="", help="clock set-up (model; default: the --clock link used)")


def game_number(text: str) -> int:
    """A game's number (``--resume``, ``show``, ``export``, ``edit``): 1 to ``MAX_ID``."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or not 1 <= int(digits) <= MAX_ID:
        raise argparse.ArgumentTypeError(f"{text!r} is not a game number (xqrec games lists them)")
    return int(text)


MAX_BOARD = 999  # more boards than any hall holds: a larger number is a slip of the keyboard (99999 for 9)


def board_number(text: str) -> int:
    """``--board``: a board number, 1 to ``MAX_BOARD``."""
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a board number (1, 2, ...)")
    if int(text) > MAX_BOARD:
        raise argparse.ArgumentTypeError(f"{text.strip()} is not a board number: boards go up to {MAX_BOARD} "
                                         "(a key held down?)")
    return int(text)


def pgn_date(text: str) -> str:
    """``--date``: a calendar date as PGN writes it (YYYY.MM.DD); a clear error for anything else."""
    if not text.strip():
        return ""  # not given: the day it is recorded
    try:
        day = datetime.date.fromisoformat(text.strip().replace(".", "-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date: give YYYY.MM.DD or YYYY-MM-DD, e.g. 2026.12.01") from None
    return day.strftime("%Y.%m.%d")


_TC_PERIOD = re.compile(r"(\d+/\d+|\d+(\+\d+)?|\*\d+)")


def pgn_tc(text: str) -> str:
    """``--tc``: a PGN TimeControl ("5400+30", "40/7200:1800+30", "?" or "-"); a clear error otherwise."""
    value = text.strip()
    if value in ("", "?", "-"):
        return value
    periods = value.split(":")
    if all(_TC_PERIOD.fullmatch(period) for period in periods):
        value = re.sub(r"\d+", lambda number: str(int(number.group())), value)  # 5400+030 -> 5400+30
        periods = value.split(":")
        if any("/" not in period for period in periods[:-1]):  # "90:00+30": minutes:seconds, not PGN
            raise argparse.ArgumentTypeError(
                f"{text!r} reads as minutes:seconds, but --tc is PGN seconds: 5400+30 for 90 minutes and 30 s a move "
                "(periods joined by ':' give moves/seconds first, as in 40/7200:1800)")
        base = int(re.split(r"\+", periods[0].split("/")[-1].lstrip("*"))[0])
        if base < 60 and not periods[0].startswith("*"):  # (a sandglass of *30: 30 s a move)  # no game starts with under a minute: minutes typed for seconds (15+10 for 900+10)
            minutes = f"; {base} minutes is {base * 60}" if base else ""
            raise argparse.ArgumentTypeError(
                f"{text!r} starts the game with {base} seconds: --tc is PGN seconds (900+10 for 15 minutes and "
                f"10 s a move{minutes})")
        return value
    raise argparse.ArgumentTypeError(
        f"{text!r} is not a PGN time control: seconds[+increment] periods joined by ':', e.g. 5400+30 or 40/7200:1800")


def info_from_args(args: argparse.Namespace) -> GameInfo:
    """The game's details from the record command's options.

    The time control is ``--tc``; without it, a live clock's ``--time-control`` (minutes+increment
    seconds) is turned into PGN's seconds form: given, or the keyboard clock's default (the keyboard
    clock runs it). A clock on a serial link runs its own setting, which the recorder cannot read:
    without either option the time control is left unknown, not guessed.
    """
    live = bool(getattr(args, "clock", None)) or getattr(args, "clock_protocol", "") == "keyboard"
    keyboard = getattr(args, "clock_protocol", "") == "keyboard"
    time_control = args.tc
    given = getattr(args, "time_control", None)
    if not time_control and live and (given or keyboard):
        time_control = pgn_time_control(given or DEFAULT_TIME_CONTROL)
    clock = args.clock_setup or (f"{args.clock_protocol} {args.clock}" if live and args.clock else "")
    if not clock and getattr(args, "clock_log", None):
        clock = f"clock log {args.clock_log}"
    date = args.date or datetime.date.today().strftime("%Y.%m.%d")
    return GameInfo(event=args.event, site=args.site, round=args.round, date=date, board=args.board,
                    red=args.red, black=args.black, time_control=time_control, camera=args.camera_setup,
                    clock=clock)


def pgn_time_control(minutes_plus_increment: str) -> str:
    """``"15+10"`` (minutes + increment seconds) as PGN's ``"900+10"``; empty when it does not read."""
    try:
        base_ms, increment_ms = parse_time_control(minutes_plus_increment)
    except ValueError:
        return ""
    seconds, extra = round(base_ms / 1000), round(increment_ms / 1000)
    return f"{seconds}+{extra}" if extra else str(seconds)


def clock_time_control(pgn: str) -> str | None:
    """A PGN time control of one period ("5400+30") as a live clock runs it ("5400s+30"); None for
    one it cannot run (periods, a sandglass, unknown)."""
    from recorder.exports.times import parse_pgn_time_control

    known = parse_pgn_time_control(pgn)
    return None if known is None else f"{known[0] // 1000}s+{known[1] // 1000}"


def live_time_control(args: argparse.Namespace) -> str | None:
    """The time a live clock runs (``--time-control``), else the record's ``--tc`` in the clock's
    form: a keyboard clock started with its 15+10 default under ``--tc 5400+30`` contradicted the
    game's own sheet. Both given must agree; a ``--tc`` the keyboard clock cannot run needs
    ``--time-control``."""
    given, tc = getattr(args, "time_control", None), getattr(args, "tc", "") or ""
    if tc in ("", "?", "-") or getattr(args, "resume", None) is not None:  # (a resumed game keeps its own)
        return given
    from_tc = clock_time_control(tc)
    if given is not None:
        if from_tc is not None and parse_time_control(from_tc) != parse_time_control(given):
            raise ValueError(f"--time-control {given} (minutes+increment seconds) and --tc {tc} (PGN seconds) are "
                             f"not the same time control: give one of them (--tc {pgn_time_control(given)} is "
                             f"--time-control {given})")
        return given
    keyboard = getattr(args, "clock", None) == "-" or getattr(args, "clock_protocol", "") == "keyboard"
    if from_tc is None and keyboard:
        raise ValueError(f"the keyboard clock runs one period with an increment, not --tc {tc}: give the time "
                         "it runs with --time-control (minutes+increment seconds, e.g. 90+30)")
    return from_tc


def open_for_record(args: argparse.Namespace, source: str) -> StoreRecording | None:
    """The store recording for a ``record`` run (``None`` with ``--no-db``)."""
    game_id = getattr(args, "resume", None)
    if getattr(args, "no_db", False):
        if game_id is not None:  # silently recording a new game instead would split the one to go on with
            raise ValueError("--resume GAME goes on with a game in the store and --no-db stores none: give one of them")
        return None
    if game_id is not None and args.new_game:
        raise ValueError("--resume GAME goes on with a game and --new-game starts one: give one of them")
    take_over = bool(getattr(args, "take_over", False))
    if take_over and game_id is None:
        raise ValueError("--take-over goes with --resume GAME: name the game to take over")
    named = [f"--{option}" for option in ("event", "site", "round", "board", "red", "black", "tc")
             if getattr(args, option, None) not in (None, "")]
    if game_id is not None and named:  # a tester's --resume 11 --red X --round 5 changed nothing, in silence
        log.warning("%s not taken with --resume: game %d keeps the details it was recorded with (to correct "
                    "them: xqrec edit %d %s ...)", "/".join(named), game_id, game_id, named[0])
    store = GameStore(getattr(args, "db", None))
    info = info_from_args(args)
    recording = StoreRecording.open(store, source_key(source), info, resume=not args.new_game, game_id=game_id,
                                    take_over=take_over)
    if recording.resume is None and not info.time_control and info.event:
        # an organiser gives --tc once, not on every board's recorder: the event's other games tell it
        known = {game.info.time_control for game in store.games(event=info.event)
                 if game.id != recording.game_id and game.info.time_control}
        if len(known) == 1:
            time_control = known.pop()
            store.set_info(recording.game_id, replace(info, time_control=time_control))
            log.warning("time control %s taken from the other games of %s (--tc sets another)", time_control,
                        info.event)
    if recording.resume is None and info.event and not info.round:
        rounds = sorted({game.info.round for game in store.games(event=info.event) if game.info.round},
                        key=lambda r: (len(r), r))
        if rounds:  # off the broadcast and the spectators' page: an organiser who forgot --round would not know
            log.warning("game %d of %s names no round, while the event's games are in round%s %s: the "
                        "spectators' page and the broadcast feed do not show it (give --round, or xqrec edit %d "
                        "--round R)", recording.game_id, info.event, "s" if len(rounds) > 1 else "",
                        ", ".join(rounds), recording.game_id)
    if recording.resume is not None and not args.quiet:
        point = recording.resume
        print(f"resuming game {recording.game_id} after ply {point.ply} (stored up to {recording_time(point.t)} of its source); "
              f"the board must show {point.position.fen()}", flush=True)
    return recording


def source_key(source: str) -> str:
    """How a source is named in the store: a file or folder by its absolute path (the same however it
    was typed), a camera index as given, a stream URL as :func:`recorder.sources.public_name` shows it:
    without ``user:password@`` and with secret query values masked (the rest, host, port, path and
    other parameters, tells two streams apart). The key is listed by ``xqrec games`` and the console."""
    if "://" in source:
        return public_name(source)
    path = Path(source)
    return str(path.resolve()) if path.exists() else source


def resume_session(session: Any, recording: StoreRecording | None, items: Iterable[T], seekable: bool) -> Iterable[T]:
    """Bring ``session`` to the stored game's last position; the source items still to read.

    The session checks the first view against that position (its orientation check and the
    resolver both start from it), so a board that was changed while nothing recorded raises
    an alert rather than a silent jump. A run whose times go on after the stored ones (a live
    source, another source) starts with the time nothing recorded as a gap of the source
    (``resume_gap``): moves made meanwhile are read as after a camera outage.
    """
    if recording is None or recording.resume is None:
        return items
    point = recording.resume
    prime_resolver(session.resolver, point)
    session.fouls.seed(point.events)  # a second press without a move after a restart still decides the game
    session.start = point.position
    if seekable and not recording.moved:  # the same file again: skip what was recorded
        return skip_seen(items, point)
    offset = recording.start_run(seekable=seekable, live=not seekable) if recording.offset is None else recording.offset
    gap = cast(T, resume_gap(point, offset, moved=recording.moved))  # a source item like the rest
    return chain([gap], continue_times(items, offset))
