"""Recording into the store, and taking up a game left open by a crash.

:class:`StoreRecording` is what ``xqrec record --db`` plugs into a session: an event sink that
commits every event as it happens (:meth:`StoreRecording.sink`), and, when an open game for
the same source and board is found, the point to resume from. Resuming rebuilds the game from
its stored events (:func:`recorder.scoresheet.rebuild`), replays its moves into the new
session's resolver (so ply numbers, repetition history and the clock's turn carry on), hands
on only the clock presses not yet stored, and, for a file source, skips the frames already
seen. The resolver then checks the first still view against the last recorded position: a
board that does not match raises its usual alert instead of a silent jump.
"""

from __future__ import annotations

import logging
import re
import socket
import sqlite3
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from recorder.clocklog_input import ClockPress
from recorder.events import (
    NOT_RECORDING,
    SOURCE_CHANGED,
    Alert,
    AlertAcknowledged,
    ClockAlert,
    ClockPressed,
    Event,
    EventWithdrawn,
    MoveCorrected,
    MoveRecorded,
    PositionRestored,
    RecordingStopped,
    ResultMarked,
)
from recorder.scoresheet import RecordedGame, rebuild
from recorder.sources import Frame, Gap, Lost, public_name
from recorder.store.db import GameInfo, GameRow, GameStore
from rules import Move, Position
from rules.squares import opponent

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass
class ResumePoint:
    """Where a stored open game stands: its events, the game they rebuild, and the time reached."""

    game_id: int
    events: list[Event]
    game: RecordedGame
    t: float  # the latest stored event time (source time of the interrupted run)
    last_press_t: float | None
    time_base: float | None = None  # event time minus wall-clock time (``GameStore.time_base``)

    @property
    def ply(self) -> int:
        return len(self.game.plies)

    @property
    def position(self) -> Position:
        """The last recorded position: what the board must show when recording goes on."""
        position = Position.from_fen(self.game.start_fen)
        for entry in self.game.plies:
            position = position.play(Move.from_iccs(entry.iccs))
        return position


def resume_point(store: GameStore, game_id: int) -> ResumePoint:
    """Rebuild a stored game to the point its recording reached."""
    events = store.events(game_id)
    presses = [e.t for e in events if isinstance(e, ClockPressed)]
    t = max((e.t for e in events), default=0.0)
    return ResumePoint(game_id, events, rebuild(events), t, max(presses) if presses else None,
                       store.time_base(game_id))


def prime_resolver(resolver: Any, point: ResumePoint) -> None:
    """Bring a new session's resolver to ``point``: the recorded moves, and the clock's bookkeeping.

    The clock runs for the side after the last effective stored press; a recorded ply whose press
    had not come yet waits for it again, and so do presses stored after the last move that no
    ply took, so the next move gets its clock time as it would have without the crash.
    """
    for entry in point.game.plies:
        resolver.game.push(Move.from_iccs(entry.iccs))
    # the pieces were set up for a new game and nothing put the record right since: still not judged
    # against it (a recorder restarted then took the next game's boards for this one's again)
    for event in reversed(point.events):
        if isinstance(event, MoveRecorded | MoveCorrected | PositionRestored):
            break
        if isinstance(event, Alert) and event.kind == "set_up_again":
            resolver.set_up_again_at = event.t
            break
    # the set-up fault told before the first move (art. 1.3) stands on its points until the arbiter
    # corrects the record (a restarted recorder raised the same missing piece as knocked, art. 5.9)
    for event in reversed(point.events):
        if isinstance(event, MoveCorrected | PositionRestored):
            break
        if isinstance(event, Alert) and event.ply == 0 and event.article == "1.3":
            resolver.set_up_fault_told(event.squares)
            break
    book = getattr(resolver, "clock", None)
    if book is None:
        return
    running = Position.from_fen(point.game.start_fen).side_to_move
    last_move_t = max((e.t for e in point.events if isinstance(e, MoveRecorded)), default=float("-inf"))
    matched = {e.ply for e in point.events if isinstance(e, ClockPressed) and e.ply is not None}
    waiting: list[ClockPressed] = []
    for event in point.events:
        if not isinstance(event, ClockPressed):
            continue
        if event.ply is None and event.t > last_move_t:
            waiting.append(event)
        elif event.effective:
            running = opponent(event.side)
    book.running = running
    book.told_unpressed({e.ply for e in point.events if isinstance(e, ClockAlert) and e.kind == "move_without_press"})
    for entry in point.game.plies[-2:]:
        if entry.clock_ms is None and entry.ply not in matched:
            book.recorded(entry.ply, entry.side, entry.t)
    for event in waiting:
        book.press(ClockPress(event.t, event.side, event.red_ms, event.black_ms))


