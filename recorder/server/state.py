"""A game's live state for the console, built from its stored event log.

:func:`read_game_events` reads the log with each event's store numbers (``id``: the row number,
increasing across all games, used as the Server-Sent Events id; ``seq``: its number within the
game, which the arbiter's acknowledgement names). :func:`game_state` replays it into what a tile
and the game page show: the position, the moves in Chinese notation with clock times, both
clocks and which one runs, every alert with its acknowledgement and still frame, the advice for the
arbiter (an advisory ``GameEnded``: perpetual check, the natural limit...; open until acknowledged or
the game has a result), the result.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass
from typing import Any

from recorder.events import (
    FOUL,
    IMPORTED,
    NO_FOUL,
    Alert,
    AlertAcknowledged,
    AlertFrame,
    BoardDisturbed,
    ClockNoted,
    ClockPressed,
    Comment,
    DetailsEdited,
    Event,
    GameEnded,
    MoveCorrected,
    MoveRecorded,
    PositionRestored,
    RecordingStarted,
    RecordingStopped,
    ResultMarked,
    SourceGap,
    damaged_record,
    event_from_stored,
    event_to_json,
    kind_title,
    recording_time,
)
from recorder.exports.pgn import article_words, correction_text, taken_back_text, termination
from recorder.fouls import FOUL_KINDS, FOUL_REASONS
from recorder.scoresheet import advice_withdrawn, rebuild, round_of
from recorder.store.db import GameRow
from rules import START_FEN, InvalidFenError, Move, Position, format_move
from rules.squares import BLACK, RED

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class StoredEvent:
    """One event of the store with its row number (``id``, all games) and number in its game (``seq``)."""

    id: int
    game_id: int
    seq: int
    event: Event
    wall: float | None = None  # when the store got it (Unix seconds): a running clock counts from there


def _stored(row: sqlite3.Row | tuple[Any, ...], before: list[Event] | None = None) -> StoredEvent:
    """One stored row; a row that cannot be read (damaged, or a newer recorder's event) stands as a
    ``record_damaged`` alert, dated by the game's events ``before`` it where known, as the exports read it."""
    try:
        event = event_from_stored(row[3])
    except ValueError as error:
        log.warning("event %s of game %s unreadable: %s", row[2], row[1], error)
        event = damaged_record(int(row[2]), str(error), before or [])
    wall = float(row[4]) if len(row) > 4 and row[4] is not None else None
    return StoredEvent(int(row[0]), int(row[1]), int(row[2]), event, wall)


def read_game_events(db: sqlite3.Connection, game_id: int) -> list[StoredEvent]:
    """The game's events in order, with their store numbers."""
    rows = db.execute("SELECT rowid, game_id, seq, data, wall FROM events WHERE game_id = ? ORDER BY seq", (game_id,))
    found: list[StoredEvent] = []
    events: list[Event] = []  # the same events, the context of a row that cannot be read
    for row in rows:
        found.append(_stored(row, events))
        events.append(found[-1].event)
    return found


def events_after(db: sqlite3.Connection, after_id: int, limit: int = 5000) -> list[StoredEvent]:
    """Events of every game stored after row ``after_id``, oldest first (at most ``limit``)."""
    rows = db.execute("SELECT rowid, game_id, seq, data, wall FROM events WHERE rowid > ? ORDER BY rowid LIMIT ?",
                      (after_id, limit))
    return [_stored(row) for row in rows]


def last_event_id(db: sqlite3.Connection) -> int:
    """The row number of the newest stored event (0 for an empty store): cheap, the watcher polls it."""
    row = db.execute("SELECT MAX(rowid) FROM events").fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def _info(game: GameRow) -> dict[str, Any]:
    info = game.info
    return {"id": game.id, "event": info.event, "site": info.site, "round": info.round, "date": info.date,
            "board": info.board, "red": info.red, "black": info.black, "time_control": info.time_control,
            "source": game.source, "state": game.state, "void": game.void, "created": game.created}


def _alert(stored: StoredEvent, fen: str, frame_url: str | None) -> dict[str, Any]:
    alert = stored.event
    assert isinstance(alert, Alert)
    data = event_to_json(alert)
    data.update(seq=stored.seq, id=stored.id, fen=fen, frame=frame_url, acknowledged=None, title=kind_title(alert.kind),
                foul=alert.kind in FOUL_KINDS)  # the arbiter may rule it no foul
    if isinstance(alert, BoardDisturbed) and alert.fen_seen:
        data["fen_seen"] = alert.fen_seen
    return data


def game_state(game: GameRow, events: list[StoredEvent]) -> dict[str, Any]:
    """The game as the console shows it (JSON-ready)."""
    start = START_FEN
    moves: list[dict[str, Any]] = []
    alerts: list[dict[str, Any]] = []
    by_seq: dict[int, dict[str, Any]] = {}
    # ``wall``: when the store got the last clock times (Unix s): the pages run the clock on from there
    clocks: dict[str, Any] = {"red_ms": None, "black_ms": None, "running": None, "t": None, "wall": None}
    ended: dict[str, Any] | None = None
    advice: list[dict[str, Any]] = []
    actions: list[dict[str, Any]] = []
    comments: list[dict[str, Any]] = []  # an imported record's own words (an annotator's): shown, never alerts
    standing: list[dict[str, Any]] = []  # the board's troubles raised since the last move or restoration
    # the clocks as they stood once each ply was made and pressed (at the start: not known yet)
    clocks_after: dict[int, dict[str, Any]] = {0: dict(clocks)}
    marked: dict[int, tuple[str, Any]] = {}  # ply -> (iccs, rivals) of marked moves a later event replaced
    stopped = False
    imported = False  # read from a PGN file: its events' times are no recording's
    t_last = 0.0
    for stored in events:
        event = stored.event
        t_last = max(t_last, event.t)
        if isinstance(event, RecordingStarted):
            start = event.start_fen or START_FEN
            stopped = False
        elif isinstance(event, RecordingStopped):
            stopped = True
            imported = imported or event.reason == IMPORTED
        elif isinstance(event, MoveRecorded):
            standing = []  # the board went on from there: no longer waiting to be put back
            marked.update({m["ply"]: (m["iccs"], m["rivals"]) for m in moves[event.ply - 1:] if "rivals" in m})
            del moves[event.ply - 1:]
            entry = {"ply": event.ply, "iccs": event.iccs, "chinese": event.chinese, "side": event.side,
                     "fen": event.fen_after, "t": event.t, "confidence": event.confidence,
                     "clock_ms": event.red_ms if event.side == RED else event.black_ms, "seq": stored.seq}
            if event.rivals:  # the camera could not rule these out: the console marks the move for a look
                entry["rivals"] = _rivals(moves[-1]["fen"] if moves else start, event.rivals)
            elif (isinstance(event, MoveCorrected) and event.was == event.iccs
                  and marked.get(event.ply, ("", []))[0] == event.iccs):
                entry["rivals"] = marked[event.ply][1]  # a later ply carried over by a correction keeps its mark
            if isinstance(event, MoveCorrected) and event.was != event.iccs:  # not a later ply carried over
                entry.update(corrected_by=event.by, was=event.was, added=not event.was)
                actions.append({"seq": stored.seq, "type": "MoveCorrected", "by": event.by, "at": event.at,
                                "text": correction_text(event, _numbering(start))})
            moves.append(entry)
            if event.red_ms is not None and event.black_ms is not None:
                clocks.update(red_ms=event.red_ms, black_ms=event.black_ms, t=event.t, wall=stored.wall)
            clocks_after[event.ply] = dict(clocks)
            if ended is not None and ended["ply"] >= event.ply and not ended["marked"]:
                ended = None  # the position it was judged on is gone (the arbiter's own result stands)
        elif isinstance(event, ClockPressed):
            clocks.update(red_ms=event.red_ms, black_ms=event.black_ms, t=event.t, wall=stored.wall,
                          running=BLACK if event.side == RED else RED)
            if event.ply is not None and 0 < event.ply <= len(moves) and moves[event.ply - 1]["side"] == event.side:
                moves[event.ply - 1]["clock_ms"] = event.red_ms if event.side == RED else event.black_ms
                clocks_after[event.ply] = dict(clocks)
        elif isinstance(event, PositionRestored):
            del moves[event.ply:]
            if event.taken_back and event.ply in clocks_after:  # the times of the position gone back to (a
                # tester's tiles kept showing the clocks of a move taken back)
                clocks.update(clocks_after[event.ply])
            for note in (*alerts, *advice, *comments):  # about moves taken back: at the ply gone back to, as on
                if note["ply"] is not None and note["ply"] > event.ply:  # the sheets (a later move is another one)
                    note.update(ply=event.ply, taken_back=True)
            if ended is not None and ended["ply"] > event.ply and not ended["marked"]:
                ended = None  # the position it was judged on is gone (the arbiter's own result stands)
            if event.by:  # taken back in the console (the recorder's own restorations are alerts' business)
                actions.append({"seq": stored.seq, "type": "PositionRestored", "by": event.by, "at": event.at,
                                "text": taken_back_text(event, _numbering(start))})
            else:  # the board put right: the trouble standing on it says so (an arbiter tester saw the
                # illegal move's alert stay as it was, with nothing of the position put back)
                put_back = (f"the board was put back at {recording_time(event.t)} into the recording, as it stood "
                            f"{round_of(event.ply, _numbering(start))}"
                            + (f" ({len(event.taken_back)} recorded move(s) taken back)" if event.taken_back else ""))
                for trouble in standing:
                    trouble["back"] = put_back
            standing = []
        elif isinstance(event, GameEnded):
            item: dict[str, Any] = {"ply": event.ply, "result": event.result, "reason": event.reason,
                                    "title": kind_title(event.reason), "article": event.article, "text": event.text,
                                    "by": event.by if isinstance(event, ResultMarked) else "",
                                    "marked": isinstance(event, ResultMarked)}
            if event.advisory:  # the arbiter's ruling is called for: acknowledged like an alert
                item.update(seq=stored.seq, id=stored.id, t=event.t, acknowledged=None,
                            fen=moves[-1]["fen"] if moves else start, judged=list(event.judged))
                advice.append(item)
                by_seq[stored.seq] = item
            elif isinstance(event, ResultMarked) and event.result is None:
                ended = None  # reopened (result *): play goes on, the sheet shows no end
            else:
                ended = item
            if isinstance(event, ResultMarked):
                said = f"result {event.result}" if event.result else "result reopened (*)"
                actions.append({"seq": stored.seq, "type": "ResultMarked", "by": event.by, "at": event.at,
                                "text": said + (f": {event.text}" if event.text else "")})
        elif isinstance(event, Comment):
            comments.append({"ply": event.ply, "text": event.text})
        elif isinstance(event, Alert):
            fen = moves[-1]["fen"] if moves else start
            item = _alert(stored, fen, None)
            alerts.append(item)
            by_seq[stored.seq] = item
            if event.kind in BOARD_TROUBLE:
                standing.append(item)
        elif isinstance(event, SourceGap | ClockNoted):
            # the equipment came back: the alert that said it was gone says so too (still to be acknowledged)
            kinds, back = (("camera_lost",), f"the picture came back at {recording_time(event.t_resumed)} into the recording") \
                if isinstance(event, SourceGap) else (("clock_disconnected", "no_clock"), event.text)
            if isinstance(event, SourceGap) or event.kind == "clock_connected":
                gone = next((a for a in reversed(alerts) if a["kind"] in kinds and "back" not in a), None)
                if gone is not None:
                    gone["back"] = back
        elif isinstance(event, AlertFrame):
            for item in reversed(alerts):
                if abs(float(item["t"]) - event.t) < 1e-6 and item["frame"] is None:
                    item["frame"] = f"/api/games/{game.id}/frames/{stored.seq}"
                    break
        elif isinstance(event, DetailsEdited):
            actions.append({"seq": stored.seq, "type": "DetailsEdited", "by": event.by, "at": event.at,
                            "text": "; ".join(event.changes)})
        elif isinstance(event, AlertAcknowledged):
            target = by_seq.get(event.seq)
            if target is not None:
                target["acknowledged"] = {"by": event.by, "at": event.at, "note": event.note, "seq": stored.seq,
                                          "ruling": event.ruling}
            what = "advice" if target is not None and "reason" in target else "alert"
            actions.append({"seq": stored.seq, "type": "AlertAcknowledged", "by": event.by, "at": event.at,
                            "text": f"{what} #{event.seq} ({kind_title(event.kind)}) "
                                    + {NO_FOUL: "ruled no foul", FOUL: "ruled a foul after all"}.get(event.ruling,
                                                                                                   "acknowledged")
                                    + (f": {event.note}" if event.note else "")})
    fen = moves[-1]["fen"] if moves else start
    if clocks["running"] is None and clocks["red_ms"] is not None:
        clocks["running"] = _side_to_move(fen)
    if ended is not None or stopped:
        clocks["running"] = None
    result = ended["result"] if ended is not None and ended["result"] else game.result or "*"
    recorded = rebuild([stored.event for stored in events]) if any(item["reason"] in FOUL_REASONS for item in advice) else None
    for item in advice:  # open until acknowledged, or the game has its result (the arbiter ruled)
        # a foul loss advised, one of whose fouls the arbiter then ruled no foul: withdrawn, not open
        # (an arbiter tester's reopened game showed it open again, and filling its result in was refused)
        item["withdrawn"] = advice_withdrawn(recorded, item["reason"], item["result"]) if recorded else ""
        item["open"] = item["acknowledged"] is None and result == "*" and not item["withdrawn"]
        if imported:  # an imported game was not filmed: no time "into the recording" (an arbiter tester)
            item["t"] = None
    state = _info(game)
    state.update(start_fen=start, fen=fen, side_to_move=_side_to_move(fen), moves=moves, clocks=clocks,
                 alerts=alerts, open_alerts=sum(1 for a in alerts if a["acknowledged"] is None),
                 ended=ended, advice=advice, open_advice=sum(1 for a in advice if a["open"]), actions=actions, comments=comments,
                 result=result, t=t_last,
                 last_event_id=max((s.id for s in events), default=0))
    return state


def _rivals(fen_before: str, rivals: tuple[str, ...]) -> list[dict[str, str]]:
    """Each rival move (ICCS) with its Chinese notation from the position before the move."""
    named = []
    for iccs in rivals:
        try:
            chinese = format_move(Position.from_fen(fen_before), Move.from_iccs(iccs), "chinese")
        except ValueError:  # a log from another game or version: the ICCS still says it
            chinese = iccs
        named.append({"iccs": iccs, "chinese": chinese})
    return named


def _side_to_move(fen: str) -> str:
    try:
        return Position.from_fen(fen).side_to_move
    except ValueError:
        return RED


PUBLIC_FIELDS = ("id", "event", "site", "round", "date", "board", "red", "black", "time_control", "state",
                 "start_fen", "fen", "side_to_move", "clocks", "result")
PUBLIC_MOVE_FIELDS = ("ply", "iccs", "chinese", "side", "clock_ms")


def public_state(state: dict[str, Any]) -> dict[str, Any]:
    """What spectators see of a game's state: the board, the moves with their clock times, the clocks
    and how the game ended, as the broadcast PGN publishes them. The alerts, the advice for the
    arbiter, the arbiter's actions and notes, the camera's stills and the marks on unsure moves are
    the arbiter's (docs/console.md)."""
    data = {name: state[name] for name in PUBLIC_FIELDS}
    ended = state["ended"]
    moves = state["moves"]
    if ended is not None and ended["marked"] and ended["result"] and len(moves) > ended["ply"]:
        # moves recorded after a result the arbiter marked: analysis on the board after a resignation,
        # or the result is on the wrong game (the console asks); not published (see published_plies)
        moves = moves[:max(ended["ply"], 0)]
        data["fen"] = moves[-1]["fen"] if moves else state["start_fen"]
        data["side_to_move"] = _side_to_move(data["fen"])
    data["moves"] = [{name: move[name] for name in PUBLIC_MOVE_FIELDS} for move in moves]
    data["ended"] = None if ended is None else {name: ended[name] for name in ("ply", "result", "reason", "text", "article")}
    if ended is not None:  # how it ended, as the broadcast's Termination says (a result marked with an article alone)
        data["ended"]["termination"] = termination(ended["result"] or "", ended["reason"], ended["article"])
        if ended["marked"]:  # the rules' words for its article, never the arbiter's own (recorder.exports.pgn)
            data["ended"]["text"] = article_words(ended["article"] or "")
    return data


# the alerts that stand on the board until it is put right (not the clock's, nor the equipment's)
BOARD_TROUBLE = frozenset({"illegal_move", "wrong_side", "board_disturbed", "unexplained", "lost_track"})


def _numbering(start_fen: str) -> Position | None:
    """The start the console numbers moves from as the scoresheet does (None, naming plies, when a
    log's start cannot be read)."""
    try:
        return Position.from_fen(start_fen)
    except InvalidFenError:
        return None
