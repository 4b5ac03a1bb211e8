"""End to end in Debian's headless chromium (Playwright): the arbiter console follows a game while the
recorder (the whole pipeline with the bundled piece classifier, on the rendered fixture video)
writes it to the store; each move and an injected illegal-move alert show within a second, the
arbiter acknowledges the alert, corrects a move and marks the result on the page, and the game's
PGN downloads from its page.

Screenshots go to ``$XQREC_SCREENSHOTS`` when set (``docs/images`` for the docs), else a temp folder.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from recorder.events import (
    AlertAcknowledged,
    AlertFrame,
    BoardDisturbed,
    ClockAlert,
    Event,
    GameEnded,
    MoveRecorded,
)
from recorder.store import GameInfo, GameStore
from rules import read_pgn
from tests.server.feeder import FIXTURES, OPENINGS, illegal_alert, recorder_events, scripted_events, truth

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the dev extra")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium (make system-deps)")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--autoplay-policy=no-user-gesture-required"]
ROUND: dict[str, Any] = {"event": "City Open 2026", "round": "5", "date": "2026.11.30", "time_control": "5400+30"}


@contextlib.contextmanager
def _chromium() -> Iterator[Any]:
    """Debian's chromium, headless, closed after the block."""
    with sync_api.sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def _still(db: Path, video: str, t: float) -> str:
    """The video's frame at ``t`` saved beside the store, as the recorder would for an alert."""
    import cv2

    capture = cv2.VideoCapture(str(FIXTURES / video))
    capture.set(cv2.CAP_PROP_POS_MSEC, t * 1000)
    ok, frame = capture.read()
    capture.release()
    assert ok
    (db.parent / "frames").mkdir(exist_ok=True)
    name = f"frames/{video}-{t:.1f}.jpg"
    assert cv2.imwrite(str(db.parent / name), frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return name


def _other_boards(db: Path) -> int:
    """Boards 2-5 of the round, recorded before the page opens: board 2 (returned) with a knocked piece
    and the camera's still of it, an acknowledged clock alert before; 3 finished; 4 and 5 quiet."""
    with GameStore(db) as store:
        two = store.create_game("game_faults.mp4", GameInfo(board=2, red="陈晓明", black="刘子健", **ROUND))
        store.begin_session(two)  # a recorder holds it (this process stands in for it)
        for event in recorder_events("game_faults", upto=11):
            store.append(two, event)
            if isinstance(event, MoveRecorded) and event.ply == 5:
                seq = store.append(two, ClockAlert(23.6, "press_without_move", (), "8.1.7",
                                                   "black pressed the clock without moving", 5, "black"))
                store.append(two, AlertAcknowledged(24.0, seq, "press_without_move", "Zhang Wei", "warned black"))
        store.append(two, BoardDisturbed(51.6, "board_disturbed", ("g0",), "5.9",
                                         "相 off its point on g0 (0.48 spacings)", 11, "B"))
        store.append(two, AlertFrame(51.6, _still(db, "game_faults.mp4", 51.6), "board_disturbed"))
        for board, (red, black, opening) in enumerate((("Ana Silva", "Wei Zhou", "elephant"),
                                                       ("黄海", "Tran Minh", "pawn"),
                                                       ("Li Na", "赵国荣", "central_cannon")), 3):
            game = store.create_game(f"camera-{board}", GameInfo(board=board, red=red, black=black, **ROUND))
            store.begin_session(game)
            events = scripted_events(OPENINGS[opening], board)
            if board == 4:  # its last move a0b0 read where glare hid a1: the camera could not rule out a0a1
                last = max(i for i, e in enumerate(events) if isinstance(e, MoveRecorded))
                move = events[last]
                assert isinstance(move, MoveRecorded)
                events[last] = replace(move, rivals=("a0a1",))
            for event in events:
                store.append(game, event)
            if board == 3:
                plies = sum(isinstance(e, MoveRecorded) for e in events)
                store.append(game, GameEnded(events[-1].t + 5, plies, "1-0", "resigned", "", "black resigned", False))
                store.close_game(game)
    return two


def _record_video(name: str, sink: Callable[[Event], None]) -> None:
    """Record the fixture video with the whole pipeline and the bundled piece classifier, as
    ``xqrec record`` does, handing each event to ``sink`` the moment it is raised."""
    from recorder.clocklog_input import read_clock_log
    from recorder.session import RecordingSession
    from recorder.sources import open_source
    from recorder.vision import PieceClassifier

    session = RecordingSession(PieceClassifier(None), presses=read_clock_log(FIXTURES / f"{name}.clock.jsonl"),
                               source_name=f"{name}.mp4", on_event=sink)
    for item in open_source(str(FIXTURES / f"{name}.mp4")):
        session.feed(item)
    session.finish()


def _wait(page: Any, script: str, arg: Any = None) -> float:
    """Seconds until ``script`` is true on the page (the test fails past 1 s)."""
    start = time.monotonic()
    page.wait_for_function(script, arg=arg, timeout=1000, polling=20)
    return time.monotonic() - start


def test_console_follows_a_live_game_and_the_arbiter_acknowledges_its_alert(console: Any, tmp_path: Path) -> None:
    shots = Path(os.environ.get("XQREC_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    knocked = _other_boards(console.db)
    with sync_api.sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        # a browser set to Taiwan's Chinese: traditional characters (the default is simplified, below)
        context = browser.new_context(viewport={"width": 1440, "height": 900}, accept_downloads=True, locale="zh-TW")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(console.url + "/")
        page.wait_for_selector("#live.ok", timeout=5000)
        still = page.locator(f"#game-{knocked} .alertbox img.still")  # the camera's view of the knocked piece
        unsure = page.locator("li.unsure")  # a move the camera could not tell from another: marked, named
        assert "車九平八" in unsure.inner_text() and "wavy" in unsure.locator(".mv").evaluate(
            "mv => getComputedStyle(mv).textDecorationStyle")  # marked without taking width (it was cut off)
        assert "the camera could not rule out 車九進一 (a0a1)" in (unsure.get_attribute("title") or "")
        assert still.evaluate("img => img.complete && img.naturalWidth") == 640
        # the browser blocks sound until the arbiter clicks on the page: the button says so, not "sound on"
        assert "click to enable sound" in page.inner_text("#sound")
        page.click("#sound")  # the user gesture that lets the page beep
        page.wait_for_function("document.getElementById('sound').textContent.includes('sound on')", timeout=5000)
        with GameStore(console.db) as store:
            game = store.create_game("game_short.mp4", GameInfo(board=1, red="李明", black="王强", **ROUND))
            store.begin_session(game)
            latencies: list[float] = []

            def stored(event: Event) -> None:  # the recorder's sink: each event to the store as it happens
                store.append(game, event)
                if isinstance(event, MoveRecorded):
                    latencies.append(_wait(page, "([id, n]) => { const t = document.getElementById('game-' + id);"
                                                 " return t && Number(t.dataset.plies) === n; }", [game, event.ply]))

            _record_video("game_short", stored)
            recorded = [e.iccs for e in store.events(game) if isinstance(e, MoveRecorded)]
            assert recorded == truth("game_short")["moves"]
            moves = page.inner_text(f"#game-{game} .moves")
            assert "炮二平七" in moves and "炮2平1" in moves and "馬八進七" in moves  # Chinese notation (traditional)
            tile = page.inner_text(f"#game-{game}")
            assert "紅 李明" in tile and "红" not in tile  # the sides in traditional too
            beeps = int(page.evaluate("Number(document.body.dataset.beeps || 0)"))
            store.append(game, illegal_alert(45.0, 10))
            latencies.append(_wait(page, "id => document.getElementById('game-' + id).classList.contains('alerting')",
                                   game))
        print(f"\nconsole update after a store append: max {max(latencies) * 1000:.0f} ms, "
              f"mean {sum(latencies) / len(latencies) * 1000:.0f} ms over {len(latencies)} events")
        assert max(latencies) < 1.0
        tile = page.locator(f"#game-{game}")
        assert "Illegal move" in tile.inner_text() and "art. 2.2" in tile.inner_text()
        assert int(page.evaluate("Number(document.body.dataset.beeps || 0)")) == beeps + 1  # it sounded
        assert "2 open alerts" in page.inner_text("#summary")
        page.wait_for_timeout(300)
        page.screenshot(path=str(shots / "console-alert.png"))

        # the camera misread the horse (the arbiter saw it): ruled no foul, not counted under art. 4.1.8
        assert page.locator(f"#game-{knocked} button.nofoul").count() == 0  # a knocked piece is no foul
        asked: list[str] = []

        def confirm(dialog: Any) -> None:  # the ruling is asked once more
            asked.append(dialog.message)
            dialog.accept()

        page.once("dialog", confirm)
        tile.locator("button.nofoul").click()  # no password set: the page asks for the arbiter's name alone
        page.wait_for_selector("#signin [name=name]", state="visible", timeout=5000)  # the dialog opens
        assert not page.is_visible("#signin [name=pw]")
        page.fill("#signin [name=name]", "Zhang Wei")
        page.click("#signin button[value=ok]")
        _wait(page, "id => !document.getElementById('game-' + id).classList.contains('alerting')", game)
        with GameStore(console.db) as store:
            acked = [e for e in store.events(game) if isinstance(e, AlertAcknowledged)]
        assert [(e.by, e.kind, e.ruling) for e in acked] == [("Zhang Wei", "illegal_move", "no_foul")]
        assert "1 open alert" in page.inner_text("#summary")
        page.click(f"#game-{knocked} button.ack")  # the name is remembered: no second question
        _wait(page, "id => !document.getElementById('game-' + id).classList.contains('alerting')", knocked)
        assert "no open alerts" in page.inner_text("#summary")
        page.wait_for_timeout(600)  # let the alert's pulse settle
        page.screenshot(path=str(shots / "console.png"))

        page.click(f"#game-{game} a.players")
        page.wait_for_selector("#sheet td.mv", timeout=5000)
        assert asked and "art. 4.1.8" in asked[0]
        assert "ruled no foul by Zhang Wei" in page.inner_text("#alertlist")
        page.once("dialog", lambda dialog: dialog.dismiss())  # a second thought: nothing is done
        page.click("#alertlist button.nofoul[data-ruling=foul]")
        page.wait_for_timeout(300)
        assert "ruled no foul by Zhang Wei" in page.inner_text("#alertlist")
        page.click("button[data-step=prev]")
        assert page.inner_text("#at").startswith("5. ") and "(ply 9)" in page.inner_text("#at")  # red's 5th move
        page.click("#script")  # simplified characters
        assert "汉 界" in page.inner_html("#board")
        page.click("#script")
        assert "漢 界" in page.inner_html("#board")
        page.screenshot(path=str(shots / "console-game.png"))
        page.fill("#correct [name=ply]", "10")
        page.fill("#correct [name=move]", "卒5进1")  # the arbiter saw 卒5进1 played, not 炮2平1
        page.click("#correct button")
        page.wait_for_selector("#sheet td.mv.corrected:has-text('卒5進1')", timeout=2000)
        assert "Zhang Wei move 5 (black) corrected to e6e5 (卒5进1), was b7a7" in page.inner_text("#actions")
        page.click("#resultform button")  # no result chosen yet: nothing is marked by a stray click
        page.wait_for_timeout(300)
        assert "result" not in page.inner_text("#actions") and page.inner_text("#result") == ""
        page.select_option("#resultform [name=result]", "0-1")
        page.fill("#resultform [name=text]", "red lost on time")
        page.click("#resultform button")
        page.wait_for_selector("#result:has-text('0-1')", timeout=2000)
        assert "Zhang Wei result 0-1: red lost on time" in page.inner_text("#actions")
        with page.expect_download() as download:
            page.click("#pgn")
        text = Path(download.value.path()).read_text(encoding="utf-8")
        (pgn,) = read_pgn(text)
        assert pgn.headers["Red"] == "李明" and len(pgn.moves) == 10 and pgn.headers["Result"] == "0-1"
        assert pgn.moves[-1].iccs == "e6e5"
        assert "alert illegal_move d4 b5 (art. 2.2)" in text and "[%clk" in text
        assert errors == []
        browser.close()


def test_with_a_password_the_console_is_the_arbiters_and_spectators_watch_without_alerts(guarded: Any) -> None:
    # a broadcaster tester: the only page to show the public was the arbiter's console, alerts, stills
    # and the arbiter's panels included, whether or not a password was set
    import json
    import urllib.error
    import urllib.request

    with GameStore(guarded.db) as store:
        game = store.create_game("game_short.mp4", GameInfo(board=7, red="李明", black="王强", **ROUND))
        for event in recorder_events("game_short", upto=4):
            store.append(game, event)
        store.append(game, illegal_alert(20.0, 4))
    for path in ("/", f"/games/{game}", f"/api/games/{game}", "/api/events", f"/games/{game}/export.pgn"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(guarded.url + path, timeout=5)
        assert refused.value.code == 401 and refused.value.headers["WWW-Authenticate"].startswith("Basic ")
    with urllib.request.urlopen(guarded.url + "/api/public/games", timeout=5) as answer:
        public = json.loads(answer.read())
    (shown,) = public["games"]
    assert shown["red"] == "李明" and len(shown["moves"]) == 4 and "alerts" not in shown and "advice" not in shown
    assert public["shown"] == [{"event": ROUND["event"], "round": ROUND["round"]}]
    with _chromium() as browser:
        spectator = browser.new_page(viewport={"width": 1200, "height": 800})
        spectator.goto(guarded.url + "/watch")
        spectator.wait_for_selector(f"#game-{game}[data-plies='4']", timeout=5000)
        text = spectator.inner_text("body")
        assert "李明" in text and "Illegal" not in text and "Acknowledge" not in text
        arbiter = browser.new_context(http_credentials={"username": "Zhang Wei", "password": "correct horse battery"},
                                      viewport={"width": 1200, "height": 800}).new_page()
        arbiter.goto(guarded.url + "/")
        arbiter.wait_for_selector("#live.ok", timeout=5000)
        arbiter.click(f"#game-{game} button.ack")  # signed in by the browser: no second sign-in
        _wait(arbiter, "id => !document.getElementById('game-' + id).classList.contains('alerting')", game)
        assert not arbiter.is_visible("#signin[open]")
        wrong = browser.new_context(http_credentials={"username": "Zhang Wei", "password": "guess"}).new_page()
        assert wrong.goto(guarded.url + "/").status == 401
        # a kiosk bookmark with the password in the address (tester: the page stayed blank, its every
        # fetch refused by the browser for the credentials in the URL)
        kiosk = browser.new_page()
        kiosk.goto(guarded.url.replace("http://", "http://Zhang%20Wei:correct%20horse%20battery@") + "/")
        kiosk.wait_for_selector(f"#game-{game}", timeout=5000)
        kiosk.wait_for_selector("#live.ok", timeout=5000)  # the stream opens after the games are drawn
        assert "@" not in kiosk.url
    with GameStore(guarded.db) as store:
        assert [e.by for e in store.events(game) if isinstance(e, AlertAcknowledged)] == ["Zhang Wei"]


def test_the_page_catches_up_after_the_server_restarts(tmp_path: Path) -> None:
    import threading

    from recorder.server import ConsoleServer, ServeConfig

    db = tmp_path / "store.sqlite3"
    events = list(recorder_events("game_short"))
    with GameStore(db) as store:
        game = store.create_game("game_short.mp4", GameInfo(board=1, **ROUND))
        for event in events[:5]:
            store.append(game, event)

    def start(port: int) -> tuple[ConsoleServer, threading.Thread]:
        server = ConsoleServer(("127.0.0.1", port), db, ServeConfig(), poll_s=0.1)
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        thread.start()
        return server, thread

    server, thread = start(0)
    port = server.server_address[1]
    with sync_api.sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#live.ok", timeout=5000)
        server.shutdown()
        server.server_close()
        thread.join(5)
        page.wait_for_selector("#live.down", timeout=5000)
        with GameStore(db) as store:  # the recorder goes on while the console is down
            for event in events[5:]:
                store.append(game, event)
        server, thread = start(port)
        try:
            page.wait_for_function("id => document.getElementById('game-' + id).dataset.plies === '10'",
                                   arg=game, timeout=5000)
            assert page.is_visible("#live.ok")
        finally:
            browser.close()
            server.shutdown()
            server.server_close()


def _two_boards(db: Path) -> list[int]:
    """Boards 1 and 2 of the round, four plies into the fixture game each, with no recorder on them."""
    events = list(recorder_events("game_short", upto=4))
    with GameStore(db) as store:
        games = []
        for board in (1, 2):
            game = store.create_game(f"camera-{board}", GameInfo(board=board, red=f"Red {board}", **ROUND))
            for event in events:
                store.append(game, event)
            games.append(game)
    return games


def test_an_open_console_follows_xqrec_edit(console: Any) -> None:
    # an arbiter tester: a round corrected or a game voided with xqrec edit showed on open consoles
    # only after a reload (the edit wrote no event, so the pages heard nothing)
    from recorder.cli import main

    games = _two_boards(console.db)
    with _chromium() as browser:
        page = browser.new_page(locale="en-GB")
        page.goto(console.url + "/")
        page.wait_for_selector(f"#game-{games[1]}", timeout=5000)
        # simplified, as the rules and the exports write, for a browser not asking for traditional
        assert "马八进七" in page.inner_text(f"#game-{games[0]} .moves")
        assert main(["edit", str(games[0]), "--db", str(console.db), "--round", "6", "--board", "3",
                     "--by", "Liu"]) == 0
        page.wait_for_function("id => document.getElementById('game-' + id).closest('.group')"
                               ".querySelector('h2').textContent.includes('Round 6')", arg=games[0], timeout=3000)
        assert page.locator(".group").count() == 2
        # none recorded now: the newest game's round is the one being played, as /watch and the feed have it
        assert "Round 5" in page.inner_text(".group:not(.past) h2") and "Round 6" in page.inner_text(".group.past h2")
        assert main(["edit", str(games[1]), "--db", str(console.db), "--void", "a test recording"]) == 0
        page.wait_for_function("id => !document.getElementById('game-' + id)", arg=games[1], timeout=3000)
        assert page.locator(".group").count() == 1  # round 5 had only the voided game left
        assert page.inner_text("#summary").startswith("1 board ·")
        page.goto(f"{console.url}/games/{games[0]}")
        page.wait_for_selector("#actions li")
        assert "round 5 -> 6; board 1 -> 3" in page.inner_text("#actions")


def test_rounds_no_longer_played_are_folded_unless_an_alert_is_open(console: Any) -> None:
    # an organiser tester: a tournament's earlier rounds filled the console below the live one, and a
    # round's sheets could only be had from the command line
    events = list(recorder_events("game_short", upto=4))
    with GameStore(console.db) as store:
        games = {}
        for name in ("3", "4", "5"):
            games[name] = store.create_game(f"camera-{name}", GameInfo(board=1, **{**ROUND, "round": name}))
            for event in events:
                store.append(games[name], event)
        store.begin_session(games["5"])  # round 5 is being recorded
        store.append(games["3"], illegal_alert(events[-1].t + 1, 4))  # round 3 waits on the arbiter
    with _chromium() as browser:
        page = browser.new_page(locale="en-GB")
        page.goto(console.url + "/")
        page.wait_for_selector(f"#game-{games['5']} .moves", timeout=5000)
        assert page.is_visible(f"#game-{games['3']} .alertbox")  # an open alert is never folded away
        four = page.locator(".group", has=page.locator(f"#game-{games['4']}"))
        assert "folded" in four.get_attribute("class") and not page.is_visible(f"#game-{games['4']}")
        assert "not being played · 1 board" in four.inner_text()
        assert page.locator(f"#game-{games['4']} .moves").count() == 0  # not drawn while folded
        four.locator("button.fold").click()
        page.wait_for_selector(f"#game-{games['4']} .moves", timeout=2000)
        links = [four.locator(".gexports a").nth(i).get_attribute("href") for i in range(3)]
        assert links[1] == "/rounds/export.pdf?event=City%20Open%202026&round=4"
        assert page.request.get(console.url + links[1]).body().startswith(b"%PDF")
        page.locator(f"#game-{games['3']} button.ack").click()  # acknowledged: round 3 folds as over
        page.wait_for_selector("#signin [name=name]", state="visible", timeout=5000)
        page.fill("#signin [name=name]", "Zhang Wei")
        page.click("#signin button[value=ok]")
        three = page.locator(".group", has=page.locator(f"#game-{games['3']}"))
        page.wait_for_function("id => !document.querySelector('#game-' + id + ' .alertbox')", arg=games["3"],
                               timeout=3000)
        # the round the arbiter works in stays open (its tile does not vanish under the cursor) ...
        assert page.is_visible(f"#game-{games['3']}") and page.is_visible(f"#game-{games['4']}")
        three.locator("button.fold").click()  # ... until folded by hand, which the alert had not allowed
        page.wait_for_function("id => !document.getElementById('game-' + id).offsetParent", arg=games["3"],
                               timeout=3000)
        # the script asked for redraws every board drawn, folded ones when opened (a reviewer: it had redrawn none)
        page.click("#script")
        page.wait_for_function("id => document.querySelector('#game-' + id + ' .moves').textContent.includes('馬')",
                               arg=games["5"], timeout=3000)
        with GameStore(console.db) as store:  # a second game on board 1 of round 4: the round cannot be folded
            twin = store.create_game("camera-7", GameInfo(board=1, **{**ROUND, "round": "4"}))
            store.append(twin, events[0])
        page.wait_for_selector(f"#game-{twin} .boardno.twin", timeout=3000)
        assert "board 1 twice" in four.inner_text() and four.locator("button.fold").is_disabled()


def test_two_games_on_one_board_of_a_round_are_marked_on_the_console(console: Any) -> None:
    # a broadcaster tester moved a game onto a board that had one (edit warns, as a swap of two boards
    # passes through it): the console then showed two boards "1" with nothing to tell them
    from recorder.cli import main

    games = _two_boards(console.db)
    with _chromium() as browser:
        page = browser.new_page()
        page.goto(console.url + "/")
        page.wait_for_selector(f"#game-{games[1]}", timeout=5000)
        assert page.locator(".boardno.twin").count() == 0
        assert main(["edit", str(games[1]), "--db", str(console.db), "--board", "1", "--by", "Liu"]) == 0
        page.wait_for_function("() => document.querySelectorAll('.boardno.twin').length === 2", timeout=3000)
        assert f"also has game {games[0]}" in page.get_attribute(f"#game-{games[1]} .boardno", "title")
        assert main(["edit", str(games[1]), "--db", str(console.db), "--void", "recorded on the wrong board"]) == 0
        page.wait_for_function("() => document.querySelectorAll('.boardno.twin').length === 0", timeout=3000)
        assert page.locator(f"#game-{games[0]}").count() == 1


def test_the_spectators_page_shows_the_round_being_played_and_a_board_in_full(console: Any) -> None:
    events = list(recorder_events("game_short"))
    with GameStore(console.db) as store:
        old = store.create_game("camera-1", GameInfo(board=1, red="Old Red", black="Old Black",
                                                     **{**ROUND, "round": "4"}))
        for event in events[:4]:
            store.append(old, event)
        live = store.create_game("camera-2", GameInfo(board=2, red="李明", black="王强", **ROUND))
        store.begin_session(live)  # being recorded: its round is the one the page shows
        for event in events:
            store.append(live, event)
    plies = len(truth("game_short")["moves"])
    with _chromium() as browser:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(console.url + "/")  # the console's header names the round being played, not every round
        page.wait_for_selector(f"#game-{old}", state="attached", timeout=5000)
        assert page.inner_text("#round") == f"{ROUND['event']}, round {ROUND['round']}"
        assert not page.is_visible(f"#game-{old}")  # round 4, over, is folded to its heading
        page.goto(console.url + "/watch")
        page.wait_for_selector(f"#game-{live}[data-plies='{plies}']", timeout=5000)
        assert page.locator(f"#game-{old}").count() == 0  # round 4 is over: not shown unless chosen
        page.select_option("#roundpick", label=f"{ROUND['event']}, round 4")
        page.wait_for_selector(f"#game-{old}", timeout=5000)
        assert "round=4" in page.url
        recorded = sum(isinstance(e, MoveRecorded) for e in events[:4])
        assert recorded and f"{recorded} plies · recording interrupted, to go on" in page.inner_text(f"#game-{old}")  # no recorder holds it
        page.go_back()
        page.wait_for_selector(f"#game-{live}", timeout=5000)
        page.click(f"#game-{live} a.players")
        page.wait_for_selector("#focus:not([hidden]) .rounds", timeout=5000)
        assert page.locator("#focus .rounds td.mv").count() == plies and f"game={live}" in page.url
        page.go_back()
        page.wait_for_selector(f"#tiles:not([hidden]) #game-{live}", timeout=5000)


def test_an_empty_store_is_said_to_be_empty_only_once_it_answered(console: Any) -> None:
    # a new user's screenshot, taken before the games had loaded, read "No games in the store yet"
    # beside a store of five games: the page says so only once the store has answered
    static = Path(__file__).resolve().parents[2] / "recorder" / "server" / "static"
    html = (static / "console.html").read_text()
    assert "No games in the store yet" not in html and "Loading the games" in html
    watch = (static / "watch.html").read_text()  # the spectators' page likewise (a reviewer)
    assert "No game is being played yet" not in watch and "Loading the boards" in watch
    with _chromium() as browser:
        page = browser.new_page()
        page.goto(console.url + "/")
        page.wait_for_selector("#live.ok", timeout=5000)
        page.wait_for_function("() => document.querySelector('.empty').textContent.includes('No games')", timeout=5000)
        page.goto(console.url + "/watch")
        page.wait_for_function("() => document.querySelector('.empty').textContent.includes('No game is being played')",
                               timeout=5000)


def test_an_advice_that_suggests_a_result_fills_the_result_form_in(console: Any, tmp_path: Path) -> None:
    # an arbiter tester: the result form offered no way to mark the losses the recorder advises
    # (a second press without a move, a perpetual check), and no article for them
    events = list(recorder_events("game_short", upto=4))
    with GameStore(console.db) as store:
        game = store.create_game("camera-1", GameInfo(board=1, red="Red", black="Black", **ROUND))
        for event in events:
            store.append(game, event)
        store.append(game, GameEnded(events[-1].t + 1, 3, "1-0", "second_press_without_move", "4.1.9",
                                     "black pressed the clock without a move a second time", True))
        store.append(game, GameEnded(events[-1].t + 2, 3, "0-1", "perpetual_check", "25.1, 23.5.1",
                                     "red checks perpetually", True))
    with _chromium() as browser:
        page = browser.new_page(locale="en-GB")
        page.goto(f"{console.url}/games/{game}")
        page.wait_for_selector("button.fillresult", timeout=5000)
        page.click("button.fillresult[data-article='4.1.9']")
        form = "document.getElementById('resultform').elements"
        assert page.evaluate(f"[{form}.result.value, {form}.article.value, {form}.text.value]") == [
            "1-0", "4.1.9", "Second press without a move: loses"]
        page.fill("#resultform input[name=text]", "")
        page.click("button.fillresult[data-article='25.1']")  # an article the menu lacks is added to it
        assert page.evaluate(f"[{form}.result.value, {form}.article.value]") == ["0-1", "25.1"]
        page.click("#resultform button")
        page.wait_for_selector("#signin [name=name]", state="visible", timeout=5000)  # the arbiter's name
        page.fill("#signin [name=name]", "Zhang Wei")
        page.click("#signin button[value=ok]")
        page.wait_for_selector("#result:has-text('0-1')", timeout=5000)
        page.screenshot(path=str(Path(os.environ.get("XQREC_SCREENSHOTS") or tmp_path) / "console-advice.png"),
                        full_page=True)
    with GameStore(console.db) as store:
        ended = [e for e in store.events(game) if isinstance(e, GameEnded) and not e.advisory]
    assert ended and ended[-1].article == "25.1" and ended[-1].result == "0-1"


def test_a_result_the_fouls_speak_against_is_marked_only_once_the_arbiter_confirms_it(console: Any) -> None:
    # an arbiter tester's "black third foul" gave black the win over red, who held fewer fouls, without
    # a word (a reason let it through): the page now asks, and a second thought marks nothing
    from recorder.events import ResultMarked

    events = list(recorder_events("game_short", upto=4))
    with GameStore(console.db) as store:
        game = store.create_game("camera-1", GameInfo(board=1, red="Red", black="Black", **ROUND))
        for event in events:
            store.append(game, event)
        for t, ply in ((20.0, 3), (40.0, 4)):
            store.append(game, ClockAlert(t, "press_without_move", (), "8.1.7", "black pressed without a move", ply,
                                          "black"))
    asked: list[str] = []
    with _chromium() as browser:
        page = browser.new_page(locale="en-GB")
        page.goto(f"{console.url}/games/{game}")
        page.wait_for_selector("#resultform", timeout=5000)
        page.evaluate("() => { const f = document.getElementById('resultform').elements; f.result.value = '0-1'; "
                      "f.article.value = '4.1.9'; }")
        page.fill("#resultform input[name=text]", "second press without a move")
        def second_thought(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.dismiss()

        page.once("dialog", second_thought)
        page.click("#resultform button")
        page.wait_for_selector("#signin [name=name]", state="visible", timeout=5000)
        page.fill("#signin [name=name]", "Zhang Wei")
        page.click("#signin button[value=ok]")
        deadline = time.monotonic() + 5.0  # the question comes once the server has answered
        while not asked and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        assert asked and "is the result the other way round?" in asked[0]
        with GameStore(console.db) as store:
            assert not [e for e in store.events(game) if isinstance(e, ResultMarked)]
        page.once("dialog", lambda dialog: dialog.accept())  # marked all the same
        page.click("#resultform button")
        page.wait_for_selector("#result:has-text('0-1')", timeout=5000)
    with GameStore(console.db) as store:
        assert [e.result for e in store.events(game) if isinstance(e, ResultMarked)] == ["0-1"]