def presses_after(presses: Iterable[ClockPress] | None, point: ResumePoint | None) -> list[ClockPress] | None:
    """The clock presses not yet stored (all of them when not resuming)."""
    if presses is None:
        return None
    if point is None or point.last_press_t is None:
        return list(presses)
    return [p for p in presses if p.t > point.last_press_t + 1e-6]


def skip_seen(items: Iterable[T], point: ResumePoint | None) -> Iterator[T]:
    """Frames (and gaps) of a file source after the time the interrupted run reached."""
    for item in items:
        t = getattr(item, "t", None)
        if point is not None and t is not None and t <= point.t:
            continue
        yield item


RESUME_GAP_S = 1.0
MAX_AWAY_S = 12 * 3600.0  # longer away than this: the wall clock was set, not the game paused


def resume_offset(point: ResumePoint | None, *, live: bool, now: float | None = None) -> float:
    """Where a resumed run's times start when its source's own times start at 0 again (a live source,
    or a game gone on with from another source): for a live source, where the game's time stands
    now by the wall clock (``ResumePoint.time_base``), so alert and move times keep matching the real
    time of the game and footage filmed meanwhile; ``RESUME_GAP_S`` after the last stored event for a
    file, whose times say nothing of when it was filmed, for a game stored before its events had
    wall-clock times (with only a console action stored since, the time since that action), and when
    the clock says the recorder was away for less than that or longer than ``MAX_AWAY_S`` (a clock set
    right while it was down). The stored events stay in time order.
    """
    if point is None:
        return 0.0
    offset = point.t + RESUME_GAP_S
    if live and point.time_base is not None:
        by_clock = (time.time() if now is None else now) + point.time_base
        if by_clock - point.t > MAX_AWAY_S:
            log.warning("the clock says the recorder was away %.0f s: taken as a clock set right meanwhile; "
                        "times go on %.0f s after the last stored event", by_clock - point.t, RESUME_GAP_S)
        else:
            offset = max(offset, by_clock)
    return offset


def resume_gap(point: ResumePoint, offset: float, *, moved: bool) -> Gap:
    """The time between the last stored event and a resumed run's first frame, as a gap of the
    source: the session logs it (``SourceGap``), and the resolver reads moves made meanwhile from
    the first still view (up to a few, with an alert) instead of finding no continuation."""
    return Gap(point.t, offset, SOURCE_CHANGED if moved else NOT_RECORDING, 0)


def continue_times(items: Iterable[T], offset: float) -> Iterator[T]:
    """Frames (and gaps and losses) of a live source with ``offset`` seconds added to their times."""
    for item in items:
        if isinstance(item, Frame):
            item = replace(item, t=item.t + offset)
        elif isinstance(item, Gap):
            item = replace(item, t=item.t + offset, t_resumed=item.t_resumed + offset)
        elif isinstance(item, Lost):
            item = replace(item, t=item.t + offset)
        yield item


def _public_source(source: str) -> str:
    """A stored source as the store names it now (a stream's URL without its password)."""
    return public_name(source) if "://" in source else source


