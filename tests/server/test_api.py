"""The console server's JSON API, the event stream, the arbiter's actions, exports and the broadcast PGN."""

from __future__ import annotations

import base64
import contextlib
import http.client
import json
import os
import shlex
import socket
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from recorder.events import (
    Alert,
    AlertAcknowledged,
    MoveCorrected,
    MoveRecorded,
    PositionRestored,
    RecordingStarted,
    ResultMarked,
)
from recorder.server import ServeConfig, check_bind, is_loopback, load_serve_config
from recorder.store import GameInfo, GameStore
from recorder.store.importer import import_pgn
from rules import Position, format_move, read_pgn
from tests.server.feeder import illegal_alert, recorder_events, truth


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, bytes, Any]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, reply.read(), reply.headers
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers


def post(url: str, body: dict[str, Any], user: str | None = None, password: str = "") -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if user is not None:
        headers["Authorization"] = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def record(db: Any, name: str = "game_short", board: int = 1, alert: bool = True) -> int:
    with GameStore(db) as store:
        game = store.create_game(f"{name}.mp4", GameInfo(event="Open", round="3", board=board, red="Li", black="Wang",
                                                         time_control="900+10"))
        events = list(recorder_events(name))
        for event in events:
            store.append(game, event)
        if alert:
            store.append(game, illegal_alert(events[-1].t + 1, 3))
    return game


def read_sse(url: str, headers: dict[str, str], count: int, timeout: float = 5.0) -> list[dict[str, Any]]:
    """The first ``count`` messages of an event stream (id and decoded data)."""
    host, port = url.split("//")[1].split("/")[0].split(":")
    path = "/" + url.split("//")[1].split("/", 1)[1]
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        extra = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n{extra}\r\n".encode())
        buffer, deadline = b"", time.monotonic() + timeout
        messages: list[dict[str, Any]] = []
        while len(messages) < count and time.monotonic() < deadline:
            buffer += sock.recv(65536)
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                fields = dict(line.split(": ", 1) for line in block.decode().splitlines() if ": " in line)
                if "data" in fields:
                    messages.append({"id": int(fields["id"]), **json.loads(fields["data"])})
        return messages


def test_games_state_has_position_moves_clocks_and_alerts(console: Any) -> None:
    game = record(console.db)
    status, body, _ = get(console.url + "/api/games")
    data = json.loads(body)
    assert status == 200 and data["last_event_id"] > 0
    (state,) = data["games"]
    assert state["id"] == game and state["board"] == 1 and state["red"] == "Li"
    plies = truth("game_short")["plies"]
    assert [m["iccs"] for m in state["moves"]] == [p["iccs"] for p in plies]
    assert [m["chinese"] for m in state["moves"][:3]] == ["兵七进一", "马8进7", "马八进七"]
    assert state["fen"] == plies[-1]["fen_after"]
    last = truth("game_short")["clock"]["presses"][len(plies) - 1]
    assert (state["clocks"]["red_ms"], state["clocks"]["black_ms"]) == (last["red_ms"], last["black_ms"])
    assert state["clocks"]["running"] == "red" and state["moves"][-1]["clock_ms"] == last["black_ms"]
    assert state["open_alerts"] == 1 and state["alerts"][0]["article"] == "2.2"
    assert state["alerts"][0]["fen"] == state["fen"]
    status, _, _ = get(console.url + "/api/games/999")
    assert status == 404


def test_a_move_the_camera_could_not_tell_from_another_names_it_in_the_state(console: Any) -> None:
    from dataclasses import replace

    with GameStore(console.db) as store:
        game = store.create_game("camera-1", GameInfo(board=1))
        for event in recorder_events("game_short"):
            if isinstance(event, MoveRecorded) and event.ply == 3:  # b0c2 read where glare hid a2
                event = replace(event, rivals=("b0a2",))
            store.append(game, event)
    status, body, _ = get(console.url + f"/api/games/{game}")
    moves = json.loads(body)["moves"]
    assert status == 200 and moves[2]["iccs"] == "b0c2"
    assert moves[2]["rivals"] == [{"iccs": "b0a2", "chinese": "马八进九"}]
    assert all("rivals" not in m for m in moves if m["ply"] != 3)
    # the arbiter corrects ply 2: ply 3 is logged again, carried over, and keeps its mark
    status, _ = post(console.url + f"/api/games/{game}/correct", {"ply": 2, "move": "h9i7"}, user="Zhang Wei")
    assert status == 200
    moves = json.loads(get(console.url + f"/api/games/{game}")[1])["moves"]
    assert [m["iccs"] for m in moves[:3]] == ["c3c4", "h9i7", "b0c2"]
    assert moves[2]["rivals"] == [{"iccs": "b0a2", "chinese": "马八进九"}] and "rivals" not in moves[1]


def test_an_equipment_alert_says_when_the_camera_or_clock_came_back(console: Any) -> None:
    from recorder.events import Alert, ClockNoted, SourceGap

    with GameStore(console.db) as store:
        game = store.create_game("camera-1", GameInfo(board=1))
        store.append(game, RecordingStarted(0.0, "camera-1", Position.start().fen()))
        store.append(game, Alert(10.0, "camera_lost", (), "", "the camera gave no picture from 10.0 s", 0))
        store.append(game, Alert(12.0, "clock_disconnected", (), "21.4", "clock on /dev/ttyUSB0 lost", 0))
        store.append(game, SourceGap(10.0, 24.5, "no frame for 3.0 s", 5))
        store.append(game, ClockNoted(30.0, "clock_connected", "clock back on /dev/ttyUSB0 after a 18.0 s gap"))
    alerts = json.loads(get(console.url + f"/api/games/{game}")[1])["alerts"]
    assert [(a["kind"], a.get("back")) for a in alerts] == [
        ("camera_lost", "the picture came back at 0:00:24.5 into the recording"),
        ("clock_disconnected", "clock back on /dev/ttyUSB0 after a 18.0 s gap")]
    assert all(a["acknowledged"] is None for a in alerts)  # the arbiter still sees them


def test_a_board_trouble_says_when_the_board_was_put_back(console: Any) -> None:
    # an arbiter tester: the recorder logged the position restored after an illegal move, but the
    # console showed the alert as it was, with nothing of the board put right
    from recorder.events import BoardDisturbed, IllegalMoveAlert, PositionRestored

    start = Position.start()
    with GameStore(console.db) as store:
        game = store.create_game("camera-1", GameInfo(board=1))
        store.append(game, RecordingStarted(0.0, "camera-1", start.fen()))
        store.append(game, BoardDisturbed(3.0, "board_disturbed", ("a0",), "5.9", "a chariot knocked", 0))
        store.append(game, MoveRecorded(6.0, 1, "h2e2", "炮二平五", "red", start.play("h2e2").fen(), 0.99))
        store.append(game, IllegalMoveAlert(9.0, "illegal_move", ("a9", "b8"), "2.2", "the chariot moves straight",
                                            1, piece="r", violation="geometry", iccs="a9b8"))
        store.append(game, PositionRestored(12.5, 1, start.play("h2e2").fen()))
    alerts = json.loads(get(console.url + f"/api/games/{game}")[1])["alerts"]
    assert [(a["kind"], a.get("back")) for a in alerts] == [
        ("board_disturbed", None),  # the game went on past it: not this restoration's
        ("illegal_move", "the board was put back at 0:00:12.5 into the recording, as it stood after move 1 (red)")]
    assert all(a["acknowledged"] is None for a in alerts)  # the arbiter still rules on the foul