def _interrupted_game(store: GameStore, game_id: int) -> GameRow:
    """Game ``game_id``, when it can be gone on with: open, and no recorder running on it."""
    try:
        game = store.game(game_id)
    except KeyError:
        raise ValueError(f"there is no game {game_id} in {store.path or 'the store'} (xqrec games lists them)") from None
    if game.void:
        raise ValueError(f"game {game_id} is void ({game.void}): take that back first (xqrec edit {game_id} --unvoid)")
    if game.state == "closed" and not _no_result(game):
        raise ValueError(f"game {game_id} is finished (result {game.result}): it cannot be gone on with; "
                         "record a new game (--new-game), or reopen it in the console (result *) if play went on")
    return game  # closed with no result: its file ended, and the camera's next file goes on with it


def _held_elsewhere(store: GameStore, game: GameRow, source: str, take_over: bool) -> None:
    """Refuse a game another recorder holds, saying which and the way on; with ``take_over``, end the
    session of one on another host (the store moved to a spare machine after the first one died:
    this machine cannot see whether that recorder runs, and the game had stayed refused for good)."""
    holder = store.recorder_of(game.id)
    if holder is None:
        return
    pid, host = holder
    if host == socket.gethostname():
        raise ValueError(f"game {game.id} for {source} is being recorded by another recorder on this machine "
                         f"(process {pid}): stop it first (Ctrl-C there, or kill {pid}), or record a new game "
                         "with --new-game")
    if not take_over:
        raise ValueError(f"game {game.id} is being recorded on {host} (process {pid}), as far as this machine can "
                         f"tell: if no recorder runs there any more (the store was moved here after that machine "
                         f"failed), go on with it here with --resume {game.id} --take-over")
    store.take_over(game.id, socket.gethostname())
    log.warning("game %d taken over from the recorder on %s (process %d): make sure it no longer runs, or both "
                "will record the game", game.id, host, pid)


def _no_result(game: GameRow) -> bool:
    """Has the game no result (``*``)? Closed so, its file ended and the next may go on with it."""
    return game.result in ("", "*")


def _a_game(state: str) -> str:
    """An open game in ``state`` (:attr:`GameRow.state`), in words."""
    return {"recording": "a game being recorded", "stopped": "a stopped game"}.get(state, "an interrupted game")


def _board_name(info: GameInfo) -> str:
    where = ", ".join(part for part in (f"round {info.round}" if info.round else "", info.event) if part)
    return f"board {info.board}" + (f" ({where})" if where else "")


def _board_taken(game: GameRow) -> str:
    """Why a new game is not started on a board that has one in the same round: the broadcast and the
    round's PGN would carry two games of that board (an organiser's tester), and the usual cause is a
    --round or --board left from the last round. A replayed game is asked for with --new-game."""
    if game.state == "closed" and not _no_result(game):
        what, way_on = f"a finished game (game {game.id}, result {game.result})", ""
    else:
        state = "a game closed when its file ended" if game.state == "closed" else _a_game(game.state)
        what = f"{state} (game {game.id}, from {game.source})"
        way_on = f"; to go on with it from this source, give --resume {game.id}"
    return (f"{_board_name(game.info)} already has {what}: check --event, --round and --board (left from the "
            f"last round?){way_on}; a second game on this board (a replayed game) is recorded with --new-game")


def _warn_of_earlier_games(others: list[GameRow], game_id: int) -> None:
    """Say so when a new game is asked for (``--new-game``) on a board that has games already (a
    replayed game is legitimate, a wrong ``--board`` is not, and the round's PGN will carry both)."""
    for game in others:
        if game.state == "closed":
            goes_on = (f"; if this source goes on with it, e.g. the camera's next file, give --resume {game.id}"
                       if _no_result(game) else "")
            log.warning("%s already has a finished game (game %d from %s, result %s): game %d is recorded as "
                        "another game of that board (a replayed game; otherwise check --board and --round%s)",
                        _board_name(game.info), game.id, game.source, game.result or "*", game_id, goes_on)
        else:
            log.warning("%s has %s (game %d from %s): game %d is a new game (to go on with "
                        "game %d, record from its source, or give --resume %d)", _board_name(game.info),
                        _a_game(game.state), game.id, game.source, game_id, game.id, game.id)


def _warn_of_same_source(stored: list[GameRow], source: str, game_id: int) -> None:
    """Say so when the source has an interrupted game on another board, round or event: a run after
    Ctrl-C with a mistyped ``--round`` or ``--board`` is not taken for a new game in silence (tester);
    and when a file recorded whole before is recorded again (the same command run twice)."""
    closed: list[GameRow] = []
    for game in stored:
        if game.id == game_id or _public_source(game.source) != _public_source(source):
            continue
        if game.state == "closed" and Path(source).is_file():  # a camera or stream films game after game
            closed.append(game)
        if game.waiting:
            log.warning("game %d, recorded from this same source (%s), is %s: game %d is a new game, as "
                        "--event/--round/--board name another board (to go on with game %d instead, give --resume %d)",
                        game.id, _board_name(game.info) if game.info.board is not None else "no board", game.state,
                        game_id, game.id, game.id)
    if len(closed) == 1:
        game = closed[0]
        log.warning("this file was recorded before as game %d (closed, %d plies, result %s): game %d records it "
                    "again (void the one not wanted: xqrec edit GAME --void REASON)", game.id, game.plies,
                    game.result or "*", game_id)
    elif closed:  # one line, not one an earlier run (a tester's ninth run printed nine)
        log.warning("this file was recorded before as games %s (closed): game %d records it again (void those not "
                    "wanted: xqrec edit GAME --void REASON)", ", ".join(str(game.id) for game in closed), game_id)


def _alike(name: str) -> str:
    """A tournament's or round's name as a typist may vary it: case, spacing, leading zeros."""
    return re.sub(r"\b0+(?=\d)", "", " ".join(name.casefold().split()))


def twin_name(stored: list[GameRow], info: GameInfo) -> str:
    """Why ``info`` names a tournament or round the store has by another spelling ("City open" beside
    "City Open", round "03" beside "3"), else "". Such a name is refused, not warned of: its games
    would be a tournament or round of their own, missing from the other's round PGN and broadcast,
    and a warning among a hall's recorders goes unread (an organiser tester)."""
    events = {game.info.event for game in stored}
    if info.event not in events:
        twins = sorted(event for event in events if event and _alike(event) == _alike(info.event))
        return (f"the event {info.event!r} is not in this store, which has {twins[0]!r}: give the name as the "
                "store has it (names differing only in case, spacing or leading zeros would file the games as a "
                "tournament of their own)") if twins else ""
    rounds = {game.info.round for game in stored if game.info.event == info.event}
    if info.round not in rounds:
        twins = sorted(name for name in rounds if name and _alike(name) == _alike(info.round))
        if twins:
            return (f"round {info.round!r} is not in {info.event or 'the games of no event'!r}, which has round "
                    f"{twins[0]!r}: give --round {twins[0]} (a round named differently only in case, spacing or "
                    "leading zeros would be a round of its own)")
    return ""


def near_names(stored: list[GameRow], info: GameInfo) -> list[str]:
    """Warnings for a new tournament named one slip of the keyboard away from one the store has
    ("City Opne 2026" beside "City Open 2026"; names with other digits are other tournaments), and
    for a game of a round without a board number (``twin_name`` refuses closer names)."""
    events = {game.info.event for game in stored}
    warnings = []
    if info.round and info.board is None:  # an organiser tester: such a game comes first in the round's PGN
        warnings.append(f"round {info.round!r} has no board number (--board): the game has no [Board] tag, and "
                        "the round's PGN, the broadcast and the console list it after the numbered boards")
    if info.event and info.event not in events:
        slips = sorted(event for event in events if event and _one_slip_apart(_alike(event), _alike(info.event)))
        if slips:
            warnings.append(f"the event {info.event!r} is new to this store, which has {slips[0]!r}: its games are "
                            "a tournament of their own (check --event; xqrec edit GAME --event changes it)")
    return warnings