def test_event_stream_sends_new_events_and_continues_after_last_event_id(console: Any) -> None:
    game = record(console.db, alert=False)
    _, body, _ = get(console.url + "/api/games")
    since = json.loads(body)["last_event_id"]
    with GameStore(console.db) as store:
        seq = store.append(game, illegal_alert(20.0, 3))
        store.append(game, AlertAcknowledged(20.5, seq, "illegal_move", "Zhang"))
    first = read_sse(console.url + f"/api/events?since={since}", {}, 2)
    assert [m["event"]["type"] for m in first] == ["IllegalMoveAlert", "AlertAcknowledged"]
    assert first[0]["id"] == since + 1 and first[1]["state"]["alerts"][0]["acknowledged"]["by"] == "Zhang"
    # a reconnect names the last id it saw: only what came after it is sent (the header wins over ?since)
    again = read_sse(console.url + "/api/events?since=0", {"Last-Event-ID": str(first[0]["id"])}, 1)
    assert [m["id"] for m in again] == [first[1]["id"]]
    # from the very start: the store is read for what the feed no longer holds
    replay = read_sse(console.url + "/api/events", {"Last-Event-ID": "0"}, 3)
    assert [m["event"]["type"] for m in replay[:3]] == ["RecordingStarted", "MoveRecorded", "ClockPressed"]
    assert [m["id"] for m in replay] == sorted({m["id"] for m in replay})  # each once, in order


def test_a_result_the_rules_decided_cannot_be_changed_or_reopened(console: Any) -> None:
    start = "3k5/9/9/9/9/9/9/9/9/RR2K4 w - - 0 1"
    with GameStore(console.db) as store:
        game = store.create_game("mate.mp4", GameInfo(event="Open", round="1", board=2))
        store.append(game, RecordingStarted(0.0, "mate.mp4", start, "ab" * 32))
        mated = Position.from_fen(start).play("b0d0")
        store.append(game, MoveRecorded(3.0, 1, "b0d0", "车八平六", "red", mated.fen(), 0.99, 3.0))
    url = f"{console.url}/api/games/{game}"
    for wrong in ("*", "0-1", "1/2-1/2"):
        status, reply = post(url + "/result", {"result": wrong}, "Zhang")
        assert status == 409 and "black checkmated (art. 4.1.1) at ply 1: the result is 1-0" in reply["error"]
    status, reply = post(url + "/result", {"result": "1-0"}, "Zhang")
    assert status == 200 and reply["state"]["result"] == "1-0"
    status, reply = post(url + "/correct", {"ply": 1, "move": "b0b8"}, "Zhang")  # the record was wrong:
    assert status == 200
    status, reply = post(url + "/result", {"result": "1-0"}, "Zhang")  # now a stalemate, still red's win
    assert status == 200
    assert "stalemated (art. 4.1.2)" in post(url + "/result", {"result": "*"}, "Zhang")[1]["error"]
    # the arbiter's reason lets another result stand: a draw agreed, the moves after it analysis
    status, reply = post(url + "/result", {"result": "1/2-1/2", "text": "draw agreed at ply 0",
                                          "article": "4.2.1"}, "Zhang")
    assert status == 200 and reply["state"]["result"] == "1/2-1/2"
    # the article chosen ("how") is the broadcast's Termination
    assert b'[Termination "normal"]' in get(f"{console.url}/broadcast/round/Open/1.pgn")[1]


def test_actions_are_events_naming_the_arbiter(console: Any) -> None:
    game = record(console.db)
    url = f"{console.url}/api/games/{game}"
    seq = json.loads(get(url)[1])["alerts"][0]["seq"]
    status, reply = post(url + "/ack", {"seq": seq})
    assert status == 401  # no name given
    status, reply = post(url + "/ack", {"seq": seq, "note": "warned red"}, "Zhang")
    assert status == 200 and reply["state"]["open_alerts"] == 0
    assert post(url + "/ack", {"seq": seq}, "Zhang")[0] == 409  # already done
    status, reply = post(url + "/correct", {"ply": 3, "move": "b0a2"}, "Zhang")
    assert status == 409 and "ply 7 (c2d4) is no longer legal" in reply["error"]
    assert post(url + "/correct", {"ply": 10, "move": "h2h9"}, "Zhang")[0] == 409  # not a legal move
    status, reply = post(url + "/correct", {"ply": 10, "move": "卒5进1"}, "Zhang")
    assert status == 200 and reply["state"]["moves"][9]["iccs"] == "e6e5"
    assert len(reply["state"]["moves"]) == 10
    status, reply = post(url + "/result", {"result": "1-0", "text": "black resigned"}, "Zhang")
    assert status == 200 and reply["state"]["result"] == "1-0"
    assert post(url + "/result", {"result": "2-0"}, "Zhang")[0] == 400  # no result at all: malformed
    status, reply = post(url + "/correct", {"ply": 3, "move": "xyz"}, "Zhang")  # no move in any notation
    assert status == 400 and "ICCS (h2e2), WXF (C2.5) or Chinese" in reply["error"]
    assert post(url + "/correct", {"ply": "3", "move": "h2e2"}, "Zhang")[0] == 400
    assert post(url + "/ack", {"seq": "1"}, "Zhang")[0] == 400
    with GameStore(console.db) as store:
        events = store.events(game)
        assert store.game(game).result == "1-0"
    acts = [e for e in events if isinstance(e, AlertAcknowledged | MoveCorrected | ResultMarked)]
    assert [type(e).__name__ for e in acts] == ["AlertAcknowledged", "MoveCorrected", "ResultMarked"]
    assert all(e.by == "Zhang" and e.at.endswith("Z") for e in acts)
    corrected = acts[1]
    assert isinstance(corrected, MoveCorrected)
    assert corrected.was == "b7a7" and corrected.iccs == "e6e5" and corrected.chinese == "卒5进1"


def test_the_arbiter_takes_back_plies_recorded_after_the_game(console: Any) -> None:
    """Moves played on in analysis after the end (or a spurious move) are taken back in the console:
    kept in the log, named in the exports, gone from the record."""
    game = record(console.db)
    url = f"{console.url}/api/games/{game}"
    moves = [m["iccs"] for m in json.loads(get(url)[1])["moves"]]
    assert len(moves) > 8
    assert post(url + "/takeback", {"ply": len(moves)}, "Zhang")[0] == 409  # nothing after the last ply
    assert post(url + "/takeback", {"ply": -1}, "Zhang")[0] == 400
    assert post(url + "/takeback", {"ply": "8"}, "Zhang")[0] == 400
    status, reply = post(url + "/takeback", {"ply": 8, "was": "a0a1"}, "Zhang")  # the page showed another record
    assert status == 409 and "has changed since your page showed it" in reply["error"]
    before = json.loads(get(url)[1])["moves"]
    status, reply = post(url + "/takeback", {"ply": 8, "was": moves[-1]}, "Zhang")
    assert status == 200 and [m["iccs"] for m in reply["state"]["moves"]] == moves[:8]
    # the clocks as they stood after ply 8, not the times of a move taken back (a tester's tiles)
    clocks = reply["state"]["clocks"]
    assert (clocks["red_ms"], clocks["black_ms"]) != (None, None)
    assert {clocks["red_ms"], clocks["black_ms"]} & {m["clock_ms"] for m in before[6:8]}
    (act,) = [a for a in reply["state"]["actions"] if a["type"] == "PositionRestored"]
    assert act["by"] == "Zhang" and act["text"].startswith("move 5 (red) to move ")
    assert act["text"].endswith("the record goes on after move 4 (black)")  # numbered as on the sheet
    assert all(f"({iccs})" in act["text"] for iccs in moves[8:])
    with GameStore(console.db) as store:
        (taken,) = [e for e in store.events(game) if isinstance(e, PositionRestored)]
    assert taken.ply == 8 and taken.taken_back == tuple(moves[8:]) and taken.by == "Zhang" and taken.at.endswith("Z")
    status, sheet, _ = get(f"{console.url}/games/{game}/export.txt")
    assert status == 200 and f"taken back: {' '.join(moves[8:])} (by Zhang)" in sheet.decode("utf-8")
    status, pgn, _ = get(f"{console.url}/games/{game}/export.pgn")
    (written,) = read_pgn(pgn.decode("utf-8"))
    assert [m.iccs for m in written.moves] == moves[:8] and "(by Zhang)" in pgn.decode("utf-8")
    # a result marked stands through a take-back, in the console and the exports alike (a tester's
    # 1-0 stayed on the tile while the exports said *); a move added after it is refused until reopened
    assert post(url + "/result", {"result": "1-0", "text": "black resigned"}, "Zhang")[0] == 200
    status, reply = post(url + "/takeback", {"ply": 6, "was": moves[7].upper()[:2] + "-" + moves[7].upper()[2:]}, "Zhang")
    assert status == 200 and reply["state"]["result"] == "1-0" and reply["state"]["ended"]["result"] == "1-0"
    status, pgn, _ = get(f"{console.url}/games/{game}/export.pgn")
    assert '[Result "1-0"]' in pgn.decode("utf-8")
    # a move added after a take-back gets no time of a move taken back
    assert post(url + "/result", {"result": "*"}, "Zhang")[0] == 200
    with GameStore(console.db) as store:
        times = {e.ply: (e.red_ms, e.black_ms) for e in store.events(game) if isinstance(e, MoveRecorded)}
    after = Position.start()
    for iccs in moves[:6]:
        after = after.play(iccs)
    other = next(m.iccs for m in after.legal_moves() if m.iccs != moves[6])
    status, reply = post(url + "/correct", {"ply": 7, "move": other, "was": ""}, "Zhang")
    assert status == 200 and reply["state"]["moves"][6]["iccs"] == other
    with GameStore(console.db) as store:
        (added,) = [e for e in store.events(game) if isinstance(e, MoveCorrected) and e.ply == 7]
    assert (added.red_ms, added.black_ms) != times[7] and added.red_ms is None