def _one_slip_apart(a: str, b: str) -> bool:
    """Do two names differ by one typing slip: a letter left out, added, changed or two swapped? A
    name with other digits is another tournament ("Open 2025", "Open 2026"), and short names are
    too near one another to tell a slip."""
    if a == b or min(len(a), len(b)) < 6 or re.findall(r"\d+", a) != re.findall(r"\d+", b):
        return False
    words_a, words_b = a.split(), b.split()
    if len(words_a) == len(words_b):  # sections named by a short word ("Open A", "Open B"; 甲组, 乙组)
        differing = [(x, y) for x, y in zip(words_a, words_b, strict=True) if x != y]
        if len(differing) == 1 and max(len(differing[0][0]), len(differing[0][1])) <= 2:
            return False
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) > 1:
        return False
    start = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    if len(a) < len(b):  # one letter added
        return a[start:] == b[start + 1:]
    if a[start + 1:] == b[start + 1:]:  # one letter changed
        return True
    return a[start:start + 2] == b[start:start + 2][::-1] and a[start + 2:] == b[start + 2:]  # two swapped


STORE_RETRY_S = 2.0  # a store that refused an event is tried again after this long (host seconds)


def store_remedy(error: str) -> str:
    """What to do about the game store refusing a write with SQLite's ``error``: a tester's store
    locked by a database browser was told to free disk space."""
    said = error.lower()
    if "locked" in said or "busy" in said:
        return "close the program that holds it open (a database browser, a backup or sync tool)"
    if "readonly" in said or "read-only" in said:
        return "make the store's file and folder writable"
    if "full" in said:
        return "free some space"
    return "check the disk it is on"