def test_password_guards_the_arbiters_data_and_actions(guarded: Any) -> None:
    # with a password the console's data (alerts, stills, notes) is the arbiter's too: the public has
    # /watch and the broadcast feed (a broadcaster tester found the alerts readable by anyone)
    game = record(guarded.db)
    url = f"{guarded.url}/api/games/{game}"
    assert get(url)[0] == 401
    status, page, _ = get(f"{guarded.url}/games/{game}", {"Accept": "text/html"})
    assert status == 401 and b"href=/watch>" in page and b"Console<" not in page  # turned away: the public boards
    signed_in = {"Authorization": "Basic " + base64.b64encode(b"Zhang:correct horse battery").decode()}
    assert get(url, signed_in)[0] == 200
    seq = json.loads(get(url, signed_in)[1])["alerts"][0]["seq"]
    assert get(f"{guarded.url}/api/public/games")[0] == 200 and get(f"{guarded.url}/broadcast/live.pgn")[0] == 200
    status, reply = post(url + "/ack", {"seq": seq, "by": "Zhang"})
    assert status == 401 and reply["error"] == "the arbiter's password is needed for this"
    status, reply = post(url + "/ack", {"seq": seq}, "Zhang", "wrong password")
    assert status == 401 and reply["error"] == "wrong password: nothing was done"  # not "needed" (tester)
    status, reply = post(url + "/ack", {"seq": seq}, "Zhang", "correct horse battery")
    assert status == 200 and reply["state"]["alerts"][0]["acknowledged"]["by"] == "Zhang"


def test_someone_guessing_the_password_is_logged_and_made_to_wait(guarded: Any,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    game = record(guarded.db)
    url = f"{guarded.url}/api/games/{game}/ack"
    answers = [post(url, {"all": True}, "x", f"guess {i}")[0] for i in range(11)]
    assert answers == [401] * 10 + [429]
    assert post(url, {"all": True}, "Zhang", "correct horse battery")[0] == 429  # for a minute, from there
    assert "wrong arbiter's password from 127.0.0.1 (10 in the last minute)" in caplog.text


def test_exports_and_broadcast_pgn(console: Any) -> None:
    one = record(console.db, board=2)
    two = record(console.db, "game_faults", board=1, alert=False)
    status, body, headers = get(f"{console.url}/games/{one}/export.pgn")
    assert status == 200 and "attachment" in headers["Content-Disposition"]
    (game,) = read_pgn(body.decode())
    assert game.headers["Red"] == "Li" and len(game.moves) == 10 and "[%clk 0:15:11]" in body.decode()
    status, body, _ = get(f"{console.url}/games/{one}/export.pdf")
    assert status == 200 and body.startswith(b"%PDF")
    status, body, headers = get(console.url + "/broadcast/live.pgn")
    games = read_pgn(body.decode())
    assert status == 200 and [g.headers["GameId"] for g in games] == [str(two), str(one)]
    assert get(console.url + "/broadcast/live.pgn", {"If-None-Match": headers["ETag"]})[0] == 304
    assert get(console.url + "/broadcast/round/Open/3.pgn")[0] == 200
    assert get(console.url + "/broadcast/round/Open/9.pgn")[0] == 404
    with GameStore(console.db) as store:
        store.append(one, illegal_alert(99.0, 3))
    # an alert is the arbiter's, not published: the relay's copy stands (it changed the tag before)
    assert get(console.url + "/broadcast/live.pgn", {"If-None-Match": headers["ETag"]})[0] == 304
    with GameStore(console.db) as store:
        last = [e for e in store.events(one) if isinstance(e, MoveRecorded)][-1]
        position = Position.from_fen(last.fen_after)
        move = position.legal_moves()[0]
        store.append(one, MoveRecorded(last.t + 5, last.ply + 1, move.iccs, format_move(position, move, "chinese"),
                                       position.side_to_move, position.play(move).fen(), 0.99))
    status, body, later = get(console.url + "/broadcast/live.pgn", {"If-None-Match": headers["ETag"]})
    assert status == 200 and later["ETag"] != headers["ETag"]
    assert f"{move.iccs[:2]}-{move.iccs[2:]}".upper() in body.decode()  # the new move, as the PGN writes it


def test_a_round_in_one_file_for_the_organiser(console: Any, guarded: Any) -> None:
    # an organiser tester: a round's scoresheets and text records were only on the command line
    one = record(console.db, board=2)
    two = record(console.db, "game_faults", board=1, alert=False)
    with GameStore(console.db) as store:
        spare = store.create_game("camera-9", GameInfo(red="Trying", black="The camera"))  # no event, no round
        for event in recorder_events("game_short", upto=2):
            store.append(spare, event)
    status, body, headers = get(f"{console.url}/rounds/export.pgn?event=Open&round=3&notation=chinese")
    assert status == 200 and headers["Content-Disposition"] == 'attachment; filename="Open R3.pgn"'
    assert [g.headers["GameId"] for g in read_pgn(body.decode())] == [str(two), str(one)]  # by board
    status, body, headers = get(f"{console.url}/rounds/export.pdf?event=Open&round=3&paper=A5")
    assert status == 200 and body.startswith(b"%PDF") and b"/Count 2" in body  # a sheet a page each
    status, body, _ = get(f"{console.url}/rounds/export.txt?event=Open&round=3")
    assert status == 200 and body.decode().count("Xiangqi scoresheet") == 2 and "Li" in body.decode()
    status, body, headers = get(f"{console.url}/rounds/export.txt?event=Open")  # no round: the whole event
    assert status == 200 and "all rounds" in headers["Content-Disposition"]
    status, body, _ = get(f"{console.url}/rounds/export.pgn?event=&round=")  # the games of no round
    assert status == 200 and [g.headers["GameId"] for g in read_pgn(body.decode())] == [str(spare)]
    status, body, _ = get(f"{console.url}/rounds/export.pgn?event=Open&round=9")
    assert status == 404 and "'3' of 'Open'" in json.loads(body)["error"]  # the rounds there are
    assert get(f"{console.url}/rounds/export.pgn")[0] == 400
    # only here does an empty value name something: elsewhere it is left out, as it was (a reviewer)
    assert get(f"{console.url}/games/{one}/export.pgn?notation=&paper=")[0] == 200
    assert get(f"{console.url}/broadcast/live.pgn?event=")[1] == get(f"{console.url}/broadcast/live.pgn")[1]
    assert get(f"{console.url}/rounds/export.doc?event=Open&round=3")[0] == 404
    assert get(f"{guarded.url}/rounds/export.txt?event=Open&round=3")[0] == 401  # the arbiter's, as a game's


def test_pages_and_static_files(console: Any) -> None:
    assert b"Arbiter console" in get(console.url + "/")[1]
    assert get(console.url + "/static/board.js")[0] == 200
    assert get(console.url + "/static/../app.py")[0] == 404
    assert get(console.url + "/static/%2e%2e/app.py")[0] == 404
    assert get(console.url + "/games/5")[0] == 404
    head = urllib.request.Request(console.url + "/api/events", method="HEAD")
    with urllib.request.urlopen(head, timeout=5) as reply:  # answers at once, no stream
        assert reply.headers["Content-Type"].startswith("text/event-stream")


def test_binding_off_loopback_needs_a_password(tmp_path: Any) -> None:
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.20")
    check_bind("127.0.0.1", ServeConfig())
    with pytest.raises(ValueError, match="password"):
        check_bind("0.0.0.0", ServeConfig())
    check_bind("0.0.0.0", ServeConfig(password="long enough"))
    config = tmp_path / "config.toml"
    config.write_text('[serve]\npassword = "long enough"\n', encoding="utf-8")
    assert load_serve_config(config).password == "long enough"
    config.write_text('[serve]\npasword = "typo"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="serve.pasword"):
        load_serve_config(config)
    config.write_text('[serve]\npassword = "short"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="serve.password"):
        load_serve_config(config)
    config.write_text('[serve]\npassword = "          "\n', encoding="utf-8")
    with pytest.raises(ValueError, match="besides spaces"):
        load_serve_config(config)


def test_serve_command_refuses_open_host_without_password(tmp_path: Any, capsys: Any, monkeypatch: Any) -> None:
    from recorder.cli import main

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert main(["serve", "--host", "0.0.0.0", "--db", str(tmp_path / "s.sqlite3")]) == 2
    assert "refusing to listen on 0.0.0.0 without a password" in capsys.readouterr().err
    assert main(["serve", "--db", str(tmp_path / "no" / "s.sqlite3")]) == 2
    assert "no folder" in capsys.readouterr().err and not (tmp_path / "no").exists()


def test_alert_still_frame_is_served_from_the_store_folder(console: Any) -> None:
    import cv2
    import numpy as np

    from recorder.events import AlertFrame

    game = record(console.db, alert=False)
    frames = console.db.parent / "frames"
    frames.mkdir()
    image = np.full((48, 64, 3), (30, 60, 200), np.uint8)
    assert cv2.imwrite(str(frames / "g1-45.0.jpg"), image)
    (console.db.parent / "secret.txt").write_text("no")
    with GameStore(console.db) as store:
        store.append(game, illegal_alert(45.0, 10))
        store.append(game, AlertFrame(45.0, "frames/g1-45.0.jpg", "illegal_move"))
        store.append(game, illegal_alert(46.0, 10))
        store.append(game, AlertFrame(46.0, "../../etc/hostname.jpg", "illegal_move"))
    alerts = json.loads(get(f"{console.url}/api/games/{game}")[1])["alerts"]
    status, body, headers = get(console.url + alerts[0]["frame"])
    assert status == 200 and headers["Content-Type"] == "image/jpeg" and body[:2] == b"\xff\xd8"
    assert get(console.url + alerts[1]["frame"])[0] == 404  # outside the store's folder


def test_a_game_without_a_round_does_not_take_the_live_feed_from_the_round(console: Any) -> None:
    one = record(console.db, "game_short", board=1, alert=False)  # round 3 of the Open, being played
    with GameStore(console.db) as store:
        trial = store.create_game("camera-9")  # a camera tried out, no --event or --round
        # a board recorded with --event and no --round (tester: it took the feed and /watch)
        roundless = store.create_game("camera-8", GameInfo(event="Open", board=1))
        for game in (trial, roundless):
            for event in recorder_events("game_short", upto=4):
                store.append(game, event)
    games = read_pgn(get(console.url + "/broadcast/live.pgn")[1].decode())
    assert [g.headers["GameId"] for g in games] == [str(one)]
    with GameStore(console.db) as store:
        store.close_game(one, "1-0")
        later = store.create_game("camera-1", GameInfo(event="Open", round="4", board=1))
        store.close_game(later, "0-1")
    games = read_pgn(get(console.url + "/broadcast/live.pgn")[1].decode())  # nothing playing: the newest round
    assert [g.headers["GameId"] for g in games] == [str(later)]
    # an archived game imported between rounds is not the live round (tester 15: a relay republished it)
    with GameStore(console.db) as store:
        (archived,) = import_pgn(store, '[Event "Old Archive"]\n[Round "1"]\n\n1. h2e2 h9g7 *\n').ids
    games = read_pgn(get(console.url + "/broadcast/live.pgn")[1].decode())
    assert [g.headers["GameId"] for g in games] == [str(later)] and archived > later


def test_live_pgn_without_rounds_lists_the_games_being_played(console: Any) -> None:
    with GameStore(console.db) as store:
        done = store.create_game("camera-1")
        playing = store.create_game("camera-2")
        for game in (done, playing):
            for event in recorder_events("game_short", upto=4):
                store.append(game, event)
        store.close_game(done, "1-0")
    status, body, _ = get(console.url + "/broadcast/live.pgn?notation=chinese")
    games = read_pgn(body.decode())
    assert status == 200 and [g.headers["GameId"] for g in games] == [str(playing)]
    assert "兵七进一" in body.decode()


def test_a_recorder_that_died_without_closing_its_game_is_an_alert_on_the_open_pages(console: Any) -> None:
    """A recorder killed (or crashed) writes nothing more: the server finds its process gone, logs
    a stop and a ``recorder_lost`` alert to the game, and the pages get them as any event; the game
    stays open for ``record --resume``. A live recorder's game is left alone."""
    import subprocess
    import sys

    game = record(console.db, alert=False)
    alive = record(console.db, board=2, alert=False)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    _, body, _ = get(console.url + "/api/games")
    since = json.loads(body)["last_event_id"]
    with GameStore(console.db) as store:
        store.begin_session(alive)  # this test's own process: alive
        store.db.execute("INSERT INTO sessions (game_id, pid, host, started) VALUES (?, ?, ?, ?)",
                         (game, gone.pid, socket.gethostname(), "2026-12-03T12:00:00Z"))
    told = read_sse(console.url + f"/api/events?since={since}", {}, 2, timeout=8.0)
    assert [m["event"]["type"] for m in told] == ["RecordingStopped", "Alert"]
    alert = told[1]["event"]
    assert alert["kind"] == "recorder_lost" and f"--resume {game} --db {console.db}`" in alert["text"] and told[1]["game"] == game
    with GameStore(console.db) as store:  # the game's own source, not "SOURCE" (a tester)
        assert f"`xqrec record {shlex.quote(store.game(game).source)} --resume" in alert["text"]
    with GameStore(console.db) as store:  # after the moves it had recorded, not before the first (tester)
        assert alert["ply"] == store.game(game).plies > 0
    state = told[1]["state"]
    assert state["state"] == "interrupted" and state["clocks"]["running"] is None
    assert [a["kind"] for a in state["alerts"]] == ["recorder_lost"]
    with GameStore(console.db) as store:
        assert store.close_lost_sessions() == []  # told once
        assert store.game(game).status == "open" and store.game(alive).state == "recording"
        assert not [e for e in store.events(alive) if getattr(e, "kind", "") == "recorder_lost"]


def test_two_arbiters_acting_at_once_one_wins_the_other_is_told(console: Any) -> None:
    """The check and the write of an action are one transaction: of three corrections of the same
    next ply, or ten acknowledgements of one alert, sent at once, one is done and the rest refused."""
    from concurrent.futures import ThreadPoolExecutor

    game = record(console.db)
    url = f"{console.url}/api/games/{game}"
    state = json.loads(get(url)[1])
    ply, seq = len(state["moves"]) + 1, state["alerts"][0]["seq"]
    moves = ("i0i1", "h0g2", "a1a2")  # each legal there
    with ThreadPoolExecutor(8) as pool:
        added = list(pool.map(lambda m: post(url + "/correct", {"ply": ply, "move": m[1], "was": ""},
                                             f"arb{m[0]}")[0], enumerate(moves)))
        acked = list(pool.map(lambda i: post(url + "/ack", {"seq": seq}, f"arb{i}")[0], range(10)))
    assert added.count(200) == 1 and set(added) <= {200, 409}
    assert acked.count(200) == 1 and set(acked) == {200, 409}
    with GameStore(console.db) as store:
        events = store.events(game)
    assert len([e for e in events if isinstance(e, AlertAcknowledged)]) == 1
    assert len([e for e in events if isinstance(e, MoveCorrected) and e.ply == ply]) == 1


def test_acknowledging_all_needs_true_and_odd_ids_are_not_found(console: Any) -> None:
    game = record(console.db)
    url = f"{console.url}/api/games/{game}"
    status, reply = post(url + "/ack", {"all": "no"}, "Zhang")
    assert status == 400 and "all must be true or false" in reply["error"]
    assert json.loads(get(url)[1])["open_alerts"] == 1  # nothing acknowledged
    assert get(f"{console.url}/api/games/{'9' * 5000}")[0] == 404  # not a server error
    status, reply = post(url + "/ack", {}, "Zhang")
    assert status == 400 and '"all": true' in reply["error"]
    assert get(url + "/ack")[0] == 405


def test_a_store_removed_or_replaced_while_serving_is_said_and_the_new_one_read(console: Any,
                                                                                caplog: pytest.LogCaptureFixture) -> None:
    """Removed: requests say so (503), no empty store is made in its place. Replaced (a recorder made
    a new one there): the server reads it, and open pages are told to start again (a ``reset``
    message) instead of waiting for ids of the file that is gone."""
    import os
    import threading

    record(console.db, alert=False)
    _, body, _ = get(console.url + "/api/games")
    since = json.loads(body)["last_event_id"]
    told: list[list[dict[str, Any]]] = []
    listener = threading.Thread(target=lambda: told.append(read_sse(console.url + f"/api/events?since={since}",
                                                                    {}, 1, timeout=10.0)))
    listener.start()
    host, port = console.server.server_address[:2]
    kept = http.client.HTTPConnection(str(host), int(port), timeout=10)  # a browser's keep-alive
    kept.request("GET", "/api/games")
    first = kept.getresponse()
    assert first.status == 200 and first.read()
    time.sleep(0.5)
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(f"{console.db}{suffix}")
    time.sleep(2.5)  # the watcher looks every 2 s
    status, body, _ = get(console.url + "/api/games")
    assert status == 503 and b"removed while serving" in body and not console.db.exists()
    # the pages still load and say "not live" (a tester's hall screen got a 503 for /watch itself), and
    # the watcher says it once, not a traceback at each poll (14 in 3.5 s)
    assert get(console.url + "/watch")[0] == 200 and get(console.url + "/static/watch.js")[0] == 200
    watching = [r for r in caplog.records if r.getMessage().startswith("watching the store failed")]
    assert len(watching) == 1 and watching[0].exc_info is None
    kept.request("GET", "/api/games")  # the connection kept open read the deleted file (a tester)
    assert kept.getresponse().status == 503
    kept.close()
    game = record(console.db, board=5, alert=False)  # a recorder makes a new store there
    listener.join(12)
    assert told and told[0] and told[0][0].get("reason") == "the game store was replaced"
    status, body, _ = get(console.url + "/api/games")
    assert status == 200 and [g["id"] for g in json.loads(body)["games"]] == [game]
    # a page coming back with an id of the old file is sent the new file's events from now on
    again: list[list[dict[str, Any]]] = []
    listener = threading.Thread(target=lambda: again.append(read_sse(console.url + "/api/events",
                                                                     {"Last-Event-ID": str(since + 1000)}, 1)))
    listener.start()
    time.sleep(0.5)
    with GameStore(console.db) as store:
        store.append(game, illegal_alert(99.0, 3))
    listener.join(6)
    assert [m["event"]["type"] for m in again[0]] == ["IllegalMoveAlert"]


def test_two_events_played_at_once_are_both_in_the_live_feed_or_one_by_name(console: Any) -> None:
    """A board of another event starting (tester: a Women Open board took the City Open's whole feed)
    adds its round to the live feed; ``?event=`` gives one event's."""
    city = [record(console.db, board=b, alert=False) for b in (1, 2)]
    with GameStore(console.db) as store:
        women = store.create_game("w.mp4", GameInfo(event="Women Open", round="1", board=1))
        for event in recorder_events("game_short", upto=4):
            store.append(women, event)
        for game in (*city, women):
            store.begin_session(game)  # recorders running (this process)
    status, body, headers = get(console.url + "/broadcast/live.pgn")
    games = read_pgn(body.decode())
    assert status == 200 and [g.headers["GameId"] for g in games] == [str(g) for g in (*city, women)]
    assert headers["Access-Control-Expose-Headers"] == "ETag"
    games = read_pgn(get(console.url + "/broadcast/live.pgn?event=Open")[1].decode())
    assert [g.headers["GameId"] for g in games] == [str(g) for g in city]
    assert get(console.url + "/broadcast/live.pgn?event=Nope")[0] == 404


def test_a_cross_site_viewer_may_poll_the_feed_and_other_methods_are_refused(console: Any) -> None:
    request = urllib.request.Request(console.url + "/broadcast/live.pgn", method="OPTIONS",
                                     headers={"Origin": "https://viewer.example",
                                              "Access-Control-Request-Headers": "if-none-match"})
    with urllib.request.urlopen(request, timeout=5) as reply:
        assert reply.status == 204 and "If-None-Match" in reply.headers["Access-Control-Allow-Headers"]
        assert reply.headers["Access-Control-Allow-Origin"] == "*"
    for method in ("PUT", "DELETE", "OPTIONS"):
        request = urllib.request.Request(console.url + "/api/games", method=method)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=5)
        assert refused.value.code == 405 and "error" in json.loads(refused.value.read())
    for path in ("/broadcast/live.pgn", "/api/public/games", "/watch"):  # read-only: a tester's POST got a 404
        request = urllib.request.Request(console.url + path, data=b"{}", method="POST",
                                         headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=5)
        assert refused.value.code == 405 and refused.value.headers["Allow"] == "GET, HEAD"
    request = urllib.request.Request(console.url + "/api/games/1/nothing", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=5)
    assert refused.value.code == 404


def test_a_missing_game_opened_in_a_browser_is_a_page_and_ipv6_loopback_serves(tmp_path: Any) -> None:
    from recorder.server import ConsoleServer

    GameStore(tmp_path / "s.sqlite3").close()
    try:
        server = ConsoleServer(("::1", 0), tmp_path / "s.sqlite3", ServeConfig())
    except OSError:  # no IPv6 on this machine
        pytest.skip("no IPv6 loopback here")
    import threading

    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        assert server.url.startswith("http://[::1]:")
        status, body, headers = get(server.url + "/games/99", {"Accept": "text/html"})
        assert status == 404 and headers["Content-Type"].startswith("text/html") and b"no game 99" in body
        assert json.loads(get(server.url + "/api/games/99")[1])["error"] == "no game 99 in the store"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def test_an_imported_records_comments_are_shown_and_are_no_alerts(console: Any) -> None:
    with GameStore(console.db) as store:
        (game,) = import_pgn(store, '[Event "Club"]\n\n{opening}\n1. h2e2 {a classic} h9g7 *\n').ids
    status, body, _ = get(f"{console.url}/api/games/{game}")
    state = json.loads(body)
    assert status == 200 and state["alerts"] == [] and state["open_alerts"] == 0
    assert state["comments"] == [{"ply": 0, "text": "opening"}, {"ply": 1, "text": "a classic"}]


def test_an_imported_games_advice_has_no_time_into_a_recording(console: Any) -> None:
    # an arbiter tester: the advice on a game read from a PGN said "at 0:00:11.5 into the recording"
    moves = " ".join(f"{n}. {a} {b}" for n, (a, b) in enumerate([("d0d1", "f9f8"), ("d1d0", "f8f9")] * 2, 1))
    with GameStore(console.db) as store:
        (game,) = import_pgn(store, '[Event "Club"]\n[SetUp "1"]\n[FEN "5k3/9/9/9/9/9/9/9/9/3K5 w"]\n\n'
                                    f"{moves} *\n").ids
    state = json.loads(get(f"{console.url}/api/games/{game}")[1])
    assert state["advice"] and all(a["t"] is None for a in state["advice"])


def test_a_void_game_takes_no_action_and_a_second_click_marks_no_second_result(console: Any) -> None:
    # a tester's double click on Mark wrote the result twice; a result posted to a voided game
    # brought its tile back to the console; reopening read "result None"
    game = record(console.db, alert=False)
    url = f"{console.url}/api/games/{game}"
    assert post(url + "/result", {"result": "0-1", "text": "red lost on time"}, "Liu")[0] == 200
    status, reply = post(url + "/result", {"result": "0-1", "text": "red lost on time"}, "Liu")
    assert status == 409 and "is marked already (by Liu)" in reply["error"]
    status, reply = post(url + "/result", {"result": "*", "text": "the flag was a clock fault"}, "Liu")
    assert status == 200 and reply["state"]["ended"] is None
    assert reply["state"]["actions"][-1]["text"] == "result reopened (*): the flag was a clock fault"
    with GameStore(console.db) as store:
        store.set_void(game, "test recording")
    status, reply = post(url + "/result", {"result": "1-0"}, "Liu")
    assert status == 409 and f"game {game} is void (test recording)" in reply["error"]
    _, body, _ = get(console.url + f"/api/games/{game}")
    assert json.loads(body)["void"] == "test recording"


def test_a_result_marked_from_a_stale_page_is_refused_not_put_over_another_arbiters(console: Any) -> None:
    # a console tester: arbiter A marked 1-0 (black resigned); B's page, not yet updated, marked 0-1, and
    # the sheet and the feed said 0-1 with no word to anyone (corrections and take-backs were refused so)
    game = record(console.db, alert=False)
    url = f"{console.url}/api/games/{game}"
    assert post(url + "/result", {"result": "1-0", "article": "4.1.12", "was": "*"}, "Arbiter A")[0] == 200
    status, reply = post(url + "/result", {"result": "0-1", "article": "4.1.12", "was": "*"}, "Arbiter B")
    assert status == 409 and "now 1-0 (marked by Arbiter A), not * as your page showed" in reply["error"]
    _, body, _ = get(url)
    assert json.loads(body)["result"] == "1-0"
    assert post(url + "/result", {"result": "0-1", "article": "4.1.12", "was": "1-0"}, "Arbiter B")[0] == 200  # seen
    assert post(url + "/result", {"result": "*", "was": "draw"}, "Arbiter B")[0] == 400
    assert post(url + "/result", {"result": "1/2-1/2", "article": "4.2.1"}, "Arbiter C")[0] == 200  # a script: as before


def test_the_public_data_answers_a_board_by_itself_and_says_when_a_round_or_board_is_unknown(console: Any) -> None:
    # a spectators' page tester: a board link kept after its round ended showed the new round's boards,
    # and a round that does not exist answered 200 with no games (the broadcast feed answers 404)
    game = record(console.db, board=2)
    status, body, _ = get(f"{console.url}/api/public/games?game={game}")
    data = json.loads(body)
    assert status == 200 and [g["id"] for g in data["games"]] == [game] and data["now"] > 1.7e9
    assert data["games"][0]["clocks"]["wall"] is not None  # a running clock counts on from when the store got it
    assert get(f"{console.url}/api/public/games?game=999")[0] == 404
    assert get(f"{console.url}/api/public/games?event=Open&round=99")[0] == 404
    assert get(f"{console.url}/api/public/games?event=Open&round=99", {"If-None-Match": "*"})[0] == 404
    assert get(f"{console.url}/api/public/games?event=Open&round=3")[0] == 200


def _ack_all_from(url: str, address: str, password: str) -> int:
    """The status of acknowledging every alert at ``url`` as Li, from ``address`` behind a proxy."""
    headers = {"Content-Type": "application/json", "X-Forwarded-For": f"6.6.6.6, {address}",
               "Authorization": "Basic " + base64.b64encode(f"Li:{password}".encode()).decode()}
    request = urllib.request.Request(url, json.dumps({"all": True}).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return int(reply.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_behind_a_proxy_a_guesser_is_told_apart_by_the_address_the_proxy_forwards(tmp_path: Path) -> None:
    # a tester: behind the TLS proxy the docs recommend every client has the proxy's address, so one
    # spectator guessing ten times locked every arbiter out for a minute
    from tests.server.conftest import _start

    server = _start(tmp_path, ServeConfig(password="correct horse battery", proxy=True))
    running = next(server)
    try:
        url = f"{running.url}/api/games/{record(running.db)}/ack"
        assert [_ack_all_from(url, "203.0.113.7", f"guess {i}") for i in range(11)] == [401] * 10 + [429]
        assert _ack_all_from(url, "198.51.100.2", "correct horse battery") == 200  # another client: not locked out
    finally:
        server.close()


def test_an_alert_ruled_no_foul_is_not_counted_and_the_ruling_travels_in_the_pgn(console: Any) -> None:
    """The camera's false alert, or a move the arbiter finds legal after all, must not count towards
    the two fouls that lose (art. 4.1.8): the arbiter rules it no foul, and every sheet counts so."""
    from recorder.scoresheet import foul_alerts, rebuild

    game = record(console.db)
    url = f"{console.url}/api/games/{game}"
    alert = json.loads(get(url)[1])["alerts"][0]
    assert alert["kind"] == "illegal_move" and alert["foul"] is True
    status, reply = post(url + "/ack", {"all": True, "ruling": "no_foul"}, "Zhang")
    assert status == 400 and "one alert at a time" in reply["error"]
    status, reply = post(url + "/ack", {"seq": alert["seq"], "ruling": True}, "Zhang")
    assert status == 400 and 'ruling must be "no_foul" or "foul"' in reply["error"]
    status, reply = post(url + "/ack", {"seq": alert["seq"], "ruling": "foul"}, "Zhang")
    assert status == 409 and "counts as a foul already" in reply["error"]
    status, reply = post(url + "/ack", {"seq": alert["seq"], "ruling": "no_foul", "note": "the camera misread"}, "Zhang")
    assert status == 200
    ruled = reply["state"]["alerts"][0]["acknowledged"]
    assert ruled["ruling"] == "no_foul" and ruled["by"] == "Zhang"
    assert reply["state"]["actions"][-1]["text"].endswith("(Illegal move) ruled no foul: the camera misread")
    text = get(f"{console.url}/games/{game}/export.txt")[1].decode()
    assert "Foul alerts:  red 0; black 0; 1 more ruled no foul by the arbiter" in text  # not left out unsaid
    assert "arbiter Zhang ruled the illegal move alert no foul: the camera misread" in text
    pgn = get(f"{console.url}/games/{game}/export.pgn")[1].decode()
    with GameStore(console.db) as store:
        counted = foul_alerts(rebuild(store.events(game)))
    other = GameStore(":memory:")  # another arbiter's store, reading the exported game
    (copy,) = import_pgn(other, pgn, "copy.pgn").ids
    again = other.events(copy)
    assert counted == {"red": {}, "black": {}}
    assert foul_alerts(rebuild(again)) == counted  # read back from the PGN: still ruled no foul
    assert [e.ruling for e in again if isinstance(e, AlertAcknowledged)] == ["no_foul"]
    # a mis-tap is withdrawn, logged, and the foul counts again, here and read back from the PGN
    status, reply = post(url + "/ack", {"seq": alert["seq"], "ruling": "foul", "note": "wrong button"}, "Zhang")
    assert status == 200 and reply["state"]["alerts"][0]["acknowledged"]["ruling"] == "foul"
    assert reply["state"]["alerts"][0]["title"] == "Illegal move"  # what the console calls it
    assert reply["state"]["actions"][-1]["text"].endswith("(Illegal move) ruled a foul after all: wrong button")
    with GameStore(console.db) as store:
        counted = foul_alerts(rebuild(store.events(game)))
    assert counted == {"red": {"illegal_move": 1}, "black": {}}
    pgn = get(f"{console.url}/games/{game}/export.pgn")[1].decode()
    assert "arbiter Zhang ruled the illegal_move alert a foul after all: wrong button" in " ".join(pgn.split())
    other = GameStore(":memory:")
    (copy,) = import_pgn(other, pgn, "copy.pgn").ids
    assert foul_alerts(rebuild(other.events(copy))) == counted


def test_only_a_foul_can_be_ruled_no_foul() -> None:
    from recorder.events import BoardDisturbed
    from recorder.server.actions import ActionError, acknowledge
    from recorder.server.state import StoredEvent

    store = GameStore(":memory:")
    game = store.create_game("g.mp4", GameInfo())
    knocked = BoardDisturbed(3.0, "board_disturbed", ("c3",), "", "a piece was knocked", 0)
    store.append(game, knocked)
    events = [StoredEvent(1, game, 1, knocked)]
    with pytest.raises(ActionError, match="board_disturbed alert, not a foul"):
        acknowledge(store, game, events, {"seq": 1, "ruling": "no_foul"}, "Zhang")
    (done,) = acknowledge(store, game, events, {"seq": 1}, "Zhang")
    assert isinstance(done, AlertAcknowledged) and done.ruling == ""


def test_a_no_foul_ruling_stays_with_its_alert_through_the_pgn() -> None:
    """A reviewer: both sides pressed without a move at one ply, red's was ruled no foul, and read
    back from the PGN the ruling went to black's (the later alert of the kind). An arbiter's name
    with a colon lost the ruling in the alert's words. An alert acknowledged first may still be
    ruled no foul once the video is checked."""
    from recorder.events import ClockAlert
    from recorder.exports.pgn import export_pgn
    from recorder.scoresheet import foul_alerts, rebuild
    from recorder.server.actions import ActionError, acknowledge
    from recorder.server.state import StoredEvent

    store = GameStore(":memory:")
    game = store.create_game("g.mp4", GameInfo(time_control="900+10"))
    events = list(recorder_events("game_short"))
    t = events[-1].t
    events += [ClockAlert(t + 1, "press_without_move", (), "8.1.7", "red pressed the clock without a move", 12, "red"),
               ClockAlert(t + 2, "press_without_move", (), "8.1.7", "black pressed the clock without a move", 12, "black")]
    for event in events:
        store.append(game, event)
    stored = lambda: [StoredEvent(0, game, seq, e) for seq, e in enumerate(store.events(game), 1)]  # noqa: E731
    red_seq = len(events) - 1
    acknowledge(store, game, stored(), {"seq": red_seq}, "Li: chief")  # the beep cleared first
    acknowledge(store, game, stored(), {"seq": red_seq, "ruling": "no_foul"}, "Li: chief")  # the video checked
    with pytest.raises(ActionError, match="already ruled no foul"):
        acknowledge(store, game, stored(), {"seq": red_seq, "ruling": "no_foul"}, "Wang")
    counted = foul_alerts(rebuild(store.events(game)))
    assert counted == {"red": {}, "black": {"press_without_move": 1}}
    other = GameStore(":memory:")
    (copy,) = import_pgn(other, export_pgn(store.events(game), store.game(game).info), "copy.pgn").ids
    assert foul_alerts(rebuild(other.events(copy))) == counted


def test_the_spectators_round_menu_goes_in_round_order(console: Any) -> None:
    # an organiser tester: the menu read "round 10, round 3, round 4" (the names sorted as text)
    record(console.db)
    with GameStore(console.db) as store:
        for name in ("10", "4", "2b", "2a"):
            store.create_game("cam.mp4", GameInfo(event="Open", round=name, board=1))
    status, body, _ = get(f"{console.url}/api/public/games?event=Open&round=3")
    assert status == 200
    assert [r["round"] for r in json.loads(body)["rounds"]] == ["2a", "2b", "3", "4", "10"]


def test_a_foul_loss_advised_is_withdrawn_once_a_foul_it_counted_is_ruled_no_foul(console: Any) -> None:
    """An arbiter tester ruled one of black's two presses without a move no foul and reopened the
    result: the advice "second press without a move: loses" stood open again, and filling in the
    result it suggested was refused (the record holds one). The advice now says it no longer holds."""
    from recorder.events import ClockAlert, GameEnded

    game = record(console.db, alert=False)
    presses = [ClockAlert(t, "press_without_move", (), "8.1.7", "black pressed the clock without a move", ply, "black")
               for t, ply in ((20.0, 3), (40.0, 7))]
    with GameStore(console.db) as store:
        for alert in presses:
            store.append(game, alert)
        store.append(game, GameEnded(40.0, 7, "1-0", "second_press_without_move", "4.1.9",
                                     "black pressed the clock without a move a second time", advisory=True))
    url = f"{console.url}/api/games/{game}"
    state = json.loads(get(url)[1])
    (advice,) = state["advice"]
    assert advice["open"] and advice["withdrawn"] == "" and state["open_advice"] == 1
    first = next(a for a in state["alerts"] if a["kind"] == "press_without_move")
    status, reply = post(url + "/ack", {"seq": first["seq"], "ruling": "no_foul", "note": "the clock's fault"}, "Zhang")
    assert status == 200
    (advice,) = reply["state"]["advice"]
    assert not advice["open"] and reply["state"]["open_advice"] == 0
    assert advice["withdrawn"].startswith("no longer holds: a foul it counted no longer counts (ruled no foul")
    assert advice["withdrawn"].endswith("black has 1 of the 2 presses of the clock without a move it needs")
    assert advice["acknowledged"] is None  # withdrawn, not acknowledged: the tile shows why


def test_the_public_data_says_how_a_game_ended_when_only_an_article_was_given(console: Any) -> None:
    # a tester marked 0-1 under art. 21.6 with no words: the broadcast PGN said "time forfeit" and the
    # spectators' page only "黑胜 0-1"
    game = record(console.db, alert=False)
    assert post(f"{console.url}/api/games/{game}/result", {"result": "0-1", "article": "21.6"}, "Liu")[0] == 200
    (shown,) = json.loads(get(f"{console.url}/api/public/games?game={game}")[1])["games"]
    assert shown["ended"]["article"] == "21.6" and shown["ended"]["termination"] == "time forfeit"


def test_a_move_added_after_the_result_is_refused_for_the_result_whatever_the_move(console: Any) -> None:
    # a tester: after a mate every move added is illegal, and that was the answer, not the reason
    game = record(console.db, alert=False)
    url = f"{console.url}/api/games/{game}"
    plies = len(json.loads(get(url)[1])["moves"])
    assert post(url + "/result", {"result": "1-0", "text": "black resigned"}, "Liu")[0] == 200
    for move in ("a0a9", "h9g7"):  # an illegal one, and any other
        status, reply = post(url + "/correct", {"ply": plies + 1, "move": move, "was": ""}, "Liu")
        assert status == 409 and "reopen it first (result *)" in reply["error"], reply


def test_an_event_whose_games_name_no_round_is_live_beside_another_events_rounds() -> None:
    # a reviewer: last month's Open (rounds) took the feed from today's club match (no rounds)
    from recorder.server.app import _live_rounds
    from recorder.store.db import GameRow

    def game(number: int, event: str, round_: str, status: str) -> GameRow:
        return GameRow(number, GameInfo(event=event, round=round_, board=number), f"cam{number}", status, "*", "",
                       None, "", "", plies=10, sessions=1)

    games = [game(1, "Spring Open", "7", "closed"), game(2, "Club Match", "", "open"), game(3, "Club Match", "", "open")]
    assert _live_rounds(games) == [("Club Match", "")]
    games.append(game(4, "Club Match", "2", "open"))  # the club's own games name rounds too: a roundless one is a camera tried out
    assert _live_rounds(games) == [("Club Match", "2")]


def test_moves_recorded_after_a_marked_result_are_not_published(console: Any) -> None:
    # a broadcaster tester marked 1-0 (black resigned) at ply 4 while the recorder ran on: the
    # spectators saw plies 5-10 (on a real board, the players' analysis after the game) under "1-0"
    events = list(recorder_events("game_short"))
    cut = next(i for i, e in enumerate(events) if isinstance(e, MoveRecorded) and e.ply == 5)
    with GameStore(console.db) as store:
        game = store.create_game("game_short.mp4", GameInfo(event="Open", round="3", board=1, red="Li", black="Wang"))
        for event in events[:cut]:
            store.append(game, event)
        store.append(game, ResultMarked(events[cut].t - 0.5, 4, "1-0", "arbiter", "", "black resigned", False, by="Liu"))
        for event in events[cut:]:
            store.append(game, event)
    (shown,) = json.loads(get(f"{console.url}/api/public/games?game={game}")[1])["games"]
    fourth = next(e for e in events if isinstance(e, MoveRecorded) and e.ply == 4)
    assert [m["ply"] for m in shown["moves"]] == [1, 2, 3, 4] and shown["fen"] == fourth.fen_after
    assert shown["result"] == "1-0"
    (feed,) = read_pgn(get(console.url + "/broadcast/live.pgn")[1].decode())
    assert len(feed.moves) == 4 and feed.result == "1-0"
    (arbiters,) = read_pgn(get(f"{console.url}/games/{game}/export.pgn")[1].decode())
    assert len(arbiters.moves) == len(truth("game_short")["plies"])  # the arbiter's record keeps them: to be ruled
    from recorder.exports.round_pgn import round_pgn

    with GameStore(console.db) as store:  # and the organiser's archive of the round (a reviewer)
        (archived,) = read_pgn(round_pgn(store, "Open", "3"))
    assert len(archived.moves) == len(truth("game_short")["plies"])
    assert post(f"{console.url}/api/games/{game}/result", {"result": "*"}, "Liu")[0] == 200  # the wrong game: reopened
    (shown,) = json.loads(get(f"{console.url}/api/public/games?game={game}")[1])["games"]
    assert len(shown["moves"]) == len(truth("game_short")["plies"])


def test_a_games_state_is_built_again_only_when_its_events_or_its_row_change(console: Any) -> None:
    # a hall's console loads every game and each event stream message carries its game's state:
    # replaying a game's events for each was most of what /api/games cost
    game = record(console.db)
    store = console.server.store()  # this thread's connection, as a request's
    first = console.server.state_of(store, game)
    assert console.server.state_of(store, game) is first
    store.append(game, illegal_alert(500.0, 5))
    second = console.server.state_of(store, game)
    assert len(second["alerts"]) == len(first["alerts"]) + 1
    info = store.game(game).info
    store.set_info(game, GameInfo(event=info.event, round=info.round, board=info.board, red="Zhao",
                                  black=info.black, time_control=info.time_control))
    assert console.server.state_of(store, game)["red"] == "Zhao"
    status, body, _ = get(console.url + "/api/games")
    assert status == 200 and json.loads(body)["games"][0]["red"] == "Zhao"


def test_a_state_read_from_a_store_file_since_replaced_is_not_kept_for_the_new_one(console: Any,
                                                                                   tmp_path: Path) -> None:
    # a reviewer's probe: a request begun on the old file and ended after the new one was noticed
    # kept the old file's state under the new file's name, served until the game's next event
    game = record(console.db, alert=False)
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(console.db) as source, sqlite3.connect(other) as copy:
        source.backup(copy)
    for path, text in ((console.db, "OLD FILE"), (other, "NEW FILE")):
        with GameStore(path) as store:
            store.append(game, Alert(900.0, "recorder_lost", (), "", text, 3))
            store.db.execute("UPDATE games SET updated = '2026-01-01T00:00:00Z'")
    old = console.server.store()
    for suffix in ("-wal", "-shm"):
        Path(f"{console.db}{suffix}").unlink(missing_ok=True)
    os.replace(other, console.db)
    watcher = threading.Thread(target=console.server._check)  # the watcher notices the new file
    watcher.start()
    watcher.join()
    console.server.state_of(old, game)  # the request begun on the old file ends
    status, body, _ = get(f"{console.url}/api/games/{game}")
    assert status == 200 and [a["text"] for a in json.loads(body)["alerts"]] == ["NEW FILE"]


def test_the_spectators_page_is_not_sent_again_for_what_it_does_not_show(console: Any) -> None:
    # the ETag named the store's newest event: every alert, acknowledgement or advice for the arbiter
    # sent each polling spectator the whole round again, unchanged
    game = record(console.db, alert=False)
    url = f"{console.url}/api/public/games?event=Open&round=3"
    status, body, headers = get(url)
    assert status == 200 and "now" in json.loads(body)
    with GameStore(console.db) as store:
        store.append(game, illegal_alert(500.0, 5))
    assert get(url, {"If-None-Match": headers["ETag"]})[0] == 304
    with GameStore(console.db) as store:
        store.append(game, ResultMarked(501.0, 10, "1-0", "arbiter", "", "black resigned", False, by="Liu"))
    status, body, later = get(url, {"If-None-Match": headers["ETag"]})
    assert status == 200 and later["ETag"] != headers["ETag"]
    assert json.loads(body)["games"][0]["result"] == "1-0"


def test_a_foul_loss_for_the_side_the_fouls_speak_for_asks_to_be_confirmed_whatever_the_reason(console: Any) -> None:
    """An arbiter tester marked 0-1 under art. 4.1.10 "black third foul" where black held the fouls:
    the reason, typed as arbiters always do, let the result through without a word. The result the
    other way round from the fouls is refused, saying so, until confirmed ("anyway")."""
    from recorder.events import ClockAlert

    game = record(console.db, alert=False)
    with GameStore(console.db) as store:
        for t, ply in ((20.0, 3), (40.0, 7)):
            store.append(game, ClockAlert(t, "press_without_move", (), "8.1.7", "black pressed without a move", ply,
                                          "black"))
    url = f"{console.url}/api/games/{game}/result"
    asked = {"result": "0-1", "article": "4.1.9", "text": "second press without a move"}
    status, reply = post(url, asked, "Zhang")
    assert status == 409 and reply["confirm"] is True
    assert "black has 2: is the result the other way round?" in reply["error"]
    status, reply = post(url, {**asked, "anyway": True}, "Zhang")
    assert status == 200 and reply["state"]["result"] == "0-1"
    # fouls the camera did not see: a reason passes, with no question (neither side holds the fouls)
    status, reply = post(url, {"result": "1-0", "article": "4.1.10", "text": "three fouls on the arbiter's sheet",
                               "was": "0-1"}, "Zhang")
    assert status == 200 and "confirm" not in reply