@dataclass
class StoreRecording:
    """One run of the recorder writing to the store: the game, the session row, the event sink."""

    store: GameStore
    game_id: int
    resume: ResumePoint | None = None
    session_id: int = 0
    stored: int = field(default=0)
    moved: bool = False  # the game goes on from another source than it was recorded from
    moved_from: str = ""  # ... and the source it was recorded from until then
    reopened: bool = False  # it was closed with no result and is opened again to go on
    offset: float | None = None  # where this run's times start (``start_run``)
    _own: set[int] = field(default_factory=set)  # numbers of the events this run appended
    _seen: int = 0  # events up to this number have been looked at by ``corrections``
    # the result an arbiter marked in the console or with ``xqrec edit`` while this run records (None
    # once reopened): moves recorded after it are told (``moves_after_result``)
    result_marked: ResultMarked | None = None
    # foul alerts the arbiter ruled on in the console since the recorder last took them (alert, ruling)
    rulings: list[tuple[Alert, str]] = field(default_factory=list)
    # events the store would not take (a full disk, a store locked too long), in order, written as soon
    # as it takes them again: the recording goes on meanwhile (see ``sink``)
    backlog: list[Event] = field(default_factory=list)
    store_error: str = ""  # why the store last refused an event ("" once the backlog is written)
    _retry_at: float = 0.0  # the store is tried again from this (time.monotonic) on
    # what became of a store file removed or replaced while this run wrote to it ("" if nothing did):
    # its contents were written back from the file still held open (see ``_save_lost_store``)
    store_rescued: str = ""
    store_moved: bool = False  # ... and written to another path than the one it was opened at

    @classmethod
    def open(cls, store: GameStore, source: str, info: GameInfo | None = None,
             resume: bool = True, game_id: int | None = None, take_over: bool = False) -> StoreRecording:
        """The open game for ``source`` (and board) taken up again, or a new game; with ``game_id``
        that interrupted game, whatever its source was (the game then goes on from ``source``), and
        with ``take_over`` even when another host's recorder seems to hold it (see :func:`_held_elsewhere`)."""
        # one write transaction from the look at the board to the session row: two recorders started
        # together for one board each found it free, and both published a game on it
        with store.locked():
            if game_id is not None:
                found: GameRow | None = _interrupted_game(store, game_id)
                assert found is not None
                info = found.info
            else:
                found = store.find_open(source, info, key=_public_source) if resume else None
            if found is not None and found.state == "recording":
                _held_elsewhere(store, found, source, take_over)
                found = store.game(found.id)
            elif take_over:
                log.warning("--take-over: no recorder holds game %s; going on with it as --resume does",
                            found.id if found is not None else game_id)
            others = [game for game in store.games_on_board(info or GameInfo()) if found is None or game.id != found.id]
            busy = [game for game in others if game.state == "recording"]
            if busy:  # one board, one game at a time: a second camera on it would publish two games
                raise ValueError(f"{_board_name(busy[-1].info)} is being recorded now: game {busy[-1].id} from "
                                 f"{busy[-1].source} (stop that recorder first, or give the right --board)")
            if found is None and resume and others and (info or GameInfo()).round:
                # a second game of a board in one named round, unasked for (without a round, a club's board 1
                # of each evening is a game of its own)
                raise ValueError(_board_taken(others[-1]))
            if found is not None:
                if found.state == "closed":
                    log.warning("game %d was closed when its source ended, with no result: it is opened again and "
                                "goes on from %s", found.id, source)
                    store.reopen_game(found.id)
                point = resume_point(store, found.id)
                log.info("resuming game %d after ply %d (stored up to t=%.1f s)", found.id, point.ply, point.t)
                recording = cls(store, found.id, point, reopened=found.state == "closed")
                if found.source != source and _public_source(found.source) != source:
                    log.warning("game %d goes on from %s (it was recorded from %s)", found.id, source, found.source)
                    store.set_source(found.id, source)
                    recording.moved, recording.moved_from = True, found.source
            else:
                stored = store.games()
                twin = twin_name(stored, info or GameInfo())
                if twin:
                    raise ValueError(twin)
                near = near_names(stored, info or GameInfo())
                recording = cls(store, store.create_game(source, info))
                for text in near:
                    log.warning("%s", text)
                _warn_of_earlier_games(others, recording.game_id)
                if resume:
                    _warn_of_same_source(stored, source, recording.game_id)
            recording.session_id = store.begin_session(recording.game_id, recording.resume.ply if recording.resume else None)
            recording._seen = store.last_seq(recording.game_id)  # what is stored so far is in the resume point
            return recording

    def not_this_game(self) -> None:
        """The source this run took the game up from shows another game (``record --resume`` with the
        wrong number or camera): the game's source is set back, and a game this run opened again is
        closed again, as it was."""
        if self.moved:
            self.store.set_source(self.game_id, self.moved_from)
        # What this run wrote tells of another game: it is taken out (a tester's wrong resume left that
        # game's clock presses in, and its time: the right resume then skipped moves and was told of
        # presses without a move). Its alerts stay as a trace, at the time the game had reached, closed
        # with the reason, so the game's sheets and console do not show them as trouble of its own.
        own = [(seq, event) for seq, event in self.store.events_after(self.game_id, 0) if seq in self._own]
        reached = self.resume.t if self.resume is not None else 0.0
        why = "another game's: the run that took this game up from its source was stopped"
        at = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        with self.store.locked():
            self.store.withdraw(self.game_id, {
                seq: replace(event, t=reached) if isinstance(event, Alert) else
                EventWithdrawn(reached, type(event).__name__, why) for seq, event in own})
            self._own.clear()
            for seq, event in own:
                if isinstance(event, Alert):
                    self.store.append(self.game_id, AlertAcknowledged(reached, seq, event.kind, "recorder",
                                                                      "raised on another game's board: the run that "
                                                                      "took this game up from it was stopped, and what "
                                                                      "it recorded was taken out", at))
        if self.reopened:
            self.store.close_game(self.game_id)
            self.reopened = False

    def abandon(self) -> None:
        """This run will not record after all (refused once its game was found): its session ends, and a
        game it opened again is closed again, as it was."""
        self.store.end_session(self.session_id)
        if self.reopened:
            self.store.close_game(self.game_id)
            self.reopened = False

    def start_run(self, *, seekable: bool, live: bool) -> float:
        """Where this run's times start, fixed once as the source is about to be read: 0 for a new
        game; for a resumed one the stored time it stopped at (the same file, read on from there) or
        later (a live source or another source, whose times start at 0 again: ``resume_offset``)."""
        if self.resume is None:
            self.offset = 0.0
        elif seekable and not self.moved:
            self.offset = self.resume.t
        else:
            self.offset = resume_offset(self.resume, live=live)
        return self.offset

    def sink(self, event: Event) -> None:
        """Commit one event; a stop at the end of the source closes the game (in the same transaction),
        and so does any stop of a game whose result is known (the rules decided it, or the arbiter
        marked it): it is over, not waiting for its recorder to go on.

        A store that will not take it (a full disk, a store another program holds locked) does not
        stop the recording: the event waits in ``backlog``, with the ones after it, and they are
        written in order as soon as the store takes them again (a tester's full disk had stopped a
        recording at ply 9 of 30 for good, and its PGN and scoresheet were never written)."""
        self.backlog.append(event)
        if self.store_error and time.monotonic() < self._retry_at and not isinstance(event, RecordingStopped):
            return  # tried a moment ago: a store locked by another program makes each try wait its timeout
        try:
            self._save_lost_store()
            while self.backlog:
                waiting = self.backlog[0]
                result = None
                if isinstance(waiting, RecordingStopped):
                    known = rebuild([*self.store.events(self.game_id), waiting]).result
                    if waiting.reason == "end of source" or known != "*":
                        result = known
                self._own.add(self.store.append(self.game_id, waiting, close_with=result))
                self.backlog.pop(0)
                self.stored += 1
                if isinstance(waiting, RecordingStopped):
                    self.store.end_session(self.session_id)
        except sqlite3.OperationalError as error:
            if not self.store_error:
                log.warning("the game store %s cannot be written (%s): recording goes on, and what is recorded "
                            "meanwhile is written to it as soon as it can be (%s)", self.store.path, error,
                            store_remedy(str(error)))
            self.store_error = str(error)
            self._retry_at = time.monotonic() + STORE_RETRY_S
            return
        if self.store_error:
            log.warning("the game store %s is written again: nothing recorded meanwhile was lost", self.store.path)
            self.store_error = ""

    def _save_lost_store(self) -> None:
        """A store file removed (or another put in its place) while this run writes: SQLite goes on
        writing to the file it holds open, which vanishes with the recorder. Its contents, every game,
        are written back to the path (beside it, where another file took it) and the run goes on there
        (a tester's ``rm`` of the store mid-game lost the game, and the recorder said it was stored)."""
        lost = self.store.lost()
        if not lost:
            return
        was = self.store.path
        now = self.store.save_elsewhere()
        self.store_moved = self.store_moved or now != was
        held = was is not None and any(Path(f"{was}{end}").exists() for end in ("-wal", "-shm"))
        where = ("written back to it" if now == was else
                 f"written to {now} (the file now at {was} is not touched)" if was is not None and was.exists() else
                 f"written to {now} (its write-ahead files are still there, held by another program)" if held else
                 f"written to {now} (its folder could not take it)")
        self.store_rescued = (f"the game store {was} was {lost} while recording: everything it held, this game "
                              f"included, was {where}, and the recording went on there")
        log.warning("%s", self.store_rescued)

    def events(self) -> list[Event]:
        """The game's whole log: what the store holds and what still waits to be written to it."""
        return [*self.store.events(self.game_id), *self.backlog]

    def corrections(self) -> list[MoveCorrected | PositionRestored]:
        """Moves the arbiter corrected or took back in the console (another process) since the last call.

        The console appends its events to the game this run records; a corrected move changes the
        position the recorder must judge the board against, so the recorder asks between frames.
        """
        found = self.store.events_after(self.game_id, self._seen)
        if found:
            self._seen = found[-1][0]
        for seq, event in found:
            if isinstance(event, ResultMarked) and seq not in self._own:
                self.result_marked = event if event.result else None
            if isinstance(event, AlertAcknowledged) and event.ruling and seq not in self._own:
                target = self.store.events_after(self.game_id, event.seq - 1)[:1]
                if target and target[0][0] == event.seq and isinstance(target[0][1], Alert):
                    self.rulings.append((target[0][1], event.ruling))
        return [event for seq, event in found if seq not in self._own and (
            isinstance(event, MoveCorrected) or isinstance(event, PositionRestored) and event.by)]

    def game(self) -> RecordedGame:
        """The whole game as stored (all runs together), with what still waits to be written."""
        return rebuild(self.events())
